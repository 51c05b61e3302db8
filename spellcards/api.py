"""REST API for spellcards, decks, template cards and pricing drafts.

Lookups go through :mod:`spellcards.selectors` (and so :mod:`campaign.permissions`): a
character, card or template the caller may not see answers 404, a member without the right 403.
A card that breaks rules answers 400 with every broken rule::

    {"detail": "This breaks 2 rules.",
     "errors": {"aoe": ["..."], "to_hit": ["..."]},
     "rules": [{"code", "field", "message", "section"}, ...]}
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.typing import signed_in
from apibase.numbers import ID_PATTERN
from campaign.permissions import campaign_for
from campaign.selectors import campaigns_for_user
from characters.models import Character
from westernroses.checks import pool_size
from westernroses.house_rules import DEFAULT_HOUSE_RULES

from . import selectors, services
from .models import Spellcard, TemplateCard
from .serializers import (
    DeckCopiesSerializer,
    DeckSerializer,
    DeckValidateSerializer,
    PriceInputSerializer,
    PriceSerializer,
    SpellcardSerializer,
    SpellcardWriteSerializer,
    TemplateCardSerializer,
    TemplateCardWriteSerializer,
    TemplateCopySerializer,
    caster_from,
)


def rejected_response(exc: services.SpellcardRejected) -> Response:
    """400 with errors per field and the full list of broken rules (nothing was saved)."""
    return Response(
        {"detail": exc.detail(), "errors": exc.field_errors(), "rules": exc.rules()},
        status=status.HTTP_400_BAD_REQUEST,
    )


def _draft(data: Any) -> Any:
    try:
        return services.draft_from_data(data)
    except services.DraftFormatInvalid as exc:
        raise exceptions.ValidationError({"draft": [str(exc)]}) from None


def _caster_context(character: Character) -> selectors.CasterContext:
    try:
        return selectors.caster_context(character)
    except selectors.CharacterIncomplete as exc:
        raise exceptions.ValidationError({"character": [str(exc)]}) from None


class SpellcardViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet[Spellcard],
):
    """Spellcards of characters you may act for (yours, and every character in campaigns you
    run). ``?character=ID`` lists one character's cards."""

    serializer_class = SpellcardSerializer
    lookup_value_regex = ID_PATTERN  # ASCII digits: "1_0" or "٣" is no id

    def get_queryset(self) -> QuerySet[Spellcard]:
        if getattr(self, "swagger_fake_view", False):  # schema generation
            return Spellcard.objects.none()
        character_id = self.request.query_params.get("character")
        if character_id is not None:  # given but empty names no character: 404, as "abc" does
            character = selectors.character_for(self.request.user, character_id)
            return Spellcard.objects.filter(character=character).order_by("name", "pk")
        return selectors.spellcards_visible_to(self.request.user).order_by("name", "pk")

    def get_object(self) -> Spellcard:
        return selectors.spellcard_for(self.request.user, self.kwargs["pk"])

    @extend_schema(parameters=[OpenApiParameter("character", int, description="One character")])
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().list(request, *args, **kwargs)

    @extend_schema(request=SpellcardWriteSerializer, responses={201: SpellcardSerializer})
    def create(self, request: Request) -> Response:
        """Create a card for a character (validated by the engine); ``add_to_deck`` copies too."""
        serializer = SpellcardWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        if data.get("character") is None:
            raise exceptions.ValidationError({"character": [gettext("This field is required.")]})
        character = selectors.character_for(request.user, data["character"])
        draft = _draft(data["draft"])
        try:
            card = services.spellcard_create(
                by=signed_in(request),
                character=character,
                draft=draft,
                description=data.get("description", ""),
                add_to_deck=data.get("add_to_deck", 0),
            )
        except services.SpellcardRejected as exc:
            return rejected_response(exc)
        except selectors.CharacterIncomplete as exc:
            raise exceptions.ValidationError({"character": [str(exc)]}) from None
        return Response(SpellcardSerializer(card).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=SpellcardWriteSerializer, responses=SpellcardSerializer)
    def update(self, request: Request, pk: str | None = None, partial: bool = False) -> Response:
        """Replace a card's design (``draft``) and/or its ``description``; re-validated."""
        card = self.get_object()
        serializer = SpellcardWriteSerializer(data=request.data, partial=partial)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        if "draft" in data:
            draft = _draft(data["draft"])
        else:
            draft = selectors.parse_draft(card.draft)
            if draft is None:
                raise exceptions.ValidationError(
                    {"draft": [gettext("The stored card is damaged.")]}
                )
        try:
            card = services.spellcard_update(
                by=signed_in(request),
                spellcard=card,
                draft=draft,
                description=data.get("description"),
            )
        except services.SpellcardRejected as exc:
            return rejected_response(exc)
        except selectors.CharacterIncomplete as exc:
            raise exceptions.ValidationError({"character": [str(exc)]}) from None
        return Response(SpellcardSerializer(card).data)

    @extend_schema(request=SpellcardWriteSerializer, responses=SpellcardSerializer)
    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        return self.update(request, pk, partial=True)

    def perform_destroy(self, instance: Spellcard) -> None:
        services.spellcard_delete(by=signed_in(self.request), spellcard=instance)


