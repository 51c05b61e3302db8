"""API shapes for characters. The character itself travels as the engine's draft dict.

Reading: a character with its full ``draft`` (``CharacterDraft.to_dict()``: choices, inventory,
play state); ``private_notes`` is present only for the owner and the campaign's GMs. Writing:
``draft`` plus notes; the engine validates it (see ``characters.services``).
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field

from apibase import serializers
from apibase.fields import ObjectIdField
from campaign.permissions import OwnedAccess

from .models import Character
from .services import CharacterFormatError, character_to_draft


class CharacterSerializer(serializers.ModelSerializer[Character]):
    """A character as its viewer may see it (``context["accesses"]``: pk -> OwnedAccess)."""

    owner = serializers.CharField(source="owner.username", read_only=True)
    draft = serializers.SerializerMethodField()
    private_notes = serializers.CharField(
        read_only=True, required=False, help_text="Only for the owner and the campaign's GMs."
    )
    portrait_url = serializers.SerializerMethodField()
    sheet_url = serializers.SerializerMethodField()
    can_edit = serializers.SerializerMethodField()

    class Meta:
        model = Character
        fields = (
            "id",
            "name",
            "owner",
            "campaign",
            "is_npc",
            "shot_type",
            "race",
            "profession",
            "element",
            "level",
            "yen",
            "current_hp",
            "spell_power",
            "drunkenness",
            "status_effects",
            "draft",
            "public_notes",
            "private_notes",
            "portrait_url",
            "sheet_url",
            "can_edit",
            "created_at",
            "updated_at",
        )
        read_only_fields = fields

    def _access(self, obj: Character) -> OwnedAccess:
        access: OwnedAccess = self.context["accesses"][obj.pk]  # filled by the view
        return access

    @extend_schema_field(serializers.DictField())
    def get_draft(self, obj: Character) -> dict[str, Any] | None:
        try:
            return character_to_draft(obj).to_dict()
        except CharacterFormatError:
            return None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_portrait_url(self, obj: Character) -> str | None:
        return reverse("characters:portrait", args=[obj.pk]) if obj.portrait else None

    def get_sheet_url(self, obj: Character) -> str:
        return reverse("character-sheet", args=[obj.pk])

    def get_can_edit(self, obj: Character) -> bool:
        return self._access(obj).can_edit

    def to_representation(self, instance: Character) -> dict[str, Any]:
        data = super().to_representation(instance)
        if not self._access(instance).can_see_private:
            data.pop("private_notes", None)
        return data


class CharacterWriteSerializer(serializers.Serializer[Any]):
    """Create (``draft`` required) or PATCH (every field optional; ``draft`` keys given
    replace those keys of the stored draft, e.g. ``{"draft": {"current_hp": 40}}``)."""

    campaign = ObjectIdField(
        required=False, allow_null=True, help_text="A campaign you play in; null: none."
    )
    is_npc = serializers.BooleanField(required=False, help_text="GMs only.")
    draft = serializers.DictField(
        required=True, help_text="The character: CharacterDraft.to_dict() keys (see docs)."
    )
    public_notes = serializers.CharField(required=False, allow_blank=True, max_length=20_000)
    private_notes = serializers.CharField(required=False, allow_blank=True, max_length=20_000)


class PreviewInputSerializer(serializers.Serializer[Any]):
    draft = serializers.DictField(help_text="A draft to validate and derive; nothing is saved.")
    campaign = ObjectIdField(
        required=False, allow_null=True, help_text="Judge by this campaign's house rules."
    )


class SheetSerializer(serializers.Serializer[Any]):
    """A derived sheet: ``sheet`` is the engine's ``Sheet.to_dict()`` plus ``check.odds``
    (exact chance of beating ``target``) on each stat and skill; null when it cannot be
    derived, with ``problems`` saying why."""

    valid = serializers.BooleanField()
    target = serializers.IntegerField()
    problems = serializers.ListField(child=serializers.DictField())
    sheet = serializers.DictField(allow_null=True)


class PreviewSerializer(SheetSerializer):
    # a declared field (the JSON key), not the Serializer attribute `errors`
    errors = serializers.DictField(help_text="Messages by field, and every rule under 'rules'.")  # type: ignore[assignment]


class LevelUpSerializer(serializers.Serializer[Any]):
    levels = serializers.IntegerField(default=1, min_value=1, max_value=100)


class InventoryInputSerializer(serializers.Serializer[Any]):
    item = serializers.CharField(max_length=60, help_text="The catalog item's slug.")
    quantity = serializers.IntegerField(
        min_value=0, max_value=1_000_000_000, help_text="0 drops it."
    )
    equipped = serializers.BooleanField(default=False)


class PortraitInputSerializer(serializers.Serializer[Any]):
    portrait = serializers.FileField(help_text="PNG, JPEG, WebP or GIF; at most 2 MB.")


class ImportInputSerializer(serializers.Serializer[Any]):
    file = serializers.FileField(
        required=False, help_text="An export document (or send the document as the JSON body)."
    )
    campaign = ObjectIdField(required=False, allow_null=True)


class ExportDocumentSerializer(serializers.Serializer[Any]):
    format = serializers.CharField(max_length=40, help_text='Always "westernroses.character".')
    version = serializers.IntegerField(help_text="1")
    character = serializers.DictField(help_text="CharacterDraft.to_dict()")
    notes = serializers.DictField(help_text='{"public": …, "private": … (owner and GMs only)}')
