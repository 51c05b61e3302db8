"""Admin for characters: find and inspect them. Rules fields are read-only here, because only
the services (and so the engine's validation) may change what a sheet is derived from."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from .models import Character, InventoryItem


class InventoryInline(admin.TabularInline[InventoryItem, Character]):
    model = InventoryItem
    extra = 0
    fields = ("item", "quantity", "equipped")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Character | None = None) -> bool:
        return False


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin[Character]):
    list_display = (
        "name",
        "owner",
        "campaign",
        "is_npc",
        "level",
        "shot_type",
        "race",
        "profession",
        "element",
        "current_hp",
        "yen",
        "updated_at",
    )
    list_filter = ("is_npc", "level", "shot_type", "race", "profession", "element", "campaign")
    search_fields = ("name", "owner__username", "campaign__name")
    list_select_related = ("owner", "campaign")
    autocomplete_fields = ("owner",)
    readonly_fields = (
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
        "portrait",
        "created_at",
        "updated_at",
    )
    fields = (
        "name",
        "owner",
        "campaign",
        "is_npc",
        *readonly_fields[:-3],
        "public_notes",
        "private_notes",
        "portrait",
        "created_at",
        "updated_at",
    )
    inlines = (InventoryInline,)


@admin.register(InventoryItem)
class InventoryItemAdmin(admin.ModelAdmin[InventoryItem]):
    list_display = ("character", "item", "quantity", "equipped")
    list_filter = ("equipped", "item")
    search_fields = ("character__name", "item")
    list_select_related = ("character",)
    readonly_fields = ("character", "item", "quantity", "equipped")
