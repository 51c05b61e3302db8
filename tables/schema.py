"""The Django side of action shapes: an action that does not fit its game's shapes is a 400.

Each game's engine declares what its actions may carry, as pure data
(``engine.action_shapes()``, :mod:`westernroses.action_shapes`); the table core checks every
action against them before any lock or engine call. This module only turns the engine layer's
:class:`~westernroses.action_shapes.ShapeError` into Django's ``ValidationError``, whose
``action`` errors name each bad field in a sentence (the API's one error shape).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError

from westernroses.action_shapes import ActionShape, ShapeError, check


def validate_action(action: Any, known: Mapping[str, ActionShape]) -> dict[str, Any]:
    """``action`` checked against its type's shape in ``known`` (a new dict, ``type`` first),
    or ValidationError ``{"action": [sentences]}``."""
    try:
        return check(action, known)
    except ShapeError as exc:
        raise ValidationError({"action": list(exc.messages)}) from None