class SpellcardPriceView(APIView):
    """Price and validate a draft without saving it.

    With an explicit ``caster`` (and no ``campaign``) the answer is computed by the engine
    alone, without touching the database; give ``int`` and ``pwr`` for the chance to hit. With
    a ``character`` id you may act for, that character's caster, sheet and house rules are used.
    """

    permission_classes = [permissions.AllowAny]

    @extend_schema(request=PriceInputSerializer, responses=PriceSerializer)
    def post(self, request: Request) -> Response:
        serializer = PriceInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        draft = _draft(data["draft"])
        if "character" in data:
            if not request.user.is_authenticated:
                raise exceptions.NotAuthenticated()
            character = selectors.character_for(request.user, data["character"])
            ctx = _caster_context(character)
            preview = services.card_preview(
                draft, ctx.caster, ctx.rules, services.caster_stats_from(ctx), chart=False
            )
            return Response(preview.to_dict())
        caster_data = data["caster"]
        caster = caster_from(caster_data)
        rules = DEFAULT_HOUSE_RULES
        if data.get("campaign") is not None:
            campaign, _ = campaign_for(request.user, data["campaign"])
            rules = campaign.rules()
        stats = None
        if caster_data.get("int") is not None and caster_data.get("pwr") is not None:
            stats = services.CasterStats(
                dodge_difficulty=max(caster_data["int"], caster_data["pwr"]),
                int_dice=pool_size(caster_data["int"], rules),
                pwr_dice=pool_size(caster_data["pwr"], rules),
            )
        preview = services.card_preview(draft, caster, rules, stats, chart=False)
        return Response(preview.to_dict())


class DeckView(APIView):
    """A character's deck (owner and GMs only). PUT/POST sets one card's copies (0 removes)."""

    @extend_schema(responses=DeckSerializer)
    def get(self, request: Request, pk: int) -> Response:
        character = selectors.character_for(request.user, pk)
        return Response(services.deck_summary(character).to_dict())

    @extend_schema(request=DeckCopiesSerializer, responses=DeckSerializer)
    def put(self, request: Request, pk: int) -> Response:
        character = selectors.character_for(request.user, pk)
        serializer = DeckCopiesSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        card = Spellcard.objects.filter(pk=data["spellcard"], character=character).first()
        if card is None:
            raise exceptions.ValidationError(
                {
                    "spellcard": [
                        gettext("Card %(card)s is not one of %(name)s's.")
                        % {"card": data["spellcard"], "name": character.name}
                    ]
                }
            )
        ctx = _caster_context(character)
        try:
            services.deck_set_copies(
                by=signed_in(request),
                character=character,
                spellcard=card,
                copies=data["copies"],
                ctx=ctx,
            )
        except services.SpellcardRejected as exc:
            return rejected_response(exc)
        return Response(services.deck_summary(character, ctx).to_dict())

    @extend_schema(request=DeckCopiesSerializer, responses=DeckSerializer)
    def post(self, request: Request, pk: int) -> Response:
        return self.put(request, pk)


class DeckValidateView(APIView):
    """Check a proposed deck (card ids and copies) against the character's limits; saves
    nothing. Always 200: ``valid`` and ``violations`` say what is wrong."""

    @extend_schema(request=DeckValidateSerializer, responses=dict)
    def post(self, request: Request, pk: int) -> Response:
        character = selectors.character_for(request.user, pk)
        serializer = DeckValidateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        copies: dict[int, int] = {}
        for entry in serializer.validated_data["entries"]:
            copies[entry["spellcard"]] = copies.get(entry["spellcard"], 0) + entry["copies"]
        copies = {k: v for k, v in copies.items() if v > 0}
        ctx = _caster_context(character)
        violations = services.deck_check(character=character, copies=copies, ctx=ctx)
        limits = ctx.deck_limits()
        return Response(
            {
                "valid": not violations,
                "violations": [services.problem_for_api(v) for v in violations],
                "cards": sum(copies.values()),
                "kinds": len(copies),
                "limits": limits.to_dict(),
            }
        )


class TemplateCardViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet[TemplateCard],
):
    """The GM's template cards. Members list and copy them; GMs create, change and delete."""

    serializer_class = TemplateCardSerializer
    lookup_value_regex = ID_PATTERN  # ASCII digits: "1_0" or "٣" is no id

    def get_queryset(self) -> QuerySet[TemplateCard]:
        if getattr(self, "swagger_fake_view", False):  # schema generation
            return TemplateCard.objects.none()
        campaign_id = self.request.query_params.get("campaign")
        if campaign_id is not None:
            _, access = campaign_for(self.request.user, campaign_id)
            return selectors.template_cards_for(access).order_by("name", "pk")
        return (
            TemplateCard.objects.filter(campaign__in=campaigns_for_user(signed_in(self.request)))
            .select_related("created_by")
            .order_by("name", "pk")
        )

    def get_object(self) -> TemplateCard:
        manage = self.action in ("update", "partial_update", "destroy")
        template, _ = selectors.template_card_for(
            self.request.user, self.kwargs["pk"], manage=manage
        )
        return template

    @extend_schema(parameters=[OpenApiParameter("campaign", int, description="One campaign")])
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().list(request, *args, **kwargs)

    @extend_schema(request=TemplateCardWriteSerializer, responses={201: TemplateCardSerializer})
    def create(self, request: Request) -> Response:
        serializer = TemplateCardWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        if data.get("campaign") is None:
            raise exceptions.ValidationError({"campaign": [gettext("This field is required.")]})
        campaign, _ = campaign_for(request.user, data["campaign"], manage=True)
        draft = _draft(data["draft"])
        try:
            template = services.template_card_create(
                by=signed_in(request),
                campaign=campaign,
                draft=draft,
                description=data.get("description", ""),
            )
        except services.SpellcardRejected as exc:
            return rejected_response(exc)
        return Response(TemplateCardSerializer(template).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=TemplateCardWriteSerializer, responses=TemplateCardSerializer)
    def update(self, request: Request, pk: str | None = None, partial: bool = False) -> Response:
        template = self.get_object()
        serializer = TemplateCardWriteSerializer(data=request.data, partial=partial)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        draft = _draft(data["draft"]) if "draft" in data else selectors.parse_draft(template.draft)
        if draft is None:
            raise exceptions.ValidationError(
                {"draft": [gettext("The stored template is damaged.")]}
            )
        try:
            template = services.template_card_update(
                by=signed_in(request),
                template=template,
                draft=draft,
                description=data.get("description"),
            )
        except services.SpellcardRejected as exc:
            return rejected_response(exc)
        return Response(TemplateCardSerializer(template).data)

    @extend_schema(request=TemplateCardWriteSerializer, responses=TemplateCardSerializer)
    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        return self.update(request, pk, partial=True)

    def perform_destroy(self, instance: TemplateCard) -> None:
        services.template_card_delete(by=signed_in(self.request), template=instance)

    @extend_schema(request=TemplateCopySerializer, responses={201: SpellcardSerializer})
    @action(detail=True, methods=["post"])
    def copy(self, request: Request, pk: str | None = None) -> Response:
        """Copy onto a character you may act for in the same campaign, validated for it:
        illegal parts answer 400 with every broken rule (nothing is dropped silently)."""
        template = self.get_object()
        serializer = TemplateCopySerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        character = selectors.character_for(request.user, data["character"])
        if character.campaign_id != template.campaign_id:
            raise exceptions.ValidationError(
                {
                    "character": [
                        gettext("Copy a template only onto a character of the same campaign.")
                    ]
                }
            )
        try:
            card = services.template_card_copy(
                by=signed_in(request),
                template=template,
                character=character,
                add_to_deck=data.get("add_to_deck", 0),
            )
        except services.SpellcardRejected as exc:
            return rejected_response(exc)
        except selectors.CharacterIncomplete as exc:
            raise exceptions.ValidationError({"character": [str(exc)]}) from None
        return Response(SpellcardSerializer(card).data, status=status.HTTP_201_CREATED)


__all__ = [
    "DeckValidateView",
    "DeckView",
    "SpellcardPriceView",
    "SpellcardViewSet",
    "TemplateCardViewSet",
]
