"""Where the tokens are, who knows them, and moving them (the state's plumbing).

The state is one JSON dict. Each player's board is ``{"balls", "body", "left", "right",
"towers"}``: the Body bottom (heaviest) first, each Hand one token or None, each tower bottom
first. Public places: the Bonus Token, the Canyon, spells in play, Destroy's row and the seals.
Private places: Raizan, the box (two players), Inner Tokens, towers and drawn tokens. For a token
in a private place ``known[id]`` lists the seats that have seen it; ``revealed`` lists tokens
everyone has seen (a Raigo Battle reveal, a token taken from the Canyon).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain
from typing import Any, Final, TypeAlias

from minigames.engines.raigo.tokens import sort_body, weight
from westernroses.words import N_, Words

Json: TypeAlias = dict[str, Any]

HANDS = ("left", "right")
ORDINALS = ("first", "second", "third")
#: The most towers a player builds (three with two players, two otherwise): each is named by
#: its ordinal.
MOST_TOWERS: Final = len(ORDINALS)


def player(state: Json, seat: int) -> Json:
    p: Json = state["players"][seat]
    return p


def seat_name(state: Json, seat: int) -> str:
    name: str = state["names"][seat]
    return name


def whose(state: Json, owner: int, actor: int | None = None, *, you: bool = False) -> Words:
    """The owner of a thing in words: "Reimu's", or, when the one acting (``actor``) owns it,
    "your" on her own move button (``you``) and "her" in the log: never her own name twice
    in one sentence ("Reimu chants Mist as Katana on the top of Reimu's tower")."""
    if owner == actor:
        return Words(N_("your")) if you else Words(N_("her"))
    return Words(N_("%(name)s's"), {"name": seat_name(state, owner)})


#: A tower by its owner ("your", "her", a name) and its ordinal, one sentence each so that a
#: translation may order the words its own way.
TOWER_WORDS: Final = {
    ("your", 0): N_("your first tower"),
    ("your", 1): N_("your second tower"),
    ("your", 2): N_("your third tower"),
    ("her", 0): N_("her first tower"),
    ("her", 1): N_("her second tower"),
    ("her", 2): N_("her third tower"),
    ("name", 0): N_("%(name)s's first tower"),
    ("name", 1): N_("%(name)s's second tower"),
    ("name", 2): N_("%(name)s's third tower"),
}


def tower_name(
    state: Json, seat: int, tower: int, actor: int | None = None, *, you: bool = False
) -> Words:
    if seat == actor:
        return Words(TOWER_WORDS["your" if you else "her", tower])
    return Words(TOWER_WORDS["name", tower], {"name": seat_name(state, seat)})


def inner_tokens(p: Json) -> list[str]:
    return [*p["body"], *(p[h] for h in HANDS if p[h] is not None)]


def inner_count(p: Json) -> int:
    return len(p["body"]) + sum(1 for h in HANDS if p[h] is not None)


def occupied_spaces(p: Json) -> list[str]:
    """Occupied spaces of a board: ``body0`` (bottom) … and ``left``/``right``."""
    spaces = [f"body{i}" for i in range(len(p["body"]))]
    return spaces + [h for h in HANDS if p[h] is not None]


#: A space of a board in words ("left hand", "top Body space").
SPACE_WORDS: Final = {
    "left": N_("left hand"),
    "right": N_("right hand"),
    "body0": N_("bottom Body space"),
    "body1": N_("middle Body space"),
    "body2": N_("top Body space"),
}


def space_words(space: str) -> Words:
    return Words(SPACE_WORDS.get(space, N_("Body")))


def get_space(p: Json, space: str) -> str:
    token: str = p[space] if space in HANDS else p["body"][int(space[4:])]
    return token


def set_space(p: Json, space: str, token: str) -> None:
    if space in HANDS:
        p[space] = token
    else:
        p["body"][int(space[4:])] = token


def take_space(p: Json, space: str) -> str:
    token = get_space(p, space)
    if space in HANDS:
        p[space] = None
    else:
        p["body"].pop(int(space[4:]))
    return token


def put_body(p: Json, token: str) -> None:
    p["body"].append(token)
    sort_body(p["body"])


def learn(state: Json, token: str, seat: int) -> None:
    seen: list[int] = state["known"].setdefault(token, [])
    if seat not in seen:
        seen.append(seat)
        seen.sort()


def reveal(state: Json, token: str) -> None:
    if token not in state["revealed"]:
        state["revealed"].append(token)


def blur(state: Json, owner: int, tokens: list[str]) -> None:
    """``owner`` moved ``tokens`` among her private places where nobody else can follow which
    went where (a Fetch from her Body, whose order nobody else sees; a Purify rearrangement):
    everyone else stops seeing them, a token everyone had seen included, so nothing tells
    which one moved. She keeps seeing her own."""
    for token in tokens:
        state["known"][token] = [owner]
        if token in state["revealed"]:
            state["revealed"].remove(token)


def go_public(state: Json, token: str) -> None:
    """The token is now face up in a public place: nobody's private knowledge is needed."""
    state["known"].pop(token, None)
    if token in state["revealed"]:
        state["revealed"].remove(token)


