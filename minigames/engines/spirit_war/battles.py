"""Attacks and battles: the target, face-down summons, the Support card phase and its resolution.

Follows "Attack Encounter", "Getting attacked", "Support card priority order" and "Element buff"
of the rulebook, with RULINGS Spirit War 1 (what each Support card does; two cards of the same
kind resolve attacker first) and 2 (summons and Support cards are chosen face down and revealed
together). A battle's sides are numbered 0 (the attacker) and 1 (the defender).

Phases: ``attack`` (the attacker names her target, or skips when she has no Spirit),
``summon`` (both sides at once, face down; a defender without a Spirit shows her hand instead),
``support`` (both sides at once, face down: the default; the "loser first" house rule lets the
losing side choose first, in the open, except after a draw on the chart).
:func:`resolve` is the pure resolution, used by the engine and tests.

A choice made at the same time as the other side's (:func:`choices_blind`) is invisible to
everyone else until both have chosen: whether she put a card down or passed, the table sees
only that she has chosen (the same event, the same view; her hand counts the card until the
reveal, player_view.py). A known card put face down stays shown as "in her hand or face down"
(piles.shown_cards) until it is revealed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from minigames.engines.spirit_war.elements import DRAW, LOSS, WIN, chart, element_words, outcome
from minigames.engines.spirit_war.piles import (
    State,
    add_to_hand,
    card,
    draw_preparation,
    element,
    forget,
    hand_words,
    label_words,
    name,
    next_survivor,
    reveal_hand,
    spirits_in_hand,
    survivors,
    take_from_hand,
    to_abyss,
)
from westernroses.protocol import Action, Event, Text, event
from westernroses.words import N_, Words, listing

#: Resolution rank of each Support effect ("Disintegrate > Imbue fire/earth/water > Swap >
#: Element buff > Safeguard"); a Spirit used as a Support card resolves as the Element buff.
PRIORITY: Final = {"disintegrate": 0, "imbue": 1, "swap": 2, "buff": 3, "safeguard": 4}

#: The two sides, for a resolution without the players' names (:func:`resolve`).
SIDE_WORDS: Final = (Words(N_("The attacker")), Words(N_("The defender")))


# --------------------------------------------------------------------------- targets


def attack_candidates(state: State, attacker: int, target: str) -> list[int]:
    """Whom an Attack card with ``target`` lets ``attacker`` attack (players still in the war);
    several candidates mean she chooses ("you may choose whom you want to Attack")."""
    others = [s for s in survivors(state) if s != attacker]
    if not others:
        return []
    if target == "next":
        return [next_survivor(state, attacker, 1)]
    if target == "previous":
        return [next_survivor(state, attacker, -1)]
    if target == "any":
        return others
    sizes = {s: len(state["hands"][s]) for s in others}
    best = max(sizes.values()) if target == "most_cards" else min(sizes.values())
    return [s for s in others if sizes[s] == best]


def start_attack(
    state: State, attacker: int, candidates: list[int], reason: str, events: list[Event]
) -> None:
    """The attacker must now name her target (or skip: she has no Spirit to summon)."""
    state["phase"] = "attack"
    state["attack"] = {"attacker": attacker, "candidates": candidates, "reason": reason}
    if len(candidates) > 1:
        who = listing([name(state, s) for s in candidates], last="comma")
        events.append(
            event(
                Words(
                    N_("%(name)s may attack any of: %(who)s."),
                    {"name": name(state, attacker), "who": who},
                ),
                type="attack_choice",
            )
        )


def attack_actions(state: State, seat: int) -> list[Action]:
    attack = state["attack"]
    if not spirits_in_hand(state, seat):
        return [{"type": "skip_attack"}]
    return [{"type": "attack", "target": t} for t in attack["candidates"]]


def apply_attack(state: State, seat: int, action: Action, events: list[Event]) -> bool:
    """Returns True when the attack is over (skipped); False when a battle begins."""
    state["attack"] = None
    if action["type"] == "skip_attack":
        _skip_attack(state, seat, events)
        return True
    target = action["target"]
    state["battle"] = {
        "sides": [seat, target],
        "summon": [None, None],
        "summoned": [False, False],
        "no_spirit": False,
        "revealed": False,
        "support": [None, None],
        "supported": [False, False],
    }
    state["phase"] = "summon"
    events.append(
        event(
            Words(
                N_("%(attacker)s attacks %(defender)s: both summon a Spirit face down."),
                {"attacker": name(state, seat), "defender": name(state, target)},
            ),
            type="attack",
            attacker=seat,
            defender=target,
        )
    )
    return False


def _skip_attack(state: State, seat: int, events: list[Event]) -> None:
    """ "Skip the Attack Encounter if you do not have a Spirit card to summon": the rulebook
    asks for no proof and the engine knows her hand, so by default nobody sees it; the table
    learns only that she skipped. The "show the hand" house rule shows it as proof."""
    if state["options"].get("skip_proof") == "show_hand":
        reveal_hand(state, seat)
        events.append(
            event(
                Words(
                    N_(
                        "%(name)s has no Spirit to summon and shows her hand as proof "
                        "(%(cards)s); the attack is skipped."
                    ),
                    {"name": name(state, seat), "cards": hand_words(state, state["hands"][seat])},
                ),
                type="attack_skipped",
                seat=seat,
            )
        )
        return
    events.append(
        event(
            Words(
                N_("%(name)s has no Spirit to summon: the attack is skipped."),
                {"name": name(state, seat)},
            ),
            type="attack_skipped",
            seat=seat,
        )
    )


# --------------------------------------------------------------------------- summons


def side_of(state: State, seat: int) -> int:
    return int(state["battle"]["sides"].index(seat))


def summon_waiting(state: State) -> tuple[int, ...]:
    battle = state["battle"]
    return tuple(s for i, s in enumerate(battle["sides"]) if not battle["summoned"][i])


def summon_actions(state: State, seat: int) -> list[Action]:
    spirits = spirits_in_hand(state, seat)
    if not spirits and side_of(state, seat) == 1:
        return [{"type": "no_spirit"}]
    return [{"type": "summon", "card": cid} for cid in spirits]


def apply_summon(state: State, seat: int, action: Action, events: list[Event]) -> bool:
    """Returns True when the battle is over (won at once against a player without a Spirit)."""
    battle = state["battle"]
    side = side_of(state, seat)
    if action["type"] == "no_spirit":
        reveal_hand(state, seat)
        battle["no_spirit"] = True
        events.append(
            event(
                Words(
                    N_("%(name)s has no Spirit to summon and shows her hand as proof (%(cards)s)."),
                    {"name": name(state, seat), "cards": hand_words(state, state["hands"][seat])},
                ),
                type="no_spirit",
                seat=seat,
            )
        )
    else:
        cid = action["card"]
        take_from_hand(state, seat, cid, face_down=True)
        battle["summon"][side] = cid
        events.append(
            event(
                Words(N_("You summon %(card)s face down."), {"card": label_words(state, cid)}),
                type="summon_private",
                visible_to=[seat],
                card=cid,
            )
        )
        events.append(
            event(
                Words(N_("%(name)s summons a Spirit face down."), {"name": name(state, seat)}),
                type="summon",
                hidden_from=[seat],
                seat=seat,
            )
        )
    battle["summoned"][side] = True
    if not all(battle["summoned"]):
        return False
    attacker, defender = battle["sides"]
    if battle["no_spirit"]:
        proof = battle["summon"][0]
        battle["summon"][0] = None
        add_to_hand(state, attacker, proof, public=True)
        events.append(
            event(
                Words(
                    N_(
                        "%(name)s reveals %(card)s as proof, wins the battle at once and keeps "
                        "the Spirit."
                    ),
                    {"name": name(state, attacker), "card": label_words(state, proof)},
                ),
                type="battle_won",
                winner=attacker,
                card=proof,
            )
        )
        draw_preparation(state, attacker, events)
        eliminate(state, defender, events)
        state["battle"] = None
        return True
    battle["revealed"] = True
    a, d = battle["summon"]
    forget(state, a)
    forget(state, d)
    events.append(
        event(
            Words(
                N_(
                    "The Spirits are revealed: %(attacker)s's %(first)s against "
                    "%(defender)s's %(second)s."
                ),
                {
                    "attacker": name(state, attacker),
                    "first": label_words(state, a),
                    "defender": name(state, defender),
                    "second": label_words(state, d),
                },
            ),
            type="reveal",
            cards=[a, d],
        )
    )
    state["phase"] = "support"
    return False


def eliminate(state: State, seat: int, events: list[Event]) -> None:
    """Out of the war ("Getting attacked"); the shown hand goes to the Abyss (our ruling)."""
    state["out"][seat] = True
    state["skip_next"][seat] = False
    state["eliminated_order"].append(seat)
    for cid in list(state["hands"][seat]):
        take_from_hand(state, seat, cid)
        to_abyss(state, cid)
    events.append(
        event(
            Words(N_("%(name)s is out of the Spirit War."), {"name": name(state, seat)}),
            type="eliminated",
            seat=seat,
        )
    )


# --------------------------------------------------------------------------- support cards


def choices_blind(state: State) -> bool:
    """Whether the two sides of the battle choose their Support cards at the same time, face
    down, neither (nor anyone else) learning anything of the other's choice before both are
    revealed: always by default (RULINGS Spirit War 2); under the "loser first" house rule
    only after a draw on the chart ("decided mutually")."""
    return first_to_choose(state) is None


def first_to_choose(state: State) -> int | None:
    """The side that chooses her Support card first, in the open, under the "loser first"
    house rule ("Typically, the losing side should decide ... first"): the side losing on the
    chart. None when both choose at the same time."""
    if state["options"]["support_order"] != "loser_first":
        return None
    a, d = state["battle"]["summon"]
    first = chart(element(state, a), element(state, d))
    if first == DRAW:
        return None
    return 0 if first == LOSS else 1


def choice_public(state: State, side: int) -> bool:
    """Whether everyone may know what ``side`` chose (a card face down, or none): only when she
    chose first in the open (the "loser first" house rule), never for a choice made at the same
    time as the other's."""
    return bool(state["battle"]["supported"][side]) and not choices_blind(state)


