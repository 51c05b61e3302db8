"""The GM's download of a campaign backup (the button on the campaign settings page).

The archive is the one ``manage.py campaign_export`` writes (``config/backup.py``). Only the
campaign's GMs may download it: players get 403, outsiders 404, as every GM page
(``campaign.permissions.campaign_for``).

A GM who holds a seat at one of the campaign's unfinished tavern tables is refused (409, in
words): the archive holds every table's full state, so it would show her the other seats' hands
and the table's seed while she still plays.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from accounts.typing import AuthedRequest
from campaign.permissions import campaign_for
from config.backup import export_campaign
from minigames.models import TavernSeat
from tables.models import TableStatus


@login_required
@require_GET
def campaign_backup_download(request: AuthedRequest, pk: int) -> HttpResponse:
    """The campaign's backup archive, as a file download."""
    campaign, _access = campaign_for(request.user, pk, manage=True)
    seated = TavernSeat.objects.filter(
        table__campaign=campaign, user_id=request.user.pk, resigned=False
    ).exclude(table__status=TableStatus.ENDED)
    if seated.exists():
        return HttpResponse(
            "You hold a seat at a tavern table of this campaign that is still being played. "
            "The backup holds every hand at every table, so it can be downloaded once your "
            "games have ended (or an administrator runs manage.py campaign_export).",
            status=409,
            content_type="text/plain; charset=utf-8",
        )
    data = export_campaign(campaign.pk)
    name = f"{slugify(campaign.name) or 'campaign'}-{campaign.pk}-backup.zip"
    response = HttpResponse(data, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "no-store"
    return response
