"""A Secret Duel table: the core's abstract models plus who sits where (test-only app)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from tables.models import GameTable, TableAction


class DuelTable(GameTable):
    campaign = models.ForeignKey(
        "campaign.Campaign", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    seat0 = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seat1 = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")


class DuelAction(TableAction):
    table = models.ForeignKey(DuelTable, on_delete=models.CASCADE, related_name="actions")