def support_waiting(state: State) -> tuple[int, ...]:
    """Who chooses a Support card now: both sides, at the same time (the default); under the
    "loser first" house rule the losing side first, then the other (both after a draw)."""
    battle = state["battle"]
    left = [i for i in (0, 1) if not battle["supported"][i]]
    first = first_to_choose(state)
    if first is not None and len(left) == 2:
        left = [first]
    return tuple(battle["sides"][i] for i in left)


def support_actions(state: State, seat: int) -> list[Action]:
    return [{"type": "pass_support"}] + [
        {"type": "support", "card": cid} for cid in state["hands"][seat]
    ]


def apply_support(state: State, seat: int, action: Action, events: list[Event]) -> bool:
    """Returns True when both sides have chosen and the battle is resolved."""
    battle = state["battle"]
    side = side_of(state, seat)
    battle["supported"][side] = True
    blind = choices_blind(state)
    if action["type"] == "pass_support":
        if blind:
            events.append(
                event(
                    Words(N_("You use no Support card.")),
                    type="no_support_private",
                    visible_to=[seat],
                )
            )
            events.append(_chosen_event(state, seat))
        else:
            events.append(
                event(
                    Words(N_("%(name)s uses no Support card."), {"name": name(state, seat)}),
                    type="no_support",
                    seat=seat,
                )
            )
    else:
        cid = action["card"]
        take_from_hand(state, seat, cid, face_down=True)
        battle["support"][side] = cid
        events.append(
            event(
                Words(
                    N_("You place %(card)s face down as your Support card."),
                    {"card": label_words(state, cid)},
                ),
                type="support_private",
                visible_to=[seat],
                card=cid,
            )
        )
        if blind:
            events.append(_chosen_event(state, seat))
        else:
            events.append(
                event(
                    Words(
                        N_("%(name)s places a Support card face down."),
                        {"name": name(state, seat)},
                    ),
                    type="support",
                    hidden_from=[seat],
                    seat=seat,
                )
            )
    if not all(battle["supported"]):
        return False
    _finish_battle(state, events)
    return True


