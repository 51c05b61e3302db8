"""REST API for the tavern card games' cards and decks (docs/decks.md, "The API").

* ``GET /api/card-games/<game>/cards/`` the card list (starter set plus the GM cards you may
  see), filtered by ``type``, ``character``, ``cost``, ``q`` and ``campaign``;
  ``GET /api/card-games/<game>/cards/<number>/`` one starter card;
  ``GET /api/card-games/<game>/seat-decks/`` what you may bring to a table.
* ``/api/custom-cards/`` GM cards (CRUD): members of the campaign read them, its GMs write
  (staff: site-wide cards). A card the engine refuses is a 400 whose ``errors`` name the field:
  ``{"data.abilities[0].effects[0].amount": ["must be between 1 and 9"]}``.
* ``/api/decks/`` your own decks (CRUD; anyone else's is a 404), with ``legal`` and every
  broken rule in ``errors``; ``POST validate/`` checks cards or text without saving;
  ``POST <id>/import/`` replaces the cards from text; ``GET <id>/export/`` the deck as text.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.typing import signed_in
from apibase.numbers import ID_PATTERN
from campaign.models import Campaign
from campaign.permissions import campaign_for

from . import selectors, services
from .models import CustomCard, Deck
from .serializers import (
    CustomCardSerializer,
    CustomCardUpdateSerializer,
    CustomCardWriteSerializer,
    GameCardQuerySerializer,
    GameCardSerializer,
    GameDeckCheckResultSerializer,
    GameDeckCheckSerializer,
    GameDeckSerializer,
    GameDeckTextSerializer,
    GameDeckUpdateSerializer,
    GameDeckWriteSerializer,
    GameSeatDeckSerializer,
)

CARD_FILTERS = [
    OpenApiParameter("type", str, description="The card type (rso: spell, support ...)."),
    OpenApiParameter("character", str, description="A character's name."),
    OpenApiParameter("cost", int, description="The card's cost."),
    OpenApiParameter("q", str, description="Text in the card's name, number or words."),
    OpenApiParameter("campaign", int, description="Only this campaign's GM cards."),
]


def _campaign(user: Any, campaign_id: int | str | None, *, manage: bool = False) -> Campaign | None:
    if campaign_id is None:
        return None
    campaign, _ = campaign_for(user, campaign_id, manage=manage)
    return campaign


class CardListView(APIView):
    @extend_schema(parameters=CARD_FILTERS, responses=GameCardSerializer(many=True))
    def get(self, request: Request, game: str) -> Response:
        cg = selectors.game_or_404(game)
        query = GameCardQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        q = query.validated_data
        # given but empty or malformed names no campaign: a 404, never "no filter" (docs/api.md)
        campaign = _campaign(request.user, request.query_params.get("campaign"))
        entries = selectors.card_entries(
            request.user, cg, campaign_id=campaign.pk if campaign else None
        )
        flt = selectors.CardFilter(
            kind=q.get("type", ""),
            character=q.get("character", ""),
            cost=q.get("cost"),
            q=q.get("q", "").strip(),
        )
        return Response(GameCardSerializer(selectors.filter_entries(entries, flt), many=True).data)


class CardDetailView(APIView):
    @extend_schema(responses=GameCardSerializer)
    def get(self, request: Request, game: str, number: str) -> Response:
        cg = selectors.game_or_404(game)
        for entry in selectors.starter_entries(cg):
            if entry.number == number.upper():
                return Response(GameCardSerializer(entry).data)
        raise exceptions.NotFound("No starter card has that number (GM cards: /api/custom-cards/).")


class SeatDecksView(APIView):
    @extend_schema(responses=GameSeatDeckSerializer(many=True))
    def get(self, request: Request, game: str) -> Response:
        cg = selectors.game_or_404(game)
        pairs = selectors.seat_decks(request.user, cg.slug)
        return Response([{"key": k, "name": n} for k, n in pairs])


class CustomCardViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet[CustomCard],
):
    """GM cards you may see: site-wide ones and those of your campaigns."""

    serializer_class = CustomCardSerializer
    lookup_value_regex = ID_PATTERN  # ASCII digits: "1_0" or "٣" is no id

    def get_queryset(self) -> QuerySet[CustomCard]:
        if getattr(self, "swagger_fake_view", False):
            return CustomCard.objects.none()
        qs = selectors.custom_cards_visible_to(self.request.user)
        game = self.request.query_params.get("game")
        if game:
            qs = qs.filter(game=game[:8])
        return qs

    def get_object(self) -> CustomCard:
        manage = self.request.method not in ("GET", "HEAD", "OPTIONS")
        return selectors.custom_card_for(self.request.user, self.kwargs["pk"], manage=manage)

    def _out(self, card: CustomCard, code: int = 200) -> Response:
        lines = selectors.custom_card_lines([card])
        return Response(CustomCardSerializer(card, context={"lines": lines}).data, status=code)

    @extend_schema(
        parameters=[OpenApiParameter("game", str)], responses=CustomCardSerializer(many=True)
    )
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Paged like every list (``limit``, ``offset``); each card's lines worked out for the
        page's cards only."""
        cards = list(self.paginate_queryset(self.get_queryset()) or ())
        context = {"lines": selectors.custom_card_lines(cards)}
        data = CustomCardSerializer(cards, many=True, context=context).data
        return self.get_paginated_response(data)

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self._out(self.get_object())

    @extend_schema(request=CustomCardWriteSerializer, responses={201: CustomCardSerializer})
    def create(self, request: Request) -> Response:
        serializer = CustomCardWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        campaign = _campaign(request.user, data.get("campaign"), manage=True)
        card = services.custom_card_create(
            by=signed_in(request), game=data["game"], campaign=campaign, data=data["data"]
        )
        return self._out(card, status.HTTP_201_CREATED)

    @extend_schema(request=CustomCardUpdateSerializer, responses=CustomCardSerializer)
    def update(self, request: Request, pk: str | None = None, partial: bool = False) -> Response:
        card = self.get_object()
        serializer = CustomCardUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        card = services.custom_card_update(
            by=signed_in(request), card=card, data=serializer.validated_data["data"]
        )
        return self._out(card)

    @extend_schema(request=CustomCardUpdateSerializer, responses=CustomCardSerializer)
    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        return self.update(request, pk, partial=True)

    def perform_destroy(self, instance: CustomCard) -> None:
        services.custom_card_delete(by=signed_in(self.request), card=instance)


