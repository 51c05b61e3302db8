"""The rules every phase shares: reading the state, lasting effects, costs, effects, victory.

The state is a plain JSON dict (see :mod:`.setup` for its shape). Functions here mutate the
copy the engine made for one ``apply``; nothing outside :mod:`.engine` sees a half-done state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from westernroses.protocol import Event, event
from westernroses.rng import RandomSource
from westernroses.words import N_, Words, listing, said

from .vocabulary import Card

State = dict[str, Any]

START_LP: Final = 10000
BEADS: Final = 5
OPENING_HAND: Final = 4
ITEM_AREA: Final = 2
EXTRA_SP: Final = 5
HAND_LIMIT: Final = 5


def other(seat: int) -> int:
    return 1 - seat


def card(state: State, iid: str) -> Card:
    """The definition of the card instance ``iid``."""
    result: Card = state["cards"][state["instances"][iid]]
    return result


def name(state: State, iid: str) -> str:
    return str(card(state, iid)["name"])


def card_words(state: State, iid: str) -> Words:
    """The name of card ``iid`` as words of its own, for a log line: the app renders it with
    the data's catalog (``apibase.engine_words.data_text``), so it reads in the reader's
    language as the card face does."""
    return Words(name(state, iid))


def who(state: State, seat: int) -> str:
    return str(state["names"][seat])


def player(state: State, seat: int) -> dict[str, Any]:
    result: dict[str, Any] = state["players"][seat]
    return result


def rng_draw(state: State, n: int) -> int:
    """A uniform number below ``n`` from the state's own random source (position saved)."""
    rng = RandomSource.from_dict(state["rng"])
    value = rng.randbelow(n)
    state["rng"] = rng.to_dict()
    return value


def shuffle(state: State, items: list[str]) -> None:
    rng = RandomSource.from_dict(state["rng"])
    rng.shuffle(items)
    state["rng"] = rng.to_dict()


# --- characters and lasting effects ------------------------------------------------------


def in_play(state: State, seat: int, number: str) -> dict[str, Any] | None:
    """The character slot of ``number`` if that character is in ``seat``'s play area."""
    for slot in player(state, seat)["characters"]:
        if state["instances"][slot["card"]] == number:
            return dict(slot)
    return None


def active_skills(status: str) -> tuple[str, ...]:
    """Which of a character's skills work in ``status`` (rulebook 六.② A–C: the Support skill
    always, the Center skill in Center or Hyper, the Hyper skill in Hyper)."""
    return {"support": ("support",), "center": ("support", "center")}.get(
        status, ("support", "center", "hyper")
    )


def ability_sources(state: State, seat: int) -> list[tuple[Mapping[str, Any], str | None]]:
    """Every ability set working for ``seat``: face-up Constants, her characters' skills for
    their status, and this turn's Buffs. The second item is the character a skill belongs to
    (her bonuses touch only her own Spellcards), ``None`` for items and Buffs."""
    me = player(state, seat)
    sources: list[tuple[Mapping[str, Any], str | None]] = []
    for item in me["items"]:
        if not item["face_down"]:
            sources.append((card(state, item["card"]), None))
    for slot in me["characters"]:
        definition = card(state, slot["card"])
        for level in active_skills(slot["status"]):
            if definition.get(level):
                sources.append((definition[level], definition["number"]))
    if me["turn_statics"]:
        sources.append(({"statics": me["turn_statics"]}, None))
    return sources


def holds(state: State, seat: int, conditions: Sequence[Mapping[str, Any]] | None) -> bool:
    """Whether every condition holds for ``seat`` (``whose`` picks her or her opponent)."""
    for cond in conditions or ():
        whose = seat if cond.get("whose", "self") == "self" else other(seat)
        p = player(state, whose)
        amount = cond["amount"]
        check = cond["check"]
        if check == "chain_count_at_least":
            ok = len(p["chain"]) >= amount
        elif check == "chain_level_at_least":
            ok = chain_level(state, whose) >= amount
        elif check == "lp_below":
            ok = p["lp"] < amount
        elif check == "lp_at_least":
            ok = p["lp"] >= amount
        else:
            ok = len(p["hand"]) <= amount
        if not ok:
            return False
    return True


def statics(state: State, seat: int, kind: str) -> list[tuple[Mapping[str, Any], str | None]]:
    """The lasting effects of ``kind`` working for ``seat`` now (conditions met)."""
    found = []
    for abilities, owner in ability_sources(state, seat):
        for st in abilities.get("statics", []):
            if st["static"] == kind and holds(state, seat, st.get("if")):
                found.append((st, owner))
    return found


