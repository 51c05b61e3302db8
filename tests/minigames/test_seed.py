"""The demo seeder's tavern (issue 12: ``make run`` shows tavern tables): a table waiting for a
player, one in play with a bot, a practice table with the advisor where the demo player is
waited on, one finished (with its result), and an open table; nothing added twice."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from campaign.models import Campaign
from minigames.engines.registry import get_engine
from minigames.models import TavernTable

pytestmark = pytest.mark.django_db


def test_seed_demo_tavern_idempotently():
    out = StringIO()
    for _ in range(2):
        call_command("seed_demo", stdout=out)
    campaign = Campaign.objects.get(name="The Scarlet Mist Incident")
    tables = TavernTable.objects.filter(campaign=campaign)
    statuses = sorted(tables.values_list("status", flat=True))
    assert statuses == ["active", "active", "ended", "setup"]
    finished = tables.get(status="ended")
    assert get_engine("raigo").is_terminal(get_engine("raigo").from_json(finished.state))
    playing = tables.get(status="active", practice=False)
    assert playing.seats.filter(bot="heuristic").exists()
    # The advisor shows at once: the demo player's move comes first.
    practice = tables.get(status="active", practice=True, advisor=True, stake=0)
    reimu = practice.seats.get(user__username="reimu")
    engine = get_engine("spirit_war")
    assert reimu.index in engine.waiting_on(engine.from_json(practice.state))
    assert reimu.character is not None and practice.seats.filter(bot="heuristic").exists()
    assert TavernTable.objects.filter(campaign__isnull=True, status="setup").count() == 1
    assert "/tavern/" in out.getvalue()