class GameDeckViewSet(viewsets.GenericViewSet[Deck]):
    """Your own saved decks (anyone else's answers 404)."""

    serializer_class = GameDeckSerializer
    lookup_value_regex = ID_PATTERN  # ASCII digits: "1_0" or "٣" is no id

    def get_queryset(self) -> QuerySet[Deck]:
        if getattr(self, "swagger_fake_view", False):
            return Deck.objects.none()
        return selectors.decks_of(self.request.user)

    def get_object(self) -> Deck:
        return selectors.deck_for(self.request.user, self.kwargs["pk"])

    @staticmethod
    def _out(deck: Deck, code: int = 200) -> Response:
        return Response(GameDeckSerializer(selectors.deck_report(deck)).data, status=code)

    @extend_schema(
        parameters=[OpenApiParameter("game", str)], responses=GameDeckSerializer(many=True)
    )
    def list(self, request: Request) -> Response:
        """Paged like every list (``limit``, at most 200, and ``offset``)."""
        game = request.query_params.get("game")
        decks = selectors.decks_of(request.user, game[:8] if game else None)
        page = self.paginate_queryset(decks)
        rows = decks if page is None else page
        data = GameDeckSerializer([selectors.deck_report(d) for d in rows], many=True).data
        return self.get_paginated_response(data) if page is not None else Response(data)

    @extend_schema(responses=GameDeckSerializer)
    def retrieve(self, request: Request, pk: str | None = None) -> Response:
        return self._out(self.get_object())

    @extend_schema(request=GameDeckWriteSerializer, responses={201: GameDeckSerializer})
    def create(self, request: Request) -> Response:
        serializer = GameDeckWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        campaign = _deck_campaign(request.user, data.get("campaign"))
        cards = data.get("cards", [])
        if "text" in data:
            cg = selectors.game_or_404(data["game"])
            card_set = selectors.card_set_for(cg, campaign.pk if campaign else None)
            cards = services.read_deck_text(cg.slug, data["text"], card_set)
        deck = services.deck_create(
            by=signed_in(request),
            game=data["game"],
            name=data["name"],
            campaign=campaign,
            cards=cards,
        )
        return self._out(deck, status.HTTP_201_CREATED)

    @extend_schema(request=GameDeckUpdateSerializer, responses=GameDeckSerializer)
    def update(self, request: Request, pk: str | None = None) -> Response:
        deck = self.get_object()
        serializer = GameDeckUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        changes: dict[str, Any] = {k: data[k] for k in ("name", "cards") if k in data}
        if "campaign" in data:
            changes["campaign"] = _deck_campaign(request.user, data["campaign"])
        services.deck_update(by=signed_in(request), deck=deck, **changes)
        return self._out(deck)

    @extend_schema(request=GameDeckUpdateSerializer, responses=GameDeckSerializer)
    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        return self.update(request, pk)

    def destroy(self, request: Request, pk: str | None = None) -> Response:
        services.deck_delete(by=signed_in(request), deck=self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=GameDeckTextSerializer, responses=GameDeckSerializer)
    @action(detail=True, methods=["post"], url_path="import")
    def import_text(self, request: Request, pk: str | None = None) -> Response:
        """Replace the deck's cards with a deck text; an unreadable line changes nothing."""
        deck = self.get_object()
        serializer = GameDeckTextSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.deck_import(
            by=signed_in(request), deck=deck, text=serializer.validated_data["text"]
        )
        return self._out(deck)

    @extend_schema(responses=GameDeckTextSerializer)
    @action(detail=True, methods=["get"], url_path="export")
    def export_text(self, request: Request, pk: str | None = None) -> Response:
        return Response({"text": selectors.deck_report(self.get_object()).text})

    @extend_schema(request=GameDeckCheckSerializer, responses=GameDeckCheckResultSerializer)
    @action(detail=False, methods=["post"], url_path="validate")
    def validate(self, request: Request) -> Response:
        """Check cards (or a text) against the deck rules without saving: always 200 with
        ``legal`` and every broken rule, unless the input itself is malformed (400)."""
        serializer = GameDeckCheckSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        cg = selectors.game_or_404(data["game"])
        campaign = _deck_campaign(request.user, data.get("campaign"))
        campaign_id = campaign.pk if campaign else None
        cards = [c.strip().upper() for c in data.get("cards", [])]
        if "text" in data:
            card_set = selectors.card_set_for(cg, campaign_id)
            cards = services.read_deck_text(cg.slug, data["text"], card_set)
        errors = selectors.check_cards(request.user, cg, cards, campaign_id)
        return Response({"legal": not errors, "errors": errors, "cards": sorted(cards)})


def _deck_campaign(user: Any, campaign_id: int | None) -> Campaign | None:
    """A deck's campaign: one the user is in (else a 400 on ``campaign``, not a 404: the
    field is what is wrong)."""
    if campaign_id is None:
        return None
    try:
        campaign, _ = campaign_for(user, campaign_id)
    except Http404:
        raise ValidationError(
            {"campaign": [gettext("You are not a member of that campaign.")]}
        ) from None
    return campaign