def _chosen_event(state: State, seat: int) -> Event:
    """What the others see of a choice made at the same time as the other side's: the same
    whether she put a card down or not."""
    return event(
        Words(N_("%(name)s has chosen her Support card."), {"name": name(state, seat)}),
        type="support_chosen",
        hidden_from=[seat],
        seat=seat,
    )


@dataclass
class Resolution:
    """What the Support cards did, for one battle (sides: 0 attacker, 1 defender)."""

    elements: list[str]
    buffs: list[bool] = field(default_factory=lambda: [False, False])
    safeguards: list[bool] = field(default_factory=lambda: [False, False])
    cancelled: list[bool] = field(default_factory=lambda: [False, False])
    #: Each Support card's effect, in the order resolved, as words for the log.
    words: list[Words] = field(default_factory=list)
    result: int = DRAW  # for the attacker: WIN, DRAW or LOSS

    @property
    def steps(self) -> list[str]:
        """The effects in English, as the log's English reads them."""
        return [str(step) for step in self.words]


def support_effect(support: dict[str, Any]) -> str:
    """The priority class of a Support card: a Spell's effect, or ``buff`` for a Spirit."""
    return "buff" if support["kind"] == "spirit" else str(support["support"])


def resolve(
    main: tuple[str, str],
    supports: tuple[dict[str, Any] | None, dict[str, Any] | None],
    names: tuple[Text, Text] = SIDE_WORDS,
) -> Resolution:
    """Resolve the Support cards in priority order and decide the battle.

    ``main`` are the two main Spirits' elements, ``supports`` the Support card definitions
    (None: no card). Priority per "Support card priority order"; equal kinds resolve attacker
    first (RULINGS Spirit War 1). An Element buff compares the Support Spirit with the main
    Spirit's element as it stands when buffs resolve, after Imbue and Swap (our ruling).
    ``names`` are the two sides' names in the effects' words (:attr:`Resolution.words`).
    """
    res = Resolution(elements=list(main))
    order = sorted(
        (PRIORITY[support_effect(s)], side) for side, s in enumerate(supports) if s is not None
    )
    for _, side in order:
        support = supports[side]
        if support is None:  # pragma: no cover - only cards are in the order
            continue
        other = 1 - side
        said = {"name": names[side], "card": Words(str(support["name"]))}
        if res.cancelled[side]:
            res.words.append(
                Words(N_("%(name)s's %(card)s was disintegrated and does nothing."), said)
            )
            continue
        effect = support_effect(support)
        if effect == "disintegrate":
            target = supports[other]
            if target is not None and not res.cancelled[other]:
                res.cancelled[other] = True
                res.words.append(
                    Words(
                        N_("%(name)s's %(card)s disintegrates %(other)s's %(target)s."),
                        {**said, "other": names[other], "target": Words(str(target["name"]))},
                    )
                )
            else:
                res.words.append(
                    Words(N_("%(name)s's %(card)s finds nothing to disintegrate."), said)
                )
        elif effect == "imbue":
            res.elements[side] = support["element"]
            res.words.append(
                Words(
                    N_("%(name)s's %(card)s makes the main Spirit %(element)s for this battle."),
                    {**said, "element": element_words(support["element"])},
                )
            )
        elif effect == "swap":
            res.elements.reverse()
            res.words.append(
                Words(
                    N_(
                        "%(name)s's %(card)s swaps the Spirits' elements: now %(first)s "
                        "against %(second)s."
                    ),
                    {
                        **said,
                        "first": element_words(res.elements[0]),
                        "second": element_words(res.elements[1]),
                    },
                )
            )
        elif effect == "buff":
            if support["element"] == res.elements[side]:
                res.buffs[side] = True
                res.words.append(
                    Words(
                        N_(
                            "%(name)s's %(card)s matches the main Spirit's element: an Element "
                            "buff."
                        ),
                        said,
                    )
                )
            else:
                res.words.append(
                    Words(N_("%(name)s's %(card)s is of another element and has no effect."), said)
                )
        else:
            res.safeguards[side] = True
            res.words.append(
                Words(
                    N_(
                        "%(name)s's %(card)s will send the main Spirit back to the hand if it "
                        "loses."
                    ),
                    said,
                )
            )
    res.result = outcome(res.elements[0], res.buffs[0], res.elements[1], res.buffs[1])
    return res


