"""The battle itself (rulebook "Battle Phase", lines 180-204, and "Basic Abilities", 272-284).

The arithmetic is in small pure functions (:func:`evasion_bonus`, :func:`battle_damage`) so the
rulebook's worked examples can be checked number by number; :func:`judge` and :func:`resolve`
apply them to a state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from minigames.engines.rso.abilities import check_hp, fire_triggers, send_to_reserve
from minigames.engines.rso.house_rules import option
from minigames.engines.rso.state import (
    State,
    attacker,
    battle_spell,
    leader_stats,
    named,
    other,
    player_name,
    spell_stats,
)
from westernroses.protocol import Event, event
from westernroses.words import N_, Words


def evasion_bonus(
    own: Mapping[str, int] | None, incoming_shot: str, incoming: Mapping[str, int]
) -> int:
    """EV your leader gains from your spell's movement against the incoming spell: Focused
    Movement against Spread, Unfocused against Concentration; none against Guided Bullets."""
    if own is None or incoming.get("guided", 0) > 0:
        return 0
    if incoming_shot == "spread":
        return int(own.get("focused", 0))
    if incoming_shot == "concentration":
        return int(own.get("unfocused", 0))
    return 0


def hit_result(hv: int, ev: int) -> str:
    """``hit`` when HV is greater, ``miss`` when less, ``tie`` (Border Value) when equal."""
    if hv > ev:
        return "hit"
    if hv < ev:
        return "miss"
    return "tie"


def faith_threshold(faith: int, opposing_faith: int) -> int:
    """Damage at or below this is ignored: Faith (X) less the opposing spell's Faith (Y)."""
    return faith - opposing_faith if faith > 0 else 0


def battle_damage(
    power: int,
    *,
    protection: int = 0,
    penetration: bool = False,
    faith: int = 0,
    opposing_faith: int = 0,
) -> int:
    """Damage a leader takes from a spell with AV (or IV) ``power``.

    ``protection`` and ``faith`` are the defending spell's; ``penetration`` and
    ``opposing_faith`` the incoming spell's. Protection lowers the power unless the spell
    penetrates; damage never goes below 0; Faith then cancels damage at or below its threshold.
    """
    damage = power - (0 if penetration else protection)
    damage = max(0, damage)
    if damage <= faith_threshold(faith, opposing_faith):
        return 0
    return damage


def _basics(state: State, spell: str | None) -> dict[str, int] | None:
    return None if spell is None else dict(spell_stats(state, spell)["basic"])


def judge(state: State) -> dict[str, Any]:
    """Whether each leader is hit, missed or tied, by seat (``"0"``/``"1"``), with the numbers."""
    result: dict[str, Any] = {}
    for seat in (0, 1):
        incoming = battle_spell(state, other(seat))
        if incoming is None:
            continue
        stats = spell_stats(state, incoming)
        ev = leader_stats(state, seat)["ev"] + evasion_bonus(
            _basics(state, battle_spell(state, seat)), stats["shot"], stats["basic"]
        )
        result[str(seat)] = {"hv": stats["hv"], "ev": ev, "result": hit_result(stats["hv"], ev)}
    return result


def border_seats(state: State) -> list[int]:
    """Seats whose leader is tied and can pay her Border Value, in the order of the house rule
    "Who answers the Border Value first" (the attacker by default)."""
    seats = []
    order = (attacker(state), other(attacker(state)))
    if option(state, "border_order") == "intercepting":
        order = order[::-1]
    for seat in order:
        verdict = state["battle"]["judged"].get(str(seat))
        if (
            verdict
            and verdict["result"] == "tie"
            and state["players"][seat]["sp"] >= leader_stats(state, seat)["bv"]
        ):
            seats.append(seat)
    return seats


def damage_to(state: State, seat: int) -> int:
    """What ``seat``'s leader takes when hit: the incoming spell's AV if it attacks, IV if it
    intercepts, through the defending spell's Protection and Faith."""
    incoming = battle_spell(state, other(seat))
    if incoming is None:
        return 0
    stats = spell_stats(state, incoming)
    power = stats["av"] if other(seat) == attacker(state) else stats["iv"]
    own = _basics(state, battle_spell(state, seat)) or {}
    return battle_damage(
        power,
        protection=own.get("protection", 0),
        penetration=stats["basic"]["penetration"] > 0,
        faith=own.get("faith", 0),
        opposing_faith=stats["basic"]["faith"],
    )


def resolve(state: State, events: list[Event]) -> None:
    """Apply the judged battle: damage to both Leaders at once, the HP check (line 61: she
    loses "when your Leader's HP drops to 0 or less", so before a hit trigger could heal her),
    hit triggers, hit spells back to the Reserve."""
    battle = state["battle"]
    hits: list[int] = []
    for seat in (0, 1):
        verdict = battle["judged"].get(str(seat))
        if verdict is None:
            continue
        numbers = {"name": player_name(state, seat), "hv": verdict["hv"], "ev": verdict["ev"]}
        if verdict["result"] == "hit" or (
            verdict["result"] == "tie" and not battle["escaped"].get(str(seat))
        ):
            hits.append(seat)
        elif verdict["result"] == "tie":
            events.append(
                event(
                    Words(
                        N_(
                            "%(name)s's leader pays the Border Value and escapes "
                            "(HV %(hv)s against EV %(ev)s)."
                        ),
                        numbers,
                    ),
                    type="battle",
                )
            )
        else:
            events.append(
                event(
                    Words(N_("%(name)s's leader evades (HV %(hv)s against EV %(ev)s)."), numbers),
                    type="battle",
                )
            )
    damages = {seat: damage_to(state, seat) for seat in hits}
    spells = {seat: battle_spell(state, seat) for seat in (0, 1)}
    for seat in hits:
        player = state["players"][seat]
        player["hp"] -= damages[seat]
        incoming = spells[other(seat)]
        verdict = battle["judged"][str(seat)]
        events.append(
            event(
                Words(
                    N_(
                        "%(name)s's leader is hit by %(card)s (HV %(hv)s against EV %(ev)s) "
                        "and loses %(damage)s HP."
                    ),
                    {
                        "name": player_name(state, seat),
                        "card": named(state, incoming) if incoming else Words(N_("the spell")),
                        "hv": verdict["hv"],
                        "ev": verdict["ev"],
                        "damage": damages[seat],
                    },
                ),
                type="battle",
            )
        )
    check_hp(state, events)
    for seat in hits:
        incoming = spells[other(seat)]
        if incoming is not None and state["phase"] != "over":
            fire_triggers(state, "hit", events, spell=incoming)
    for seat in hits:
        own = spells[seat]
        if own is not None:
            send_to_reserve(state, own)
            events.append(
                event(
                    Words(N_("%(card)s goes back to the Reserve."), {"card": named(state, own)}),
                    type="reserve",
                )
            )
    check_hp(state, events)
    state["battle"] = None
