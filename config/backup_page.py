"""The GM's download of a campaign backup (the button on the campaign settings page).

The archive is the one ``manage.py campaign_export`` writes (``config/backup.py``). Only the
campaign's GMs may download it: players get 403, outsiders 404, as every GM page
(``campaign.permissions.campaign_for``).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from campaign.permissions import campaign_for
from config.backup import export_campaign


@login_required
@require_GET
def campaign_backup_download(request: HttpRequest, pk: int) -> HttpResponse:
    """The campaign's backup archive, as a file download."""
    campaign, _access = campaign_for(request.user, pk, manage=True)
    data = export_campaign(campaign.pk)
    name = f"{slugify(campaign.name) or 'campaign'}-{campaign.pk}-backup.zip"
    response = HttpResponse(data, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "no-store"
    return response
