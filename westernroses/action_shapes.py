"""Action shapes: what each action type of a game may carry, as pure data beside its engine.

Why: an engine checks whether a move is *legal*; it does not police the shape of the JSON.
Without shapes a player's action could carry any extra key into the log that every seat
downloads (a 4.5 MB ``note`` on a "do nothing" was once accepted and served to every player).
So every game declares, in its engine package, one :class:`ActionShape` per action type
(``GameEngine.action_shapes()``, :mod:`westernroses.protocol`), and the table core refuses,
before the engine sees it, an action whose type is unknown, that carries a key its type does
not declare, or whose strings, numbers and lists are out of bounds (:func:`check`, whose
:class:`ShapeError` the Django side turns into a 400 with field errors).

The bounds come from the engine's own data (a seat index from its most seats, a tower index
from its towers); the shared conformance check plays random games and holds every legal
action to its type's shape, so a shape never refuses a move the engine offers::

    ACTIONS = shapes(ActionShape("play", {"card": Int(1, 9)}))
    check({"type": "play", "card": 3}, ACTIONS)  # -> the action; ShapeError if it does not fit

Pure Python, like the engines: no Django here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

#: The most any string in an action may hold, and the most items a list may hold, unless a
#: field says less.
MAX_STRING: Final = 200
MAX_ITEMS: Final = 50


class ShapeError(ValueError):
    """An action that does not fit its game's shapes. ``messages`` are sentences for the
    player, one per problem ("The field “card”: Give a whole number from 1 to 9."); ``fields``
    maps each bad field to its problems (empty when the action as a whole is wrong: not an
    object with a type, or a type the game does not have)."""

    def __init__(self, messages: list[str], fields: Mapping[str, list[str]] | None = None) -> None:
        super().__init__(" ".join(messages))
        self.messages: tuple[str, ...] = tuple(messages)
        self.fields: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in (fields or {}).items()}


@dataclass(frozen=True)
class Field:
    """One field of an action. ``required``: the action must carry it; ``nullable``: ``null``
    is accepted as "none". :meth:`check` returns the value or raises ``ValueError`` with a
    sentence for the player."""

    required: bool = field(default=True, kw_only=True)
    nullable: bool = field(default=False, kw_only=True)

    def check(self, value: Any) -> Any:
        raise NotImplementedError


@dataclass(frozen=True)
class Int(Field):
    """A whole number from ``minimum`` to ``maximum`` (``true`` and ``1.0`` are not)."""

    minimum: int = -(2**31)
    maximum: int = 2**31 - 1

    def check(self, value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError("Give a whole number.")
        if not self.minimum <= value <= self.maximum:
            raise ValueError(f"Give a whole number from {self.minimum} to {self.maximum}.")
        return value


@dataclass(frozen=True)
class Bool(Field):
    """``true`` or ``false``."""

    def check(self, value: Any) -> Any:
        if not isinstance(value, bool):
            raise ValueError("Give true or false.")
        return value


@dataclass(frozen=True)
class Str(Field):
    """A string of at most ``max_length`` characters, one of ``choices`` when given."""

    max_length: int = MAX_STRING
    choices: tuple[str, ...] = ()

    def check(self, value: Any) -> Any:
        if not isinstance(value, str):
            raise ValueError("Give a text value.")
        if len(value) > self.max_length:
            raise ValueError(f"At most {self.max_length} characters.")
        if self.choices and value not in self.choices:
            raise ValueError(f"Choose one of: {', '.join(self.choices)}.")
        return value


@dataclass(frozen=True)
class List(Field):
    """A list of at most ``max_items`` values, each fitting ``item``."""

    item: Field
    max_items: int = MAX_ITEMS

    def check(self, value: Any) -> Any:
        if not isinstance(value, list):
            raise ValueError("Give a list.")
        if len(value) > self.max_items:
            raise ValueError(f"At most {self.max_items} items.")
        return [self.item.check(v) for v in value]


@dataclass(frozen=True)
class Square(Field):
    """A grid square ``[x, y]``, each from 0 to ``maximum``."""

    maximum: int = 999

    def check(self, value: Any) -> Any:
        out = List(Int(0, self.maximum), max_items=2).check(value)
        if len(out) != 2:
            raise ValueError("A square is [x, y].")
        return out


@dataclass(frozen=True)
class Obj(Field):
    """A nested object with its own declared fields (a key it does not declare is refused)."""

    fields: Mapping[str, Field] = field(default_factory=dict)

    def check(self, value: Any) -> Any:
        if not isinstance(value, Mapping):
            raise ValueError("Give an object.")
        errors = field_errors(self.fields, value)
        if errors:
            raise ValueError(" ".join(f"{k}: {' '.join(v)}" for k, v in errors.items()))
        return {k: self.fields[k].check(v) if v is not None else None for k, v in value.items()}


@dataclass(frozen=True)
class Json(Field):
    """Any JSON value of at most ``max_bytes`` written compactly (a GM's override that carries
    a whole combatant: the engine checks what is inside)."""

    max_bytes: int = 20_000

    def check(self, value: Any) -> Any:
        try:
            size = len(json.dumps(value, separators=(",", ":")))
        except (TypeError, ValueError, RecursionError):
            raise ValueError("Give a JSON value.") from None
        if size > self.max_bytes:
            raise ValueError(f"At most {self.max_bytes} bytes.")
        return value


@dataclass(frozen=True)
class ActionShape:
    """The keys one action type may carry (``type`` is implied)."""

    type: str
    fields: Mapping[str, Field] = field(default_factory=dict)


def shapes(*items: ActionShape) -> dict[str, ActionShape]:
    """A game's shapes by action type."""
    return {s.type: s for s in items}


def field_errors(fields: Mapping[str, Field], data: Mapping[str, Any]) -> dict[str, list[str]]:
    """Each bad key of ``data`` against ``fields`` with its problems in words (``type`` is
    never one: it names the shape)."""
    errors: dict[str, list[str]] = {}
    for key in data:
        if key != "type" and key not in fields:
            errors[str(key)[:40]] = ["This action does not take this field."]
    for name, spec in fields.items():
        if name not in data or (data[name] is None and spec.nullable):
            if name not in data and spec.required:
                errors[name] = ["This field is required."]
            continue
        try:
            spec.check(data[name])
        except ValueError as exc:
            errors[name] = [str(exc)]
    return errors


def _label(key: str) -> str:
    return f"The field \u201c{key}\u201d"


def check(action: Any, known: Mapping[str, ActionShape]) -> dict[str, Any]:
    """``action`` checked against its type's shape in ``known``: a new dict with ``type``
    first, or :class:`ShapeError` naming each bad field in a sentence."""
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
        raise ShapeError(["An action is an object with a type."])
    kind = action["type"]
    shape = known.get(kind)
    if shape is None:
        raise ShapeError(["This game has no such action."])
    errors = field_errors(shape.fields, action)
    if errors:
        messages = [f"{_label(k)}: {m}" for k, msgs in errors.items() for m in msgs]
        raise ShapeError(messages, errors)
    return {"type": kind, **{k: v for k, v in action.items() if k != "type"}}
