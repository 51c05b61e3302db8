"""The home page: what a visitor sees first, and a signed-in user's campaigns."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from campaign.models import Role
from campaign.selectors import campaigns_for_user


def home(request: HttpRequest) -> HttpResponse:
    campaigns = []
    if request.user.is_authenticated:
        campaigns = list(campaigns_for_user(request.user))
        for c in campaigns:
            c.my_role_label = Role(c.my_role).label  # type: ignore[attr-defined]
    return render(request, "home.html", {"campaigns": campaigns})
