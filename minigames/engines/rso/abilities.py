"""Costs, targets and effects: the interpreter of the effect vocabulary.

One path plays every Event and uses every Special: list the ways it can be paid and aimed
(:func:`play_options`), then check and pay (:func:`pay`) and resolve (:func:`apply_effects`).
Because legal actions come from the same functions that apply them, a listed action is never
refused and a refused one is never listed.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from minigames.engines.rso.house_rules import option
from minigames.engines.rso.state import (
    State,
    ability_sources,
    attacker,
    can_target,
    card_of,
    condition_holds,
    is_affected,
    leader,
    name_of,
    named,
    other,
    owner_of,
    player_name,
    role_of,
    scope,
    supports_in_play,
)
from minigames.engines.rso.vocabulary import CHOSEN_TARGETS, name_key
from minigames.engines.rso.words import basic_phrase
from westernroses.protocol import Event, IllegalAction, event
from westernroses.words import N_, Words, data, listing

Costs = Sequence[Mapping[str, Any]]


# --- costs -------------------------------------------------------------------------------------


def totals(costs: Costs) -> dict[str, int]:
    result = {"sp": 0, "hand": 0, "deck": 0, "doctrine": 0, "field": 0}
    for item in costs:
        for kind, amount in item.items():
            result[kind] += int(amount)
    return result


def doctrine_cards(state: State, seat: int) -> list[str]:
    """Non-spell cards in the opponent's discard pile, in the order Doctrine takes them: by the
    house rule "Which cards Doctrine takes", those longest there first (the default) or the
    most recent first. Either way paying it needs no choice, so a move never has to list every
    set of cards a player might pick."""
    foe = state["players"][other(seat)]
    cards = [c for c in foe["discard"] if card_of(state, c)["kind"] != "spell"]
    return cards[::-1] if option(state, "doctrine") == "newest" else cards


def own_supports(state: State, seat: int) -> list[str]:
    """Supports in play that ``seat`` played (wherever they are equipped)."""
    return [c for c in supports_in_play(state) if owner_of(state, c) == seat]


def payments(
    state: State, seat: int, costs: Costs, exclude: Sequence[str] = ()
) -> list[dict[str, list[str]]]:
    """The ways ``seat`` can pay ``costs``: each names the hand cards discarded (``discard``)
    and the Supports of hers sent from the field (``sacrifice``), when the costs ask for them.
    No way at all means she cannot pay."""
    need = totals(costs)
    player = state["players"][seat]
    if player["sp"] < need["sp"] or len(player["deck"]) < need["deck"]:
        return []
    if len(doctrine_cards(state, seat)) < need["doctrine"]:
        return []
    hand = [c for c in player["hand"] if c not in exclude]
    discards = [list(c) for c in itertools.combinations(hand, need["hand"])]
    field = [c for c in own_supports(state, seat) if c not in exclude]
    sacrifices = [list(c) for c in itertools.combinations(field, need["field"])]
    ways: list[dict[str, list[str]]] = []
    for discard in discards:
        for sacrifice in sacrifices:
            way: dict[str, list[str]] = {}
            if discard:
                way["discard"] = discard
            if sacrifice:
                way["sacrifice"] = sacrifice
            ways.append(way)
    return ways


def pay(state: State, seat: int, costs: Costs, way: Mapping[str, Any], events: list[Event]) -> None:
    """Pay ``costs`` the ``way`` chosen among :func:`payments`, announcing each part."""
    need = totals(costs)
    player = state["players"][seat]
    who = player_name(state, seat)
    discard = list(way.get("discard") or [])
    player["sp"] -= need["sp"]
    for inst in way.get("sacrifice") or []:
        remove_support(state, inst)
        events.append(
            event(
                Words(
                    N_("%(name)s sends %(card)s to the discard pile to pay."),
                    {"name": who, "card": named(state, inst)},
                ),
                type="sacrifice",
            )
        )
    for inst in discard:
        player["hand"].remove(inst)
        player["discard"].append(inst)
    if discard:
        names = listing([named(state, c) for c in discard], last="comma")
        events.append(
            event(
                Words(N_("%(name)s discards %(cards)s to pay."), {"name": who, "cards": names}),
                type="discard",
            )
        )
    for _ in range(need["deck"]):
        top = player["deck"].pop(0)
        player["discard"].append(top)
        player["known_bottom"] = min(player["known_bottom"], len(player["deck"]))
        events.append(
            event(
                Words(
                    N_("%(name)s puts %(card)s from the deck top into the discard pile to pay."),
                    {"name": who, "card": named(state, top)},
                ),
                type="mill",
            )
        )
    if need["doctrine"]:
        foe = state["players"][other(seat)]
        taken = doctrine_cards(state, seat)[: need["doctrine"]]
        for inst in taken:
            foe["discard"].remove(inst)
            foe["deck"].append(inst)
        foe["known_bottom"] += len(taken)
        names = listing([named(state, c) for c in taken], last="comma")
        events.append(
            event(
                Words(
                    N_("Doctrine: %(cards)s go to the bottom of %(name)s's deck."),
                    {"cards": names, "name": player_name(state, other(seat))},
                ),
                type="doctrine",
            )
        )


# --- targets -----------------------------------------------------------------------------------


def target_choices(
    state: State, actor: int, target: str | None, source: str | None
) -> list[str | None]:
    """Where an Event or Special by ``actor`` may be aimed; empty when it has no valid target
    (then it cannot be used, rulebook line 73)."""
    if target is None:
        return [None]
    if target in CHOSEN_TARGETS:
        players = state["players"]
        cards: list[str | None]
        if target == "any_leader":
            cards = [leader(state, 0), leader(state, 1)]
        elif target == "own_spell":
            cards = list(players[actor]["active"])
        elif target == "opposing_spell":
            cards = list(players[other(actor)]["active"])
        elif target == "any_spell":
            cards = list(players[actor]["active"]) + list(players[other(actor)]["active"])
        else:
            cards = list[str | None](supports_in_play(state))
    else:
        cards = list[str | None](scope(state, actor, target, source))
    return [c for c in cards if c is not None and can_target(state, actor, c)]


# --- effects -----------------------------------------------------------------------------------


def draw(state: State, seat: int, count: int, events: list[Event]) -> None:
    """Draw ``count`` cards; a player who must draw from an empty deck loses."""
    player = state["players"][seat]
    who = player_name(state, seat)
    for _ in range(count):
        if not player["deck"]:
            lose(
                state,
                seat,
                Words(N_("%(name)s must draw from an empty deck and loses."), {"name": who}),
                events,
            )
            return
        card = player["deck"].pop(0)
        player["hand"].append(card)
        player["known_bottom"] = min(player["known_bottom"], len(player["deck"]))
        events.append(
            event(
                Words(N_("You draw %(card)s."), {"card": named(state, card)}),
                type="draw",
                visible_to=[seat],
            )
        )
        events.append(
            event(
                Words(N_("%(name)s draws a card."), {"name": who}), type="draw", hidden_from=[seat]
            )
        )
    if state["options"]["deck_out"] == "empty" and not player["deck"]:
        lose(state, seat, deck_out_words(state, seat), events)


def deck_out_words(state: State, seat: int) -> Words:
    return Words(N_("%(name)s's deck has run out."), {"name": player_name(state, seat)})


def end_with(state: State, reason: Words) -> None:
    """Keep why the game ended: in English (``reason``, as states saved before keep it) and
    as the engine's words (``reason_words``), which a reader sees in her language."""
    state["reason"] = str(reason)
    state["reason_words"] = reason.to_json()


