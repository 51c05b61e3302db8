"""Admin for GM cards and decks: read them here; writes go through the pages or the API,
where the engine validates every card and the owner rules hold (data is read-only here)."""

from __future__ import annotations

from django.contrib import admin

from .models import CustomCard, Deck


@admin.register(CustomCard)
class CustomCardAdmin(admin.ModelAdmin[CustomCard]):
    list_display = ("number", "name", "game", "kind", "campaign", "updated_at")
    list_filter = ("game", "kind")
    search_fields = ("number", "name")
    raw_id_fields = ("campaign", "created_by")
    readonly_fields = ("data", "kind", "cost", "characters", "created_at", "updated_at")


@admin.register(Deck)
class DeckAdmin(admin.ModelAdmin[Deck]):
    list_display = ("name", "game", "owner", "campaign", "updated_at")
    list_filter = ("game",)
    search_fields = ("name", "owner__username")
    raw_id_fields = ("owner", "campaign")
    readonly_fields = ("cards", "created_at", "updated_at")
