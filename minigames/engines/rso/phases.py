"""The turn (rulebook "Game Flow", lines 151-230): Replenish, Battle, Preparation, End, and the
Attack/Intercept swap.

Who is asked next depends only on public facts (the phase, the step, whose priority it is, hand
counts), never on what a hand holds: a player with nothing to play is still asked and passes.
Each step lists its legal actions and applies them here; :mod:`.engine` only wraps this in the
protocol (copying the state first, so a refused action changes nothing).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from minigames.engines.rso import battle as battle_rules
from minigames.engines.rso.abilities import (
    deck_out_words,
    draw,
    equip,
    equip_targets,
    fire_triggers,
    lose,
    pay,
    payments,
    play_options,
    resolve_play,
)
from minigames.engines.rso.setup import (
    choose_leader,
    keep,
    leader_actions,
    mulligan,
    mulligan_actions,
)
from minigames.engines.rso.state import (
    HAND_LIMIT,
    State,
    attacker,
    card_of,
    leader_stats,
    named,
    other,
    player_name,
)
from westernroses.protocol import Event, IllegalAction, event
from westernroses.words import N_, Words

PHASE_NAMES = {
    "leader": N_("Leader choice"),
    "mulligan": N_("Opening hands"),
    "replenish": N_("Replenish phase"),
    "battle": N_("Battle phase"),
    "preparation": N_("Preparation phase"),
    "end": N_("End phase"),
    "over": N_("Game over"),
}


def waiting_on(state: State) -> tuple[int, ...]:
    step = state["step"]
    if state["phase"] == "over":
        return ()
    if step == "leader":
        return tuple(s for s in (0, 1) if state["players"][s]["pending_leader"] is None)
    if step == "mulligan":
        return (int(state["mulligan_seat"]),)
    if step == "window":
        return (int(state["window"]["priority"]),)
    if step == "intercept":
        return (other(attacker(state)),)
    if step == "border":
        return (int(state["battle"]["border"][0]),)
    return (attacker(state),)


# --- listing -----------------------------------------------------------------------------------


def _spell_costs(card: Mapping[str, Any], kind: str) -> list[Mapping[str, Any]]:
    if kind == "activate":
        return [
            {"sp": int(card["cost"])},
            *(card.get("extra_cost") or []),
            *(card.get("activate_cost") or []),
        ]
    return list(card.get("battle_cost") or [])


def _battle_entries(state: State, seat: int, kind: str) -> list[dict[str, Any]]:
    result = []
    for spell in state["players"][seat]["active"]:
        for way in payments(state, seat, _spell_costs(card_of(state, spell), "battle")):
            result.append({"type": kind, "spell": spell, **way})
    return result


def _preparation_actions(state: State, seat: int) -> list[dict[str, Any]]:
    player = state["players"][seat]
    actions: list[dict[str, Any]] = []
    if not state["reserved"]:
        seen: set[str] = set()
        for inst in player["hand"]:
            card = card_of(state, inst)
            if card["kind"] == "spell" and state["inst"][inst] not in seen:
                seen.add(state["inst"][inst])
                actions.append({"type": "reserve", "card": inst})
    for spell in player["reserve"]:
        for way in payments(state, seat, _spell_costs(card_of(state, spell), "activate")):
            actions.append({"type": "activate", "spell": spell, **way})
    supports_seen: set[str] = set()  # two copies of one Support are one choice
    for inst in player["hand"]:
        card = card_of(state, inst)
        if card["kind"] != "support" or state["inst"][inst] in supports_seen:
            continue
        supports_seen.add(state["inst"][inst])
        costs = [{"sp": int(card["cost"])}, *(card.get("extra_cost") or [])]
        ways = payments(state, seat, costs, [inst])
        if not ways:
            continue
        for target in equip_targets(state, seat, inst):
            for way in ways:
                action: dict[str, Any] = {"type": "equip", "card": inst}
                if target is not None:
                    action["target"] = target
                action.update(way)
                actions.append(action)
    actions.extend(play_options(state, seat))
    actions.append({"type": "done"})
    return actions


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    if seat not in waiting_on(state):
        return []
    step = state["step"]
    if step == "leader":
        return leader_actions(state, seat)
    if step == "mulligan":
        return mulligan_actions(state, seat)
    if step == "window":
        return [*play_options(state, seat), {"type": "pass"}]
    if step == "declare":
        return [*_battle_entries(state, seat, "attack"), {"type": "no_attack"}]
    if step == "intercept":
        return [*_battle_entries(state, seat, "intercept"), {"type": "no_intercept"}]
    if step == "border":
        return [{"type": "pay_border"}, {"type": "take_hit"}]
    if step == "act":
        return _preparation_actions(state, seat)
    if step == "discard":
        seen: set[str] = set()
        result = []
        for inst in state["players"][seat]["hand"]:
            if state["inst"][inst] not in seen:
                seen.add(state["inst"][inst])
                result.append({"type": "discard", "card": inst})
        return result
    return []


# --- the flow ----------------------------------------------------------------------------------


def _open_window(state: State) -> None:
    state["step"] = "window"
    state["window"] = {"priority": attacker(state), "passes": 0}


def begin_turn(state: State, events: list[Event]) -> None:
    """Replenish: start triggers, the draw (not on Player 1's first turn), SP +1 and +1 per
    Reserve spell (rulebook line 161), then the alternating plays."""
    state["turn"] += 1
    state["phase"] = "replenish"
    seat = attacker(state)
    events.append(
        event(
            Words(
                N_("Turn %(turn)s: %(name)s attacks, %(other)s intercepts."),
                {
                    "turn": state["turn"],
                    "name": player_name(state, seat),
                    "other": player_name(state, other(seat)),
                },
            ),
            type="turn",
        )
    )
    fire_triggers(state, "replenish_start", events)
    if state["phase"] == "over":
        return
    if state["turn"] > 1:
        draw(state, seat, 1, events)
        if state["phase"] == "over":
            return
    player = state["players"][seat]
    gain = 1 + len(player["reserve"])
    player["sp"] += gain
    events.append(
        event(
            Words(
                N_("%(name)s gains %(count)s SP (1 plus %(reserve)s Reserve spells)."),
                {
                    "name": player_name(state, seat),
                    "count": gain,
                    "reserve": len(player["reserve"]),
                },
            ),
            type="sp",
        )
    )
    _open_window(state)


def begin_battle(state: State, events: list[Event]) -> None:
    state["phase"] = "battle"
    state["window"] = None
    state["step"] = "declare"
    fire_triggers(state, "battle_start", events)


def begin_preparation(state: State, events: list[Event]) -> None:
    state["phase"] = "preparation"
    state["step"] = "act"
    state["window"] = None
    state["battle"] = None
    state["reserved"] = False
    fire_triggers(state, "preparation_start", events)


def begin_end(state: State, events: list[Event]) -> None:
    state["phase"] = "end"
    state["step"] = "discard"
    if len(state["players"][attacker(state)]["hand"]) <= HAND_LIMIT:
        end_turn(state, events)


def end_turn(state: State, events: list[Event]) -> None:
    """Modifiers and Special uses last for the turn; then the roles swap (line 230)."""
    state["mods"] = []
    state["used"] = []
    state["attacker"] = other(attacker(state))
    begin_turn(state, events)


def _close_window(state: State, events: list[Event]) -> None:
    state["window"] = None
    if state["phase"] == "replenish":
        fire_triggers(state, "replenish_end", events)
        if state["phase"] != "over":
            begin_battle(state, events)
        return
    battle = state["battle"]
    battle["judged"] = battle_rules.judge(state)
    battle["border"] = battle_rules.border_seats(state)
    if battle["border"]:
        state["step"] = "border"
    else:
        _finish_battle(state, events)


def _finish_battle(state: State, events: list[Event]) -> None:
    battle_rules.resolve(state, events)
    _end_battle(state, events)


def _end_battle(state: State, events: list[Event]) -> None:
    """End-of-phase abilities, then the Preparation phase (unless the game is over)."""
    if state["phase"] != "over":
        fire_triggers(state, "battle_end", events)
    if state["phase"] != "over":
        begin_preparation(state, events)


def _find(actions: list[dict[str, Any]], action: Mapping[str, Any]) -> dict[str, Any]:
    wanted = dict(action.items())
    for candidate in actions:
        if candidate == wanted:
            return candidate
    raise IllegalAction(NOT_NOW)


#: Why a move is refused when it is not among the legal ones now.
NOT_NOW = Words(N_("That move is not allowed now."))


def apply_action(
    state: State, seat: int, action: Mapping[str, Any], *, listed: bool = False
) -> list[Event]:
    """Apply a legal action to ``state`` (a private copy) in place; IllegalAction otherwise.

    ``listed``: the action is one of the legal moves just listed for this position
    (:mod:`westernroses.listed_moves`), so they are not listed again to look it up."""
    if state["phase"] == "over":
        raise IllegalAction(Words(N_("The game is over.")))
    if seat not in waiting_on(state):
        raise IllegalAction(Words(N_("It is not your turn to act.")))
    kind = action.get("type")
    chosen: dict[str, Any]
    if listed:  # a copy, as a fresh listing's would be: nothing below edits the caller's
        chosen = {k: (list(v) if isinstance(v, list) else v) for k, v in action.items()}
    else:
        legal = legal_actions(state, seat)
        if kind not in {a["type"] for a in legal}:
            raise IllegalAction(NOT_NOW)
        chosen = _find(legal, action)
    events: list[Event] = []
    if kind == "choose_leader":
        choose_leader(state, seat, chosen["card"], events)
    elif kind == "mulligan":
        mulligan(state, seat, events)
    elif kind == "keep":
        if keep(state, seat, events):
            begin_turn(state, events)
    elif kind in ("play_event", "use_special"):
        resolve_play(state, seat, chosen, events)
        if state["window"] is not None and state["phase"] != "over":
            state["window"] = {"priority": other(seat), "passes": 0}
    elif kind == "pass":
        window = state["window"]
        events.append(event(Words(N_("%(name)s passes."), said_by(state, seat)), type="pass"))
        window["passes"] += 1
        window["priority"] = other(seat)
        if window["passes"] >= 2:
            _close_window(state, events)
    elif kind == "attack":
        spell = chosen["spell"]
        pay(
            state,
            seat,
            _spell_costs(card_of(state, spell), "battle"),
            chosen,
            events,
        )
        state["battle"] = {
            "attack": spell,
            "intercept": None,
            "judged": {},
            "border": [],
            "escaped": {},
        }
        state["step"] = "intercept"
        events.append(
            event(
                Words(N_("%(name)s attacks with %(card)s."), said_by(state, seat, spell)),
                type="attack",
            )
        )
    elif kind == "no_attack":
        events.append(
            event(Words(N_("%(name)s does not attack."), said_by(state, seat)), type="attack")
        )
        _end_battle(state, events)
    elif kind == "intercept":
        spell = chosen["spell"]
        pay(
            state,
            seat,
            _spell_costs(card_of(state, spell), "battle"),
            chosen,
            events,
        )
        state["battle"]["intercept"] = spell
        events.append(
            event(
                Words(N_("%(name)s intercepts with %(card)s."), said_by(state, seat, spell)),
                type="intercept",
            )
        )
        _open_window(state)
    elif kind == "no_intercept":
        events.append(
            event(Words(N_("%(name)s does not intercept."), said_by(state, seat)), type="intercept")
        )
        _open_window(state)
    elif kind in ("pay_border", "take_hit"):
        battle = state["battle"]
        battle["border"].pop(0)
        if kind == "pay_border":
            bv = leader_stats(state, seat)["bv"]
            if state["players"][seat]["sp"] < bv:
                raise IllegalAction(Words(N_("You do not have enough SP to pay the Border Value.")))
            state["players"][seat]["sp"] -= bv
            battle["escaped"][str(seat)] = True
            events.append(
                event(
                    Words(
                        N_("%(name)s pays %(bv)s SP for the Border Value."),
                        {**said_by(state, seat), "bv": bv},
                    ),
                    type="border",
                )
            )
        else:
            events.append(
                event(
                    Words(N_("%(name)s does not pay the Border Value."), said_by(state, seat)),
                    type="border",
                )
            )
        if not battle["border"]:
            _finish_battle(state, events)
    elif kind == "reserve":
        inst = chosen["card"]
        state["players"][seat]["hand"].remove(inst)
        state["players"][seat]["reserve"].append(inst)
        state["reserved"] = True
        events.append(
            event(
                Words(N_("%(name)s puts %(card)s into the Reserve."), said_by(state, seat, inst)),
                type="reserve",
            )
        )
    elif kind == "activate":
        spell = chosen["spell"]
        card = card_of(state, spell)
        pay(state, seat, _spell_costs(card, "activate"), chosen, events)
        player = state["players"][seat]
        player["reserve"].remove(spell)
        player["active"].append(spell)
        events.append(
            event(
                Words(
                    N_("%(name)s activates %(card)s for %(cost)s SP."),
                    {**said_by(state, seat, spell), "cost": card["cost"]},
                ),
                type="activate",
            )
        )
    elif kind == "equip":
        inst = chosen["card"]
        card = card_of(state, inst)
        costs = [{"sp": int(card["cost"])}, *(card.get("extra_cost") or [])]
        pay(state, seat, costs, chosen, events)
        equip(state, seat, inst, chosen.get("target"), events)
    elif kind == "done":
        events.append(
            event(
                Words(N_("%(name)s ends the Preparation phase."), said_by(state, seat)), type="done"
            )
        )
        fire_triggers(state, "preparation_end", events)
        if state["phase"] != "over":
            begin_end(state, events)
    elif kind == "discard":
        inst = chosen["card"]
        state["players"][seat]["hand"].remove(inst)
        state["players"][seat]["discard"].append(inst)
        events.append(
            event(
                Words(
                    N_("%(name)s discards %(card)s down to the hand limit."),
                    said_by(state, seat, inst),
                ),
                type="discard",
            )
        )
        if len(state["players"][seat]["hand"]) <= HAND_LIMIT:
            end_turn(state, events)
    if state["options"]["deck_out"] == "empty" and state["phase"] != "over":
        for s in (0, 1):
            if state["phase"] not in ("leader", "mulligan") and not state["players"][s]["deck"]:
                lose(state, s, deck_out_words(state, s), events)
                break
    return events


def said_by(state: State, seat: int, card: str | None = None) -> dict[str, Any]:
    """The parameters of a log line about ``seat``'s move: her name, and the card it names."""
    params: dict[str, Any] = {"name": player_name(state, seat)}
    if card is not None:
        params["card"] = named(state, card)
    return params