def lose(state: State, seat: int, reason: Words, events: list[Event]) -> None:
    if state["phase"] == "over":
        return
    state["phase"] = "over"
    state["step"] = "over"
    state["winner"] = other(seat)
    end_with(state, reason)
    events.append(
        event(
            Words(
                N_("%(reason)s %(name)s wins."),
                {"reason": reason, "name": player_name(state, other(seat))},
            ),
            type="game_over",
        )
    )


def check_hp(state: State, events: list[Event]) -> None:
    """HP 0 or less loses (rulebook line 61); both at once follows the house rule "When both
    Leaders fall at once" (a draw by default)."""
    if state["phase"] == "over":
        return
    down = [s for s in (0, 1) if state["players"][s]["hp"] <= 0]
    if len(down) == 2:
        rule = option(state, "both_fall")
        if rule == "draw":
            state["phase"] = state["step"] = "over"
            state["winner"] = None
            reason = Words(N_("Both leaders fell at once: the game is a draw."))
            end_with(state, reason)
            events.append(event(reason, type="game_over"))
            return
        loser = other(attacker(state)) if rule == "attacker" else attacker(state)
        if rule == "attacker":
            text = N_(
                "Both leaders fell at once; the house rule gives the game to the attacking player."
            )
        else:
            text = N_(
                "Both leaders fell at once; the house rule gives the game to the intercepting "
                "player."
            )
        lose(state, loser, Words(text), events)
    elif down:
        seat = down[0]
        lose(
            state,
            seat,
            Words(N_("%(name)s's leader has no HP left."), {"name": player_name(state, seat)}),
            events,
        )


