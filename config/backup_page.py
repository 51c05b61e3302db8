"""The GM's download of a campaign backup (the button on the campaign settings page).

The archive is the one ``manage.py campaign_export`` writes (``config/backup.py``). Only the
campaign's GMs may download it: players get 403, outsiders 404, as every GM page
(``campaign.permissions.campaign_for``).

While a battle or a tavern table of the campaign is still being played the download is refused
(409, in words): the archive holds every game's full state with its random seed, which nobody,
the GM included, may see while a game runs (anyone holding it could predict every roll), and
the hands of every seat. The GM's archive holds her own saved decks only: another member's
deck is hers alone. The server's ``manage.py campaign_export`` has neither limit.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from accounts.typing import AuthedRequest
from battles.models import Battle
from campaign.permissions import campaign_for
from config.backup import export_campaign
from minigames.models import TavernTable
from tables.models import TableStatus


@login_required
@require_GET
def campaign_backup_download(request: AuthedRequest, pk: int) -> HttpResponse:
    """The campaign's backup archive, as a file download."""
    campaign, _access = campaign_for(request.user, pk, manage=True)
    running = (
        Battle.objects.filter(campaign=campaign, status=TableStatus.ACTIVE).exists()
        or TavernTable.objects.filter(campaign=campaign, status=TableStatus.ACTIVE).exists()
    )
    if running:
        return HttpResponse(
            "A battle or a tavern game of this campaign is still being played. The backup "
            "holds every game's secret dice seed and every hand, so it can be downloaded once "
            "those games have ended (or an administrator runs manage.py campaign_export).",
            status=409,
            content_type="text/plain; charset=utf-8",
        )
    data = export_campaign(campaign.pk, decks_of=request.user.pk)
    name = f"{slugify(campaign.name) or 'campaign'}-{campaign.pk}-backup.zip"
    response = HttpResponse(data, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "no-store"
    return response
