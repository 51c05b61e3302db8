"""Wiki notifications (issue 43: "A player's ... notification never carries what she may not
see"): an entry written, revealed, or changed in a part a player may see tells the players who
may see it, on the channels each chose for "News in the campaign wiki"; a player who may not
see the entry or the section is told nothing, and no notice names a hidden part."""

from __future__ import annotations

import pytest

from campaign.permissions import access_for
from notifications.models import EventType, Notification, NotificationPreference
from wiki import services

pytestmark = pytest.mark.django_db


def _told(user) -> list[str]:
    return list(
        Notification.objects.filter(recipient=user, event=EventType.WIKI_UPDATE)
        .order_by("pk")
        .values_list("title", flat=True)
    )


def test_each_player_hears_only_of_what_she_may_see(campaign, gm, player, other_player, outsider):
    access = access_for(gm, campaign)
    # She turned the in-app channel off and kept the webhook (with a URL): her choice is kept.
    NotificationPreference.objects.create(
        user=other_player,
        channels={"wiki_update": ["webhook"]},
        webhook_url="https://hooks.example.com/wiki",
    )

    def write(**kw):
        return services.entry_create(campaign_id=campaign.pk, by=access, author=gm, **kw)

    plan = write(title="Remilia's plan", kind="lore", body="Mist over Gensokyo.")
    assert _told(player) == _told(other_player) == []  # a GM-only entry tells nobody
    mansion = write(title="Scarlet Devil Mansion", kind="place", visibility="all")
    told = ["New in the wiki: Scarlet Devil Mansion"]
    assert _told(player) == _told(other_player) == told
    services.section_save(
        entry=mansion, by=access, author=gm, heading="Weakness",
        body="Sunlight burns the mistress.", visibility="gm",
    )  # fmt: skip
    assert _told(player) == _told(other_player) == told  # a hidden section tells nobody
    services.section_save(
        entry=mansion, by=access, author=gm, heading="What Reimu noticed",
        body="A draught under the library door.", visibility="chosen", viewer_ids=[player.pk],
    )  # fmt: skip
    assert _told(player) == [*told, "Changed in the wiki: Scarlet Devil Mansion"]
    assert _told(other_player) == told
    services.entry_update(entry=plan, by=access, author=gm, body="Mist, and then night.")
    assert len(_told(player)) == 2  # the GM-only entry changed: still nothing
    services.reveal(entry=plan, by=access, author=gm, to_all=False, player_ids=[player.pk])
    assert _told(player)[-1] == "Revealed to you in the wiki: Remilia's plan"
    assert _told(other_player) == told
    services.reveal(entry=plan, by=access, author=gm, to_all=True)
    assert _told(other_player) == [*told, "Revealed to you in the wiki: Remilia's plan"]
    assert len(_told(player)) == 3  # she knew it already: nothing new for her
    # No notice names a hidden part, and the GMs and outsiders get none.
    for note in Notification.objects.filter(event=EventType.WIKI_UPDATE):
        text = f"{note.title} {note.body} {note.url}"
        for secret in ("Sunlight", "Weakness", "draught", "Reimu noticed", "Mist"):
            assert secret not in text
    assert _told(gm) == _told(outsider) == []
    # Each on her channels: in the app for the first (the default), the webhook for the other.
    mine = Notification.objects.filter(recipient=player, event="wiki_update").first()
    theirs = Notification.objects.filter(recipient=other_player, event="wiki_update").first()
    assert set(mine.deliveries.values_list("channel", flat=True)) == {"in_app"}
    assert set(theirs.deliveries.values_list("channel", flat=True)) == {"webhook"}
    assert "wiki_update" in EventType.values and not EventType.WIKI_UPDATE.urgent