def apply_effects(
    state: State,
    actor: int,
    effects: Sequence[Mapping[str, Any]],
    target: str | None,
    source: Words,
    events: list[Event],
) -> None:
    """Resolve ``effects`` of a card or ability controlled by ``actor`` on ``target``
    (``source``: the name of the card they come from, for the log)."""
    who = player_name(state, actor)
    foe = other(actor)
    if target is not None and not is_affected(state, actor, target):
        events.append(
            event(
                Words(
                    N_("%(card)s is unaffected by %(source)s."),
                    {"card": named(state, target), "source": source},
                ),
                type="unaffected",
            )
        )
        target = None
        effects = [e for e in effects if e["do"] in ("gain_sp", "drain_sp", "draw")]
    for effect in effects:
        word = effect["do"]
        amount = int(effect.get("amount") or 0)
        if word == "gain_sp":
            state["players"][actor]["sp"] += amount
            events.append(
                event(
                    Words(
                        N_("%(name)s gains %(count)s SP (%(source)s)."),
                        {"name": who, "count": amount, "source": source},
                    ),
                    type="sp",
                )
            )
        elif word == "drain_sp":
            foe_player = state["players"][foe]
            lost = min(amount, foe_player["sp"])
            foe_player["sp"] -= lost
            events.append(
                event(
                    Words(
                        N_("%(name)s loses %(count)s SP (%(source)s)."),
                        {"name": player_name(state, foe), "count": lost, "source": source},
                    ),
                    type="sp",
                )
            )
        elif word == "draw":
            draw(state, actor, amount, events)
        elif target is None:
            continue
        elif word in ("modify", "grant"):
            mod: dict[str, Any] = {"card": target, "amount": amount or 1}
            if word == "modify":
                mod["stat"] = effect["stat"]
                sign = "+" if amount > 0 else "−"
                text = Words(
                    N_("%(card)s gets %(stat)s %(change)s this turn (%(source)s)."),
                    {
                        "card": named(state, target),
                        "stat": effect["stat"].upper(),
                        "change": f"{sign}{abs(amount)}",
                        "source": source,
                    },
                )
            else:
                mod["ability"] = effect["ability"]
                text = Words(
                    N_("%(card)s gains %(ability)s this turn (%(source)s)."),
                    {
                        "card": named(state, target),
                        "ability": basic_phrase(effect["ability"], effect.get("amount")),
                        "source": source,
                    },
                )
            state["mods"].append(mod)
            events.append(event(text, type="modify"))
        elif word in ("heal", "damage"):
            seat = owner_of(state, target)
            player = state["players"][seat]
            if word == "heal":
                gained = max(0, min(amount, player["max_hp"] - player["hp"]))
                player["hp"] += gained
                events.append(
                    event(
                        Words(
                            N_("%(card)s recovers %(count)s HP (%(source)s)."),
                            {"card": named(state, target), "count": gained, "source": source},
                        ),
                        type="heal",
                    )
                )
            else:
                player["hp"] -= amount
                events.append(
                    event(
                        Words(
                            N_("%(card)s loses %(count)s HP (%(source)s)."),
                            {"card": named(state, target), "count": amount, "source": source},
                        ),
                        type="damage",
                    )
                )
                check_hp(state, events)
        elif word == "remove_support":
            remove_support(state, target)
            events.append(
                event(
                    Words(
                        N_("%(card)s is removed (%(source)s)."),
                        {"card": named(state, target), "source": source},
                    ),
                    type="remove",
                )
            )
        elif word == "to_reserve":
            send_to_reserve(state, target)
            events.append(
                event(
                    Words(
                        N_("%(card)s returns to the Reserve (%(source)s)."),
                        {"card": named(state, target), "source": source},
                    ),
                    type="reserve",
                )
            )
        if state["phase"] == "over":
            return