def static_total(state: State, seat: int, kind: str) -> int:
    return sum(int(st["amount"]) for st, _ in statics(state, seat, kind))


def chain_level(state: State, seat: int) -> int:
    """The total Level in ``seat``'s Spell Chain (what Smack Down compares)."""
    return sum(int(card(state, iid)["level"]) for iid in player(state, seat)["chain"])


def hand_limit(state: State, seat: int) -> int:
    return HAND_LIMIT + static_total(state, seat, "hand_limit")


def cost_of(state: State, seat: int, iid: str) -> int:
    """What playing ``iid`` costs ``seat`` in SP after her cost reductions (Battle Spellcards
    only; a character's reduction only for her own Spellcards), never below 0."""
    definition = card(state, iid)
    cost = int(definition.get("cost", 0))
    if definition["kind"] == "battle":
        for st, owner in statics(state, seat, "cost_reduction"):
            if owner is None or owner == definition["character"]:
                cost -= int(st["amount"])
    return max(0, cost)


def available_sp(state: State, seat: int) -> int:
    """Full SP beads plus cards in Extra SP (each pays one SP; rulebook 六.③)."""
    me = player(state, seat)
    return int(me["beads"].count("full")) + len(me["extra_sp"])


def pay(state: State, seat: int, amount: int, events: list[Event]) -> None:
    """Pay ``amount`` SP: empty full beads and discard Extra SP cards to the grave, in the
    order the table's house rule says (beads first by default)."""
    me = player(state, seat)
    beads_first = state["options"]["pay_order"] == "beads"
    used_beads = used_extra = 0
    for _ in range(amount):
        use_bead = "full" in me["beads"] and (beads_first or not me["extra_sp"])
        if use_bead:
            me["beads"][me["beads"].index("full")] = "empty"
            used_beads += 1
        else:
            spent = me["extra_sp"].pop(0)
            forget(state, seat, spent)
            me["grave"].append(spent)
            used_extra += 1
    if amount:
        beads = (
            Words(N_("1 SP bead"))
            if used_beads == 1
            else Words(N_("%(count)s SP beads"), {"count": used_beads})
        )
        extra = (
            Words(N_("1 Extra SP card"))
            if used_extra == 1
            else Words(N_("%(count)s Extra SP cards"), {"count": used_extra})
        )
        parts: list[Words | str] = [
            part for part, used in ((beads, used_beads), (extra, used_extra)) if used
        ]
        events.append(
            event(
                Words(
                    N_("%(name)s pays %(amount)s SP (%(parts)s)."),
                    {"name": who(state, seat), "amount": amount, "parts": listing(parts)},
                ),
                type="pay",
            )
        )


def attack_of(state: State, seat: int, iid: str, role: str, boost: int) -> int:
    """The final attack of Battle Spellcard ``iid`` for ``seat`` in ``role`` ("attacking" or
    "defending"): printed attack, her attack bonuses, and this clash's boosts; never below 0."""
    definition = card(state, iid)
    total = int(definition["attack"]) + boost
    for st, owner in statics(state, seat, "attack_bonus"):
        if st.get("when", "always") not in ("always", role):
            continue
        if owner is None or owner == definition["character"]:
            total += int(st["amount"])
    return max(0, total)


# --- effects -----------------------------------------------------------------------------


def draw_cards(state: State, seat: int, count: int, events: list[Event]) -> int:
    """Draw up to ``count`` cards (fewer if the deck runs out); returns how many were drawn."""
    me = player(state, seat)
    drawn = [me["deck"].pop(0) for _ in range(min(count, len(me["deck"])))]
    me["hand"] += drawn
    if drawn:
        public = (
            Words(N_("%(name)s draws 1 card."), {"name": who(state, seat)})
            if len(drawn) == 1
            else Words(
                N_("%(name)s draws %(count)s cards."),
                {"name": who(state, seat), "count": len(drawn)},
            )
        )
        events.append(event(public, type="draw", hidden_from=[seat]))
        names: list[Words | str] = [card_words(state, iid) for iid in drawn]
        cards = listing(names, last="comma")
        events.append(
            event(
                Words(N_("You draw %(cards)s."), {"cards": cards}), type="draw", visible_to=[seat]
            )
        )
    return len(drawn)


def recover_beads(state: State, seat: int, count: int) -> int:
    beads = player(state, seat)["beads"]
    done = 0
    while done < count and "empty" in beads:
        beads[beads.index("empty")] = "full"
        done += 1
    return done


def to_grave(state: State, seat: int, iid: str) -> None:
    player(state, seat)["grave"].append(iid)