def sealed(state: Json, seat: int, tower: int) -> bool:
    return any(s["seat"] == seat and s["tower"] == tower for s in state["seals"])


def open_towers(state: Json, seat: int) -> list[int]:
    """Towers of ``seat`` that exist for spells: not sealed, at least one token."""
    towers = player(state, seat)["towers"]
    return [i for i, t in enumerate(towers) if t and not sealed(state, seat, i)]


def raizan_total(state: Json) -> int:
    return sum(len(pile) for pile in state["raizan"])


def draw_token(state: Json) -> str:
    """Take a token from Raizan (the fullest pile: every token there is unknown to all, so which
    pile a player draws from changes nothing)."""
    pile = max(state["raizan"], key=len)
    token: str = pile.pop()
    return token


def team_of(state: Json, seat: int) -> list[int]:
    """The seats scoring together with ``seat`` (herself alone except with four players)."""
    if state["seats"] == 4:
        return [seat % 2, seat % 2 + 2]
    return [seat]


def sides(state: Json) -> list[list[int]]:
    if state["seats"] == 4:
        return [[0, 2], [1, 3]]
    return [[s] for s in range(state["seats"])]


def private_slots(state: Json) -> list[tuple[Any, Any]]:
    """Every (container, key) holding a token in a private place, in a fixed order."""
    slots: list[tuple[Any, Any]] = []
    for pile in state["raizan"]:
        slots.extend((pile, i) for i in range(len(pile)))
    slots.extend((state["box"], i) for i in range(len(state["box"])))
    for p in state["players"]:
        slots.extend((p["body"], i) for i in range(len(p["body"])))
        slots.extend((p, h) for h in HANDS if p[h] is not None)
        for tower in p["towers"]:
            slots.extend((tower, i) for i in range(len(tower)))
    drawn = state["turn"]["drawn"]
    slots.extend((drawn, i) for i in range(len(drawn)))
    return slots


def private_tokens(state: Json) -> Iterator[str]:
    """Every token in a private place, in :func:`private_slots`'s order, without the slots (the
    leak checks ask this of every state for every seat)."""
    places: list[list[str]] = [*state["raizan"], state["box"]]
    for p in state["players"]:
        places.append(p["body"])
        places.append([p[h] for h in HANDS if p[h] is not None])
        places.extend(p["towers"])
    places.append(state["turn"]["drawn"])
    return chain.from_iterable(places)


def visible_to(state: Json, token: str, seat: int | None) -> bool:
    """Whether ``seat`` (None: a spectator) may see ``token`` where it now lies."""
    if token in state["revealed"]:
        return True
    return seat is not None and seat in state["known"].get(token, ())


def total_weight(tokens: list[str]) -> int:
    return sum(weight(t) for t in tokens)
