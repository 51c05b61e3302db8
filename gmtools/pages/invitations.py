"""Invitation pages: the GMs' list of links, and the page a link opens (``/campaigns/join/…``).

A link that does not work says why, with 404 (no such link) or 410 (revoked, expired, used
up, or made for someone else), never a 500. Logged-out visitors see a page that sends them to
log in or sign up and brings them back to the link.
"""

from __future__ import annotations

from typing import cast
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from accounts.typing import AuthedRequest
from apibase.words import quoted
from campaign.permissions import campaign_for

from .. import invitations as invitation_services
from ..forms import InvitationForm, add_service_errors
from ..models import Invitation


def _after(request: HttpRequest, campaign_id: int) -> HttpResponse:
    if request.POST.get("next") == "dashboard":
        return redirect("gmtools:dashboard", campaign_id)
    return redirect("gmtools:invitations", campaign_id)


@login_required
@require_http_methods(["GET", "POST"])
def invitation_list(request: AuthedRequest, pk: int) -> HttpResponse:
    """GMs: every link with its state and who joined by it; a form for a new one."""
    campaign, access = campaign_for(request.user, pk, manage=True)
    form = InvitationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            invitation = invitation_services.invitation_create(
                campaign=campaign,
                by=access,
                created_by=request.user,
                role=data["role"],
                expires_in_days=data["expires_in_days"],
                max_uses=data["max_uses"],
                invited_user=data["username"],
                note=data["note"],
            )
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            link = request.build_absolute_uri(invitation_services.invitation_path(invitation))
            messages.success(request, f"New invitation link: {link}")
            return _after(request, campaign.pk)
    invitations = list(invitation_services.invitations_of(campaign.pk))
    context = {
        "campaign": campaign,
        "access": access,
        "form": form,
        "invitations": [(i, i.state()) for i in invitations],
    }
    return render(request, "gmtools/invitations.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def invitation_revoke(request: HttpRequest, pk: int, invitation_id: int) -> HttpResponse:
    campaign, access = campaign_for(request.user, pk, manage=True)
    invitation = invitation_services.invitation_for(campaign, invitation_id)
    invitation_services.invitation_revoke(invitation=invitation, by=access)
    messages.success(request, gettext("The invitation link no longer works."))
    return _after(request, campaign.pk)


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, token: str) -> HttpResponse:
    """The page an invitation link opens: the campaign's name and a Join button."""
    here = reverse("gmtools:join", args=[token])
    if not request.user.is_authenticated:
        if request.method == "POST":
            return redirect(f"{reverse('login')}?{urlencode({'next': here})}")
        return render(
            request,
            "gmtools/join.html",
            {
                "anonymous": True,
                "login_url": f"{reverse('login')}?{urlencode({'next': here})}",
                "signup_url": f"{reverse('signup')}?{urlencode({'next': here})}",
            },
        )
    invitation = invitation_services.invitation_by_token(token)
    if invitation is None:
        return render(
            request,
            "gmtools/join.html",
            {"problem": "There is no such invitation. Check that the whole link was copied."},
            status=404,
        )
    if request.method == "POST":
        return _accept(cast(AuthedRequest, request), invitation)
    if invitation.campaign.memberships.filter(user=request.user).exists():
        messages.info(request, f"You are already in {quoted(invitation.campaign.name)}.")
        return redirect("campaign:detail", invitation.campaign_id)
    state = invitation.state()
    if state == "active" and invitation.invited_user_id not in (None, request.user.pk):
        state = "not_for_you"
    if state != "active":
        return render(
            request,
            "gmtools/join.html",
            {"problem": invitation_services.STATE_MESSAGES[state], "state": state},
            status=410,
        )
    return render(request, "gmtools/join.html", {"invitation": invitation, "token": token})


def _accept(request: AuthedRequest, invitation: Invitation) -> HttpResponse:
    try:
        joined = invitation_services.invitation_accept(token=invitation.token, user=request.user)
    except invitation_services.InvitationUnusable as exc:
        return render(
            request, "gmtools/join.html", {"problem": str(exc), "state": exc.state}, status=410
        )
    except IntegrityError:  # joined in another tab at the same instant: they are in
        return redirect("campaign:detail", invitation.campaign_id)
    campaign = invitation.campaign
    if joined.already_member:
        messages.info(request, f"You are already in {quoted(campaign.name)}.")
    else:
        messages.success(
            request,
            f"Welcome to {quoted(campaign.name)}! You joined as "
            f"{joined.membership.get_role_display().lower()}.",
        )
    return redirect("campaign:detail", campaign.pk)
