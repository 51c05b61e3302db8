"""API shapes for spellcards, decks, template cards and the price endpoint.

Input serializers only check shapes; the rules are the engine's, applied by the services.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from apibase import serializers
from apibase.fields import ObjectIdField
from westernroses.elements import Element
from westernroses.spellcards import CasterInfo
from westernroses.spellcards.caster import Profession

from .models import Spellcard, TemplateCard


class SpellcardSerializer(serializers.ModelSerializer[Spellcard]):
    """A stored card. ``cost`` is as last saved; ``price`` in a retrieve is computed live."""

    type = serializers.CharField(source="card_type", read_only=True)
    bomb = serializers.BooleanField(source="is_bomb", read_only=True)

    class Meta:
        model = Spellcard
        fields = (
            "id",
            "character",
            "name",
            "type",
            "bomb",
            "cost",
            "description",
            "draft",
            "source_template",
            "created_at",
            "updated_at",
        )
        read_only_fields = fields


class SpellcardWriteSerializer(serializers.Serializer[Any]):
    """Create: ``character`` and ``draft`` (SpellcardDraft.to_dict shape); update: ``draft``."""

    character = ObjectIdField(required=False)
    draft = serializers.JSONField()
    description = serializers.CharField(required=False, allow_blank=True, max_length=5000)
    add_to_deck = serializers.IntegerField(
        required=False, default=0, min_value=0, max_value=99, help_text="Copies to put in the deck"
    )


class CasterSerializer(serializers.Serializer[Any]):
    """An explicit caster: price a card for a character that is not stored (no database)."""

    profession = serializers.ChoiceField(choices=[p.value for p in Profession])
    shot_type = serializers.CharField(max_length=40)
    element = serializers.ChoiceField(choices=[e.value for e in Element])
    level = serializers.IntegerField(min_value=1, max_value=100, default=1)
    goddess_element = serializers.CharField(
        required=False,
        allow_null=True,
        max_length=40,
        help_text="A Shrine Maiden's goddess's element",
    )
    int = serializers.IntegerField(
        required=False, min_value=0, max_value=300, help_text="INT total, for the chance to hit"
    )
    pwr = serializers.IntegerField(
        required=False, min_value=0, max_value=300, help_text="PWR total, for the chance to hit"
    )

    def validate_goddess_element(self, value: str | None) -> str | None:
        # A plain string in the schema: the same choices as ``element`` under another name
        # would make drf-spectacular emit a duplicate enum.
        if value in (None, ""):
            return None
        if value not in {e.value for e in Element}:
            raise serializers.ValidationError(
                gettext("“%(element)s” is not one of the eight elements.") % {"element": value}
            )
        return value


def caster_from(data: dict[str, Any]) -> CasterInfo:
    """The engine's caster from validated :class:`CasterSerializer` data."""
    return CasterInfo(
        profession=data["profession"],
        shot_type=data["shot_type"],
        element=data["element"],
        level=data["level"],
        goddess_element=data.get("goddess_element"),
    )


class PriceInputSerializer(serializers.Serializer[Any]):
    """A draft and who casts it: an explicit ``caster``, or a ``character`` id you may act for."""

    draft = serializers.JSONField()
    caster = CasterSerializer(required=False)
    character = ObjectIdField(required=False)
    campaign = ObjectIdField(
        required=False, help_text="With an explicit caster: use this campaign's house rules"
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("caster" in attrs) == ("character" in attrs):
            raise serializers.ValidationError(
                {
                    "caster": [
                        gettext("Give either an explicit caster or a character id (not both).")
                    ]
                }
            )
        return attrs


class CostLineSerializer(serializers.Serializer[Any]):
    code = serializers.CharField()
    # a declared field (the JSON key), not the Serializer attribute `label`
    label = serializers.CharField()  # type: ignore[assignment]
    cost = serializers.IntegerField()
    section = serializers.CharField()


class ViolationSerializer(serializers.Serializer[Any]):
    code = serializers.CharField()
    field = serializers.CharField()
    message = serializers.CharField()
    section = serializers.CharField()


class PriceSerializer(serializers.Serializer[Any]):
    """The engine's CostBreakdown, every broken rule, and the attack numbers if any."""

    valid = serializers.BooleanField()
    total = serializers.IntegerField(allow_null=True)
    cost = serializers.DictField(allow_null=True, help_text="CostBreakdown.to_dict()")
    pricing_error = serializers.CharField(allow_null=True)
    violations = ViolationSerializer(many=True)
    attack = serializers.DictField(allow_null=True)


class DeckCopiesSerializer(serializers.Serializer[Any]):
    spellcard = ObjectIdField()
    copies = serializers.IntegerField(min_value=0, max_value=99)


#: The most entries a proposed deck lists: more than the kinds any deck may hold (402, at
#: level 100 with every extra), so a real deck always fits and the rules say what is wrong.
MAX_DECK_ENTRIES = 500


class DeckValidateSerializer(serializers.Serializer[Any]):
    """A proposed deck, checked without saving."""

    entries = serializers.ListField(child=DeckCopiesSerializer(), max_length=MAX_DECK_ENTRIES)


class DeckSerializer(serializers.Serializer[Any]):
    character = serializers.IntegerField()
    entries = serializers.ListField(child=serializers.DictField())
    cards = serializers.IntegerField()
    kinds = serializers.IntegerField()
    limits = serializers.DictField()
    valid = serializers.BooleanField()
    violations = serializers.ListField(child=serializers.DictField())
    not_in_deck = serializers.ListField(child=serializers.DictField())


class TemplateCardSerializer(serializers.ModelSerializer[TemplateCard]):
    created_by = serializers.CharField(source="created_by.username", read_only=True)

    class Meta:
        model = TemplateCard
        fields = ("id", "campaign", "name", "description", "draft", "created_by", "created_at")
        read_only_fields = fields


class TemplateCardWriteSerializer(serializers.Serializer[Any]):
    campaign = ObjectIdField(required=False)
    draft = serializers.JSONField()
    description = serializers.CharField(required=False, allow_blank=True, max_length=5000)


class TemplateCopySerializer(serializers.Serializer[Any]):
    character = ObjectIdField()
    add_to_deck = serializers.IntegerField(required=False, default=0, min_value=0, max_value=99)
