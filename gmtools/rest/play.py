"""API: game sessions (with attendance), GM notes (GMs only) and handouts (per-viewer)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.typing import signed_in
from apibase.parsers import BoundedJSONParser
from campaign.models import Campaign
from campaign.permissions import campaign_for

from .. import handouts as handout_services
from .. import notes as note_services
from .. import sessions as session_services
from ..models import GameSession
from .serializers import (
    AttendanceInputSerializer,
    GameSessionInputSerializer,
    GameSessionSerializer,
    GameSessionUpdateSerializer,
    GMNoteInputSerializer,
    GMNoteSerializer,
    GMNoteUpdateSerializer,
    HandoutInputSerializer,
    HandoutSerializer,
    HandoutUpdateSerializer,
)


def session_in(campaign: Campaign, session_id: Any) -> GameSession | None:
    """A session of this campaign chosen in a request body (None for none), else a 400."""
    if session_id in (None, ""):
        return None
    session = GameSession.objects.filter(campaign=campaign, pk=session_id).first()
    if session is None:
        raise ValidationError({"session": [gettext("No such session in this campaign.")]})
    return session


# --------------------------------------------------------------------------- sessions


class SessionListView(APIView):
    """A campaign's sessions, latest first (members); GMs schedule one (POST), which tells
    the campaign and arms the day- and hour-before reminders."""

    @extend_schema(responses=GameSessionSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        campaign, _ = campaign_for(request.user, pk)
        return Response(
            GameSessionSerializer(session_services.sessions_of(campaign.pk), many=True).data
        )

    @extend_schema(request=GameSessionInputSerializer, responses={201: GameSessionSerializer})
    def post(self, request: Request, pk: int) -> Response:
        campaign, access = campaign_for(request.user, pk, manage=True)
        serializer = GameSessionInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        session = session_services.session_schedule(
            campaign=campaign, by=access, created_by=signed_in(request), **serializer.validated_data
        )
        return Response(GameSessionSerializer(session).data, status=status.HTTP_201_CREATED)


class SessionDetailView(APIView):
    """One session (members); GMs change it (PATCH: a new time re-arms the reminders) or
    cancel it (DELETE: the reminders not yet sent are dropped)."""

    @extend_schema(responses=GameSessionSerializer)
    def get(self, request: Request, pk: int, session_id: int) -> Response:
        campaign, _ = campaign_for(request.user, pk)
        return Response(
            GameSessionSerializer(session_services.session_for(campaign, session_id)).data
        )

    @extend_schema(request=GameSessionUpdateSerializer, responses=GameSessionSerializer)
    def patch(self, request: Request, pk: int, session_id: int) -> Response:
        campaign, access = campaign_for(request.user, pk, manage=True)
        session = session_services.session_for(campaign, session_id)
        serializer = GameSessionUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        session_services.session_update(session=session, by=access, **serializer.validated_data)
        return Response(
            GameSessionSerializer(session_services.session_for(campaign, session_id)).data
        )

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, pk: int, session_id: int) -> Response:
        campaign, access = campaign_for(request.user, pk, manage=True)
        session_services.session_cancel(
            session=session_services.session_for(campaign, session_id), by=access
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class AttendanceView(APIView):
    """GMs record who came: ``{"attendance": [{"user": 3, "status": "present"}, …]}``
    (``status`` null clears a record). All or nothing."""

    @extend_schema(request=AttendanceInputSerializer, responses=GameSessionSerializer)
    def put(self, request: Request, pk: int, session_id: int) -> Response:
        campaign, access = campaign_for(request.user, pk, manage=True)
        session = session_services.session_for(campaign, session_id)
        serializer = AttendanceInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        statuses = {
            line["user"]: line["status"] for line in serializer.validated_data["attendance"]
        }
        session_services.attendance_set(session=session, by=access, statuses=statuses)
        return Response(
            GameSessionSerializer(session_services.session_for(campaign, session_id)).data
        )


# --------------------------------------------------------------------------- notes


class NoteListView(APIView):
    """GM notes (GMs only: players 403, outsiders 404)."""

    @extend_schema(responses=GMNoteSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        _, access = campaign_for(request.user, pk, manage=True)
        return Response(GMNoteSerializer(note_services.notes_visible_to(access), many=True).data)

    @extend_schema(request=GMNoteInputSerializer, responses={201: GMNoteSerializer})
    def post(self, request: Request, pk: int) -> Response:
        campaign, access = campaign_for(request.user, pk, manage=True)
        serializer = GMNoteInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        note = note_services.note_create(
            campaign=campaign,
            by=access,
            author=signed_in(request),
            title=data["title"],
            body=data["body"],
            session=session_in(campaign, data.get("session")),
        )
        return Response(GMNoteSerializer(note).data, status=status.HTTP_201_CREATED)


class NoteDetailView(APIView):
    @extend_schema(responses=GMNoteSerializer)
    def get(self, request: Request, pk: int, note_id: int) -> Response:
        _, access = campaign_for(request.user, pk, manage=True)
        return Response(GMNoteSerializer(note_services.note_for(access, note_id)).data)

    @extend_schema(request=GMNoteUpdateSerializer, responses=GMNoteSerializer)
    def patch(self, request: Request, pk: int, note_id: int) -> Response:
        campaign, access = campaign_for(request.user, pk, manage=True)
        note = note_services.note_for(access, note_id)
        serializer = GMNoteUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        note = note_services.note_update(
            note=note,
            by=access,
            title=data.get("title"),
            body=data.get("body"),
            session=session_in(campaign, data["session"])
            if "session" in data
            else note_services.UNSET,
        )
        return Response(GMNoteSerializer(note).data)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, pk: int, note_id: int) -> Response:
        _, access = campaign_for(request.user, pk, manage=True)
        note_services.note_delete(note=note_services.note_for(access, note_id), by=access)
        return Response(status=status.HTTP_204_NO_CONTENT)


# --------------------------------------------------------------------------- handouts


class HandoutListView(APIView):
    """Handouts you may see (GMs: all; players: shared with everyone or with them); GMs
    share one (POST, JSON or multipart with a ``file``)."""

    parser_classes = [BoundedJSONParser, MultiPartParser, FormParser]

    @extend_schema(responses=HandoutSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        _, access = campaign_for(request.user, pk)
        handouts = handout_services.handouts_visible_to(access)
        return Response(
            HandoutSerializer(handouts, many=True, context={"is_gm": access.is_gm}).data
        )

    @extend_schema(request=HandoutInputSerializer, responses={201: HandoutSerializer})
    def post(self, request: Request, pk: int) -> Response:
        campaign, access = campaign_for(request.user, pk, manage=True)
        serializer = HandoutInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        handout = handout_services.handout_create(
            campaign=campaign,
            by=access,
            author=signed_in(request),
            title=data["title"],
            body=data["body"],
            file=data.get("file"),
            shared_with_all=data.get("shared_with_all"),
            recipient_ids=data["recipients"],
        )
        return Response(
            HandoutSerializer(handout, context={"is_gm": True}).data,
            status=status.HTTP_201_CREATED,
        )


class HandoutDetailView(APIView):
    """One handout you may see (else 404); GMs change (PATCH) or delete it."""

    @extend_schema(responses=HandoutSerializer)
    def get(self, request: Request, pk: int, handout_id: int) -> Response:
        _, access = campaign_for(request.user, pk)
        handout = handout_services.handout_for(access, handout_id)
        return Response(HandoutSerializer(handout, context={"is_gm": access.is_gm}).data)

    @extend_schema(request=HandoutUpdateSerializer, responses=HandoutSerializer)
    def patch(self, request: Request, pk: int, handout_id: int) -> Response:
        _, access = campaign_for(request.user, pk, manage=True)
        handout = handout_services.handout_for(access, handout_id)
        serializer = HandoutUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        handout_services.handout_update(
            handout=handout,
            by=access,
            title=data.get("title"),
            body=data.get("body"),
            shared_with_all=data.get("shared_with_all"),
            recipient_ids=data.get("recipients"),
        )
        fresh = handout_services.handout_for(access, handout_id)
        return Response(HandoutSerializer(fresh, context={"is_gm": True}).data)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, pk: int, handout_id: int) -> Response:
        _, access = campaign_for(request.user, pk, manage=True)
        handout_services.handout_delete(
            handout=handout_services.handout_for(access, handout_id), by=access
        )
        return Response(status=status.HTTP_204_NO_CONTENT)
