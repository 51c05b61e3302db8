"""Handout pages: members see what was shared with them (others' handouts are 404 for them);
GMs share text and files with everyone or with chosen members."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from accounts.typing import AuthedRequest
from apibase.media import private_file
from apibase.words import quoted
from campaign import selectors
from campaign.permissions import campaign_for
from campaign.registry import mentioned_in

from .. import handouts as handout_services
from ..forms import HandoutForm, add_service_errors


@login_required
@require_http_methods(["GET", "POST"])
def handout_list(request: AuthedRequest, pk: int) -> HttpResponse:
    campaign, access = campaign_for(request.user, pk, manage=request.method == "POST")
    form = None
    if access.can_manage:
        members = list(selectors.campaign_members(campaign))
        form = HandoutForm(request.POST or None, request.FILES or None, members=members)
    if request.method == "POST" and form is not None and form.is_valid():
        data = form.cleaned_data
        try:
            handout = handout_services.handout_create(
                campaign=campaign,
                by=access,
                author=request.user,
                title=data["title"],
                body=data["body"],
                file=data["file"],
                shared_with_all=data["shared_with_all"],
                recipient_ids=data["recipients"],
            )
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, f"Handout {quoted(handout.title)} shared.")
            return redirect("gmtools:handout_detail", campaign.pk, handout.pk)
    context = {
        "campaign": campaign,
        "access": access,
        "form": form,
        "handouts": handout_services.handouts_visible_to(access),
    }
    status = 400 if form is not None and form.errors else 200
    return render(request, "gmtools/handouts.html", context, status=status)


@login_required
def handout_detail(request: HttpRequest, pk: int, handout_id: int) -> HttpResponse:
    campaign, access = campaign_for(request.user, pk)
    handout = handout_services.handout_for(access, handout_id)
    # the wiki entries that mention it, as this viewer may see them (campaign.registry)
    linked = mentioned_in(access=access, key="handout", pk=handout.pk)
    context = {"campaign": campaign, "access": access, "handout": handout, "linked": linked}
    return render(request, "gmtools/handout_detail.html", context)


@login_required
def handout_file(request: HttpRequest, pk: int, handout_id: int) -> HttpResponseBase:
    """The handout's file, for whoever may see the handout; always a download (``nosniff``)."""
    _, access = campaign_for(request.user, pk)
    handout = handout_services.handout_for(access, handout_id)
    return private_file(
        handout.file,
        content_type="application/octet-stream",
        cache_control="private, no-store",
        download_as=handout.file_name or (handout.file.name or "handout").rsplit("/", 1)[-1],
        missing="This handout has no file.",
    )


@login_required
@require_POST
def handout_delete(request: HttpRequest, pk: int, handout_id: int) -> HttpResponse:
    campaign, access = campaign_for(request.user, pk, manage=True)
    handout = handout_services.handout_for(access, handout_id)
    handout_services.handout_delete(handout=handout, by=access)
    messages.success(request, gettext("Handout deleted."))
    return redirect("gmtools:handouts", campaign.pk)
