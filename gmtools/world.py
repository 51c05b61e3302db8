"""The campaign's in-world calendar: its months and weekdays, the current date and the events
on dates (the arithmetic is :mod:`gmtools.world_calendar`).

Every member reads the calendar and the events meant for everyone; the GMs define the months,
set or advance the date and add events (an event may be theirs alone, ``gm_only``). Events are
on the campaign's timeline (:func:`world_event_entries`), at the moment they were written down,
with their in-world date in the title. Each write touches the campaign, so the GM dashboard
shows the new date at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext

from apibase.engine_words import in_language
from apibase.numbers import object_id
from campaign.members import campaign_touch
from campaign.registry import TimelineEntry, mention_kind

from .models import GameSession, WorldCalendar, WorldEvent
from .world_calendar import Calendar, CalendarError, calendar_from, calendar_or_default

if TYPE_CHECKING:
    from accounts.models import User
    from campaign.models import Campaign
    from campaign.permissions import CampaignAccess


def _check_manager(campaign_id: int, by: CampaignAccess) -> None:
    if not by.can_manage or by.campaign_id != campaign_id:
        raise PermissionDenied(gettext("Only the campaign's game masters change its calendar."))


def _invalid(exc: CalendarError) -> ValidationError:
    """The calendar's refusal, each message in the reader's language."""
    return ValidationError(
        {field: [in_language(m) for m in messages] for field, messages in exc.errors.items()}
    )


@dataclass(frozen=True, slots=True)
class WorldDate:
    """A campaign's calendar and its current date, ready to show."""

    calendar: Calendar
    year: int
    month: int
    day: int

    @property
    def words(self) -> str:
        return self.calendar.words(self.year, self.month, self.day)

    @property
    def season(self) -> str:
        return self.calendar.season(self.month)

    @property
    def month_name(self) -> str:
        return self.calendar.months[self.month - 1].name


def calendar_row(campaign_id: int) -> WorldCalendar:
    """The stored calendar, or an unsaved default (1 January of year 1, Gregorian)."""
    row = WorldCalendar.objects.filter(campaign_id=campaign_id).first()
    return row or WorldCalendar(campaign_id=campaign_id)


def world_date(campaign_id: int, row: WorldCalendar | None = None) -> WorldDate:
    """The current in-world date (one query). A stored date the calendar no longer has (a
    hand-edited archive) shows as the calendar's first day rather than failing."""
    row = row or calendar_row(campaign_id)
    calendar = calendar_or_default(row.months, row.weekdays).localized(gettext)
    try:
        calendar.check(row.year, row.month, row.day)
    except CalendarError:
        return WorldDate(calendar, 1, 1, 1)
    return WorldDate(calendar, row.year, row.month, row.day)


def _locked_row(campaign_id: int) -> WorldCalendar:
    row, _ = WorldCalendar.objects.select_for_update().get_or_create(campaign_id=campaign_id)
    return row


@transaction.atomic
def calendar_define(
    *, campaign: Campaign, by: CampaignAccess, months: list[Any], weekdays: list[Any]
) -> WorldDate:
    """Set the months (``[{"name", "days", "season"}]``) and weekdays; both empty is the
    Gregorian year. The current date and every event must still be a date of the new
    calendar, else nothing changes (a 400 that says which)."""
    _check_manager(campaign.pk, by)
    try:
        calendar = calendar_from(months, weekdays)
    except CalendarError as exc:
        raise _invalid(exc) from None
    row = _locked_row(campaign.pk)
    try:
        calendar.check(row.year, row.month, row.day)
    except CalendarError:
        raise ValidationError(
            {"months": [gettext("The current date would not exist: set another date first.")]}
        ) from None
    for event in WorldEvent.objects.filter(campaign=campaign).only("year", "month", "day"):
        try:
            calendar.check(event.year, event.month, event.day)
        except CalendarError:
            raise ValidationError(
                {
                    "months": [
                        gettext("The event “%(title)s” would fall on no date: move it first.")
                        % {"title": event.title}
                    ]
                }
            ) from None
    row.months = (
        [{"name": m.name, "days": m.days, "season": m.season} for m in calendar.months]
        if not calendar.gregorian
        else []
    )
    row.weekdays = list(calendar.weekdays) if not calendar.gregorian else []
    row.save()
    campaign_touch(campaign.pk)
    return world_date(campaign.pk, row)


@transaction.atomic
def date_set(
    *, campaign: Campaign, by: CampaignAccess, year: int, month: int, day: int
) -> WorldDate:
    """Put the current in-world date on a given day (GMs)."""
    _check_manager(campaign.pk, by)
    row = _locked_row(campaign.pk)
    calendar = calendar_or_default(row.months, row.weekdays).localized(gettext)
    try:
        calendar.check(year, month, day)
    except CalendarError as exc:
        raise _invalid(exc) from None
    row.year, row.month, row.day = year, month, day
    row.save()
    campaign_touch(campaign.pk)
    return world_date(campaign.pk, row)