def remove_support(state: State, support: str) -> None:
    for spell, sup in list(state["attached"].items()):
        if sup == support:
            del state["attached"][spell]
    for seat in (0, 1):
        if support in state["players"][seat]["supports"]:
            state["players"][seat]["supports"].remove(support)
    if state["scene"] == support:
        state["scene"] = None
    state["players"][owner_of(state, support)]["discard"].append(support)


def send_to_reserve(state: State, spell: str) -> None:
    player = state["players"][owner_of(state, spell)]
    if spell in player["active"]:
        player["active"].remove(spell)
        player["reserve"].append(spell)
    battle = state.get("battle")
    if battle:
        for key in ("attack", "intercept"):
            if battle[key] == spell:
                battle[key] = None


# --- triggers ----------------------------------------------------------------------------------


def fire_triggers(state: State, when: str, events: list[Event], spell: str | None = None) -> None:
    """Fire every triggered ability for ``when`` (``hit``: only ``spell``'s own)."""
    for source, controller in list(ability_sources(state)):
        if spell is not None and source != spell:
            continue
        for ability in card_of(state, source).get("abilities") or ():
            if ability["kind"] != "trigger" or ability["when"] != when:
                continue
            role = ability.get("role", "any")
            if role != "any" and role != role_of(state, controller):
                continue
            if not condition_holds(state, controller, ability.get("condition")):
                continue
            target = None
            if ability.get("target"):
                aimed = target_choices(state, controller, ability["target"], source)
                if not aimed:
                    continue
                target = aimed[0]
            apply_effects(
                state, controller, ability["effects"], target, named(state, source), events
            )
            if state["phase"] == "over":
                return


# --- playing Events and using Specials ---------------------------------------------------------


def _role_ok(state: State, seat: int, role: str) -> bool:
    return role == "any" or role == role_of(state, seat)


def _options(
    state: State,
    seat: int,
    base: dict[str, Any],
    costs: Costs,
    target: str | None,
    source: str | None,
    awakening: Mapping[str, Any] | None,
    exclude: Sequence[str],
) -> Iterator[dict[str, Any]]:
    for aim in target_choices(state, seat, target, source):
        variants: list[tuple[bool, Costs]] = [(False, costs)]
        if awakening:
            variants.append((True, [*costs, *awakening["cost"]]))
        for awaken, all_costs in variants:
            for way in payments(state, seat, all_costs, exclude):
                action = dict(base)
                if aim is not None:
                    action["target"] = aim
                if awaken:
                    action["awaken"] = True
                action.update(way)
                yield action


