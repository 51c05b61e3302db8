"""Action schemas: what each action type may carry, checked before the engine sees it.

Why: an engine checks whether a move is *legal*; it does not police the shape of the JSON.
Without this a player's action could carry any extra key into the log that every seat
downloads (a 4.5 MB ``note`` on a "do nothing" was once accepted and served to every player).
So every table refuses, with field errors (400), an action whose type is unknown, that has a
key its type does not declare, or whose strings, numbers and lists are out of bounds.

A game declares one :class:`ActionSchema` per action type with small field specs::

    DUEL_ACTIONS = schemas(ActionSchema("play", {"card": Int(1, 9)}))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from django.core.exceptions import ValidationError

#: The most any string in an action may hold, and the most items a list may hold, unless a
#: field says less.
MAX_STRING: Final = 200
MAX_ITEMS: Final = 50


class Field:
    """One field of an action: ``check`` returns the cleaned value or raises ValueError with a
    sentence for the player."""

    def __init__(self, *, required: bool = True, nullable: bool = False) -> None:
        self.required = required
        self.nullable = nullable

    def check(self, value: Any) -> Any:
        raise NotImplementedError


class Int(Field):
    def __init__(self, minimum: int = -(2**31), maximum: int = 2**31 - 1, **kw: Any) -> None:
        super().__init__(**kw)
        self.minimum, self.maximum = minimum, maximum

    def check(self, value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError("Give a whole number.")
        if not self.minimum <= value <= self.maximum:
            raise ValueError(f"Give a whole number from {self.minimum} to {self.maximum}.")
        return value


class Bool(Field):
    def check(self, value: Any) -> Any:
        if not isinstance(value, bool):
            raise ValueError("Give true or false.")
        return value


class Str(Field):
    def __init__(
        self, max_length: int = MAX_STRING, choices: tuple[str, ...] = (), **kw: Any
    ) -> None:
        super().__init__(**kw)
        self.max_length, self.choices = max_length, choices

    def check(self, value: Any) -> Any:
        if not isinstance(value, str):
            raise ValueError("Give a text value.")
        if len(value) > self.max_length:
            raise ValueError(f"At most {self.max_length} characters.")
        if self.choices and value not in self.choices:
            raise ValueError(f"Choose one of: {', '.join(self.choices)}.")
        return value


class List(Field):
    def __init__(self, item: Field, max_items: int = MAX_ITEMS, **kw: Any) -> None:
        super().__init__(**kw)
        self.item, self.max_items = item, max_items

    def check(self, value: Any) -> Any:
        if not isinstance(value, list):
            raise ValueError("Give a list.")
        if len(value) > self.max_items:
            raise ValueError(f"At most {self.max_items} items.")
        return [self.item.check(v) for v in value]


class Square(List):
    """A grid square ``[x, y]``."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(Int(0, 999), max_items=2, **kw)

    def check(self, value: Any) -> Any:
        out = super().check(value)
        if len(out) != 2:
            raise ValueError("A square is [x, y].")
        return out


class Obj(Field):
    """A nested object with its own declared fields (unknown keys refused)."""

    def __init__(self, fields: Mapping[str, Field], **kw: Any) -> None:
        super().__init__(**kw)
        self.fields = dict(fields)

    def check(self, value: Any) -> Any:
        if not isinstance(value, Mapping):
            raise ValueError("Give an object.")
        errors = _check_fields(self.fields, value)
        if errors:
            raise ValueError(" ".join(f"{k}: {' '.join(v)}" for k, v in errors.items()))
        return {k: self.fields[k].check(v) if v is not None else None for k, v in value.items()}


class Json(Field):
    """Any JSON value of bounded size (for a GM override that carries a whole combatant)."""

    def __init__(self, max_bytes: int = 20_000, **kw: Any) -> None:
        super().__init__(**kw)
        self.max_bytes = max_bytes

    def check(self, value: Any) -> Any:
        import json

        if len(json.dumps(value, separators=(",", ":"))) > self.max_bytes:
            raise ValueError(f"At most {self.max_bytes} bytes.")
        return value


@dataclass(frozen=True)
class ActionSchema:
    """The keys one action type may carry (``type`` is implied)."""

    type: str
    fields: Mapping[str, Field] = field(default_factory=dict)


def schemas(*items: ActionSchema) -> dict[str, ActionSchema]:
    return {s.type: s for s in items}


def _check_fields(fields: Mapping[str, Field], data: Mapping[str, Any]) -> dict[str, list[str]]:
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


def validate_action(action: Any, known: Mapping[str, ActionSchema]) -> dict[str, Any]:
    """``action`` checked against its type's schema, or ValidationError whose ``action``
    errors name each bad field in a sentence (the API's 400)."""
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
        raise ValidationError({"action": ["An action is an object with a type."]})
    kind = action["type"]
    schema = known.get(kind)
    if schema is None:
        raise ValidationError({"action": ["This game has no such action."]})
    errors = _check_fields(schema.fields, action)
    if errors:
        raise ValidationError(
            {"action": [f"{_label(k)}: {m}" for k, msgs in errors.items() for m in msgs]}
        )
    return {"type": kind, **{k: v for k, v in action.items() if k != "type"}}
