"""API: the in-world calendar and its events, a session's answers ("will you come?") and the
member's calendar feed address. Members read; GMs change the calendar; each member answers
for herself and holds her own feed address."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.typing import signed_in
from apibase import serializers
from apibase.fields import ObjectIdField
from campaign.models import MAX_PROSE
from campaign.permissions import campaign_for

from .. import calendar_feed, rsvp, world
from .. import sessions as session_services
from ..models import RsvpAnswer, SessionRsvp, WorldEvent
from ..world_calendar import (
    MAX_ADVANCE_DAYS,
    MAX_MONTH_DAYS,
    MAX_MONTHS,
    MAX_NAME,
    MAX_WEEKDAYS,
    MAX_YEAR,
    MIN_YEAR,
)
from .play import session_in

# --------------------------------------------------------------------------- shapes


class MonthSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=MAX_NAME)
    days = serializers.IntegerField(min_value=1, max_value=MAX_MONTH_DAYS)
    season = serializers.CharField(max_length=MAX_NAME, required=False, allow_blank=True)


class CalendarSerializer(serializers.Serializer[Any]):
    gregorian = serializers.BooleanField(help_text="No months defined: the Gregorian year.")
    months = MonthSerializer(many=True)
    weekdays = serializers.ListField(child=serializers.CharField())
    year = serializers.IntegerField()
    month = serializers.IntegerField()
    day = serializers.IntegerField()
    weekday = serializers.CharField()
    season = serializers.CharField()
    words = serializers.CharField(help_text="The current date as the pages show it.")


class CalendarInputSerializer(serializers.Serializer[Any]):
    months = serializers.ListField(child=MonthSerializer(), max_length=MAX_MONTHS)
    weekdays = serializers.ListField(
        child=serializers.CharField(max_length=MAX_NAME), max_length=MAX_WEEKDAYS
    )


class DateInputSerializer(serializers.Serializer[Any]):
    """Either ``days`` (move on, or back when negative) or ``year``, ``month`` and ``day``."""

    days = serializers.IntegerField(
        min_value=-MAX_ADVANCE_DAYS, max_value=MAX_ADVANCE_DAYS, required=False
    )
    year = serializers.IntegerField(min_value=MIN_YEAR, max_value=MAX_YEAR, required=False)
    month = serializers.IntegerField(min_value=1, max_value=MAX_MONTHS, required=False)
    day = serializers.IntegerField(min_value=1, max_value=MAX_MONTH_DAYS, required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        whole = all(k in attrs for k in ("year", "month", "day"))
        if ("days" in attrs) == whole or (
            not whole and any(k in attrs for k in ("year", "month", "day"))
        ):
            raise serializers.ValidationError(
                {"days": [gettext("Send either days, or year, month and day.")]}
            )
        return attrs


class WorldEventSerializer(serializers.ModelSerializer[WorldEvent]):
    words = serializers.SerializerMethodField(help_text="The event's date in words.")
    wiki_entry = serializers.SerializerMethodField(
        help_text="The wiki entry it is about, if you may see it; else null."
    )
    wiki_entry_title = serializers.SerializerMethodField(
        help_text="That entry's title (empty with no entry)."
    )

    class Meta:
        model = WorldEvent
        fields = (
            "id",
            "year",
            "month",
            "day",
            "words",
            "title",
            "body",
            "gm_only",
            "session",
            "wiki_entry",
            "wiki_entry_title",
            "created_at",
        )
        read_only_fields = fields

    def get_words(self, obj: WorldEvent) -> str:
        return world.event_words(obj, self.context["calendar"])

    def get_wiki_entry(self, obj: WorldEvent) -> int | None:
        shown = self.context.get("entries", {})
        return obj.wiki_entry_id if obj.wiki_entry_id in shown else None

    def get_wiki_entry_title(self, obj: WorldEvent) -> str:
        shown = self.context.get("entries", {})
        return str(shown[obj.wiki_entry_id][0]) if obj.wiki_entry_id in shown else ""


class WorldEventInputSerializer(serializers.Serializer[Any]):
    year = serializers.IntegerField(min_value=MIN_YEAR, max_value=MAX_YEAR)
    month = serializers.IntegerField(min_value=1, max_value=MAX_MONTHS)
    day = serializers.IntegerField(min_value=1, max_value=MAX_MONTH_DAYS)
    title = serializers.CharField(max_length=120)
    body = serializers.CharField(required=False, allow_blank=True, default="", max_length=MAX_PROSE)
    gm_only = serializers.BooleanField(required=False, default=False)
    session = ObjectIdField(required=False, allow_null=True, default=None)
    wiki_entry = ObjectIdField(
        required=False,
        allow_null=True,
        default=None,
        help_text="The id of a wiki entry of the campaign the event is about.",
    )


class RsvpSerializer(serializers.ModelSerializer[SessionRsvp]):
    username = serializers.CharField(source="user.username", read_only=True)

    class Meta:
        model = SessionRsvp
        fields = ("user", "username", "answer", "note", "answered_at")
        read_only_fields = fields


class RsvpCountsSerializer(serializers.Serializer[Any]):
    yes = serializers.IntegerField()
    maybe = serializers.IntegerField()
    no = serializers.IntegerField()
    unanswered = serializers.IntegerField()


class RsvpListSerializer(serializers.Serializer[Any]):
    counts = RsvpCountsSerializer()
    answers = RsvpSerializer(many=True)


class RsvpInputSerializer(serializers.Serializer[Any]):
    answer = serializers.ChoiceField(choices=RsvpAnswer.choices)
    note = serializers.CharField(required=False, allow_blank=True, default="", max_length=200)


class FeedSerializer(serializers.Serializer[Any]):
    url = serializers.CharField(allow_null=True, help_text="The secret address; null: none.")


# --------------------------------------------------------------------------- views


def _calendar_data(today: world.WorldDate) -> dict[str, Any]:
    cal = today.calendar
    return {
        "gregorian": cal.gregorian,
        "months": [{"name": m.name, "days": m.days, "season": m.season} for m in cal.months],
        "weekdays": list(cal.weekdays),
        "year": today.year,
        "month": today.month,
        "day": today.day,
        "weekday": cal.weekday(today.year, today.month, today.day),
        "season": today.season,
        "words": today.words,
    }


class CalendarView(APIView):
    """The calendar and the current in-world date (members); GMs define the months and
    weekdays (PUT; both empty: the Gregorian year)."""

    @extend_schema(responses=CalendarSerializer)
    def get(self, request: Request, pk: int) -> Response:
        campaign, _ = campaign_for(request.user, pk)
        return Response(_calendar_data(world.world_date(campaign.pk)))

    @extend_schema(request=CalendarInputSerializer, responses=CalendarSerializer)
    def put(self, request: Request, pk: int) -> Response:
        campaign, access = campaign_for(request.user, pk, manage=True)
        serializer = CalendarInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        today = world.calendar_define(
            campaign=campaign,
            by=access,
            months=[dict(m) for m in data["months"]],
            weekdays=data["weekdays"],
        )
        return Response(_calendar_data(today))


class CalendarDateView(APIView):
    """GMs move the in-world date: ``{"days": 3}`` on (or back), or ``{"year", "month",
    "day"}`` to a given day."""

    @extend_schema(request=DateInputSerializer, responses=CalendarSerializer)
    def post(self, request: Request, pk: int) -> Response:
        campaign, access = campaign_for(request.user, pk, manage=True)
        serializer = DateInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        if "days" in data:
            today = world.date_advance(campaign=campaign, by=access, days=data["days"])
        else:
            today = world.date_set(
                campaign=campaign,
                by=access,
                year=data["year"],
                month=data["month"],
                day=data["day"],
            )
        return Response(_calendar_data(today))


class WorldEventListView(APIView):
    """The in-world events the viewer may see, in date order (GM-only ones for the GMs);
    GMs add one (POST), which goes on the timeline."""

    @extend_schema(responses=WorldEventSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        campaign, access = campaign_for(request.user, pk)
        events = list(world.events_visible_to(access))
        context = {
            "calendar": world.world_date(campaign.pk).calendar,
            "entries": world.event_entries(access, events),
        }
        return Response(WorldEventSerializer(events, many=True, context=context).data)

    @extend_schema(request=WorldEventInputSerializer, responses={201: WorldEventSerializer})
    def post(self, request: Request, pk: int) -> Response:
        campaign, access = campaign_for(request.user, pk, manage=True)
        serializer = WorldEventInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        data["session"] = session_in(campaign, data.get("session"))
        event = world.event_add(campaign=campaign, by=access, created_by=signed_in(request), **data)
        context = {
            "calendar": world.world_date(campaign.pk).calendar,
            "entries": world.event_entries(access, [event]),
        }
        return Response(
            WorldEventSerializer(event, context=context).data, status=status.HTTP_201_CREATED
        )


class WorldEventDetailView(APIView):
    """One event (as the viewer may see it); GMs remove it (DELETE)."""

    @extend_schema(responses=WorldEventSerializer)
    def get(self, request: Request, pk: int, event_id: int) -> Response:
        campaign, access = campaign_for(request.user, pk)
        event = world.event_for(access, event_id)
        context = {
            "calendar": world.world_date(campaign.pk).calendar,
            "entries": world.event_entries(access, [event]),
        }
        return Response(WorldEventSerializer(event, context=context).data)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, pk: int, event_id: int) -> Response:
        _, access = campaign_for(request.user, pk, manage=True)
        world.event_delete(event=world.event_for(access, event_id), by=access)
        return Response(status=status.HTTP_204_NO_CONTENT)


class RsvpView(APIView):
    """A session's answers and their counts (members); a member answers for herself (PUT:
    yes, maybe or no, with a note), until the session starts."""

    @extend_schema(responses=RsvpListSerializer)
    def get(self, request: Request, pk: int, session_id: int) -> Response:
        campaign, _ = campaign_for(request.user, pk)
        session = session_services.session_for(campaign, session_id)
        return Response(_answers(session))

    @extend_schema(request=RsvpInputSerializer, responses=RsvpListSerializer)
    def put(self, request: Request, pk: int, session_id: int) -> Response:
        campaign, access = campaign_for(request.user, pk)
        session = session_services.session_for(campaign, session_id)
        serializer = RsvpInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        rsvp.rsvp_answer(
            session=session, by=access, user=signed_in(request), **serializer.validated_data
        )
        return Response(_answers(session))


def _answers(session: Any) -> dict[str, Any]:
    return {
        "counts": rsvp.rsvp_counts(session).as_dict(),
        "answers": RsvpSerializer(rsvp.rsvps_of(session), many=True).data,
    }


class CalendarFeedView(APIView):
    """The signed-in member's calendar feed address (GET); a new one (POST: the old stops
    working); none (DELETE: revoked, the address answers 404)."""

    def _data(self, request: Request, feed: Any) -> dict[str, Any]:
        return {"url": request.build_absolute_uri(calendar_feed.feed_path(feed)) if feed else None}

    @extend_schema(responses=FeedSerializer)
    def get(self, request: Request) -> Response:
        return Response(self._data(request, calendar_feed.feed_of(signed_in(request))))

    @extend_schema(request=None, responses=FeedSerializer)
    def post(self, request: Request) -> Response:
        return Response(self._data(request, calendar_feed.feed_renew(signed_in(request))))

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request) -> Response:
        calendar_feed.feed_revoke(signed_in(request))
        return Response(status=status.HTTP_204_NO_CONTENT)
