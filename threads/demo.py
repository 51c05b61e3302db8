"""Play-by-post's demo data (``manage.py seed_demo``): a scene thread where Reimu and Marisa
post in character, one with an inline roll and Marisa with a secret one, a reaction and an
out-of-character aside. Idempotent: the thread is found by its title. Everything goes through
the services, so the rolls are real rolls in the roll log."""

from __future__ import annotations

from typing import Any

from campaign.models import Campaign
from campaign.permissions import access_for
from characters.models import Character

from . import services
from .models import Thread

DEMO_THREAD = ("At the shore of Misty Lake", "Act one: the mist")
DEMO_POSTS: tuple[tuple[str, str | None, str], ...] = (
    # username, character name (None: as herself), body
    (
        "gm",
        None,
        "The fog parts for a moment: a red roof on the far shore. A fairy giggles somewhere "
        "above the water. *What do you do?*",
    ),
    (
        "reimu",
        "Reimu Hakurei",
        "I step onto the ice and look for the giggling one. @[Marisa Kirisame], cover me.\n"
        "/roll 4d > 12 Spot the fairy",
    ),
    (
        "marisa",
        "Marisa Kirisame",
        "Covering you, ze! I'll *borrow* a look at that roof too.\n"
        "/roll secret 3d+1 > 10 Sense the magic",
    ),
    ("reimu", None, "(Out of character: can we stop at the shrine after this? — Reimu)"),
)


def seed_threads(campaign: Campaign, users: dict[str, Any], stdout: Any) -> None:
    """The demo thread with its posts (once)."""
    title, category = DEMO_THREAD
    if Thread.objects.filter(campaign=campaign, title=title).exists():
        return
    gm = users["gm"]
    thread = services.thread_create(
        campaign=campaign, by=access_for(gm, campaign), user=gm, title=title, category=category
    )
    first = None
    for username, character_name, body in DEMO_POSTS:
        user = users[username]
        character = (
            Character.objects.filter(campaign=campaign, owner=user, name=character_name).first()
            if character_name
            else None
        )
        post = services.post_create(
            thread=thread,
            by=access_for(user, campaign),
            user=user,
            body=body,
            character_id=character.pk if character else None,
        )
        first = first or post
    if first is not None:
        services.reaction_toggle(post=first, by=access_for(users["reimu"], campaign), kind="wow")
    services.thread_update(thread=thread, by=access_for(gm, campaign), pinned=True)
    stdout.write(f"  Play-by-post: the thread “{title}”, with in-character posts and rolls.")
