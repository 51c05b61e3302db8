"""The campaign timeline page: everything that happened, newest first, as this member may see
it (secret rolls and private handouts are left out for those who may not see them)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from campaign.permissions import campaign_for
from campaign.registry import timeline_sources

from ..timeline import timeline_page
from .common import int_or_none


@login_required
def timeline(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, access = campaign_for(request.user, pk)
    page_number = int_or_none(request.GET.get("page")) or 1
    kind = request.GET.get("kind") or ""
    kinds = {kind} if kind in timeline_sources() else None
    page = timeline_page(access, page=page_number, kinds=kinds)
    context = {
        "campaign": campaign,
        "access": access,
        "page": page,
        "kind": kind if kinds else "",
        "kinds": sorted(timeline_sources()),
    }
    return render(request, "gmtools/timeline.html", context)
