"""The game state and the questions every other module asks of it.

The state is one JSON-able dict (see :func:`minigames.engines.rso.setup.new_state` for its
keys). Card instances are strings (``"rso-card-12"``) mapped to a card number in
``state["inst"]``; the card data travels in ``state["cards"]`` so a replay never depends on
today's card files. Those two maps and ``owner`` never change after set-up, so :func:`clone`
shares them between states and copies only what moves.

Effective values (a spell's AV/IV/HV and basic abilities, a leader's EV and BV) are never
stored: they are computed from the card, the passive abilities in play and the temporary
modifiers of this turn, so nothing can drift out of date.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Final, TypeAlias

from minigames.engines.rso.vocabulary import BASICS, SPELL_STATS
from westernroses.words import Words, data

State: TypeAlias = dict[str, Any]
Card: TypeAlias = Mapping[str, Any]
#: (card, effect) pairs of the passive abilities in play (:func:`passive_effects`).
Effects: TypeAlias = list[tuple[str, Mapping[str, Any]]]

#: Keys that never change after set-up; clones share them.
SHARED_KEYS: Final = frozenset({"cards", "inst", "owner", "names", "options"})
HAND_LIMIT: Final = 7
OPENING_HAND: Final = 6


def _copy(value: Any) -> Any:
    """A deep copy of plain JSON data (dicts, lists, scalars): several times faster than
    ``copy.deepcopy``, which the bots' searches paid for on every move they tried."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_copy(v) for v in value)
    return value


def clone(state: State) -> State:
    """A copy safe to change: shared set-up maps, fresh copies of everything that moves.

    The top level is copied in one step (scalars and the shared maps are their own copies);
    then each container that changes during play is copied again, the flat ones one level deep
    (tests/engine/rso/test_clone.py checks that no container outside SHARED_KEYS is shared).
    """
    result = dict(state)
    result["players"] = [
        {k: (list(v) if type(v) is list else v) for k, v in player.items()}
        for player in state["players"]
    ]
    result["mods"] = [dict(m) for m in state["mods"]]
    result["used"] = list(state["used"])
    result["attached"] = dict(state["attached"])
    result["rng"] = dict(state["rng"])
    for key in _NESTED:
        value = state[key]
        if value is not None:
            result[key] = _copy(value)
    return result


#: The containers that change during play and may nest: copied whole by :func:`clone`.
_NESTED: Final = ("window", "battle")


def other(seat: int) -> int:
    return 1 - seat


def card_of(state: State, inst: str) -> Card:
    card: Card = state["cards"][state["inst"][inst]]
    return card


def name_of(state: State, inst: str) -> str:
    return str(card_of(state, inst)["name"])


def named(state: State, inst: str) -> Words:
    """A card instance's name as a parameter of the engine's words: the data's name, read in
    the reader's language (a card a player made keeps the name she gave it)."""
    return data(name_of(state, inst))


def reason_words(state: State) -> Words | str | None:
    """Why the game ended, as the engine's words (``reason_words``, kept since the reasons
    were message ids) or else as the English a state saved before keeps; None while it runs."""
    found = state.get("reason_words")
    if isinstance(found, dict):
        return Words.from_json(found)
    return str(state["reason"]) if state.get("reason") else None


def owner_of(state: State, inst: str) -> int:
    return int(state["owner"][inst])


def player_name(state: State, seat: int) -> str:
    return str(state["names"][seat])


def leader(state: State, seat: int) -> str | None:
    value = state["players"][seat]["leader"]
    return None if value is None else str(value)


def attacker(state: State) -> int:
    return int(state["attacker"])


def role_of(state: State, seat: int) -> str:
    return "attack" if seat == attacker(state) else "intercept"


def battle_spell(state: State, seat: int) -> str | None:
    """The spell ``seat`` has in the current battle, if any."""
    battle = state.get("battle")
    if not battle:
        return None
    value = battle["attack"] if seat == attacker(state) else battle["intercept"]
    return None if value is None else str(value)


def support_host(state: State, support: str) -> str | None:
    """The leader or spell ``support`` is equipped to (None for the Scene)."""
    for spell, sup in state["attached"].items():
        if sup == support:
            return str(spell)
    for seat in (0, 1):
        if support in state["players"][seat]["supports"]:
            return leader(state, seat)
    return None


def side_of(state: State, inst: str) -> int | None:
    """Whose field a card is on: leaders and spells their owner's; supports their host's."""
    card = card_of(state, inst)
    if card["kind"] == "support":
        host = support_host(state, inst)
        return None if host is None else side_of(state, host)
    return owner_of(state, inst)


def supports_in_play(state: State) -> list[str]:
    result: list[str] = []
    for seat in (0, 1):
        result.extend(state["players"][seat]["supports"])
    result.extend(state["attached"].values())
    if state["scene"] is not None:
        result.append(state["scene"])
    return result


def ability_sources(state: State) -> list[tuple[str, int]]:
    """Every card in play whose abilities work now, with its controller: each leader (only the
    Leader's abilities are used, rulebook line 264), every Support in play (controlled by
    whoever played it) and every Active spell.

    A list, not a generator: the passive abilities ask for it every time a spell's stats are
    read (thousands of times a game), and a list is built in a fraction of the time."""
    players = state["players"]
    owner = state["owner"]
    result: list[tuple[str, int]] = []
    for seat in (0, 1):
        player = players[seat]
        lead = player["leader"]
        if lead is not None:
            result.append((str(lead), seat))
        result.extend((spell, seat) for spell in player["active"])
    result.extend((sup, int(owner[sup])) for sup in supports_in_play(state))
    return result


def this_of(state: State, source: str) -> str | None:
    card = card_of(state, source)
    if card["kind"] == "support":
        return support_host(state, source)
    return source