def event_costs(card: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [{"sp": int(card["cost"])}, *(card.get("extra_cost") or [])]


def play_options(state: State, seat: int) -> list[dict[str, Any]]:
    """Every Event ``seat`` may play and every Special she may use now, fully specified."""
    phase = state["phase"]
    result: list[dict[str, Any]] = []
    player = state["players"][seat]
    seen: set[str] = set()  # two copies of one card in hand are one choice
    for inst in player["hand"]:
        card = card_of(state, inst)
        if card["kind"] != "event" or phase not in card["phases"]:
            continue
        if state["inst"][inst] in seen:
            continue
        seen.add(state["inst"][inst])
        if not _role_ok(state, seat, card.get("role", "any")):
            continue
        if not condition_holds(state, seat, card.get("condition")):
            continue
        result.extend(
            _options(
                state,
                seat,
                {"type": "play_event", "card": inst},
                event_costs(card),
                card.get("target"),
                None,
                card.get("awakening"),
                [inst],
            )
        )
    for source, controller in ability_sources(state):
        if controller != seat:
            continue
        for index, ability in enumerate(card_of(state, source).get("abilities") or ()):
            if ability["kind"] != "special" or ability["phase"] != phase:
                continue
            if state["used"].count(f"{source}#{index}") >= option(state, "special_uses"):
                continue
            if not _role_ok(state, seat, ability.get("role", "any")):
                continue
            if not condition_holds(state, seat, ability.get("condition")):
                continue
            base = {"type": "use_special", "card": source, "ability": index}
            result.extend(
                _options(
                    state,
                    seat,
                    base,
                    ability.get("cost") or [],
                    ability.get("target"),
                    source,
                    ability.get("awakening"),
                    [source],
                )
            )
    return result


def resolve_play(state: State, seat: int, action: Mapping[str, Any], events: list[Event]) -> None:
    """Pay for and resolve a listed ``play_event`` or ``use_special`` action."""
    inst = str(action["card"])
    card = card_of(state, inst)
    who = player_name(state, seat)
    target = action.get("target")
    if action["type"] == "play_event":
        ability: Mapping[str, Any] = card
        costs = event_costs(card)
        state["players"][seat]["hand"].remove(inst)
        state["players"][seat]["discard"].append(inst)
        kind = "play"
    else:
        ability = card["abilities"][int(action["ability"])]
        costs = list(ability.get("cost") or [])
        state["used"].append(f"{inst}#{action['ability']}")
        kind = "special"
    awakening = ability.get("awakening") if action.get("awaken") else None
    if awakening:
        costs = [*costs, *awakening["cost"]]
    source = data(str(card["name"]))
    params: dict[str, Any] = {"name": who, "card": source}
    if target is not None:
        params["target"] = named(state, str(target))
    events.append(
        event(Words(PLAY_WORDS[kind, target is not None, bool(awakening)], params), type="play")
    )
    pay(state, seat, costs, action, events)
    apply_effects(state, seat, ability["effects"], target, source, events)
    if awakening and state["phase"] != "over":
        apply_effects(state, seat, awakening["effects"], target, source, events)


#: The log's line for an Event played or a Special used, by (which, aimed, awakened).
PLAY_WORDS = {
    ("play", False, False): N_("%(name)s plays %(card)s."),
    ("play", True, False): N_("%(name)s plays %(card)s on %(target)s."),
    ("play", False, True): N_("%(name)s plays %(card)s with its Awakening."),
    ("play", True, True): N_("%(name)s plays %(card)s on %(target)s with its Awakening."),
    ("special", False, False): N_("%(name)s uses the Special of %(card)s."),
    ("special", True, False): N_("%(name)s uses the Special of %(card)s on %(target)s."),
    ("special", False, True): N_("%(name)s uses the Special of %(card)s with its Awakening."),
    ("special", True, True): N_(
        "%(name)s uses the Special of %(card)s on %(target)s with its Awakening."
    ),
}


def equip_targets(state: State, seat: int, support: str) -> list[str | None]:
    """Where ``seat`` may equip ``support`` (rulebook lines 222-224): a leader without a
    Support of the same name, a spell on the field without a Support, or the Boundary."""
    card = card_of(state, support)
    kind = card["support"]
    if kind == "scene":
        return [None]
    result: list[str | None] = []
    if kind == "leader":
        for s in (seat, other(seat)):
            lead = leader(state, s)
            if lead is None or not can_target(state, seat, lead):
                continue
            names = {name_key(name_of(state, x)) for x in state["players"][s]["supports"]}
            if name_key(card["name"]) not in names:
                result.append(lead)
    else:
        for s in (seat, other(seat)):
            for spell in [*state["players"][s]["reserve"], *state["players"][s]["active"]]:
                if spell not in state["attached"] and can_target(state, seat, spell):
                    result.append(spell)
    return result


def equip(state: State, seat: int, support: str, target: str | None, events: list[Event]) -> None:
    card = card_of(state, support)
    who = player_name(state, seat)
    state["players"][seat]["hand"].remove(support)
    if card["support"] == "scene":
        old = state["scene"]
        if old is not None:
            remove_support(state, old)
            events.append(
                event(
                    Words(N_("The Scene %(card)s is discarded."), {"card": named(state, old)}),
                    type="scene",
                )
            )
        state["scene"] = support
        events.append(
            event(
                Words(
                    N_("%(name)s sets the Scene %(card)s on the Boundary."),
                    {"name": who, "card": named(state, support)},
                ),
                type="equip",
            )
        )
        return
    if target is None:
        raise IllegalAction(
            Words(
                N_("%(card)s must be equipped to a leader or a spell."),
                {"card": named(state, support)},
            )
        )
    if card["support"] == "leader":
        state["players"][owner_of(state, target)]["supports"].append(support)
    else:
        state["attached"][target] = support
    events.append(
        event(
            Words(
                N_("%(name)s equips %(card)s to %(target)s."),
                {"name": who, "card": named(state, support), "target": named(state, target)},
            ),
            type="equip",
        )
    )
