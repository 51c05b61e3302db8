"""Django admin for the GM tools' rows: invitations, sessions and attendance, GM notes,
handouts, awards and level-ups (campaigns themselves: ``campaign/admin.py``).

Non-superusers see only the campaigns they are a GM of (``campaign.admin.GMScopedAdmin``).
Writes that have consequences beyond their row go through the services: saving a session
(re)arms its reminders, deleting one cancels them; awards and level-ups are read-only here
because they changed characters through the characters app's services.
"""

from __future__ import annotations

import secrets

from django import forms
from django.contrib import admin
from django.http import HttpRequest

from campaign import admin as campaign_admin
from campaign.admin import GMScopedAdmin, ReadOnlyAdmin
from campaign.models import Campaign
from notifications import scheduled_notifications_cancel

from .models import (
    Attendance,
    Award,
    AwardRecipient,
    GameSession,
    GMNote,
    Handout,
    Invitation,
    InvitationAcceptance,
    LevelUp,
)
from .sessions import session_reminders_arrange

# --------------------------------------------------------------------------- campaign


class GameSessionInline(admin.TabularInline[GameSession, Campaign]):
    model = GameSession
    extra = 0
    fields = ("title", "starts_at", "created_by")
    readonly_fields = ("title", "starts_at", "created_by")
    show_change_link = True
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Campaign | None = None) -> bool:
        return False  # scheduled on the session admin, so the reminders are arranged


class InvitationInline(admin.TabularInline[Invitation, Campaign]):
    model = Invitation
    extra = 0
    fields = ("role", "note", "invited_user", "expires_at", "uses", "max_uses", "revoked_at")
    readonly_fields = fields
    show_change_link = True
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Campaign | None = None) -> bool:
        return False


admin.site.unregister(Campaign)


@admin.register(Campaign)
class CampaignAdmin(campaign_admin.CampaignAdmin):
    """The campaign core's admin, with its sessions and invitations listed below."""

    inlines = (*campaign_admin.CampaignAdmin.inlines, GameSessionInline, InvitationInline)


# --------------------------------------------------------------------------- invitations


class InvitationAcceptanceInline(admin.TabularInline[InvitationAcceptance, Invitation]):
    model = InvitationAcceptance
    extra = 0
    readonly_fields = ("user", "accepted_at")
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Invitation | None = None) -> bool:
        return False


@admin.register(Invitation)
class InvitationAdmin(GMScopedAdmin[Invitation]):
    list_display = (
        "campaign",
        "role",
        "note",
        "invited_user",
        "expires_at",
        "uses",
        "max_uses",
        "state_shown",
    )
    list_filter = ("role", "campaign", "expires_at")
    search_fields = ("campaign__name", "note", "invited_user__username", "token")
    readonly_fields = ("token", "uses", "created_at")
    autocomplete_fields = ("invited_user", "created_by")
    inlines = (InvitationAcceptanceInline,)

    @admin.display(description="state")
    def state_shown(self, obj: Invitation) -> str:
        return obj.state()

    def save_model(
        self, request: HttpRequest, obj: Invitation, form: forms.ModelForm[Invitation], change: bool
    ) -> None:
        if not obj.token:
            obj.token = secrets.token_urlsafe(32)
        super().save_model(request, obj, form, change)


# --------------------------------------------------------------------------- sessions


class AttendanceInline(admin.TabularInline[Attendance, GameSession]):
    model = Attendance
    extra = 0
    autocomplete_fields = ("user",)


@admin.register(GameSession)
class GameSessionAdmin(GMScopedAdmin[GameSession]):
    list_display = ("title", "campaign", "starts_at", "created_by", "has_summary")
    list_filter = ("campaign", "starts_at")
    search_fields = ("title", "agenda", "summary", "campaign__name")
    date_hierarchy = "starts_at"
    autocomplete_fields = ("created_by",)
    inlines = (AttendanceInline,)

    @admin.display(boolean=True, description="summary")
    def has_summary(self, obj: GameSession) -> bool:
        return bool(obj.summary)

    def save_model(
        self,
        request: HttpRequest,
        obj: GameSession,
        form: forms.ModelForm[GameSession],
        change: bool,
    ) -> None:
        super().save_model(request, obj, form, change)
        if not change or {"starts_at", "title"} & set(form.changed_data):
            session_reminders_arrange(obj)

    def delete_model(self, request: HttpRequest, obj: GameSession) -> None:
        scheduled_notifications_cancel(key_prefix=f"session:{obj.pk}:")
        super().delete_model(request, obj)


# --------------------------------------------------------------------------- notes, handouts


@admin.register(GMNote)
class GMNoteAdmin(GMScopedAdmin[GMNote]):
    list_display = ("title", "campaign", "author", "session", "updated_at")
    list_filter = ("campaign", "author")
    search_fields = ("title", "body", "campaign__name")
    autocomplete_fields = ("author",)


@admin.register(Handout)
class HandoutAdmin(GMScopedAdmin[Handout]):
    list_display = ("title", "campaign", "author", "shared_with_all", "file_name", "created_at")
    list_filter = ("shared_with_all", "campaign")
    search_fields = ("title", "body", "campaign__name")
    filter_horizontal = ("recipients",)
    autocomplete_fields = ("author",)
    readonly_fields = ("file_name",)


# --------------------------------------------------------------------------- awards, levels


class AwardRecipientInline(admin.TabularInline[AwardRecipient, Award]):
    model = AwardRecipient
    extra = 0
    readonly_fields = ("character", "character_name", "owner")
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Award | None = None) -> bool:
        return False


@admin.register(Award)
class AwardAdmin(ReadOnlyAdmin[Award]):
    list_display = ("created_at", "campaign", "awarded_by", "yen", "items", "reason")
    list_filter = ("campaign", "created_at")
    search_fields = ("reason", "recipients__character_name", "campaign__name")
    date_hierarchy = "created_at"
    inlines = (AwardRecipientInline,)


@admin.register(LevelUp)
class LevelUpAdmin(ReadOnlyAdmin[LevelUp]):
    list_display = (
        "created_at",
        "campaign",
        "character_name",
        "from_level",
        "to_level",
        "raised_by",
    )
    list_filter = ("campaign", "to_level")
    search_fields = ("character_name", "campaign__name")
    date_hierarchy = "created_at"
