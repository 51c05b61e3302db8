"""Admin for spellcards: read the stored drafts; writes should go through the pages or the API
(the services validate every card), so the cost and the draft are read-only here."""

from __future__ import annotations

from django.contrib import admin

from .models import DeckEntry, Spellcard, TemplateCard


class DeckEntryInline(admin.TabularInline[DeckEntry, Spellcard]):
    model = DeckEntry
    extra = 0
    raw_id_fields = ("character",)


@admin.register(Spellcard)
class SpellcardAdmin(admin.ModelAdmin[Spellcard]):
    list_display = ("name", "character", "card_type", "is_bomb", "cost", "updated_at")
    list_filter = ("card_type", "is_bomb")
    search_fields = ("name", "character__name")
    raw_id_fields = ("character", "source_template")
    readonly_fields = ("card_type", "is_bomb", "cost", "draft", "created_at", "updated_at")
    inlines = (DeckEntryInline,)


@admin.register(TemplateCard)
class TemplateCardAdmin(admin.ModelAdmin[TemplateCard]):
    list_display = ("name", "campaign", "created_by", "updated_at")
    search_fields = ("name",)
    raw_id_fields = ("campaign", "created_by")
    readonly_fields = ("draft", "created_at", "updated_at")
