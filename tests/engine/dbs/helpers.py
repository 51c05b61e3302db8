"""Shared set-up for the DBS engine tests: a game past its opening, and cards placed where a
test needs them. Card placement edits the JSON state (the engine's own data), never engine
code; every action is then played through ``ENGINE.apply``."""

from __future__ import annotations

from typing import Any

from minigames.engines.dbs import ENGINE, preset_deck, starter_card_set
from westernroses.protocol import Event

#: The English rulebook the tests cite by line (../shared/rules/).
RULES = "dream-battle-of-spellcard-rules.en.md"

State = dict[str, Any]


def opened(
    *,
    seed: int = 1,
    decks: tuple[str, str] = ("shrine-and-stars", "netherworld-and-bamboo"),
    characters: tuple[str, str] = ("DBS-001", "DBS-004"),
    retrieve: tuple[str | None, str | None] = (None, None),
    options: dict[str, Any] | None = None,
) -> State:
    """A game after its opening: seat 0 goes first and stands in her first Change phase."""
    config = {"decks": [preset_deck(decks[0]), preset_deck(decks[1])]}
    state = ENGINE.new_game(
        seats=2, seed=seed, options={"first_player": "first", **(options or {})}, config=config
    )
    for seat in (0, 1):
        state, _ = ENGINE.apply(state, seat, {"type": "choose_character", "card": characters[seat]})
    for seat in (0, 1):
        legal = ENGINE.legal_actions(state, seat)
        action = (
            legal[0] if retrieve[seat] is None else {"type": "retrieve", "card": retrieve[seat]}
        )
        state, _ = ENGINE.apply(state, seat, action)
    return state


def new_card(state: State, number: str) -> str:
    """A fresh card instance of ``number`` (in no zone yet: the caller places it); a number
    not in the state's cards comes from the starter set."""
    if number not in state["cards"]:
        state["cards"][number] = starter_card_set()[number]
    iid = f"dbs-card-{len(state['instances'])}"
    assert iid not in state["instances"]
    state["instances"][iid] = number
    return iid


def give(state: State, seat: int, number: str, zone: str = "hand") -> str:
    """Put a fresh ``number`` into ``seat``'s ``zone`` (hand, deck top, chain, grave, extra_sp)."""
    iid = new_card(state, number)
    target = state["players"][seat][zone]
    if zone == "deck":
        target.insert(0, iid)
    else:
        target.append(iid)
    return iid


def clear_hand(state: State, seat: int) -> None:
    """Send ``seat``'s hand to her grave (cards stay in exactly one zone)."""
    me = state["players"][seat]
    me["grave"] += me["hand"]
    me["hand"] = []
    me["known"] = []


def set_item(state: State, seat: int, number: str, *, face_down: bool) -> str:
    iid = new_card(state, number)
    state["players"][seat]["items"].append({"card": iid, "face_down": face_down})
    return iid


def call(state: State, seat: int, number: str, status: str = "support") -> str:
    iid = new_card(state, number)
    state["players"][seat]["characters"].append({"card": iid, "status": status})
    return iid


def number_of(state: State, iid: str) -> str:
    return str(state["instances"][iid])


def act(
    state: State, seat: int, kind: str, number: str | None = None, **extra: Any
) -> tuple[State, list[Event]]:
    """Play the legal action of ``kind`` (on a card numbered ``number``), failing the test if
    there is none."""
    for action in ENGINE.legal_actions(state, seat):
        if action["type"] != kind:
            continue
        if number is not None and number_of(state, action["card"]) != number:
            continue
        if any(action.get(k) != v for k, v in extra.items()):
            continue
        return ENGINE.apply(state, seat, action)
    raise AssertionError(
        f"no legal {kind} {number or ''} for seat {seat}: {ENGINE.legal_actions(state, seat)}"
    )


def kinds(state: State, seat: int) -> list[str]:
    return [a["type"] for a in ENGINE.legal_actions(state, seat)]


def to_battle(state: State) -> State:
    """From the Change phase of the active player straight to her Battle phase."""
    seat = state["active"]
    if state["phase"] == "change":
        state, _ = act(state, seat, "skip_change")
    state, _ = act(state, seat, "end_set")
    assert state["phase"] == "battle"
    return state


def texts(events: list[Event]) -> str:
    return " ".join(e["text"] for e in events)
