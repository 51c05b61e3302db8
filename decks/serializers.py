"""API shapes for cards and decks. Input serializers bound every text; the engine's checks
run in the services (``decks.services``) and come back as field errors."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from apibase import serializers
from apibase.fields import ObjectIdField

from .games import GAME_CHOICES
from .models import MAX_DECK_CARDS, MAX_NAME, MAX_NUMBER, CustomCard
from .selectors import CardEntry, DeckReport
from .services import MAX_DECK_TEXT


class GameCardSerializer(serializers.Serializer[Any]):
    """A card in words and as data (a starter card has no ``custom_card``)."""

    number = serializers.CharField()
    name = serializers.CharField()
    kind = serializers.CharField()
    kind_label = serializers.CharField()
    type = serializers.CharField(source="kind", help_text="The older name of ``kind``.")
    type_label = serializers.CharField(
        source="kind_label", help_text="The older name of ``kind_label``."
    )
    cost = serializers.IntegerField(allow_null=True)
    characters = serializers.ListField(child=serializers.CharField())
    lines = serializers.ListField(child=serializers.CharField(), help_text="The card in words.")
    # a declared field (the JSON key), not the Serializer attribute `source`
    source = serializers.CharField()  # type: ignore[assignment]
    custom_card = serializers.SerializerMethodField()
    campaign = serializers.SerializerMethodField()
    # a declared field (the JSON key), not the Serializer attribute `data`
    data = serializers.DictField()  # type: ignore[assignment]

    def get_custom_card(self, entry: CardEntry) -> int | None:
        return entry.custom.pk if entry.custom else None

    def get_campaign(self, entry: CardEntry) -> int | None:
        return entry.custom.campaign_id if entry.custom else None


class GameCardQuerySerializer(serializers.Serializer[Any]):
    type = serializers.CharField(required=False, allow_blank=True, max_length=20)
    character = serializers.CharField(required=False, allow_blank=True, max_length=60)
    cost = serializers.IntegerField(required=False, min_value=0, max_value=99)
    q = serializers.CharField(required=False, allow_blank=True, max_length=100)
    # ``campaign`` is read by the view itself: given but empty or malformed is a 404


class CustomCardSerializer(serializers.ModelSerializer[CustomCard]):
    lines = serializers.SerializerMethodField()
    card_type = serializers.CharField(
        source="kind", read_only=True, help_text="The older name of ``kind``."
    )

    class Meta:
        model = CustomCard
        fields = (
            "id",
            "game",
            "campaign",
            "number",
            "name",
            "kind",
            "card_type",
            "cost",
            "characters",
            "data",
            "lines",
            "created_at",
            "updated_at",
        )
        read_only_fields = fields

    def get_lines(self, card: CustomCard) -> list[str]:
        return list(self.context.get("lines", {}).get(card.pk, []))


class CustomCardWriteSerializer(serializers.Serializer[Any]):
    game = serializers.ChoiceField(choices=GAME_CHOICES)
    campaign = ObjectIdField(
        required=False, allow_null=True, help_text="Empty: a site-wide card (staff)."
    )
    # a declared field (the JSON key), not the Serializer attribute `data`
    data = serializers.JSONField(help_text="The card in the game's vocabulary (docs/decks.md).")  # type: ignore[assignment]


class CustomCardUpdateSerializer(serializers.Serializer[Any]):
    # a declared field (the JSON key), not the Serializer attribute `data`
    data = serializers.JSONField()  # type: ignore[assignment]


class GameDeckSerializer(serializers.Serializer[Any]):
    """A saved deck with its legality: ``errors`` lists every broken rule at once."""

    id = serializers.IntegerField(source="deck.pk")
    game = serializers.CharField(source="deck.game")
    name = serializers.CharField(source="deck.name")
    campaign = serializers.IntegerField(source="deck.campaign_id", allow_null=True)
    cards = serializers.ListField(child=serializers.CharField(), source="deck.cards")
    total = serializers.IntegerField()
    legal = serializers.BooleanField()
    # a declared field (the JSON key), not the Serializer attribute `errors`
    errors = serializers.ListField(child=serializers.CharField())  # type: ignore[assignment]
    counts = serializers.SerializerMethodField()
    seat_key = serializers.SerializerMethodField()
    updated_at = serializers.DateTimeField(source="deck.updated_at")

    def get_counts(self, report: DeckReport) -> dict[str, int]:
        return dict(sorted(report.counts.items()))

    def get_seat_key(self, report: DeckReport) -> str:
        return f"deck:{report.deck.pk}"


class GameDeckWriteSerializer(serializers.Serializer[Any]):
    game = serializers.ChoiceField(choices=GAME_CHOICES)
    name = serializers.CharField(max_length=MAX_NAME)
    campaign = ObjectIdField(required=False, allow_null=True)
    cards = serializers.ListField(
        child=serializers.CharField(max_length=MAX_NUMBER),
        max_length=MAX_DECK_CARDS,
        required=False,
    )
    text = serializers.CharField(
        required=False, max_length=MAX_DECK_TEXT, help_text="A deck as text, instead of cards."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "cards" in attrs and "text" in attrs:
            raise serializers.ValidationError({"text": [gettext("Give cards or text, not both.")]})
        return attrs


class GameDeckUpdateSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=MAX_NAME, required=False)
    campaign = ObjectIdField(required=False, allow_null=True)
    cards = serializers.ListField(
        child=serializers.CharField(max_length=MAX_NUMBER),
        max_length=MAX_DECK_CARDS,
        required=False,
    )


class GameDeckCheckSerializer(serializers.Serializer[Any]):
    game = serializers.ChoiceField(choices=GAME_CHOICES)
    campaign = ObjectIdField(required=False, allow_null=True)
    cards = serializers.ListField(
        child=serializers.CharField(max_length=MAX_NUMBER),
        max_length=MAX_DECK_CARDS,
        required=False,
    )
    text = serializers.CharField(required=False, max_length=MAX_DECK_TEXT)


class GameDeckTextSerializer(serializers.Serializer[Any]):
    text = serializers.CharField(max_length=MAX_DECK_TEXT)


class GameDeckCheckResultSerializer(serializers.Serializer[Any]):
    legal = serializers.BooleanField()
    # a declared field (the JSON key), not the Serializer attribute `errors`
    errors = serializers.ListField(child=serializers.CharField())  # type: ignore[assignment]
    cards = serializers.ListField(child=serializers.CharField())


class GameSeatDeckSerializer(serializers.Serializer[Any]):
    key = serializers.CharField()
    name = serializers.CharField()
