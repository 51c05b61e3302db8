"""The campaign page reads a fixed number of queries however many rolls its roll log shows
(up to ``ROLL_LOG_SIZE``) and whoever made them: each roll's roller comes with it."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign import services
from campaign.models import Membership, Role
from campaign.pages.campaigns import ROLL_LOG_SIZE
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

#: Who asks (her session and user come from the cache once kept), the campaign and her role,
#: the members, the roll log, the unread notifications' count, the navigation's count of
#: unread thread posts (threads/templatetags/thread_tags.py), the in-world date and the
#: viewer's calendar feed (gmtools/templatetags/world_tags.py).
QUERIES = 8


def _roll(campaign, users, n):
    request = services.dice_request_from(notation="2d", target=7)
    for i in range(n):
        services.roll_make(user=users[i % len(users)], dice=request, campaign=campaign)


def _page(client, campaign):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(f"/campaigns/{campaign.pk}/")
    assert response.status_code == 200
    return response.content.decode(), len(ctx.captured_queries)


@pytest.mark.parametrize("who", ["gm", "player"])
def test_the_campaign_page_reads_the_same_queries_for_3_and_50_rolls(
    campaign, gm, player, client_for, who
):
    rollers = [gm, player]
    for i in range(3):
        user = UserFactory(username=f"roller-{i}")
        Membership.objects.create(campaign=campaign, user=user, role=Role.PLAYER)
        rollers.append(user)
    client = client_for({"gm": gm, "player": player}[who])
    _roll(campaign, rollers, 3)
    client.get(f"/campaigns/{campaign.pk}/")  # who asks is read once and kept
    html, few = _page(client, campaign)
    assert html.count("data-roll=") == 3
    _roll(campaign, rollers, 60)
    html, many = _page(client, campaign)
    assert html.count("data-roll=") == ROLL_LOG_SIZE == 50
    assert few == many == QUERIES
