"""Django admin for GMs who prefer it (the GM dashboard is the primary tool).

Staff users who are not superusers see only the campaigns they are a GM of, and the rows of
those campaigns: the admin goes through the same rule as the permission layer ("GMs manage
their campaign"). Writes that have consequences beyond their row go through the services:
saving a session (re)arms its reminders, deleting one cancels them; awards and level-ups are
read-only here because they changed characters through the characters app's services.
"""

from __future__ import annotations

import secrets
from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db.models import Count, QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest

from .members import LAST_GM
from .models import (
    Attendance,
    Award,
    AwardRecipient,
    Campaign,
    GameSession,
    GMNote,
    Handout,
    Invitation,
    InvitationAcceptance,
    LevelUp,
    Membership,
    Role,
    Roll,
)


class GMScopedAdmin(admin.ModelAdmin):
    """Non-superusers see and choose only campaigns they are a GM of."""

    campaign_path = "campaign"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        prefix = f"{self.campaign_path}__" if self.campaign_path else ""
        return queryset.filter(
            **{f"{prefix}memberships__user": request.user.pk, f"{prefix}memberships__role": Role.GM}
        )

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "campaign" and not request.user.is_superuser:
            kwargs["queryset"] = Campaign.objects.filter(
                memberships__user=request.user.pk, memberships__role=Role.GM
            )
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


# --------------------------------------------------------------------------- campaign


def _is_last_gm(membership: Membership | None) -> bool:
    if membership is None or membership.pk is None:
        return False
    stored = Membership.objects.filter(pk=membership.pk).values_list("role", flat=True).first()
    return (
        stored == Role.GM
        and not Membership.objects.filter(campaign_id=membership.campaign_id, role=Role.GM)
        .exclude(pk=membership.pk)
        .exists()
    )


class KeepAGMFormSet(BaseInlineFormSet):
    """The members inline may not leave the campaign without a GM (like the services)."""

    def clean(self) -> None:
        super().clean()
        roles = [
            f.cleaned_data.get("role")
            for f in self.forms
            if f.cleaned_data and not f.cleaned_data.get("DELETE")
        ]
        if self.instance.pk and Role.GM not in roles:
            raise ValidationError(LAST_GM)


class MembershipForm(forms.ModelForm):
    class Meta:
        model = Membership
        fields = ("campaign", "user", "role")

    def clean_role(self) -> str:
        role = self.cleaned_data["role"]
        if role != Role.GM and _is_last_gm(self.instance):
            raise ValidationError(LAST_GM)
        return role


class MembershipInline(admin.TabularInline):
    model = Membership
    formset = KeepAGMFormSet
    extra = 0
    autocomplete_fields = ("user",)
    readonly_fields = ("joined_at",)


class GameSessionInline(admin.TabularInline):
    model = GameSession
    extra = 0
    fields = ("title", "starts_at", "created_by")
    readonly_fields = ("title", "starts_at", "created_by")
    show_change_link = True
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # scheduled on the session admin, so the reminders are arranged


class InvitationInline(admin.TabularInline):
    model = Invitation
    extra = 0
    fields = ("role", "note", "invited_user", "expires_at", "uses", "max_uses", "revoked_at")
    readonly_fields = fields
    show_change_link = True
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Campaign)
class CampaignAdmin(GMScopedAdmin):
    campaign_path = ""
    list_display = ("name", "created_by", "member_count", "created_at", "updated_at")
    list_filter = ("created_at",)
    search_fields = ("name", "description", "created_by__username")
    date_hierarchy = "created_at"
    inlines = (MembershipInline, GameSessionInline, InvitationInline)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        return super().get_queryset(request).annotate(members=Count("memberships", distinct=True))

    @admin.display(description="members", ordering="members")
    def member_count(self, obj: Any) -> int:
        return obj.members


@admin.register(Membership)
class MembershipAdmin(GMScopedAdmin):
    form = MembershipForm
    list_display = ("campaign", "user", "role", "joined_at")
    list_filter = ("role", "campaign")
    search_fields = ("campaign__name", "user__username")
    autocomplete_fields = ("user",)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # The last GM stays (leaving players' characters are handled on the Members page).
        return super().has_delete_permission(request, obj) and not _is_last_gm(obj)


@admin.register(Roll)
class RollAdmin(GMScopedAdmin):
    list_display = ("created_at", "campaign", "user", "label", "notation", "target", "total")
    list_filter = ("secret", "critical", "campaign")
    search_fields = ("label", "notation", "user__username")
    readonly_fields = ("detail",)


# --------------------------------------------------------------------------- invitations


class InvitationAcceptanceInline(admin.TabularInline):
    model = InvitationAcceptance
    extra = 0
    readonly_fields = ("user", "accepted_at")
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Invitation)
class InvitationAdmin(GMScopedAdmin):
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

    def save_model(self, request: HttpRequest, obj: Invitation, form: Any, change: bool) -> None:
        if not obj.token:
            obj.token = secrets.token_urlsafe(32)
        super().save_model(request, obj, form, change)


# --------------------------------------------------------------------------- sessions


class AttendanceInline(admin.TabularInline):
    model = Attendance
    extra = 0
    autocomplete_fields = ("user",)


@admin.register(GameSession)
class GameSessionAdmin(GMScopedAdmin):
    list_display = ("title", "campaign", "starts_at", "created_by", "has_summary")
    list_filter = ("campaign", "starts_at")
    search_fields = ("title", "agenda", "summary", "campaign__name")
    date_hierarchy = "starts_at"
    autocomplete_fields = ("created_by",)
    inlines = (AttendanceInline,)

    @admin.display(boolean=True, description="summary")
    def has_summary(self, obj: GameSession) -> bool:
        return bool(obj.summary)

    def save_model(self, request: HttpRequest, obj: GameSession, form: Any, change: bool) -> None:
        from .sessions import session_reminders_arrange

        super().save_model(request, obj, form, change)
        if not change or {"starts_at", "title"} & set(form.changed_data):
            session_reminders_arrange(obj)

    def delete_model(self, request: HttpRequest, obj: GameSession) -> None:
        from notifications import scheduled_notifications_cancel

        scheduled_notifications_cancel(key_prefix=f"session:{obj.pk}:")
        super().delete_model(request, obj)


# --------------------------------------------------------------------------- notes, handouts


@admin.register(GMNote)
class GMNoteAdmin(GMScopedAdmin):
    list_display = ("title", "campaign", "author", "session", "updated_at")
    list_filter = ("campaign", "author")
    search_fields = ("title", "body", "campaign__name")
    autocomplete_fields = ("author",)


@admin.register(Handout)
class HandoutAdmin(GMScopedAdmin):
    list_display = ("title", "campaign", "author", "shared_with_all", "file_name", "created_at")
    list_filter = ("shared_with_all", "campaign")
    search_fields = ("title", "body", "campaign__name")
    filter_horizontal = ("recipients",)
    autocomplete_fields = ("author",)
    readonly_fields = ("file_name",)


# --------------------------------------------------------------------------- awards, levels


class AwardRecipientInline(admin.TabularInline):
    model = AwardRecipient
    extra = 0
    readonly_fields = ("character", "character_name", "owner")
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyAdmin(GMScopedAdmin):
    """Rows written by services that also changed characters: look, do not touch."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Award)
class AwardAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "campaign", "awarded_by", "yen", "items", "reason")
    list_filter = ("campaign", "created_at")
    search_fields = ("reason", "recipients__character_name", "campaign__name")
    date_hierarchy = "created_at"
    inlines = (AwardRecipientInline,)


@admin.register(LevelUp)
class LevelUpAdmin(ReadOnlyAdmin):
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
