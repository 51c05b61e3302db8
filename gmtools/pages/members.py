"""Members page: who is in the campaign; GMs promote, demote and remove; anyone may leave."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from accounts.typing import AuthedRequest
from apibase.words import quoted
from campaign import selectors
from campaign.members import membership_set_role
from campaign.models import Role
from campaign.permissions import campaign_for

from .. import members as member_services
from ..forms import MemberRoleForm
from .common import error_messages


@login_required
def member_list(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, access = campaign_for(request.user, pk)
    context = {
        "campaign": campaign,
        "access": access,
        "members": selectors.campaign_members(campaign),
        "roles": Role.choices,
    }
    return render(request, "gmtools/members.html", context)


def _refused(request: HttpRequest, exc: ValidationError) -> None:
    for field_messages in error_messages(exc).values():
        for message in field_messages:
            messages.error(request, message)


@login_required
@require_POST
def member_role(request: HttpRequest, pk: int, user_id: int) -> HttpResponse:
    """Promote to GM or demote to player (GMs only; never the last GM)."""
    campaign, access = campaign_for(request.user, pk, manage=True)
    form = MemberRoleForm(request.POST)
    if not form.is_valid():
        messages.error(request, gettext("Choose a role."))
        return redirect("gmtools:members", campaign.pk)
    try:
        membership = membership_set_role(
            campaign=campaign, user_id=user_id, role=form.cleaned_data["role"], by=access
        )
    except ValidationError as exc:
        _refused(request, exc)
    else:
        messages.success(
            request, f"{membership.user.shown_name} is now {membership.get_role_display()}."
        )
    if user_id == request.user.pk and form.cleaned_data["role"] != Role.GM:
        return redirect("campaign:detail", campaign.pk)  # no longer allowed on the GM view
    return redirect("gmtools:members", campaign.pk)


@login_required
@require_POST
def member_remove(request: HttpRequest, pk: int, user_id: int) -> HttpResponse:
    campaign, access = campaign_for(request.user, pk, manage=True)
    try:
        member_services.membership_remove(campaign=campaign, user_id=user_id, by=access)
    except ValidationError as exc:
        _refused(request, exc)
    else:
        messages.success(
            request, gettext("The member was removed; their characters left with them.")
        )
    return redirect("gmtools:members", campaign.pk)


@login_required
@require_POST
def leave(request: AuthedRequest, pk: int) -> HttpResponse:
    campaign, _ = campaign_for(request.user, pk)
    try:
        member_services.membership_leave(campaign=campaign, user=request.user)
    except ValidationError as exc:
        _refused(request, exc)
        return redirect("gmtools:members", campaign.pk)
    messages.success(request, f"You left {quoted(campaign.name)}. Your characters are still yours.")
    return redirect("campaign:list")
