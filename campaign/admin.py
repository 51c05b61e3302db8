"""Django admin for GMs who prefer it (the GM dashboard is the primary tool): campaigns,
memberships and the roll log, and the admin classes every campaign-scoped app builds on
(:class:`GMScopedAdmin`, :class:`ReadOnlyAdmin`). The GM tools' rows are in ``gmtools/admin.py``.

Staff users who are not superusers see only the campaigns they are a GM of, and the rows of
those campaigns: the admin goes through the same rule as the permission layer ("GMs manage
their campaign").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, TypedDict, TypeVar

from django import forms
from django.contrib import admin
from django.contrib.admin.options import InlineModelAdmin
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Count, QuerySet
from django.forms.models import BaseInlineFormSet, ModelChoiceField
from django.http import HttpRequest

from .members import LAST_GM
from .models import Campaign, Membership, Role, Roll

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

_M = TypeVar("_M", bound=models.Model)


class GMScopedAdmin(admin.ModelAdmin[_M]):
    """Non-superusers see and choose only campaigns they are a GM of."""

    campaign_path = "campaign"

    def get_queryset(self, request: HttpRequest) -> QuerySet[_M]:
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        prefix = f"{self.campaign_path}__" if self.campaign_path else ""
        return queryset.filter(
            **{f"{prefix}memberships__user": request.user.pk, f"{prefix}memberships__role": Role.GM}
        )

    def formfield_for_foreignkey(
        self, db_field: models.ForeignKey[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> ModelChoiceField[Any] | None:
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


class KeepAGMFormSet(BaseInlineFormSet[Membership, Campaign, forms.ModelForm[Membership]]):
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


class MembershipForm(forms.ModelForm[Membership]):
    class Meta:
        model = Membership
        fields = ("campaign", "user", "role")

    def clean_role(self) -> str:
        role: str = self.cleaned_data["role"]
        if role != Role.GM and _is_last_gm(self.instance):
            raise ValidationError(LAST_GM)
        return role


class MembershipInline(admin.TabularInline[Membership, Campaign]):
    model = Membership
    formset = KeepAGMFormSet
    extra = 0
    autocomplete_fields = ("user",)
    readonly_fields = ("joined_at",)


class _Members(TypedDict):
    members: int


@admin.register(Campaign)
class CampaignAdmin(GMScopedAdmin[Campaign]):
    campaign_path = ""
    list_display = ("name", "created_by", "member_count", "created_at", "updated_at")
    list_filter = ("created_at",)
    search_fields = ("name", "description", "created_by__username")
    date_hierarchy = "created_at"
    inlines: ClassVar[tuple[type[InlineModelAdmin[Any, Any]], ...]] = (MembershipInline,)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Campaign]:
        return super().get_queryset(request).annotate(members=Count("memberships", distinct=True))

    @admin.display(description="members", ordering="members")
    def member_count(self, obj: WithAnnotations[Campaign, _Members]) -> int:
        return obj.members


@admin.register(Membership)
class MembershipAdmin(GMScopedAdmin[Membership]):
    form = MembershipForm
    list_display = ("campaign", "user", "role", "joined_at")
    list_filter = ("role", "campaign")
    search_fields = ("campaign__name", "user__username")
    autocomplete_fields = ("user",)

    def has_delete_permission(self, request: HttpRequest, obj: Membership | None = None) -> bool:
        # The last GM stays (leaving players' characters are handled on the Members page).
        return super().has_delete_permission(request, obj) and not _is_last_gm(obj)


@admin.register(Roll)
class RollAdmin(GMScopedAdmin[Roll]):
    list_display = ("created_at", "campaign", "user", "label", "notation", "target", "total")
    list_filter = ("secret", "critical", "campaign")
    search_fields = ("label", "notation", "user__username")
    readonly_fields = ("detail",)


class ReadOnlyAdmin(GMScopedAdmin[_M]):
    """Rows written by services that also changed characters: look, do not touch."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: _M | None = None) -> bool:
        return False
