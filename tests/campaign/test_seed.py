"""The demo seeder's campaign play: a session with reminders, handouts, a GM note, an award and
an open invitation link, through the services, and nothing added twice."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from campaign.models import Campaign
from gmtools.models import Award, GameSession, GMNote, Handout, Invitation
from notifications.models import ScheduledNotification

pytestmark = pytest.mark.django_db


def test_seed_demo_campaign_play_idempotently():
    out = StringIO()
    for _ in range(2):
        call_command("seed_demo", stdout=out)
    campaign = Campaign.objects.get(name="The Scarlet Mist Incident")
    session = GameSession.objects.get(campaign=campaign)
    assert ScheduledNotification.objects.filter(key__startswith=f"session:{session.pk}:").exists()
    assert Handout.objects.filter(campaign=campaign).count() == 2
    private = Handout.objects.get(campaign=campaign, shared_with_all=False)
    assert [u.username for u in private.recipients.all()] == ["reimu"]
    assert GMNote.objects.filter(campaign=campaign).count() == 1
    award = Award.objects.get(campaign=campaign)
    assert award.recipients.count() == campaign.characters.filter(is_npc=False).count() >= 1
    invitation = Invitation.objects.get(campaign=campaign)
    assert invitation.state() == "active"
    assert f"/campaigns/join/{invitation.token}/" in out.getvalue()


def test_the_printed_links_use_the_address_actually_served():
    """Issue 10: ``make run PORT=8101`` printed the invitation and demo-battle links with port
    8000. ``make run`` passes the address it serves to the seeder, which prints only that."""
    import re
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent.parent
    plan = subprocess.run(  # noqa: S603 - a dry run (-n) of our own Makefile
        ["make", "-n", "-C", str(root), "run", "PORT=8101"],  # noqa: S607
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "seed_demo --base-url http://127.0.0.1:8101" in plan
    assert "runserver 127.0.0.1:8101" in plan
    out = StringIO()
    call_command("seed_demo", "--base-url", "http://127.0.0.1:8101", stdout=out)
    links = re.findall(r"https?://\S+", out.getvalue())
    assert len(links) >= 3  # log in, the invitation, the demo battle
    assert all(link.startswith("http://127.0.0.1:8101/") for link in links), links


def test_demo_rolls_never_share_a_seed():
    """Hardening finding 5: every demo roll used one fixed seed, so a player could recompute the
    GM's secret demo roll from the public ones (whose seeds are shown for verification)."""
    from campaign.models import Roll

    call_command("seed_demo", stdout=StringIO())
    seeds = [roll.detail["seed"] for roll in Roll.objects.all()]
    assert len(seeds) >= 3
    assert len(set(seeds)) == len(seeds)
