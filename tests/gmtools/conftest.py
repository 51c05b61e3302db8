"""Fixtures for the campaign-play tests: a co-GM, characters, a session, a note, handouts."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from campaign.models import Membership, Role
from campaign.permissions import access_for
from tests.factories import CharacterFactory, UserFactory


@pytest.fixture
def co_gm(campaign):
    """A second GM of the campaign."""
    user = UserFactory(username="co-gm")
    Membership.objects.create(campaign=campaign, user=user, role=Role.GM)
    return user


@pytest.fixture
def gm_access(campaign, gm):
    return access_for(gm, campaign)


@pytest.fixture
def character(campaign, player):
    """The player's legal character in the campaign."""
    return CharacterFactory(owner=player, campaign=campaign, name="Cirno")


@pytest.fixture
def other_character(campaign, other_player):
    return CharacterFactory(owner=other_player, campaign=campaign, name="Daiyousei")


@pytest.fixture
def npc(campaign, gm):
    return CharacterFactory(owner=gm, campaign=campaign, name="Meiling", is_npc=True)


@pytest.fixture
def game_session(campaign, gm):
    from gmtools.models import GameSession

    return GameSession.objects.create(
        campaign=campaign,
        title="The lake",
        starts_at=timezone.now() + timedelta(days=3),
        agenda="Find the fairy.",
        created_by=gm,
    )


@pytest.fixture
def gm_note(campaign, gm):
    from gmtools.models import GMNote

    return GMNote.objects.create(
        campaign=campaign, author=gm, title="Secret twist", body="Remilia is the butler."
    )


@pytest.fixture
def handout_all(campaign, gm):
    from gmtools.models import Handout

    return Handout.objects.create(
        campaign=campaign, author=gm, title="Map of the lake", body="Everyone sees this."
    )


@pytest.fixture
def handout_private(campaign, gm, player):
    """Shared with ``player`` only."""
    from gmtools.models import Handout

    handout = Handout.objects.create(
        campaign=campaign,
        author=gm,
        title="Letter for one",
        body="Only the first player reads this.",
        shared_with_all=False,
    )
    handout.recipients.set([player])
    return handout


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")
    return tmp_path / "media"


@pytest.fixture
def capture_commits(django_capture_on_commit_callbacks):
    """Run on-commit callbacks (notifications are enqueued on commit) inside a test."""
    return django_capture_on_commit_callbacks
