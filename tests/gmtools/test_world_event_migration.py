"""``gmtools`` 0003 turns a calendar event's plain wiki entry number into a reference: a
number naming an entry of the event's campaign is kept, any other (an entry deleted since, or
another campaign's) becomes no entry, and nothing else of the event changes."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from campaign.permissions import access_for
from gmtools.models import WorldEvent
from tests.factories import CampaignFactory
from wiki import services as wiki_services

BEFORE = [("gmtools", "0002_calendar_rsvp_feed")]
AFTER = [("gmtools", "0003_world_event_wiki_entry")]


@pytest.mark.django_db(transaction=True)
def test_the_numbers_that_name_an_entry_of_the_campaign_are_kept(campaign, gm):
    from campaign.models import Membership, Role

    mine = wiki_services.entry_create(
        campaign_id=campaign.pk, by=access_for(gm, campaign), author=gm, title="Mist",
        kind="event",
    )  # fmt: skip
    other = CampaignFactory(created_by=gm)
    Membership.objects.create(campaign=other, user=gm, role=Role.GM)
    theirs = wiki_services.entry_create(
        campaign_id=other.pk, by=access_for(gm, other), author=gm, title="Far", kind="event"
    )
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps.get_model("gmtools", "WorldEvent")
    numbers = {"kept": mine.pk, "foreign": theirs.pk, "gone": 999_999, "none": None}
    for title, number in numbers.items():
        old.objects.create(
            campaign_id=campaign.pk, year=1, month=1, day=1, title=title, wiki_entry_id=number
        )
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)
    events = {e.title: e.wiki_entry_id for e in WorldEvent.objects.all()}
    assert events == {"kept": mine.pk, "foreign": None, "gone": None, "none": None}
