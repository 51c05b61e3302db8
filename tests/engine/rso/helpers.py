"""Building RSO games in chosen situations for the rule tests.

Tests describe their own cards (as data, through the engine's ``config["cards"]``), build a
legal deck around them with General filler spells, start a real game through the protocol and
then move named cards into the zones the situation needs. Every move afterwards goes through
``ENGINE.apply``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from minigames.engines.rso import ENGINE

RULES = "rumbling-spell-orchestra-gameplay.txt"


def character(
    number: str, name: str, *, hp: int = 20, ev: int = 2, bv: int = 2, **extra: Any
) -> dict[str, Any]:
    return {
        "number": number,
        "name": name,
        "kind": "character",
        "character": name,
        "hp": hp,
        "ev": ev,
        "bv": bv,
        **extra,
    }


def spell(
    number: str,
    name: str,
    *,
    av: int = 3,
    iv: int = 2,
    hv: int = 3,
    cost: int = 1,
    shot: str = "normal",
    **extra: Any,
) -> dict[str, Any]:
    return {
        "number": number,
        "name": name,
        "kind": "spell",
        "cost": cost,
        "shot": shot,
        "av": av,
        "iv": iv,
        "hv": hv,
        **extra,
    }


FILLER = [spell(f"T-F{i:02d}", f"Filler Volley {i}", av=1, iv=1, hv=1) for i in range(14)]
ATTACKER = character("T-C1", "Ayla", ev=3, bv=2)
DEFENDER = character("T-C2", "Bram", ev=2, bv=2)


def deck(characters: Sequence[str], cards: Mapping[str, int]) -> list[str]:
    """Four character numbers plus ``cards`` (number -> count), topped up to 40 with filler."""
    result = list(characters)
    body: list[str] = []
    for number, count in cards.items():
        body.extend([number] * count)
    for filler in FILLER:
        while len(body) < 40 and body.count(filler["number"]) < 3:
            body.append(filler["number"])
    return result + body[:40]


def new_game(
    cards: Sequence[Mapping[str, Any]] = (),
    decks: Sequence[Sequence[str]] | None = None,
    seed: int = 7,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A game with the test characters Ayla (seat 0) and Bram (seat 1) unless decks are given."""
    extra = [ATTACKER, DEFENDER, *FILLER, *cards]
    if decks is None:
        decks = [deck(["T-C1"] * 4, {}), deck(["T-C2"] * 4, {})]
    return ENGINE.new_game(
        seats=2,
        seed=seed,
        options=options,
        config={"decks": [d if isinstance(d, str) else list(d) for d in decks], "cards": extra},
    )


def start(state: dict[str, Any]) -> dict[str, Any]:
    """Both choose their first character as Leader and keep: turn 1, the Replenish plays."""
    for seat in (0, 1):
        state, _ = ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0])
    for seat in (0, 1):
        state, _ = ENGINE.apply(state, seat, {"type": "keep"})
    return state


def started(
    cards: Sequence[Mapping[str, Any]] = (),
    *,
    first: int = 0,
    decks: Sequence[Sequence[str]] | None = None,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A started game in which seat ``first`` goes first (the seed is searched for it)."""
    for seed in range(50):
        state = start(new_game(cards, decks, seed=seed, options=options))
        if state["first"] == first:
            return state
    raise AssertionError("no seed gives that first player")


def find(state: dict[str, Any], seat: int, number: str) -> str:
    """An instance of card ``number`` that ``seat`` owns, from her deck or hand first."""
    player = state["players"][seat]
    for zone in ("deck", "hand", "reserve", "active", "discard"):
        for inst in player[zone]:
            if state["inst"][inst] == number:
                return str(inst)
    raise AssertionError(f"seat {seat} has no {number}")


def put(state: dict[str, Any], seat: int, number: str, zone: str) -> str:
    """Move one of ``seat``'s ``number`` cards into ``zone`` (test set-up, not a move)."""
    inst = find(state, seat, number)
    player = state["players"][seat]
    for z in ("deck", "hand", "reserve", "active", "discard"):
        if inst in player[z]:
            player[z].remove(inst)
    if zone == "hand":
        player[zone].insert(0, inst)  # first in hand: the copy the legal actions offer
    else:
        player[zone].append(inst)
    return inst


def pass_window(state: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Both players pass the current Event/Special window."""
    events: list[dict[str, Any]] = []
    for _ in range(2):
        seat = ENGINE.waiting_on(state)[0]
        state, evs = ENGINE.apply(state, seat, {"type": "pass"})
        events += evs
    return state, events


def texts(events: Sequence[Mapping[str, Any]]) -> str:
    return "\n".join(str(e["text"]) for e in events)
