"""The wiki API under /api/campaigns/<id>/wiki/: members read what they may see (else 404);
GMs write (players 403, outsiders 404). Documented in docs/api.md and the OpenAPI schema."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.typing import signed_in
from apibase.parsers import BoundedJSONParser
from campaign.permissions import campaign_for

from .. import search as wiki_search
from .. import selectors, services
from ..models import Revision
from ..render import Renderer, plain
from .serializers import (
    EntryInputSerializer,
    EntrySerializer,
    EntrySummarySerializer,
    EntryUpdateSerializer,
    KindSerializer,
    MentionSerializer,
    RevealInputSerializer,
    RevisionSerializer,
    SectionInputSerializer,
    SectionUpdateSerializer,
    entry_data,
    kind_data,
)

Q_PARAM = OpenApiParameter("q", OpenApiTypes.STR, description="Words to find (at most 200).")
PARSERS = [BoundedJSONParser, MultiPartParser, FormParser]


def _entry_fields(data: dict[str, Any]) -> dict[str, Any]:
    names = {"viewers": "viewer_ids", "parent": "parent_id", "members": "member_ids"}
    return {names.get(k, k): v for k, v in data.items()}


def _answer(request: Request, pk: int, entry_id: int, code: int = 200) -> Response:
    _, access = campaign_for(request.user, pk)
    entry = selectors.entry_for(access, entry_id)
    return Response(EntrySerializer(entry_data(access, entry)).data, status=code)


class KindListView(APIView):
    """The campaign's kinds of entry (members); GMs add one (POST ``{"name": …}``)."""

    @extend_schema(responses=KindSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        campaign, _ = campaign_for(request.user, pk)
        return Response(KindSerializer(selectors.kinds_of(campaign.pk), many=True).data)

    @extend_schema(request=KindSerializer, responses={201: KindSerializer})
    def post(self, request: Request, pk: int) -> Response:
        campaign, access = campaign_for(request.user, pk, manage=True)
        serializer = KindSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        kind = services.kind_add(
            campaign_id=campaign.pk, by=access, name=serializer.validated_data["name"]
        )
        return Response(KindSerializer(kind).data, status=status.HTTP_201_CREATED)


class EntryListView(APIView):
    """Entries you may see, by title (``kind``, ``tag`` narrow it); GMs write one (POST, JSON
    or multipart with an ``image``). A new entry is seen by the GMs only unless ``visibility``
    says otherwise."""

    parser_classes = PARSERS

    @extend_schema(
        parameters=[
            OpenApiParameter("kind", OpenApiTypes.STR, description="A kind's key."),
            OpenApiParameter("tag", OpenApiTypes.STR, description="One tag."),
        ],
        responses=EntrySummarySerializer(many=True),
    )
    def get(self, request: Request, pk: int) -> Response:
        _, access = campaign_for(request.user, pk)
        rows = selectors.entries_visible_to(access).order_by("title", "pk")
        kind = str(request.query_params.get("kind", "")).replace("\x00", "")[:40]
        tag = str(request.query_params.get("tag", "")).replace("\x00", "")[:40].strip().lower()
        if kind:
            rows = rows.filter(kind__key=kind)
        if tag:
            rows = rows.filter(tags__icontains=f'"{tag}"')
        entries = list(rows[:500])
        renderer = Renderer(access, [e.body for e in entries])
        return Response(
            EntrySummarySerializer(
                [_summary(e, plain(renderer.html(e.body))) for e in entries], many=True
            ).data
        )

    @extend_schema(request=EntryInputSerializer, responses={201: EntrySerializer})
    def post(self, request: Request, pk: int) -> Response:
        campaign, access = campaign_for(request.user, pk, manage=True)
        serializer = EntryInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        entry = services.entry_create(
            campaign_id=campaign.pk,
            by=access,
            author=signed_in(request),
            **_entry_fields(serializer.validated_data),
        )
        return _answer(request, pk, entry.pk, status.HTTP_201_CREATED)


def _summary(entry: Any, excerpt: str) -> dict[str, Any]:
    from django.urls import reverse

    return {
        "id": entry.pk,
        "kind": kind_data(entry),
        "title": entry.title,
        "tags": entry.tags,
        "excerpt": excerpt,
        "url": reverse("wiki:detail", args=[entry.campaign_id, entry.pk]),
    }


class EntryDetailView(APIView):
    """One entry you may see (else 404), with the sections you may see and what links to it;
    GMs change it (PATCH: one new version in its history) or delete it."""

    parser_classes = PARSERS

    @extend_schema(responses=EntrySerializer)
    def get(self, request: Request, pk: int, entry_id: int) -> Response:
        return _answer(request, pk, entry_id)

    @extend_schema(request=EntryUpdateSerializer, responses=EntrySerializer)
    def patch(self, request: Request, pk: int, entry_id: int) -> Response:
        _, access = campaign_for(request.user, pk, manage=True)
        entry = selectors.entry_for(access, entry_id)
        serializer = EntryUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        fields = _entry_fields(serializer.validated_data)
        if "parent_id" not in fields:
            fields["parent_id"] = services.UNSET
        services.entry_update(entry=entry, by=access, author=signed_in(request), **fields)
        return _answer(request, pk, entry_id)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, pk: int, entry_id: int) -> Response:
        _, access = campaign_for(request.user, pk, manage=True)
        services.entry_delete(entry=selectors.entry_for(access, entry_id), by=access)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SectionListView(APIView):
    """GMs add a section with its own visibility."""

    @extend_schema(request=SectionInputSerializer, responses={201: EntrySerializer})
    def post(self, request: Request, pk: int, entry_id: int) -> Response:
        _, access = campaign_for(request.user, pk, manage=True)
        entry = selectors.entry_for(access, entry_id)
        serializer = SectionInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        services.section_save(
            entry=entry,
            by=access,
            author=signed_in(request),
            heading=data["heading"],
            body=data.get("body", ""),
            visibility=data.get("visibility", "gm"),
            viewer_ids=data.get("viewers", []),
        )
        return _answer(request, pk, entry_id, status.HTTP_201_CREATED)


