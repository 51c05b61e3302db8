"""The in-world calendar's arithmetic: months, weekdays, seasons and dates, with no database.

A campaign's calendar is a list of months (a name, a number of days, a season) and a list of
weekdays. With no months defined it is the Gregorian year (leap years included, the weekdays
those of the real calendar, seasons as in the northern hemisphere); a GM's own months have no
leap years, and its weekdays run on from the first day of year 1. A date is (year, month, day)
with the month and the day counted from 1; :func:`to_ordinal` and :func:`from_ordinal` turn it
into a day count, so advancing the date is adding days.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Final

from westernroses.words import N_, Words

MIN_YEAR: Final = -99_999
MAX_YEAR: Final = 99_999
MAX_MONTHS: Final = 40
MAX_WEEKDAYS: Final = 20
MAX_MONTH_DAYS: Final = 400
MAX_NAME: Final = 40
#: The most days one advance may move the date (about 27 Gregorian years).
MAX_ADVANCE_DAYS: Final = 10_000

GREGORIAN_MONTHS: Final = (
    (N_("January"), 31, N_("Winter")),
    (N_("February"), 28, N_("Winter")),
    (N_("March"), 31, N_("Spring")),
    (N_("April"), 30, N_("Spring")),
    (N_("May"), 31, N_("Spring")),
    (N_("June"), 30, N_("Summer")),
    (N_("July"), 31, N_("Summer")),
    (N_("August"), 31, N_("Summer")),
    (N_("September"), 30, N_("Autumn")),
    (N_("October"), 31, N_("Autumn")),
    (N_("November"), 30, N_("Autumn")),
    (N_("December"), 31, N_("Winter")),
)
GREGORIAN_WEEKDAYS: Final = (
    N_("Monday"),
    N_("Tuesday"),
    N_("Wednesday"),
    N_("Thursday"),
    N_("Friday"),
    N_("Saturday"),
    N_("Sunday"),
)
#: How a date reads, with a weekday and without, and with its season: English here, the reader's
#: language through :meth:`Calendar.localized`.
DATE_FORMATS: Final = (
    N_("%(weekday)s %(day)s %(month)s %(year)s"),
    N_("%(day)s %(month)s %(year)s"),
    N_("%(date)s (%(season)s)"),
)


class CalendarError(ValueError):
    """A calendar or a date that cannot be: ``errors`` maps a field to its messages, as
    :class:`Words` the app puts in the reader's language."""

    def __init__(self, errors: dict[str, list[Words]]) -> None:
        super().__init__("; ".join(str(m) for ms in errors.values() for m in ms))
        self.errors = errors


@dataclass(frozen=True, slots=True)
class Month:
    name: str
    days: int
    season: str = ""


