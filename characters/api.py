"""REST API for characters: CRUD, the derived sheet, export/import, preview, level-up.

Every lookup goes through :mod:`campaign.permissions` (via ``characters.selectors``): a
character in a campaign the caller is not in answers 404, like the pages. Rule problems answer
400 ``{"detail", "errors": {field: [...], "rules": [{code, field, message, rule}]}}`` listing
every broken rule at once; a malformed draft or import file answers 400 naming the field.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import HttpResponse
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.typing import signed_in
from apibase.engine_words import in_language
from apibase.fields import body_id
from apibase.numbers import ID_PATTERN
from apibase.parsers import BoundedJSONParser
from campaign.models import Campaign
from campaign.permissions import OwnedAccess, campaign_for, owned_access

from . import selectors, services
from .models import Character
from .serializers import (
    CharacterSerializer,
    CharacterWriteSerializer,
    ExportDocumentSerializer,
    ImportInputSerializer,
    InventoryInputSerializer,
    LevelUpSerializer,
    PortraitInputSerializer,
    PreviewInputSerializer,
    PreviewSerializer,
    SheetSerializer,
)

RULES_ERROR = OpenApiResponse(
    description='Every broken rule: {"detail", "errors": {field: [...], "rules": [...]}}'
)


def _campaign(request: Request, value: Any) -> Campaign | None:
    """A campaign the caller is in (404 otherwise); None/"" for no campaign."""
    if value in (None, ""):
        return None
    campaign, _ = campaign_for(request.user, value)
    return campaign


@extend_schema_view(
    list=extend_schema(
        parameters=[
            OpenApiParameter("campaign", int, description="A campaign's characters and NPCs")
        ],
        description="Without `campaign`: the characters you own.",
    ),
)
class CharacterViewSet(viewsets.GenericViewSet[Character]):
    """Characters: yours, and the public sheets of those in your campaigns."""

    serializer_class = CharacterSerializer
    lookup_value_regex = ID_PATTERN  # ASCII digits: "1_0" or "٣" is no id
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

    def get_queryset(self) -> QuerySet[Character]:
        if getattr(self, "swagger_fake_view", False):  # schema generation
            return Character.objects.none()
        campaign_id = self.request.query_params.get("campaign")
        if campaign_id is not None:  # given but empty names no campaign: 404, as "abc" does
            _, access = campaign_for(self.request.user, campaign_id)
            return selectors.characters_in_campaign(access)
        return selectors.characters_of_user(signed_in(self.request))

    def handle_exception(self, exc: Exception) -> Response:
        """Rule and format problems answer 400 with every message, never a 500."""
        if isinstance(exc, services.CharacterRulesError):
            return Response({"detail": exc.detail, "errors": exc.errors()}, status=400)
        if isinstance(exc, services.CharacterFormatError):
            # in the reader's language, as DRF's own field errors are
            return Response(
                {
                    "detail": in_language(exc.detail_words),
                    "errors": {exc.field: [in_language(exc.message)]},
                },
                400,
            )
        if isinstance(exc, services.PortraitError):
            return Response({"detail": str(exc), "errors": {"portrait": [str(exc)]}}, 400)
        return super().handle_exception(exc)

    def _represent(self, character: Character, access: OwnedAccess, **kwargs: Any) -> Response:
        data = CharacterSerializer(character, context={"accesses": {character.pk: access}}).data
        return Response(data, **kwargs)

    def list(self, request: Request) -> Response:
        queryset = self.get_queryset()
        page = self.paginate_queryset(queryset)
        rows = list(page if page is not None else queryset)
        context = {"accesses": selectors.accesses_for(request.user, rows)}
        data = CharacterSerializer(rows, many=True, context=context).data
        return self.get_paginated_response(data) if page is not None else Response(data)

    def retrieve(self, request: Request, pk: str | None = None) -> Response:
        character, access = selectors.character_for(request.user, pk or "")
        return self._represent(character, access)

    @extend_schema(
        request=CharacterWriteSerializer,
        responses={201: CharacterSerializer, 400: RULES_ERROR},
    )
    def create(self, request: Request) -> Response:
        """Create a character from a draft; the engine lists every broken rule."""
        serializer = CharacterWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        campaign = _campaign(request, data.get("campaign"))
        access = owned_access(request.user, campaign, request.user.pk)
        character = services.character_create(
            owner=signed_in(request),
            campaign=campaign,
            draft=services.draft_from_data(data["draft"]),
            by=access,
            is_npc=data.get("is_npc", False),
            public_notes=data.get("public_notes", ""),
            private_notes=data.get("private_notes", ""),
        )
        character, access = selectors.character_for(request.user, character.pk)
        return self._represent(character, access, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=CharacterWriteSerializer(partial=True),
        responses={200: CharacterSerializer, 400: RULES_ERROR},
    )
    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        """Change a character (owner and GMs). ``draft`` keys given replace the stored ones."""
        character, access = selectors.character_for(request.user, pk or "", edit=True)
        serializer = CharacterWriteSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        draft = None
        if "draft" in data:
            merged = services.character_to_draft(character).to_dict()
            merged.update(data["draft"])
            draft = services.draft_from_data(merged)
        kwargs: dict[str, Any] = {}
        if "campaign" in data:
            kwargs["campaign"] = _campaign(request, data["campaign"])
        services.character_update(
            character=character,
            by=access,
            draft=draft,
            public_notes=data.get("public_notes"),
            private_notes=data.get("private_notes"),
            is_npc=data.get("is_npc"),
            **kwargs,
        )
        character, access = selectors.character_for(request.user, character.pk)
        return self._represent(character, access)

    def destroy(self, request: Request, pk: str | None = None) -> Response:
        character, access = selectors.character_for(request.user, pk or "", edit=True)
        services.character_delete(character=character, by=access)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(responses=SheetSerializer)
    @action(detail=True)
    def sheet(self, request: Request, pk: str | None = None) -> Response:
        """The derived sheet: every number with its breakdown, and exact odds against 12."""
        character, _ = selectors.character_for(request.user, pk or "")
        return Response(selectors.character_sheet(character).to_dict())

    @extend_schema(responses=ExportDocumentSerializer)
    @action(detail=True)
    def export(self, request: Request, pk: str | None = None) -> HttpResponse:
        """The versioned JSON export (private notes only for the owner and GMs). Importing it
        and exporting again gives the same bytes."""
        character, access = selectors.character_for(request.user, pk or "")
        document = services.character_export(character=character, access=access)
        return HttpResponse(services.export_bytes(document), content_type="application/json")

    @extend_schema(
        request={
            "application/json": ExportDocumentSerializer,
            "multipart/form-data": ImportInputSerializer,
        },
        parameters=[OpenApiParameter("campaign", int, description="Import into this campaign")],
        responses={201: CharacterSerializer, 400: RULES_ERROR},
    )
    @action(
        detail=False,
        methods=["post"],
        url_path="import",
        parser_classes=[BoundedJSONParser, MultiPartParser, FormParser],
    )
    def import_(self, request: Request) -> Response:
        """Create a character from an export document (the JSON body, or a ``file`` upload).

        The shape is checked first (a clear message naming the field), then the rules."""
        upload = request.FILES.get("file")
        campaign_id = request.query_params.get("campaign")
        if upload is not None:
            in_form = request.data.get("campaign") if isinstance(request.data, dict) else None
            if in_form not in (None, ""):  # the form's field: an id, or a 400 on it
                campaign_id = str(body_id("campaign", in_form))
            if upload.size > services.IMPORT_MAX_BYTES:
                raise services.file_too_large()
            document: Any = upload.read()
        else:
            document = request.data
        campaign = _campaign(request, campaign_id)
        character = services.character_import(
            owner=signed_in(request),
            campaign=campaign,
            document=document,
            by=owned_access(request.user, campaign, request.user.pk),
        )
        character, access = selectors.character_for(request.user, character.pk)
        return self._represent(character, access, status=status.HTTP_201_CREATED)

    @extend_schema(request=PreviewInputSerializer, responses=PreviewSerializer)
    @action(detail=False, methods=["post"])
    def preview(self, request: Request) -> Response:
        """Validate and derive a draft without saving anything (the wizard's live panel)."""
        serializer = PreviewInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        campaign = _campaign(request, serializer.validated_data.get("campaign"))
        draft = services.draft_from_data(serializer.validated_data["draft"])
        rules = services.rules_for(campaign)
        view = selectors.sheet_for_draft(draft, rules)
        access = owned_access(request.user, campaign, request.user.pk)
        checked = services.character_check(draft=draft, by=access, rules=rules)
        data = view.to_dict()
        data["valid"] = not checked
        data["problems"] = [p.to_dict() for p in checked]
        data["errors"] = services.CharacterRulesError(checked).errors()
        return Response(data)

    @extend_schema(request=LevelUpSerializer, responses=CharacterSerializer)
    @action(detail=True, methods=["post"], url_path="level-up")
    def level_up(self, request: Request, pk: str | None = None) -> Response:
        """Raise the level (the campaign's GMs only); the deck limits follow. Recorded on the
        campaign's timeline and announced, exactly like a level-up from the dashboard."""
        from campaign.permissions import access_for
        from campaign.registry import level_up_grant

        character, _ = selectors.character_for(request.user, pk or "", manage=True)
        serializer = LevelUpSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        level_up_grant(
            character=character,
            by=access_for(request.user, character.campaign_id or 0),
            raised_by=request.user,
            levels=serializer.validated_data["levels"],
        )
        character, access = selectors.character_for(request.user, character.pk)
        return self._represent(character, access)

    @extend_schema(
        request=InventoryInputSerializer, responses={200: CharacterSerializer, 400: RULES_ERROR}
    )
    @action(detail=True, methods=["post"])
    def inventory(self, request: Request, pk: str | None = None) -> Response:
        """Carry ``quantity`` of an item (0 drops it), equipped or not; the rules apply."""
        character, access = selectors.character_for(request.user, pk or "", edit=True)
        serializer = InventoryInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        services.inventory_set(
            character=character,
            by=access,
            item=data["item"],
            quantity=data["quantity"],
            equipped=data["equipped"],
        )
        character, access = selectors.character_for(request.user, character.pk)
        return self._represent(character, access)

    @extend_schema(
        methods=["POST"],
        request={"multipart/form-data": PortraitInputSerializer},
        responses={200: CharacterSerializer, 400: RULES_ERROR},
    )
    @extend_schema(methods=["DELETE"], responses={200: CharacterSerializer})
    @action(
        detail=True,
        methods=["post", "delete"],
        parser_classes=[MultiPartParser, FormParser],
    )
    def portrait(self, request: Request, pk: str | None = None) -> Response:
        """Upload (POST ``portrait``) or remove (DELETE) the portrait; checked by content."""
        character, access = selectors.character_for(request.user, pk or "", edit=True)
        if request.method == "DELETE":
            services.character_portrait_set(character=character, by=access, file=None)
        else:
            serializer = PortraitInputSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            services.character_portrait_set(
                character=character, by=access, file=serializer.validated_data["portrait"]
            )
        character, access = selectors.character_for(request.user, character.pk)
        return self._represent(character, access)