class SectionDetailView(APIView):
    """GMs change (PATCH) or delete a section."""

    @extend_schema(request=SectionUpdateSerializer, responses=EntrySerializer)
    def patch(self, request: Request, pk: int, entry_id: int, section_id: int) -> Response:
        _, access = campaign_for(request.user, pk, manage=True)
        entry = selectors.entry_for(access, entry_id)
        section = selectors.section_for(access, entry, section_id)
        serializer = SectionUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        services.section_save(
            entry=entry,
            by=access,
            author=signed_in(request),
            heading=data.get("heading", section.heading),
            body=data.get("body", section.body),
            visibility=data.get("visibility", section.visibility),
            viewer_ids=data.get("viewers", [u.pk for u in section.viewers.all()]),
            section=section,
        )
        return _answer(request, pk, entry_id)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, pk: int, entry_id: int, section_id: int) -> Response:
        _, access = campaign_for(request.user, pk, manage=True)
        entry = selectors.entry_for(access, entry_id)
        section = selectors.section_for(access, entry, section_id)
        services.section_delete(section=section, by=access, author=signed_in(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class RevealView(APIView):
    """GMs reveal an entry, or one ``section`` of it, to everyone or to ``players``; the
    campaign's timeline records it."""

    @extend_schema(request=RevealInputSerializer, responses=EntrySerializer)
    def post(self, request: Request, pk: int, entry_id: int) -> Response:
        _, access = campaign_for(request.user, pk, manage=True)
        entry = selectors.entry_for(access, entry_id)
        serializer = RevealInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        section = None
        if data.get("section"):
            section = selectors.section_for(access, entry, data["section"])
        services.reveal(
            entry=entry,
            by=access,
            author=signed_in(request),
            section=section,
            to_all=data["to_everyone"],
            player_ids=data.get("players", []),
        )
        return _answer(request, pk, entry_id)


class HistoryView(APIView):
    """Every version of an entry, newest first: who, when, which parts (GMs only)."""

    @extend_schema(responses=RevisionSerializer(many=True))
    def get(self, request: Request, pk: int, entry_id: int) -> Response:
        _, access = campaign_for(request.user, pk, manage=True)
        entry = selectors.entry_for(access, entry_id)
        rows = Revision.objects.filter(entry=entry).select_related("by").order_by("-number")
        data = [
            {
                "number": r.number,
                "at": r.at,
                "by": r.by.shown_name if r.by is not None else None,
                "changed": r.changed,
                "title": r.snapshot.get("title", ""),
                "body": r.snapshot.get("body", ""),
            }
            for r in rows[:200]
        ]
        return Response(RevisionSerializer(data, many=True).data)


class RestoreView(APIView):
    """GMs put back an older version's text, as a new version."""

    @extend_schema(request=None, responses=EntrySerializer)
    def post(self, request: Request, pk: int, entry_id: int, number: int) -> Response:
        _, access = campaign_for(request.user, pk, manage=True)
        entry = selectors.entry_for(access, entry_id)
        services.entry_restore(entry=entry, by=access, author=signed_in(request), number=number)
        return _answer(request, pk, entry_id)


class SearchView(APIView):
    """Full-text search over the entries and sections you may see (docs/wiki.md)."""

    @extend_schema(parameters=[Q_PARAM], responses=EntrySummarySerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        _, access = campaign_for(request.user, pk)
        found = wiki_search.search(access, str(request.query_params.get("q", "")))
        return Response(
            EntrySummarySerializer([_summary(f.entry, f.excerpt) for f in found], many=True).data
        )


class MentionView(APIView):
    """What ``@[[`` may complete to: entries you may see and the campaign's characters whose
    name starts with ``q``."""

    @extend_schema(parameters=[Q_PARAM], responses=MentionSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        _, access = campaign_for(request.user, pk)
        rows = wiki_search.mention_candidates(access, str(request.query_params.get("q", "")))
        return Response(MentionSerializer(rows, many=True).data)