@dataclass(frozen=True, slots=True)
class Calendar:
    months: tuple[Month, ...]
    weekdays: tuple[str, ...]
    gregorian: bool
    formats: tuple[str, ...] = DATE_FORMATS

    def localized(self, translate: Callable[[str], str]) -> Calendar:
        """This calendar as a reader sees it: the date's word order in her language, and the
        Gregorian default's months, weekdays and seasons in it too (a GM's own names are hers,
        shown as she wrote them)."""
        names = translate if self.gregorian else (lambda name: name)
        return replace(
            self,
            months=tuple(
                Month(names(m.name), m.days, names(m.season) if m.season else "")
                for m in self.months
            ),
            weekdays=tuple(names(w) for w in self.weekdays),
            formats=tuple(translate(f) for f in self.formats),
        )

    # ------------------------------------------------------------------ lengths

    def is_leap(self, year: int) -> bool:
        return self.gregorian and year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)

    def month_days(self, year: int, month: int) -> int:
        days = self.months[month - 1].days
        return days + 1 if month == 2 and self.is_leap(year) else days

    @property
    def year_days(self) -> int:
        return sum(m.days for m in self.months)

    def _days_before_year(self, year: int) -> int:
        y = year - 1
        if self.gregorian:
            return 365 * y + y // 4 - y // 100 + y // 400
        return self.year_days * y

    # ------------------------------------------------------------------ dates

    def check(self, year: int, month: int, day: int) -> None:
        errors: dict[str, list[Words]] = {}
        if not MIN_YEAR <= year <= MAX_YEAR:
            errors["year"] = [
                Words(
                    N_("A year runs from %(low)s to %(high)s."), {"low": MIN_YEAR, "high": MAX_YEAR}
                )
            ]
        if not 1 <= month <= len(self.months):
            errors["month"] = [
                Words(N_("This calendar has months 1 to %(count)s."), {"count": len(self.months)})
            ]
        elif not errors and not 1 <= day <= self.month_days(year, month):
            name = self.months[month - 1].name
            days = self.month_days(year, month)
            errors["day"] = [
                Words(N_("%(month)s has days 1 to %(days)s."), {"month": name, "days": days})
            ]
        if errors:
            raise CalendarError(errors)

    def to_ordinal(self, year: int, month: int, day: int) -> int:
        """Day 1 is the first day of year 1 (in the Gregorian default, 1 January of year 1,
        as :meth:`datetime.date.toordinal` counts)."""
        before = sum(self.month_days(year, m) for m in range(1, month))
        return self._days_before_year(year) + before + day

    def from_ordinal(self, ordinal: int) -> tuple[int, int, int]:
        average = 365.2425 if self.gregorian else self.year_days
        year = int((ordinal - 1) // average) + 1
        while self._days_before_year(year) >= ordinal:
            year -= 1
        while self._days_before_year(year + 1) < ordinal:
            year += 1
        rest = ordinal - self._days_before_year(year)
        month = 1
        while rest > self.month_days(year, month):
            rest -= self.month_days(year, month)
            month += 1
        return year, month, rest

    def advance(self, year: int, month: int, day: int, days: int) -> tuple[int, int, int]:
        moved = self.from_ordinal(self.to_ordinal(year, month, day) + days)
        self.check(*moved)
        return moved

    def weekday(self, year: int, month: int, day: int) -> str:
        if not self.weekdays:
            return ""
        return self.weekdays[(self.to_ordinal(year, month, day) - 1) % len(self.weekdays)]

    def season(self, month: int) -> str:
        return self.months[month - 1].season

    def words(self, year: int, month: int, day: int) -> str:
        """ "Tuesday 3 March 1000 (Spring)": the date as the pages show it."""
        weekday = self.weekday(year, month, day)
        season = self.season(month)
        params = {"weekday": weekday, "day": day, "month": self.months[month - 1].name}
        text = (self.formats[0] if weekday else self.formats[1]) % {**params, "year": year}
        return self.formats[2] % {"date": text, "season": season} if season else text


GREGORIAN: Final = Calendar(
    months=tuple(Month(n, d, s) for n, d, s in GREGORIAN_MONTHS),
    weekdays=GREGORIAN_WEEKDAYS,
    gregorian=True,
)


#: What a month or a weekday without a good name is told: (no name, too long a name).
_NAME_ERRORS: Final = {
    "month": (N_("Each month needs a name."), N_("A month's name is at most %(max)s characters.")),
    "weekday": (
        N_("Each weekday needs a name."),
        N_("A weekday's name is at most %(max)s characters."),
    ),
}


def _name(value: Any, field: str, what: str, errors: dict[str, list[Words]]) -> str:
    missing, too_long = _NAME_ERRORS[what]
    if not isinstance(value, str) or not value.strip():
        errors.setdefault(field, []).append(Words(missing))
        return ""
    if len(value.strip()) > MAX_NAME:
        errors.setdefault(field, []).append(Words(too_long, {"max": MAX_NAME}))
    return value.strip()


def calendar_from(months: Any, weekdays: Any) -> Calendar:
    """The calendar a GM defined (``months``: ``[{"name", "days", "season"}]``, ``weekdays``:
    names), checked; both empty is the Gregorian default. Raises :class:`CalendarError`."""
    months = months or []
    weekdays = weekdays or []
    errors: dict[str, list[Words]] = {}
    if not isinstance(months, list) or len(months) > MAX_MONTHS:
        at_most = N_("Give at most %(max)s months, as a list.")
        raise CalendarError({"months": [Words(at_most, {"max": MAX_MONTHS})]})
    if not isinstance(weekdays, list) or len(weekdays) > MAX_WEEKDAYS:
        at_most = N_("Give at most %(max)s weekdays, as a list.")
        raise CalendarError({"weekdays": [Words(at_most, {"max": MAX_WEEKDAYS})]})
    if not months and not weekdays:
        return GREGORIAN
    if not months:
        errors["months"] = [
            Words(N_("Give the months (or neither months nor weekdays, for Gregorian)."))
        ]
    parsed: list[Month] = []
    for entry in months:
        if not isinstance(entry, dict):
            errors.setdefault("months", []).append(
                Words(N_("Each month is a name and a number of days."))
            )
            continue
        name = _name(entry.get("name"), "months", "month", errors)
        days = entry.get("days")
        if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= MAX_MONTH_DAYS:
            needs = (
                Words(
                    N_("%(month)s needs 1 to %(max)s days."), {"month": name, "max": MAX_MONTH_DAYS}
                )
                if name
                else Words(N_("A month needs 1 to %(max)s days."), {"max": MAX_MONTH_DAYS})
            )
            errors.setdefault("months", []).append(needs)
            days = 1
        season = entry.get("season") or ""
        if not isinstance(season, str) or len(season.strip()) > MAX_NAME:
            errors.setdefault("months", []).append(
                Words(N_("A season's name is at most %(max)s characters."), {"max": MAX_NAME})
            )
            season = ""
        parsed.append(Month(name, days, season.strip()))
    names = [_name(w, "weekdays", "weekday", errors) for w in weekdays]
    if errors:
        raise CalendarError(errors)
    return Calendar(months=tuple(parsed), weekdays=tuple(names), gregorian=False)


def calendar_or_default(months: Any, weekdays: Any) -> Calendar:
    """A stored calendar, or the Gregorian one should the stored lists no longer read (a
    restored archive edited by hand): a page never fails on them."""
    try:
        return calendar_from(months, weekdays)
    except CalendarError:
        return GREGORIAN