def forget(state: State, seat: int, iid: str) -> None:
    """``iid`` was seen leaving ``seat``'s hand or her face-down cards (played face up, sent to
    the grave): it is no longer a card she may hold. A known card put face down (Extra SP, a
    Trap) is not forgotten: the table cannot tell it from the other cards she put face down,
    so it stays shown as one she holds, in her hand or face down (player_view.py), until it is
    seen again."""
    known = player(state, seat)["known"]
    if iid in known:
        known.remove(iid)


def resolve_effects(
    state: State,
    seat: int,
    effects: Sequence[Mapping[str, Any]],
    source: Words,
    events: list[Event],
) -> None:
    """Carry out ``effects`` for ``seat`` (the card's controller), in order. Clash effects
    (boost, negate) touch the clash under way and do nothing outside one. Victory is judged
    after each effect, and the first one attained stops the rest (rulebook 二: "Once any of
    victory conditions is attained, all the settlement will be shutdown"). ``source`` names
    the card (or lasting effect) in the log lines, as words rendered in the reader's language."""
    for eff in effects:
        if judge(state, events):
            return
        if not holds(state, seat, eff.get("if")):
            continue
        verb = eff["do"]
        target_word = eff.get("target")
        amount = int(eff.get("amount", 0))
        if verb in ("heal", "draw", "recover_beads", "win"):
            target = seat if target_word in (None, "self") else other(seat)
        else:
            target = other(seat) if target_word in (None, "opponent") else seat
        tp = player(state, target)
        tname = who(state, target)
        if verb == "damage":
            tp["lp"] -= amount
            events.append(
                event(
                    Words(
                        N_("%(source)s deals %(amount)s damage to %(name)s (LP %(lp)s)."),
                        {"source": source, "amount": amount, "name": tname, "lp": tp["lp"]},
                    ),
                    type="damage",
                )
            )
        elif verb == "heal":
            tp["lp"] += amount
            events.append(
                event(
                    Words(
                        N_("%(source)s restores %(amount)s LP to %(name)s (LP %(lp)s)."),
                        {"source": source, "amount": amount, "name": tname, "lp": tp["lp"]},
                    ),
                    type="heal",
                )
            )
        elif verb == "draw":
            draw_cards(state, target, amount, events)
        elif verb == "recover_beads":
            done = recover_beads(state, target, amount)
            events.append(
                event(
                    Words(
                        N_("%(source)s refills %(count)s of %(name)s's SP beads."),
                        {"source": source, "count": done, "name": tname},
                    ),
                    type="beads",
                )
            )
        elif verb == "break_beads":
            done = 0
            for state_word in ("full", "empty"):
                while done < amount and state_word in tp["beads"]:
                    tp["beads"][tp["beads"].index(state_word)] = "broken"
                    done += 1
            events.append(
                event(
                    Words(
                        N_("%(source)s breaks %(count)s of %(name)s's SP beads."),
                        {"source": source, "count": done, "name": tname},
                    ),
                    type="beads",
                )
            )
        elif verb == "boost":
            clash = state["clash"]
            if clash is not None:
                mine = "attack" if clash["attacker"] == seat else "counter"
                side = (
                    mine
                    if target_word in (None, "own")
                    else ("counter" if mine == "attack" else "attack")
                )
                clash["boost"][side] += amount
                events.append(
                    event(
                        Words(
                            N_("%(source)s: %(amount)s attack in this clash."),
                            {"source": source, "amount": f"{amount:+d}"},
                        ),
                        type="boost",
                    )
                )
        elif verb == "negate":
            clash = state["clash"]
            if clash is not None and clash["attacker"] != seat:
                clash["negated"] = True
                events.append(
                    event(
                        Words(N_("%(source)s cancels the attack."), {"source": source}),
                        type="negate",
                    )
                )
        elif verb == "destroy_item":
            if tp["items"]:
                item = tp["items"].pop(0)
                forget(state, target, item["card"])
                tp["grave"].append(item["card"])
                events.append(
                    event(
                        Words(
                            N_("%(source)s sends %(card)s from %(name)s's Item Area to the grave."),
                            {
                                "source": source,
                                "card": card_words(state, item["card"]),
                                "name": tname,
                            },
                        ),
                        type="destroy",
                    )
                )
        elif verb == "discard_random":
            for _ in range(amount):
                if not tp["hand"]:
                    break
                iid = tp["hand"].pop(rng_draw(state, len(tp["hand"])))
                forget(state, target, iid)
                tp["grave"].append(iid)
                events.append(
                    event(
                        Words(
                            N_("%(source)s makes %(name)s discard %(card)s."),
                            {"source": source, "name": tname, "card": card_words(state, iid)},
                        ),
                        type="discard",
                    )
                )
        elif verb == "chain_pop":
            if tp["chain"]:
                iid = tp["chain"].pop()
                tp["grave"].append(iid)
                events.append(
                    event(
                        Words(
                            N_("%(source)s knocks %(card)s off %(name)s's Spell Chain."),
                            {"source": source, "card": card_words(state, iid), "name": tname},
                        ),
                        type="chain",
                    )
                )
        elif verb == "win":
            state["claims"].append(target)
            events.append(
                event(
                    Words(
                        N_("%(source)s: %(name)s meets a special victory condition."),
                        {"source": source, "name": tname},
                    ),
                    type="claim",
                )
            )
    judge(state, events)


