"""The stat block's page (GMs): a Character or NPC entry's numbers for battles, at
``/campaigns/<id>/wiki/<entry>/stat-block/``. Players get a 403, outsiders a 404, and an entry
of another kind a page that says only a Character or NPC has one."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.typing import AuthedRequest
from campaign.form_errors import add_service_errors
from campaign.permissions import campaign_for

from . import selectors
from .stat_blocks import STAT_BLOCK_KINDS, StatBlockForm, stat_block_set


@login_required
@require_http_methods(["GET", "POST"])
def stat_block_edit(request: AuthedRequest, pk: int, entry_id: int) -> HttpResponse:
    campaign, access = campaign_for(request.user, pk, manage=True)
    entry = selectors.entry_for(access, entry_id)
    initial: dict[str, Any] = dict(entry.stat_block or {})
    form = StatBlockForm(request.POST or None, initial=initial)
    allowed = entry.kind.key in STAT_BLOCK_KINDS
    if request.method == "POST":
        remove = "remove" in request.POST
        if remove or form.is_valid():
            try:
                stat_block_set(
                    entry=entry,
                    by=access,
                    author=request.user,
                    data=None if remove else form.stat_block_data(),
                )
            except ValidationError as exc:
                add_service_errors(form, exc)
            else:
                done = _("Stat block removed.") if remove else _("Stat block saved.")
                messages.success(request, done)
                return redirect("wiki:detail", campaign.pk, entry.pk)
    context = {
        "campaign": campaign,
        "access": access,
        "entry": entry,
        "form": form,
        "allowed": allowed,
    }
    return render(request, "wiki/stat_block_form.html", context, status=400 if form.errors else 200)
