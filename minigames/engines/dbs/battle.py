"""The Battle phase (rulebook 六.④): declarations, the defender's answer, and resolution.

The attacker may, as often as she can pay: declare a Battle Spellcard, play a Buff, use an
attack-timing Instant, or set a Constant (into the Item Area, replacing an item when full). A
Spellcard may be declared when its character is in play (in the status its limit asks), its
needs hold, its SP can be paid and - for the attacker only - its Level is at least the Level on
top of her Spell Chain (the Chinese text; the English footnote reverses it, and a house rule
may follow the footnote instead).

Each declaration opens the defender's window, whether or not she holds anything usable (the
pause reveals nothing). She either counter-attacks with one Battle Spellcard (the Level rule
waived), or springs any number of her face-down Traps and defence Instants and then lets the
attack resolve (a house rule lets her counter-attack after them too).

Resolution: if the attack is higher, the defender takes the difference (less her damage
reduction), the attacking card goes on top of its owner's Spell Chain (a hit) and the counter
card to the grave; otherwise both go to the grave.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from westernroses.protocol import Action, Event, IllegalAction, event
from westernroses.words import N_, Words

from .phases import end_turn, place_item
from .rules import (
    ITEM_AREA,
    State,
    attack_of,
    available_sp,
    card,
    card_words,
    cost_of,
    fire_triggers,
    forget,
    holds,
    in_play,
    judge,
    other,
    pay,
    player,
    resolve_effects,
    static_total,
    who,
)


def top_level(state: State, seat: int) -> int:
    chain = player(state, seat)["chain"]
    return int(card(state, chain[-1])["level"]) if chain else 0


def can_declare(state: State, seat: int, iid: str, *, attacking: bool) -> bool:
    """Whether ``seat`` may declare Battle Spellcard ``iid`` (footnote 1's conditions)."""
    definition = card(state, iid)
    if definition["kind"] != "battle":
        return False
    slot = in_play(state, seat, definition["character"])
    if slot is None:
        return False
    limit = definition.get("limit", "none")
    if limit == "center" and slot["status"] not in ("center", "hyper"):
        return False
    if limit == "hyper" and slot["status"] != "hyper":
        return False
    if not holds(state, seat, definition.get("requires")):
        return False
    if cost_of(state, seat, iid) > available_sp(state, seat):
        return False
    if not attacking or not player(state, seat)["chain"]:
        return True
    if state["options"]["level_rule"] == "at_most":
        return int(definition["level"]) <= top_level(state, seat)
    return int(definition["level"]) >= top_level(state, seat)


def _can_play(state: State, seat: int, iid: str) -> bool:
    """Buffs, Instants, Traps and Constants: their character (if any) in play, needs, SP."""
    definition = card(state, iid)
    owner = definition.get("character")
    if owner and in_play(state, seat, owner) is None:
        return False
    return holds(state, seat, definition.get("requires")) and cost_of(
        state, seat, iid
    ) <= available_sp(state, seat)


def _kind(state: State, iid: str) -> str:
    return str(card(state, iid)["kind"])


def battle_legal(state: State, seat: int) -> list[Action]:
    me = player(state, seat)
    actions: list[Action] = []
    for iid in me["hand"]:
        kind = _kind(state, iid)
        if kind == "battle" and can_declare(state, seat, iid, attacking=True):
            actions.append({"type": "declare", "card": iid})
        elif kind == "buff" and _can_play(state, seat, iid):
            actions.append({"type": "buff", "card": iid})
        elif (
            kind == "instant"
            and card(state, iid)["timing"] == "attack"
            and _can_play(state, seat, iid)
        ):
            actions.append({"type": "instant", "card": iid})
        elif kind == "constant" and _can_play(state, seat, iid):
            if len(me["items"]) < ITEM_AREA:
                actions.append({"type": "constant", "card": iid})
            else:
                actions += [
                    {"type": "constant", "card": iid, "replace": item["card"]}
                    for item in me["items"]
                ]
    actions.append({"type": "end_turn"})
    return actions


def reaction_legal(state: State, seat: int) -> list[Action]:
    me = player(state, seat)
    clash = state["clash"]
    actions: list[Action] = []
    if not clash["reacted"] or state["options"]["defence"] == "both":
        actions += [
            {"type": "counter", "card": iid}
            for iid in me["hand"]
            if _kind(state, iid) == "battle" and can_declare(state, seat, iid, attacking=False)
        ]
    for item in me["items"]:
        iid = item["card"]
        if item["face_down"] and _kind(state, iid) == "trap" and _can_play(state, seat, iid):
            actions.append({"type": "trap", "card": iid})
    for iid in me["hand"]:
        if (
            _kind(state, iid) == "instant"
            and card(state, iid)["timing"] == "defend"
            and _can_play(state, seat, iid)
        ):
            actions.append({"type": "instant", "card": iid})
    actions.append({"type": "no_counter"})
    return actions


def _from_hand(state: State, seat: int, iid: str) -> None:
    me = player(state, seat)
    me["hand"].remove(iid)
    forget(state, seat, iid)


def battle_apply(state: State, seat: int, action: Mapping[str, Any], events: list[Event]) -> None:
    if action not in battle_legal(state, seat):
        raise IllegalAction(
            Words(
                N_(
                    "That cannot be played now: check the card's character and status, its "
                    "needs, your SP and the Level on top of your Spell Chain."
                )
            )
        )
    kind = action["type"]
    if kind == "end_turn":
        end_turn(state, seat, events)
        return
    iid = action["card"]
    me = player(state, seat)
    cost = cost_of(state, seat, iid)
    definition = card(state, iid)
    label = card_words(state, iid)
    if kind == "constant":
        pay(state, seat, cost, events)
        place_item(state, seat, iid, action.get("replace"), False, events)
        events.append(
            event(
                Words(
                    N_("%(name)s sets the Constant %(card)s in her Item Area."),
                    {"name": who(state, seat), "card": label},
                ),
                type="constant",
            )
        )
        judge(state, events)
        return
    _from_hand(state, seat, iid)
    pay(state, seat, cost, events)
    if kind == "declare":
        state["clash"] = {
            "attacker": seat,
            "attack": iid,
            "counter": None,
            "boost": {"attack": 0, "counter": 0},
            "negated": False,
            "reacted": False,
        }
        events.append(
            event(
                Words(
                    N_("%(name)s declares %(card)s (Level %(level)s, attack %(attack)s)."),
                    {
                        "name": who(state, seat),
                        "card": label,
                        "level": definition["level"],
                        "attack": definition["attack"],
                    },
                ),
                type="declare",
            )
        )
        resolve_effects(state, seat, definition.get("on_declare", []), label, events)
        if not judge(state, events):
            state["phase"] = "reaction"
        return
    sentence = (
        N_("%(name)s plays the Buff %(card)s.")
        if kind == "buff"
        else N_("%(name)s uses the Instant %(card)s.")
    )
    events.append(event(Words(sentence, {"name": who(state, seat), "card": label}), type=kind))
    me["grave"].append(iid)
    if kind == "buff":
        me["turn_statics"] += list(definition.get("this_turn", []))
    resolve_effects(state, seat, definition["effects"], label, events)
    judge(state, events)


def reaction_apply(state: State, seat: int, action: Mapping[str, Any], events: list[Event]) -> None:
    if action not in reaction_legal(state, seat):
        raise IllegalAction(
            Words(
                N_(
                    "Answer the attack: counter-attack with a Battle Spellcard you can declare, "
                    "spring a Trap or use an Instant you can pay for, or let it resolve."
                )
            )
        )
    clash = state["clash"]
    kind = action["type"]
    me = player(state, seat)
    if kind == "no_counter":
        events.append(
            event(
                Words(N_("%(name)s does not counter-attack."), {"name": who(state, seat)}),
                type="no_counter",
            )
        )
        resolve_clash(state, events)
        return
    iid = action["card"]
    definition = card(state, iid)
    label = card_words(state, iid)
    cost = cost_of(state, seat, iid)
    if kind == "counter":
        _from_hand(state, seat, iid)
        pay(state, seat, cost, events)
        clash["counter"] = iid
        clash["reacted"] = True
        events.append(
            event(
                Words(
                    N_("%(name)s counter-attacks with %(card)s (attack %(attack)s)."),
                    {"name": who(state, seat), "card": label, "attack": definition["attack"]},
                ),
                type="counter",
            )
        )
        resolve_effects(state, seat, definition.get("on_declare", []), label, events)
        if not judge(state, events):
            resolve_clash(state, events)
        return
    if kind == "trap":
        me["items"] = [item for item in me["items"] if item["card"] != iid]
        forget(state, seat, iid)
        sentence = N_("%(name)s springs the Trap %(card)s.")
    else:
        _from_hand(state, seat, iid)
        sentence = N_("%(name)s uses the Instant %(card)s.")
    pay(state, seat, cost, events)
    me["grave"].append(iid)
    clash["reacted"] = True
    events.append(event(Words(sentence, {"name": who(state, seat), "card": label}), type=kind))
    resolve_effects(state, seat, definition["effects"], label, events)
    if judge(state, events):
        return
    if clash["negated"]:
        attacker = clash["attacker"]
        player(state, attacker)["grave"].append(clash["attack"])
        state["clash"] = None
        state["phase"] = "battle"


def resolve_clash(state: State, events: list[Event]) -> None:
    """Compare final attacks and settle the clash. Victory is judged after the hit's damage
    and after each of its effects; the first one attained ends the game there."""
    clash = state["clash"]
    attacker = clash["attacker"]
    defender = other(attacker)
    attack_card = clash["attack"]
    counter_card = clash["counter"]
    a = attack_of(state, attacker, attack_card, "attacking", clash["boost"]["attack"])
    d = 0
    if counter_card is not None:
        d = attack_of(state, defender, counter_card, "defending", clash["boost"]["counter"])
    state["clash"] = None
    state["phase"] = "battle"
    foe = player(state, defender)
    if counter_card is not None:
        foe["grave"].append(counter_card)
    attack_name = card_words(state, attack_card)
    if a > d:
        damage = max(0, a - d - static_total(state, defender, "damage_reduction"))
        foe["lp"] -= damage
        player(state, attacker)["chain"].append(attack_card)
        sentence = (
            N_(
                "%(card)s (%(attack)s) beats %(counter)s: %(name)s takes %(damage)s damage "
                "(LP %(lp)s) and it goes on top of %(attacker)s's Spell Chain."
            )
            if counter_card is not None
            else N_(
                "%(card)s (%(attack)s) is not countered: %(name)s takes %(damage)s damage "
                "(LP %(lp)s) and it goes on top of %(attacker)s's Spell Chain."
            )
        )
        params = {
            "card": attack_name,
            "attack": a,
            "name": who(state, defender),
            "damage": damage,
            "lp": foe["lp"],
            "attacker": who(state, attacker),
        }
        if counter_card is not None:
            params["counter"] = d
        events.append(event(Words(sentence, params), type="hit"))
        if judge(state, events):
            return
        resolve_effects(
            state, attacker, card(state, attack_card).get("on_hit", []), attack_name, events
        )
        fire_triggers(state, attacker, "hit", events)
        fire_triggers(state, defender, "hit_taken", events)
    else:
        player(state, attacker)["grave"].append(attack_card)
        events.append(
            event(
                Words(
                    N_(
                        "%(card)s (%(attack)s) does not beat %(counter)s: both Spellcards go to "
                        "the grave."
                    ),
                    {"card": attack_name, "attack": a, "counter": d},
                ),
                type="miss",
            )
        )
    judge(state, events)
