"""Building RAIGO positions by hand for the rule tests: tokens are taken from Raizan by kind and
laid where a test wants them, so every token stays in exactly one place."""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

from minigames.engines.raigo import ENGINE
from minigames.engines.raigo.board import HANDS, learn, player, sort_body
from minigames.engines.raigo.resolution import Ctx
from minigames.engines.raigo.tokens import all_token_ids, kind
from minigames.engines.raigo.turn import advance

Json = dict[str, Any]


def every_place(state: Json) -> list[str]:
    """Every token of the state, wherever it lies (each should appear exactly once)."""
    out = [state["bonus"], *state["box"], *state["canyon"], *state["in_play"]]
    out += [t for pile in state["raizan"] for t in pile]
    out += [s["token"] for s in state["seals"]]
    if state["destroy"] is not None:
        out += [state["destroy"]["token"], *state["destroy"]["row"]]
    for p in state["players"]:
        out += p["body"] + [p[h] for h in HANDS if p[h] is not None]
        out += [t for tower in p["towers"] for t in tower]
    out += state["turn"]["drawn"]
    return out


@cache
def _every_token(two_players: bool) -> frozenset[str]:
    """The set's tokens (the same all game long: taken once, not at every step)."""
    tokens = all_token_ids(two_players=two_players)
    assert len(set(tokens)) == len(tokens), "the token set names a token twice"
    return frozenset(tokens)


def assert_tokens_accounted(state: Json) -> None:
    """Every token of the set in exactly one place: none in two, none lost, none made up."""
    places = every_place(state)
    found = set(places)
    if len(found) != len(places):
        counts = Counter(places)
        assert not [t for t, c in counts.items() if c > 1], "a token is in two places"
    assert found == _every_token(state["seats"] == 2), "a token is lost or made up"


def bare(seats: int = 3, seed: int = 1, **options: Any) -> Json:
    """A new game with every board emptied back into Raizan, waiting for nothing yet."""
    state: Json = ENGINE.new_game(seats=seats, seed=seed, options=options or None)
    for p in state["players"]:
        for token in p["body"] + [p[h] for h in HANDS if p[h] is not None]:
            state["raizan"][0].append(token)
        p["body"], p["left"], p["right"] = [], None, None
    state["known"] = {}
    state["prompt"] = None
    return state


def take(state: Json, key: str) -> str:
    """A token of kind ``key`` out of Raizan (or the Canyon if Raizan has none left)."""
    for pile in [*state["raizan"], state["canyon"]]:
        for token in pile:
            if kind(token).key == key:
                pile.remove(token)
                return token
    raise LookupError(f"no {key} token left")


def give(
    state: Json,
    seat: int,
    *,
    body: list[str] | None = None,
    left: str | None = None,
    right: str | None = None,
    towers: list[list[str]] | None = None,
    balls: int | None = None,
) -> None:
    p = player(state, seat)
    for key in body or []:
        token = take(state, key)
        p["body"].append(token)
        learn(state, token, seat)
    sort_body(p["body"])
    for hand, key in (("left", left), ("right", right)):
        if key is not None:
            token = take(state, key)
            p[hand] = token
            learn(state, token, seat)
    for index, keys in enumerate(towers or []):
        for key in keys:
            token = take(state, key)
            p["towers"][index].append(token)
            learn(state, token, seat)
    if balls is not None:
        p["balls"] = balls


def start(state: Json, seat: int = 0, stage: str = "act_start") -> Json:
    """Make it ``seat``'s turn at ``stage`` and run on to the first decision."""
    state["turn"].update({"seat": seat, "stage": stage, "fetched": 0, "pending": []})
    state["prompt"] = None
    advance(Ctx(state))
    return state


def play(state: Json, seat: int, action: Json) -> tuple[Json, list[Json]]:
    assert action in ENGINE.legal_actions(state, seat), (action, ENGINE.legal_actions(state, seat))
    new, events = ENGINE.apply(state, seat, action)
    assert_tokens_accounted(new)
    return new, events


def kinds(tokens: list[str]) -> list[str]:
    return [kind(t).key for t in tokens]


def texts(events: list[Json]) -> str:
    return " | ".join(e["text"] for e in events)
