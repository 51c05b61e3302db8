"""Builders for the Spirit War tests: fresh games with chosen cards in chosen places.

``rig`` rearranges a dealt game's real card instances (picked by their definition key), so a
test can set up a rulebook situation and then drive it through ``ENGINE.apply`` like any table.
Every card stays in exactly one place (``rig`` checks it).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from minigames.engines.spirit_war import ENGINE
from minigames.engines.spirit_war.cards import bundled_cards
from minigames.engines.spirit_war.piles import locations, sort_ids

RULES = "../shared/rules/spirit-war-standard-rules.txt"

FIRE = ("cinder_fox", "lantern_wisp", "ember_crane", "furnace_oni")
EARTH = ("moss_tortoise", "stone_komainu", "burrow_mole", "clay_golem")
WATER = ("mist_carp", "rain_frog", "tide_serpent", "kappa_scout")


def spec(key: str) -> dict[str, Any]:
    """A bundled card definition by key."""
    for cards in bundled_cards().values():
        for c in cards:
            if c["key"] == key:
                return c
    raise KeyError(key)


def new(seats: int = 2, seed: int = 1, **options: Any) -> dict[str, Any]:
    return ENGINE.new_game(seats=seats, seed=seed, options=options or None)


def ids_of(state: Mapping[str, Any], key: str) -> list[str]:
    return sort_ids([cid for cid, k in state["cards"].items() if k == key])


def key_of(state: Mapping[str, Any], cid: str) -> str:
    return str(state["cards"][cid])


def rig(
    state: Mapping[str, Any],
    *,
    hands: Mapping[int, Sequence[str]] | None = None,
    prep_top: Sequence[str] = (),
    encounter_top: Sequence[str] = (),
    prep_empty: bool = False,
) -> dict[str, Any]:
    """A copy of a fresh game where ``hands[seat]`` hold exactly these cards (by key) and the
    named cards lie on top of the decks, in order. Cards taken out of hands go to the bottom
    of the Preparation deck; ``prep_empty`` then moves the whole deck to the Abyss."""
    s = copy.deepcopy(dict(state))
    hands = hands or {}
    for seat in hands:
        s["prep_deck"].extend(s["hands"][seat])
        s["hands"][seat] = []
    s["known"] = []

    def take(pile: str, key: str) -> str:
        for cid in s[pile]:
            if s["cards"][cid] == key:
                s[pile].remove(cid)
                return str(cid)
        raise AssertionError(f"no free {key} in {pile}")

    for seat, keys in hands.items():
        s["hands"][seat] = sort_ids([take("prep_deck", k) for k in keys])
    s["prep_deck"] = [take("prep_deck", k) for k in prep_top] + s["prep_deck"]
    s["encounter_deck"] = [take("encounter_deck", k) for k in encounter_top] + s["encounter_deck"]
    if prep_empty:
        s["abyss"].extend(s["prep_deck"])
        s["prep_deck"] = []
    assert len(locations(s)) == len(s["cards"])
    return s


def play(
    state: dict[str, Any], seat: int, action: Mapping[str, Any]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return ENGINE.apply(state, seat, action)


def texts(events: Sequence[Mapping[str, Any]], seat: int | None = None) -> str:
    """Every event text the seat may see (None: public ones), one per line."""
    return "\n".join(
        e["text"]
        for e in events
        if e["visible_to"] is None or (seat is not None and seat in e["visible_to"])
    )


def card_in_hand(state: Mapping[str, Any], seat: int, key: str) -> str:
    for cid in state["hands"][seat]:
        if state["cards"][cid] == key:
            return str(cid)
    raise AssertionError(f"seat {seat} holds no {key}")


def battle_at_support(
    attacker_hand: Sequence[str],
    defender_hand: Sequence[str],
    attacker_summons: str,
    defender_summons: str,
    *,
    seats: int = 2,
    **options: Any,
) -> dict[str, Any]:
    """Seat 0 draws Challenge Down the Road, attacks seat 1, both summon: the Support phase."""
    s = rig(
        new(seats, **options),
        hands={0: attacker_hand, 1: defender_hand},
        prep_top=["paper_doll_ward"],
        encounter_top=["challenge_down_the_road"],
    )
    s, _ = play(s, 0, {"type": "draw"})
    s, _ = play(s, 0, {"type": "attack", "target": 1})
    s, _ = play(s, 0, {"type": "summon", "card": card_in_hand(s, 0, attacker_summons)})
    s, _ = play(s, 1, {"type": "summon", "card": card_in_hand(s, 1, defender_summons)})
    assert s["phase"] == "support"
    return s