def fire_triggers(state: State, seat: int, moment: str, events: list[Event]) -> None:
    """Resolve every trigger of ``seat``'s working abilities that fires at ``moment``, until
    one of them decides the game."""
    for abilities, owner in ability_sources(state, seat):
        for trig in abilities.get("triggers", []):
            if over(state):
                return
            if trig["at"] == moment and holds(state, seat, trig.get("if")):
                source = (
                    Words(state["cards"][owner]["name"])
                    if owner
                    else _source_name(state, abilities)
                )
                resolve_effects(state, seat, trig["effects"], source, events)


def _source_name(state: State, abilities: Mapping[str, Any]) -> Words:
    """A working ability's source for the log: the card whose abilities they are (a
    Constant's name), or "A lasting effect" (a Buff's effects for the turn)."""
    if "name" in abilities:
        return Words(str(abilities["name"]))
    return Words(N_("A lasting effect"))


# --- victory -----------------------------------------------------------------------------

VICTORY_WORDS: Final = {
    "special": N_("a special victory"),
    "knock_out": N_("Knock Out"),
    "smack_down": N_("Smack Down"),
}


def over(state: State) -> bool:
    return bool(state["phase"] == "over")


def judge(state: State, events: list[Event], *, empty_draw: int | None = None) -> bool:
    """Decide the game if a victory condition is met now; True once the game is over.

    Rulebook 二: A special victory, B Knock Out (LP below 0; exactly 0 is not a K.O.), C Smack
    Down (a Pick-phase draw meets an empty deck: the higher total Level in the Spell Chains
    wins). "Once any of victory conditions is attained, all the settlement will be shutdown":
    this is asked after every effect and every step of a settlement (a hit's damage, a draw),
    and the caller stops at the first True. What one step meets at once is judged with priority
    A > B > C; when the deciding condition favours both players the game is a draw.
    """
    if over(state):
        return True
    special = set(state["claims"])
    state["claims"] = []
    for seat in (0, 1):
        if statics(state, seat, "win_when"):
            special.add(seat)
    winner: int | None
    detail: Words | None
    if special:
        kind = "special"
        winner = special.pop() if len(special) == 1 else None
        detail = None  # a special victory's card is named in the log as it is met
    elif knocked := [s for s in (0, 1) if player(state, s)["lp"] < 0]:
        kind = "knock_out"
        winner = other(knocked[0]) if len(knocked) == 1 else None
        detail = Words(N_("LP below 0"))
    elif empty_draw is not None:
        kind = "smack_down"
        levels = [chain_level(state, 0), chain_level(state, 1)]
        if levels[0] != levels[1]:
            winner = 0 if levels[0] > levels[1] else 1
        elif state["options"]["smack_down_tie"] == "drawer_loses":
            winner = other(empty_draw)
        else:
            winner = None
        detail = Words(
            N_(
                "%(name)s had to draw from an empty deck; Spell Chain Levels: "
                "%(first)s %(first_level)s, %(second)s %(second_level)s"
            ),
            {
                "name": who(state, empty_draw),
                "first": who(state, 0),
                "first_level": levels[0],
                "second": who(state, 1),
                "second_level": levels[1],
            },
        )
    else:
        return False
    victory = Words(VICTORY_WORDS[kind])
    params: dict[str, Any] = {"victory": victory}
    if detail is not None:
        params["detail"] = detail
    if winner is None:
        text = Words(
            N_("The game is a draw by %(victory)s.")
            if detail is None
            else N_("The game is a draw by %(victory)s (%(detail)s)."),
            params,
        )
    else:
        text = Words(
            N_("%(name)s wins by %(victory)s.")
            if detail is None
            else N_("%(name)s wins by %(victory)s (%(detail)s)."),
            {**params, "name": who(state, winner)},
        )
    # the English ``text`` and its words, which the app renders in the reader's language
    state["result"] = {"winner": winner, "victory": kind, **said(text)}
    state["phase"] = "over"  # a clash under way stays in the Duel Zone, as on the table
    events.append(event(text, type="game_over"))
    return True
