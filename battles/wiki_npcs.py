"""NPCs from the campaign's wiki: a GM brings a Character or NPC entry with a stat block into a
battle as a combatant (in setup, or as a logged reinforcement once it runs).

The combatant is built from the stat block's numbers (``wiki.stat_blocks``, checked again by
the rules on the way in) and named after the entry's title, or the name the GM gives; nothing
else of the entry goes into the battle. The engine state, the log and every seat's view hold an
ordinary NPC, and the wiki entry's text, sections and id stay in the wiki, where its own
visibility rules guard them (``tests/battles/test_wiki_npcs.py`` checks every seat).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.http import Http404
from django.utils.translation import gettext

from apibase.numbers import object_id
from characters.sheet_words import STAT_ABBREVIATIONS
from westernroses.catalog import MAIN_STATS
from westernroses.stat_block import PART_NAMES
from wiki.models import Entry
from wiki.stat_blocks import STAT_BLOCK_KINDS, npc_entries, stat_block_of

from . import services
from .models import Battle

if TYPE_CHECKING:
    from accounts.models import User
    from campaign.permissions import CampaignAccess

#: How many of the wiki's NPCs the battle screen lists for the GMs.
MAX_LISTED = 200


def _entry(access: CampaignAccess, entry_id: Any) -> Entry:
    """A wiki entry of the battle's campaign with a stat block; another campaign's (or none)
    is a 404, one without numbers a 400 saying how to add them."""
    pk = object_id(entry_id) if isinstance(entry_id, int | str) else None
    entry = (
        Entry.objects.filter(campaign_id=access.campaign_id, pk=pk).select_related("kind").first()
        if pk is not None
        else None
    )
    if entry is None:
        raise Http404("No such wiki entry in this campaign.")
    if entry.stat_block is None or entry.kind.key not in STAT_BLOCK_KINDS:
        raise ValidationError(
            {
                "wiki_entry": [
                    gettext("%(name)s has no stat block: add one on its wiki page.")
                    % {"name": entry.title}
                ]
            }
        )
    return entry


def _fight_name(name: Any, entry: Entry) -> str:
    if name is None:
        return entry.title[:120]
    text = " ".join(str(name).split())
    if not text or len(text) > 120:
        raise ValidationError({"name": [gettext("A name of 1 to 120 characters.")]})
    return text


def battle_wiki_npc_place(
    *,
    battle_id: int,
    by: User,
    entry_id: Any,
    side: Any,
    position: Any = None,
    name: Any = None,
    expected_version: int | None = None,
) -> services.Applied:
    """Place an NPC of the campaign's wiki (GMs; played by the GMs). Its side is the GM's
    choice, never a default; its numbers are the entry's stat block."""
    if side is None or not str(side).strip():
        raise ValidationError(
            {
                "side": [
                    gettext("Choose the side it fights on: heroes, enemies, neutral or your own.")
                ]
            }
        )
    battle = Battle.objects.filter(pk=battle_id).only("campaign_id").first()
    if battle is None:
        raise Http404("No such battle.")
    access = services._access(by, battle, manage=True)
    entry = _entry(access, entry_id)
    try:
        block = stat_block_of(entry)
    except ValidationError as exc:
        raise ValidationError(
            {
                "wiki_entry": [
                    gettext("%(name)s's stat block breaks a rule: %(why)s")
                    % {"name": entry.title, "why": " ".join(exc.messages)}
                ]
            }
        ) from None
    assert block is not None  # noqa: S101 - _entry checked it has one
    spec = services.NpcSpec(
        name=_fight_name(name, entry),
        stats=dict(block.stats),
        hp=block.hp,
        speed=block.speed,
        range=block.range,
        element=block.element,
        weapons=block.weapons,
        damage_reduction=block.damage_reduction,
        spell_power=block.spell_power,
    )
    return services.battle_npc_place(
        battle_id=battle_id,
        by=by,
        npc=spec,
        side=side,
        position=position,
        expected_version=expected_version,
    )


def wiki_npc_choices(access: CampaignAccess) -> list[dict[str, Any]]:
    """The wiki's NPCs the GM may add, for the battle screen (GMs only: a player's is empty)."""
    rows = []
    for entry in npc_entries(access)[:MAX_LISTED]:
        try:
            block = stat_block_of(entry)
        except ValidationError:
            continue  # a stat block a rule now refuses: fixed on its page first
        if block is not None:
            rows.append({"id": entry.pk, "title": entry.title, "numbers": _numbers(block)})
    return rows


def _numbers(block: Any) -> str:
    """The stat block in one line in the reader's language: "PWR 7 · CHA 9 · … · Range 6"."""
    parts = [f"{STAT_ABBREVIATIONS[PART_NAMES[k]]} {block.stats[k]}" for k in MAIN_STATS]
    parts += [
        f"HP {block.hp}",
        gettext("Speed %(speed)s") % {"speed": block.speed},
        gettext("Range %(range)s") % {"range": block.range},
    ]
    return " · ".join(parts)
