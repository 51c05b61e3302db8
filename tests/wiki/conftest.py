"""A small world: a public place, a GM-only secret, a character known to one player with a
section for each, and one character of the party (mentioned from the wiki)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from campaign.permissions import access_for
from tests.factories import CharacterFactory
from wiki import services


@pytest.fixture
def world(campaign, gm, player, other_player):
    access = access_for(gm, campaign)

    def write(**kw):
        return services.entry_create(campaign_id=campaign.pk, by=access, author=gm, **kw)

    cirno = CharacterFactory(owner=player, campaign=campaign, name="Cirno")
    mansion = write(
        title="Scarlet Devil Mansion",
        kind="place",
        body="A red mansion by the lake. @[[Patchouli Knowledge]] keeps its library.",
        visibility="all",
        tags=["mansion"],
    )
    plan = write(
        title="Remilia's plan",
        kind="lore",
        body="Cover Gensokyo in mist from @[[Scarlet Devil Mansion]]; @[[Cirno]] is bait.",
    )
    patchouli = write(
        title="Patchouli Knowledge",
        kind="character",
        body="The librarian. She knows @[[Remilia's plan]].",
        visibility="chosen",
        viewer_ids=[player.pk],
    )
    weakness = services.section_save(
        entry=patchouli, by=access, author=gm, heading="Weakness",
        body="Asthma; sunlight spells fail her.", visibility="gm",
    )  # fmt: skip
    library = services.section_save(
        entry=patchouli, by=access, author=gm, heading="The library",
        body="A forbidden grimoire sits on the top shelf.", visibility="chosen",
        viewer_ids=[other_player.pk],
    )  # fmt: skip
    return SimpleNamespace(
        access=access, mansion=mansion, plan=plan, patchouli=patchouli,
        weakness=weakness, library=library, cirno=cirno,
    )  # fmt: skip