def outcome_alone(
    main: tuple[str, str], side: int, support: dict[str, Any] | None
) -> tuple[int, bool]:
    """``side``'s result in the battle (WIN, DRAW or LOSS) and whether her Spirit is
    safeguarded, she playing ``support`` (None: no card) and the other side none."""
    supports: list[dict[str, Any] | None] = [None, None]
    supports[side] = support
    res = resolve(main, (supports[0], supports[1]))
    return (res.result if side == 0 else -res.result), res.safeguards[side]


def card_could_help(main: tuple[str, str], side: int, support: dict[str, Any]) -> bool:
    """Whether ``side``'s Support card, the other side playing none, betters her battle (a
    loss or a draw turned) or saves her losing Spirit (a Safeguard): the reasons to put a card
    down before seeing the other side's choice. A Spirit of another element (a bluff), a
    Disintegrate with nothing to cancel or an Imbue of the element she already has do not."""
    before, _ = outcome_alone(main, side, None)
    after, saved = outcome_alone(main, side, support)
    return after > before or (before == LOSS and saved)


def support_record(state: State, seat: int) -> tuple[int, int]:
    """``seat``'s public record: her Support cards put down without knowing the other side's
    choice that could help her, and that could not (:func:`record_blind_cards`; none in a game
    saved before the record existed)."""
    helped, idle = state.get("support_record", [[0, 0]] * state["seats"])[seat]
    return int(helped), int(idle)


