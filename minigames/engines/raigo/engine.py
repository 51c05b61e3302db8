"""The RAIGO engine object: the protocol (westernroses/protocol.py) over the modules here."""

from __future__ import annotations

import pickle
from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from minigames.engines.raigo import actions, player_view, spells
from minigames.engines.raigo.board import Json, seat_name
from minigames.engines.raigo.resolution import Ctx, returns, row_words
from minigames.engines.raigo.setup import HOUSE_RULES, MAX_SEATS, MIN_SEATS, new_state
from minigames.engines.raigo.shapes import ACTIONS
from westernroses.action_shapes import ActionShape
from westernroses.protocol import HouseRule, IllegalAction, Seat, Text
from westernroses.undo_policy import nothing_drawn_or_revealed
from westernroses.words import N_, Words

STATE_VERSION = 1


def same_json(a: Any, b: Any) -> bool:
    """``a`` and ``b`` are the same JSON: equal, and of the same type all the way down, so
    ``True`` is not ``1`` and ``1.0`` is not ``1`` (Python's ``==`` says they are; a move
    must be exactly one of the legal ones). Cheaper than comparing canonical JSON texts."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_json(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def copy_state(value: Any) -> Any:
    """A deep copy of a JSON state, which the search bot's playouts make at every move:
    an orjson round trip (twice as fast as pickle's on a RAIGO state, and six times
    ``copy.deepcopy``'s). What orjson refuses (a key that is not a string, an integer
    beyond 64 bits) goes through pickle instead; both keep every JSON value as it is.
    (Only our own freshly pickled bytes are ever unpickled.)"""
    try:
        return orjson.loads(orjson.dumps(value))
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))  # noqa: S301


def _seat(seat: Seat) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise IllegalAction(Words(N_("RAIGO seats are numbered from 0.")))
    return seat


class RaigoEngine:
    """RAIGO for 2-4 seats (four: seats 0 and 2 against 1 and 3)."""

    slug = "raigo"
    title = "RAIGO"
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS

    def house_rules(self) -> Sequence[HouseRule]:
        return HOUSE_RULES

    def action_shapes(self) -> Mapping[str, ActionShape]:
        return ACTIONS

    def new_game(
        self,
        *,
        seats: int,
        seed: int,
        options: Mapping[str, Any] | None = None,
        config: Mapping[str, Any] | None = None,
    ) -> Json:
        state = new_state(seats=seats, seed=seed, options=options, config=config)
        state["version"] = STATE_VERSION
        ctx = Ctx(state)
        from minigames.engines.raigo.turn import advance

        advance(ctx)
        return state

    def waiting_on(self, state: Json) -> tuple[Seat, ...]:
        return actions.waiting_on(state)

    def legal_actions(self, state: Json, seat: Seat) -> list[Json]:
        return actions.legal_actions(state, seat)

    def apply(self, state: Json, seat: Seat, action: Mapping[str, Any]) -> tuple[Json, list[Json]]:
        if state["over"]:
            raise IllegalAction(Words(N_("The game is over.")))
        if seat not in actions.waiting_on(state):
            raise IllegalAction(Words(N_("It is not your move.")))
        if not isinstance(action, Mapping):
            raise IllegalAction(Words(N_("That is not a move.")))
        legal = actions.legal_actions(state, seat)
        asked = dict(action)
        # Equality first (cheap), then the types too (which tell True from 1).
        if not any(a == asked and same_json(a, asked) for a in legal):
            raise IllegalAction(Words(N_("That move is not allowed now.")))
        ctx = Ctx(copy_state(state))
        actions.apply_action(ctx, _seat(seat), action)
        return ctx.state, ctx.events

    def view(self, state: Json, seat: Seat | None) -> Json:
        return player_view.view(state, seat if isinstance(seat, int) else None)

    def hidden_from(self, state: Json, seat: Seat | None) -> set[str]:
        return player_view.hidden_from(state, seat if isinstance(seat, int) else None)

    def determinize(self, state: Json, seat: Seat, seed: int) -> Json:
        return player_view.determinize(copy_state(state), _seat(seat), seed)

    def is_terminal(self, state: Json) -> bool:
        return bool(state["over"])

    def returns(self, state: Json) -> list[float]:
        return returns(state)

    def result(self, state: Json) -> Json:
        if not state["over"]:
            return {}
        result: Json = copy_state(state["result"])
        return result

    def summary(self, state: Json) -> Text:
        if state["over"]:
            return row_words(state["result"])
        turn = state["turn"]
        return Words(
            N_("Turn %(number)s: %(name)s to play"),
            {"number": turn["number"], "name": seat_name(state, turn["seat"])},
        )

    def waiting_text(self, state: Json, seat: Seat) -> Text | None:
        """For a seat asked to answer a spell in someone else's turn, the spell in words for
        her (her "your move" notification); None otherwise (the summary says it)."""
        prompt = state["prompt"]
        if prompt is None or prompt["kind"] != "react" or seat not in actions.waiting_on(state):
            return None
        asked = _seat(seat)
        target = prompt.get("target") or {}
        words = (
            spells.target_words(state, {"effect": prompt["effect"], **target}, asked, you=True)
            if "seat" in target
            else ""
        )
        return Words(
            N_("%(name)s chants %(spell)s%(target)s: answer it, or let it happen."),
            {
                "name": seat_name(state, prompt["caster"]),
                "spell": spells.effect_words(prompt["effect"]),
                "target": words,
            },
        )

    def is_undoable(
        self, before: Json, seat: Seat, action: Mapping[str, Any], after: Json, events: list[Any]
    ) -> bool:
        """Board Game Arena's undo policy (``westernroses.undo_policy``): a move that drew
        nothing at random and revealed nothing hidden may be taken back."""
        return nothing_drawn_or_revealed(self, before, after, events)

    def timeout_action(self, state: Json, seat: Seat) -> Json | None:
        prompt = state["prompt"]
        if prompt is not None and prompt["kind"] == "react" and seat in actions.waiting_on(state):
            return {"type": "decline"}
        return None

    def describe_action(self, state: Json, seat: Seat, action: Mapping[str, Any]) -> Text:
        return actions.describe(state, _seat(seat), action)

    def public_action(self, state: Json, seat: Seat, action: Mapping[str, Any]) -> Json:
        """What the others learn: a secret answer to a spell shows only that she answered,
        unless it is the last (then all are opened); which token she moves between her private
        places (fetched from her Body, placed from her draw, arranged by Purify) is hers alone
        (others who had seen it stop seeing it: board.blur); everything else is done in the
        open."""
        return actions.public_face(state, _seat(seat), action)

    def to_json(self, state: Json) -> Json:
        data: Json = copy_state(state)
        return data

    def from_json(self, data: Mapping[str, Any]) -> Json:
        if data.get("game") != "raigo":
            raise ValueError("This is not a saved RAIGO game.")
        state: Json = copy_state(dict(data))
        return state


ENGINE = RaigoEngine()
