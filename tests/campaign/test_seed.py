"""The demo seeder's campaign play: a session with reminders, handouts, a GM note, an award and
an open invitation link, through the services, and nothing added twice."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from campaign.models import Award, Campaign, GameSession, GMNote, Handout, Invitation
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