@transaction.atomic
def date_advance(*, campaign: Campaign, by: CampaignAccess, days: int) -> WorldDate:
    """Move the current in-world date on by ``days`` (back, if negative) (GMs)."""
    _check_manager(campaign.pk, by)
    row = _locked_row(campaign.pk)
    current = world_date(campaign.pk, row)
    try:
        row.year, row.month, row.day = current.calendar.advance(
            current.year, current.month, current.day, days
        )
    except CalendarError as exc:
        raise ValidationError(
            {"days": [gettext("That leaves the calendar: %(problem)s") % {"problem": exc}]}
        ) from None
    row.save()
    campaign_touch(campaign.pk)
    return world_date(campaign.pk, row)


# --------------------------------------------------------------------------- events


def events_visible_to(access: CampaignAccess) -> QuerySet[WorldEvent]:
    """The campaign's events in date order: every one for its GMs, the others' to players."""
    events = WorldEvent.objects.filter(campaign_id=access.campaign_id).select_related(
        "session", "created_by"
    )
    return events if access.can_manage else events.filter(gm_only=False)


def event_for(access: CampaignAccess, pk: Any) -> WorldEvent:
    number = object_id(pk) if isinstance(pk, int | str) else None
    event = events_visible_to(access).filter(pk=number).first() if number else None
    if event is None:
        raise Http404(gettext("No such event."))
    return event


@transaction.atomic
def event_add(
    *,
    campaign: Campaign,
    by: CampaignAccess,
    created_by: User | None,
    year: int,
    month: int,
    day: int,
    title: str,
    body: str = "",
    gm_only: bool = False,
    session: GameSession | None = None,
    wiki_entry: int | None = None,
) -> WorldEvent:
    """Put an event on an in-world date (GMs); ``session`` must be one of the campaign's, and
    ``wiki_entry`` (an entry's id) an entry of the campaign's wiki."""
    _check_manager(campaign.pk, by)
    errors: dict[str, list[str]] = {}
    if not title.strip():
        errors["title"] = [gettext("Give the event a title.")]
    if session is not None and session.campaign_id != campaign.pk:
        errors["session"] = [gettext("No such session in this campaign.")]
    if wiki_entry is not None and wiki_entry not in _entries_in(campaign.pk, [wiki_entry]):
        errors["wiki_entry"] = [gettext("No such wiki entry in this campaign.")]
    try:
        world_date(campaign.pk).calendar.check(year, month, day)
    except CalendarError as exc:
        errors.update(_invalid(exc).message_dict)
    if errors:
        raise ValidationError(errors)
    event = WorldEvent.objects.create(
        campaign=campaign,
        year=year,
        month=month,
        day=day,
        title=title.strip(),
        body=body,
        gm_only=gm_only,
        session=session,
        wiki_entry_id=wiki_entry,
        created_by=created_by,
    )
    campaign_touch(campaign.pk)
    return event


@transaction.atomic
def event_delete(*, event: WorldEvent, by: CampaignAccess) -> None:
    _check_manager(event.campaign_id, by)
    campaign_id = event.campaign_id
    event.delete()
    campaign_touch(campaign_id)


def _entries_in(campaign_id: int, ids: list[int]) -> set[int]:
    """The ids that are entries of the campaign's wiki (asked through ``campaign.registry``:
    the GM tools do not import the wiki)."""
    kind = mention_kind("entry")
    return kind.in_campaign(campaign_id=campaign_id, ids=ids) if kind is not None else set()


def event_entries(access: CampaignAccess, events: list[WorldEvent]) -> dict[int, tuple[str, str]]:
    """``{entry id: (title, url)}`` of the events' wiki entries ``access`` may see (one query):
    an event a player reads never names an entry that is secret to her."""
    ids = {e.wiki_entry_id for e in events if e.wiki_entry_id is not None}
    kind = mention_kind("entry")
    return kind.shown(access=access, ids=ids) if ids and kind is not None else {}


def entry_choices(access: CampaignAccess) -> list[tuple[int, str]]:
    """The campaign's wiki entries by title, for a GM's event form."""
    kind = mention_kind("entry")
    return kind.starting(access=access, prefix="", limit=1000) if kind is not None else []


def event_words(event: WorldEvent, calendar: Calendar) -> str:
    try:
        return calendar.words(event.year, event.month, event.day)
    except IndexError:
        return f"{event.day}/{event.month}/{event.year}"


def calendar_path(campaign_id: int) -> str:
    return reverse("gmtools:calendar", args=[campaign_id])


def world_event_entries(*, access: CampaignAccess, limit: int) -> list[TimelineEntry]:
    """The timeline's source: events the viewer may see, when they were written down (one
    query: the calendar comes with the events)."""
    events = list(
        events_visible_to(access)
        .select_related("campaign__world_calendar")
        .order_by("-created_at", "-pk")[:limit]
    )
    if not events:
        return []
    stored = getattr(events[0].campaign, "world_calendar", None)
    calendar = world_date(access.campaign_id, stored or WorldCalendar()).calendar
    return [
        TimelineEntry(
            kind="world_event",
            at=e.created_at,
            title=gettext("In the world, %(when)s: %(title)s")
            % {"when": event_words(e, calendar), "title": e.title},
            body=e.body,
            actor=e.created_by.shown_name if e.created_by else "",
            url=calendar_path(e.campaign_id),
            ref=f"world_event:{e.pk}",
            data={
                "id": e.pk,
                "year": e.year,
                "month": e.month,
                "day": e.day,
                "session": e.session_id,
                "gm_only": e.gm_only,
            },
        )
        for e in events
    ]
