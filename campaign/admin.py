from django.contrib import admin

from .models import Campaign, Membership, Roll


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ("user",)


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ("name", "created_by", "created_at")
    search_fields = ("name", "description")
    inlines = (MembershipInline,)


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("campaign", "user", "role", "joined_at")
    list_filter = ("role",)
    search_fields = ("campaign__name", "user__username")


@admin.register(Roll)
class RollAdmin(admin.ModelAdmin):
    list_display = ("created_at", "campaign", "user", "label", "notation", "target", "total")
    list_filter = ("secret", "critical")
    search_fields = ("label", "notation", "user__username")
    readonly_fields = ("detail",)