def record_blind_cards(state: State) -> None:
    """At the reveal, count each Support card put down without knowing the other side's choice
    (both, when they chose at the same time; the first side's, under the "loser first" house
    rule) in its player's public record (``support_record``: cards that could help, cards that
    could not): what every player at the table has seen of how she plays her cards. The search
    bot reads it to tell a player who puts cards down for a reason from one who bluffs or plays
    at random (heuristic.answer_face_down)."""
    battle = state["battle"]
    record = state.setdefault("support_record", [[0, 0] for _ in range(state["seats"])])
    main = (element(state, battle["summon"][0]), element(state, battle["summon"][1]))
    first = first_to_choose(state)
    for side in (0, 1):
        cid = battle["support"][side]
        if (first is None or side == first) and cid is not None:
            helped = card_could_help(main, side, card(state, cid))
            record[battle["sides"][side]][0 if helped else 1] += 1


def _finish_battle(state: State, events: list[Event]) -> None:
    """Reveal the Support cards, resolve them and settle the Spirits ("Attack Encounter")."""
    battle = state["battle"]
    sides = battle["sides"]
    supports = battle["support"]
    shown: list[Words | str] = [
        Words(
            N_("%(name)s: %(card)s"),
            {
                "name": name(state, s),
                "card": label_words(state, supports[i]) if supports[i] else Words(N_("none")),
            },
        )
        for i, s in enumerate(sides)
    ]
    events.append(
        event(
            Words(
                N_("The Support cards are revealed. %(cards)s."),
                {"cards": listing(shown, last="semicolon")},
            ),
            type="support_reveal",
            cards=[c for c in supports if c],
        )
    )
    summons = battle["summon"]
    res = resolve(
        (element(state, summons[0]), element(state, summons[1])),
        (
            card(state, supports[0]) if supports[0] else None,
            card(state, supports[1]) if supports[1] else None,
        ),
        (name(state, sides[0]), name(state, sides[1])),
    )
    for step in res.words:
        events.append(event(step, type="support_effect"))
    record_blind_cards(state)
    for i in (0, 1):
        if supports[i]:
            forget(state, supports[i])
            to_abyss(state, supports[i])
        battle["support"][i] = None
    if res.result == DRAW:
        for i in (0, 1):
            to_abyss(state, summons[i])
            battle["summon"][i] = None
        events.append(
            event(
                Words(
                    N_(
                        "The battle is a draw (%(first)s against %(second)s): both Spirits go "
                        "to the Abyss."
                    ),
                    {
                        "first": element_words(res.elements[0]),
                        "second": element_words(res.elements[1]),
                    },
                ),
                type="battle_draw",
            )
        )
    else:
        win = 0 if res.result == WIN else 1
        lose = 1 - win
        winner, loser = sides[win], sides[lose]
        add_to_hand(state, winner, summons[win], public=True)
        events.append(
            event(
                Words(
                    N_("%(name)s wins the battle and keeps %(card)s."),
                    {"name": name(state, winner), "card": label_words(state, summons[win])},
                ),
                type="battle_won",
                winner=winner,
            )
        )
        if res.safeguards[lose]:
            add_to_hand(state, loser, summons[lose], public=True)
            events.append(
                event(
                    Words(
                        N_("%(name)s's %(card)s is safeguarded and goes back to the hand."),
                        {"name": name(state, loser), "card": label_words(state, summons[lose])},
                    ),
                    type="safeguarded",
                )
            )
        else:
            to_abyss(state, summons[lose])
            events.append(
                event(
                    Words(
                        N_("%(name)s's %(card)s goes to the Abyss."),
                        {"name": name(state, loser), "card": label_words(state, summons[lose])},
                    ),
                    type="spirit_lost",
                )
            )
        battle["summon"] = [None, None]
        draw_preparation(state, winner, events)
    state["battle"] = None
