"""The time control's fields on a page's new-table form (``templates/tables/clock_fields.html``):
the mode, the minutes it gives and the rule, read back as a :class:`~.controls.TimeControl`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from apibase.numbers import whole_number

from .controls import MODES, RULES, ControlError, TimeControl, check_control


def clock_from_form(post: Mapping[str, Any]) -> TimeControl | None:
    """The time control a form asked for (minutes), or None; a ``ValidationError`` in words."""
    mode = post.get("clock_mode", "none") or "none"
    if mode == "none":
        return None
    minutes = whole_number(post.get("clock_minutes", ""))
    try:
        return check_control(
            mode, None if minutes is None else minutes * 60, post.get("clock_rule", "skip")
        )
    except ControlError as exc:
        words = {
            "clock_seconds": [gettext("Turn clock: give from 1 minute to 3 days per move "
                                      "(30 days in all), in minutes.")],
        }  # fmt: skip
        raise ValidationError({k: words.get(k, v) for k, v in exc.errors.items()}) from None


def clock_form_context(
    posted: Mapping[str, Any] | None, rules: Sequence[str] | None = None
) -> dict[str, Any]:
    """The fields' choices, with what was posted chosen again; ``rules`` narrows what happens
    when time runs out to what the game allows (a battle: the seat is skipped)."""
    posted = posted or {}
    mode = posted.get("clock_mode", "none")
    rule = posted.get("clock_rule", "skip")
    return {
        "modes": [(key, gettext(words), key == mode) for key, words in MODES.items()],
        "rules": [
            (key, gettext(words), key == rule)
            for key, words in RULES.items()
            if rules is None or key in rules
        ],
        "minutes": posted.get("clock_minutes", "") or "1440",
    }


def clock_form_for(clock: Mapping[str, Any] | None, rules: Sequence[str]) -> dict[str, Any]:
    """The fields filled with a table's clock as it is (:func:`.controls.public`), to change
    it or take it off after the table is open (a battle's GM)."""
    if clock is None:
        return clock_form_context(None, rules)
    posted = {
        "clock_mode": clock["mode"],
        "clock_rule": clock["rule"],
        "clock_minutes": str(max(1, int(clock["seconds"]) // 60)),
    }
    return clock_form_context(posted, rules)