def scope(state: State, controller: int, target: str, source: str | None) -> list[str]:
    """The cards a fixed target or passive scope means for ``controller``."""
    foe = other(controller)
    result: list[str | None]
    if target == "this":
        result = [None if source is None else this_of(state, source)]
    elif target == "own_leader":
        result = [leader(state, controller)]
    elif target == "opponent_leader":
        result = [leader(state, foe)]
    elif target == "both_leaders":
        result = [leader(state, 0), leader(state, 1)]
    elif target == "own_battle_spell":
        result = [battle_spell(state, controller)]
    elif target == "opposing_battle_spell":
        result = [battle_spell(state, foe)]
    elif target == "own_spells":
        result = list(state["players"][controller]["active"])
    elif target == "opposing_spells":
        result = list(state["players"][foe]["active"])
    elif target == "all_spells":
        result = list(state["players"][0]["active"]) + list(state["players"][1]["active"])
    else:
        result = []
    return [r for r in result if r is not None]


def condition_holds(state: State, controller: int, condition: Mapping[str, Any] | None) -> bool:
    for key, value in (condition or {}).items():
        if key in ("your_leader", "opponent_leader"):
            seat = controller if key == "your_leader" else other(controller)
            lead = leader(state, seat)
            if lead is None or card_of(state, lead)["character"] != value:
                return False
        elif key == "your_hp_at_most":
            if state["players"][controller]["hp"] > value:
                return False
        elif key == "opposing_shot":
            spell = battle_spell(state, other(controller))
            if spell is None or card_of(state, spell)["shot"] != value:
                return False
    return True


def passive_effects(state: State) -> Effects:
    """(card, effect) for every passive modify/grant in play whose condition holds.

    A list, so that a caller reading several cards' stats of one state (a view, the
    heuristic's score) can work it out once and hand it to :func:`spell_stats`."""
    cards, insts = state["cards"], state["inst"]
    found: Effects = []
    for source, controller in ability_sources(state):
        for ability in cards[insts[source]].get("abilities") or ():
            if ability["kind"] != "passive" or "keyword" in ability:
                continue
            condition = ability.get("condition")
            if condition and not condition_holds(state, controller, condition):
                continue
            effects = ability["effects"]
            for inst in scope(state, controller, ability["target"], source):
                found.extend((inst, effect) for effect in effects)
    return found


def has_keyword(state: State, inst: str, keyword: str) -> bool:
    cards, insts = state["cards"], state["inst"]
    for source, controller in ability_sources(state):
        for ability in cards[insts[source]].get("abilities") or ():
            if ability["kind"] != "passive" or ability.get("keyword") != keyword:
                continue
            condition = ability.get("condition")
            if condition and not condition_holds(state, controller, condition):
                continue
            if inst in scope(state, controller, ability["target"], source):
                return True
    return False


def _changes(
    state: State, inst: str, effects: Effects | None = None
) -> Iterator[Mapping[str, Any]]:
    for target, effect in passive_effects(state) if effects is None else effects:
        if target == inst:
            yield effect
    for mod in state["mods"]:
        if mod["card"] == inst:
            yield mod


def spell_stats(state: State, inst: str, effects: Effects | None = None) -> dict[str, Any]:
    """AV, IV, HV, shot and basic abilities (power per ability; flags count 1) right now.

    ``effects``: :func:`passive_effects` of ``state``, when the caller has it already."""
    card = card_of(state, inst)
    stats: dict[str, Any] = {stat: int(card[stat]) for stat in SPELL_STATS}
    stats["shot"] = card["shot"]
    basics = dict.fromkeys(BASICS, 0)
    for name, power in (card.get("basic") or {}).items():
        basics[name] += 1 if power is True else int(power)
    for change in _changes(state, inst, effects):
        if change.get("do", "modify") == "modify" and "stat" in change:
            if change["stat"] in SPELL_STATS:
                stats[change["stat"]] += int(change["amount"])
        elif "ability" in change:
            basics[change["ability"]] += int(change.get("amount") or 1)
    stats["basic"] = basics
    return stats


def leader_stats(state: State, seat: int) -> dict[str, int]:
    """EV and BV of ``seat``'s leader right now (BV never below 0)."""
    lead = leader(state, seat)
    if lead is None:
        return {"ev": 0, "bv": 0}
    card = card_of(state, lead)
    stats = {"ev": int(card["ev"]), "bv": int(card["bv"])}
    for change in _changes(state, lead):
        if change.get("stat") in stats:
            stats[change["stat"]] += int(change["amount"])
    stats["bv"] = max(0, stats["bv"])
    return stats


def can_target(state: State, actor: int, inst: str) -> bool:
    """Untargetable cards refuse the opponent's Events and Specials (rulebook line 73)."""
    side = side_of(state, inst)
    return side is None or side == actor or not has_keyword(state, inst, "untargetable")


def is_affected(state: State, actor: int, inst: str) -> bool:
    """Unaffected cards may be targeted, but the opponent's effects do nothing to them."""
    side = side_of(state, inst)
    return side is None or side == actor or not has_keyword(state, inst, "unaffected")


def zones(state: State) -> Iterator[tuple[str, str]]:
    """(zone name, card) for every card instance: each card is in exactly one zone."""
    for seat in (0, 1):
        player = state["players"][seat]
        for zone in ("characters", "deck", "hand", "reserve", "active", "discard", "supports"):
            where = f"{zone} {seat}"  # once per zone, not per card: checked at every step
            for inst in player[zone]:
                yield where, str(inst)
    for inst in state["attached"].values():
        yield "attached", str(inst)
    if state["scene"] is not None:
        yield "scene", str(state["scene"])
