"""Time controls and seat clocks as plain data: what a move, a pause or a timeout does to them.

Pure functions over a JSON snapshot, so the move path, the Celery task and the tests share
one arithmetic and the property tests (hypothesis) can run it without a database.

A snapshot::

    {"mode": "move" | "total", "seconds": 600, "rule": "skip", "paused": false,
     "seats": {"0": {"remaining": 600.0, "deadline": "2026-…" | null,
                     "started": "2026-…" | null, "reminded": "2026-…" | null}}}

* **Per move** (``move``): a seat the table starts waiting on has ``seconds`` to move
  (Board Game Arena's turn-based pace: from 1 minute to 3 days). A seat that moves and is
  still waited on (several steps of one turn) starts again with the full allowance.
* **Total per player** (``total``): each seat has a bank of ``seconds``; while the table waits
  on her it runs down, and what is left is kept when she moves. An empty bank runs out at once
  the next time she is waited on.

Only seats with players are clocked (a bot moves at once). ``remaining`` is the seat's bank
while she is not waited on (per move: what a pause left her); ``started`` and ``deadline``
are set while her clock runs; ``reminded`` names the deadline a reminder went out for.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

from django.utils.translation import gettext_noop

#: The modes, with words for people ("none" keeps no row at all).
#: The words are English message ids: the form shows them in the reader's language (forms.py).
MODES: Final = {
    "none": gettext_noop("No clock"),
    "move": gettext_noop("Per move"),
    "total": gettext_noop("Total per player"),
}
#: What happens when a seat's time runs out, with words for people.
RULES: Final = {
    "skip": gettext_noop("The seat is skipped"),
    "random": gettext_noop("The random bot plays the move"),
    "heuristic": gettext_noop("The heuristic bot plays the move"),
    "forfeit": gettext_noop("The seat forfeits"),
}
MIN_SECONDS: Final = 60
#: Per move: up to three days (Board Game Arena's slowest turn-based pace).
#: The same choices for every serializer (one enum in the OpenAPI schema).
MODE_CHOICES: Final = tuple(MODES.items())
RULE_CHOICES: Final = tuple(RULES.items())
MAX_MOVE_SECONDS: Final = 3 * 86_400
#: Total per player: up to thirty days for the whole game.
MAX_TOTAL_SECONDS: Final = 30 * 86_400
#: The reminder goes out when a fifth of the allowance is left, at most this long before.
MAX_REMINDER_LEAD: Final = 12 * 3600


@dataclass(frozen=True)
class TimeControl:
    """What a host picks: the mode, the seconds it gives, and the rule when it runs out."""

    mode: str
    seconds: int
    rule: str

    def words(self) -> str:
        """ "10 minutes per move; then the seat is skipped" (for forms and the table page)."""
        per = "per move" if self.mode == "move" else "in all, per player"
        return f"{duration_words(self.seconds)} {per}; then {RULES[self.rule].lower()}"


class ControlError(ValueError):
    """A time control that cannot be: ``errors`` maps each field to its reasons, in words."""

    def __init__(self, errors: dict[str, list[str]]) -> None:
        super().__init__("; ".join(m for ms in errors.values() for m in ms))
        self.errors = errors


def check_control(mode: Any, seconds: Any = None, rule: Any = "skip") -> TimeControl | None:
    """The time control a host asked for, or None for no clock; :class:`ControlError` with
    field errors in words for anything else."""
    if mode in (None, "", "none"):
        return None
    if mode not in ("move", "total"):
        raise ControlError({"clock_mode": ["Choose no clock, per move or a total per player."]})
    errors: dict[str, list[str]] = {}
    if rule not in RULES:
        errors["clock_rule"] = [
            "When time runs out the seat is skipped, a bot plays the move, or the seat forfeits."
        ]
    top = MAX_MOVE_SECONDS if mode == "move" else MAX_TOTAL_SECONDS
    if (
        isinstance(seconds, bool)
        or not isinstance(seconds, int)
        or not (MIN_SECONDS <= seconds <= top)
    ):
        errors["clock_seconds"] = [
            f"Give from {duration_words(MIN_SECONDS)} to {duration_words(top)}, in seconds."
        ]
    if errors:
        raise ControlError(errors)
    return TimeControl(mode=str(mode), seconds=int(seconds), rule=str(rule))


def duration_words(seconds: float) -> str:
    """ "3 days", "1 hour 30 minutes", "45 seconds" (whole units, the two largest)."""
    left = max(0, int(seconds))
    parts = []
    for size, name in ((86_400, "day"), (3600, "hour"), (60, "minute"), (1, "second")):
        count, left = divmod(left, size)
        if count:
            parts.append(f"{count} {name}{'' if count == 1 else 's'}")
    return " ".join(parts[:2]) or "0 seconds"


# --- snapshots --------------------------------------------------------------------------------


def new_snapshot(control: TimeControl) -> dict[str, Any]:
    return {
        "mode": control.mode,
        "seconds": control.seconds,
        "rule": control.rule,
        "paused": False,
        "seats": {},
    }


def dumps(snapshot: Mapping[str, Any]) -> str:
    return json.dumps(snapshot, sort_keys=True, separators=(",", ":"))


def loads(text: str | None) -> dict[str, Any] | None:
    return None if not text else dict(json.loads(text))


def _at(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def _seat(snapshot: dict[str, Any], seat: str) -> dict[str, Any]:
    seats: dict[str, Any] = snapshot["seats"]
    if seat not in seats:
        seats[seat] = {
            "remaining": float(snapshot["seconds"]),
            "deadline": None,
            "started": None,
            "reminded": None,
        }
    found: dict[str, Any] = seats[seat]
    return found


def _stop(snapshot: dict[str, Any], seat: str, now: datetime, *, keep_left: bool) -> None:
    """Stop ``seat``'s running clock: a total's bank keeps what is left; ``keep_left`` (a
    pause) keeps what is left of a per-move allowance too."""
    clock = _seat(snapshot, seat)
    deadline = _at(clock["deadline"])
    if deadline is None:
        return
    left = max(0.0, (deadline - now).total_seconds())
    if snapshot["mode"] == "total" or keep_left:
        clock["remaining"] = left
    else:
        clock["remaining"] = float(snapshot["seconds"])
    clock["deadline"] = clock["started"] = None


def _start(snapshot: dict[str, Any], seat: str, now: datetime) -> None:
    clock = _seat(snapshot, seat)
    clock["started"] = now.isoformat()
    clock["deadline"] = (now + timedelta(seconds=float(clock["remaining"]))).isoformat()


def after_move(
    snapshot: Mapping[str, Any],
    *,
    mover: str | None,
    waiting: Iterable[str],
    clocked: Iterable[str],
    ended: bool,
    now: datetime,
) -> dict[str, Any]:
    """The snapshot once ``mover`` (None: no seat, an undo) has moved and the table waits on
    ``waiting``; ``clocked``: the seats with players. A seat that moved, or is no longer
    waited on, stops; a clocked seat waited on whose clock is not running starts."""
    out: dict[str, Any] = json.loads(dumps(snapshot))
    waiting = {str(s) for s in waiting}
    clocked = {str(s) for s in clocked}
    for seat in list(out["seats"]):
        running = out["seats"][seat]["deadline"] is not None
        if running and (seat == mover or seat not in waiting or seat not in clocked or ended):
            _stop(out, seat, now, keep_left=False)
    if not ended and not out["paused"]:
        for seat in sorted(waiting & clocked):
            if _seat(out, seat)["deadline"] is None:
                _start(out, seat, now)
    return out


def paused(snapshot: Mapping[str, Any], now: datetime) -> dict[str, Any]:
    """Every running clock stopped with what it had left (the GM's pause)."""
    out: dict[str, Any] = json.loads(dumps(snapshot))
    for seat in list(out["seats"]):
        _stop(out, seat, now, keep_left=True)
    out["paused"] = True
    return out


def resumed(snapshot: Mapping[str, Any], *, waiting: Iterable[str], clocked: Iterable[str],
            now: datetime) -> dict[str, Any]:  # fmt: skip
    """The clocks of the waited seats run again from what the pause left them."""
    out: dict[str, Any] = json.loads(dumps(snapshot))
    out["paused"] = False
    for seat in sorted({str(s) for s in waiting} & {str(s) for s in clocked}):
        if _seat(out, seat)["deadline"] is None:
            _start(out, seat, now)
    return out


def due(snapshot: Mapping[str, Any], now: datetime) -> list[str]:
    """The seats whose deadline has passed (in seat order)."""
    return sorted(
        seat
        for seat, clock in snapshot["seats"].items()
        if clock["deadline"] is not None and _at(clock["deadline"]) <= now  # type: ignore[operator]
    )


def reminder_lead(snapshot: Mapping[str, Any], clock: Mapping[str, Any]) -> float:
    """How long before a deadline its reminder goes out: a fifth of the allowance (of the
    seconds per move, or of the bank when the clock started), at most twelve hours."""
    deadline, started = _at(clock["deadline"]), _at(clock["started"])
    allowance = (
        (deadline - started).total_seconds() if deadline and started else snapshot["seconds"]
    )
    return min(float(allowance) / 5, float(MAX_REMINDER_LEAD))


def reminders_due(snapshot: Mapping[str, Any], now: datetime) -> list[str]:
    """The running seats whose reminder is due and not yet sent for this deadline."""
    out = []
    for seat, clock in sorted(snapshot["seats"].items()):
        deadline = _at(clock["deadline"])
        if deadline is None or clock["reminded"] == clock["deadline"] or deadline <= now:
            continue
        if deadline - timedelta(seconds=reminder_lead(snapshot, clock)) <= now:
            out.append(seat)
    return out


def next_due(snapshot: Mapping[str, Any]) -> datetime | None:
    """The earliest reminder or deadline still to come (None: no clock runs)."""
    moments = []
    for clock in snapshot["seats"].values():
        deadline = _at(clock["deadline"])
        if deadline is None:
            continue
        moments.append(deadline)
        if clock["reminded"] != clock["deadline"]:
            moments.append(deadline - timedelta(seconds=reminder_lead(snapshot, clock)))
    return min(moments, default=None)


def deadline_of(snapshot: Mapping[str, Any] | None, seat: str) -> datetime | None:
    if snapshot is None or snapshot["paused"]:
        return None
    clock = snapshot["seats"].get(seat)
    return None if clock is None else _at(clock["deadline"])


def public(snapshot: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The clock as every seat and spectator may see it: the control in words, and each
    clocked seat's deadline (while it runs) or time left. Whose clock runs follows from whom
    the table waits on, which is public; nothing of a hidden choice is in it."""
    if snapshot is None:
        return None
    control = TimeControl(snapshot["mode"], int(snapshot["seconds"]), snapshot["rule"])
    seats = []
    for seat, clock in sorted(snapshot["seats"].items(), key=lambda kv: _order(kv[0])):
        deadline = _at(clock["deadline"])
        seats.append(
            {
                "seat": seat,
                "running": deadline is not None,
                # while it runs, the page counts down to the deadline itself
                "deadline": clock["deadline"],
                "seconds_left": None if deadline else max(0, round(clock["remaining"])),
            }
        )
    return {
        "mode": snapshot["mode"],
        "seconds": int(snapshot["seconds"]),
        "rule": snapshot["rule"],
        "words": control.words(),
        "paused": bool(snapshot["paused"]),
        "seats": seats,
    }


def _order(seat: str) -> tuple[int, str]:
    return (int(seat), "") if seat.isdigit() else (1 << 30, seat)
