"""Admin for grid battles: read-only (every change is an engine action through the services,
so the action log stays the whole story). Staff GMs see their campaigns' battles but never
the stored state or starting snapshot, which hold the battle's secret seed."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from campaign.admin import ReadOnlyAdmin

from .models import Battle, BattleAction, BattleMap, Combatant

SECRET_FIELDS = ("state", "initial")


class CombatantInline(admin.TabularInline[Combatant, Battle]):
    model = Combatant
    extra = 0
    fields = ("engine_id", "name", "kind", "side", "character", "controller")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Battle | None = None) -> bool:
        return False


@admin.register(Battle)
class BattleAdmin(ReadOnlyAdmin[Battle]):
    list_display = ("name", "campaign", "status", "version", "summary", "updated_at")
    list_filter = ("status",)
    search_fields = ("name", "campaign__name")
    list_select_related = ("campaign",)
    inlines = (CombatantInline,)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_exclude(self, request: HttpRequest, obj: Any = None) -> Any:
        return () if request.user.is_superuser else SECRET_FIELDS


@admin.register(BattleAction)
class BattleActionAdmin(ReadOnlyAdmin[BattleAction]):
    campaign_path = "battle__campaign"
    list_display = ("battle", "seq", "actor", "version_after", "created_at")
    search_fields = ("battle__name", "actor__username")
    list_select_related = ("battle", "actor")

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(BattleMap)
class BattleMapAdmin(ReadOnlyAdmin[BattleMap]):
    """The campaigns' map libraries (uploads go through ``battles.maps``, which checks the
    image's content; the admin only looks)."""

    list_display = ("name", "campaign", "cols", "rows", "square_px", "content_type", "updated_at")
    search_fields = ("name", "campaign__name")
    list_select_related = ("campaign",)
