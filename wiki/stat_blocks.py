"""A wiki entry's stat block: the numbers that let a GM bring a character or NPC of her wiki
into a battle (``battles/wiki_npcs.py`` reads them).

The numbers are checked by :mod:`westernroses.stat_block`, the rules every NPC of a battle
follows, and then built into a combatant by the battle engine itself (``engine.npc``), so a
stat block the wiki keeps is one a battle accepts. Only entries of the *Character or NPC* kind
have one (as only a place has a parent place), and only the GMs read or write it: a stat block
is the GM's notes on a fight, and players meet its numbers only as a battle shows any
combatant. Each change is a version in the entry's history.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from django import forms
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from apibase.engine_words import data_text, in_language
from characters.sheet_words import element_words
from westernroses import battle as engine
from westernroses.catalog import MAIN_STATS, get_catalog
from westernroses.elements import Element
from westernroses.stat_block import (
    DAMAGE_REDUCTION_MAX,
    FISTS,
    HP_MAX,
    HP_MIN,
    MAX_WEAPONS,
    PART_NAMES,
    RANGE_MAX,
    SPEED_MAX,
    SPELL_POWER_MAX,
    STAT_MAX,
    STAT_MIN,
    StatBlock,
    StatBlockError,
    stat_block_parse,
    weapon_choices,
)
from westernroses.words import listing

from .models import Entry

if TYPE_CHECKING:
    from accounts.models import User
    from campaign.permissions import CampaignAccess

#: The kinds whose entries may hold a stat block (the built-in "Character or NPC").
STAT_BLOCK_KINDS: Final = ("character",)


def stat_block_check(data: Any) -> StatBlock:
    """``data`` as a stat block, or a :class:`ValidationError` naming each part that breaks
    the rules; the battle engine then builds a combatant from it, so it refuses what a battle
    would refuse."""
    try:
        block = stat_block_parse(data)
        engine.npc(
            id="npc0",
            name="check",
            stats=dict(block.stats),
            hp=block.hp,
            speed=block.speed,
            range=block.range,
            element=block.element,
            weapons=block.weapons,
            damage_reduction=block.damage_reduction,
            spell_power=block.spell_power,
        )
    except StatBlockError as exc:
        raise ValidationError(exc.errors) from None
    except (KeyError, ValueError) as exc:
        raise ValidationError({"non_field_errors": [str(exc)]}) from None
    return block


def stat_block_of(entry: Entry) -> StatBlock | None:
    """The entry's stored stat block, checked again (a rule may have tightened since)."""
    if entry.stat_block is None:
        return None
    return stat_block_check(entry.stat_block)


@transaction.atomic
def stat_block_set(
    *, entry: Entry, by: CampaignAccess, author: User, data: Mapping[str, Any] | None
) -> Entry:
    """Give ``entry`` a stat block (``data``), or take it away (None): GMs only, one new
    version in the entry's history."""
    from .services import _record

    if not by.can_manage or by.campaign_id != entry.campaign_id:
        raise PermissionDenied(gettext("Only the campaign's game masters write the wiki."))
    entry = Entry.objects.select_for_update().select_related("kind").get(pk=entry.pk)
    if data is None:
        entry.stat_block = None
    else:
        if entry.kind.key not in STAT_BLOCK_KINDS:
            raise ValidationError(
                {"non_field_errors": [gettext("Only a Character or NPC entry has a stat block.")]}
            )
        entry.stat_block = stat_block_check(data).to_dict()
    entry.save(update_fields=["stat_block", "updated_at"])
    _record(entry, author)
    return entry


def npc_entries(access: CampaignAccess) -> QuerySet[Entry]:
    """The campaign's entries with a stat block, for its GMs (a player's is empty: the stat
    blocks are theirs alone)."""
    if not access.is_gm:
        return Entry.objects.none()
    return (
        Entry.objects.filter(campaign_id=access.campaign_id, stat_block__isnull=False)
        .filter(kind__key__in=STAT_BLOCK_KINDS)
        .select_related("kind")
        .order_by("title", "pk")
    )


def stat_block_rows(entry: Entry) -> list[tuple[str, str]]:
    """The entry's stat block in words, as its page shows it to the GMs (one that no longer
    fits the rules says so instead of its numbers)."""
    try:
        block = stat_block_of(entry)
    except ValidationError as exc:
        return [
            (
                gettext("Stat block"),
                gettext("does not fit the rules: %(why)s") % {"why": " ".join(exc.messages)},
            )
        ]
    if block is None:
        return []
    weapons = dict(weapon_choices())
    fists = get_catalog().items[FISTS].name
    rows = [(PART_NAMES[key], str(block.stats[key])) for key in MAIN_STATS]
    rows += [
        (gettext("HP"), str(block.hp)),
        (gettext("Speed"), str(block.speed)),
        (gettext("Range"), str(block.range)),
        (gettext("Will"), str(block.will)),
        (gettext("Element"), _element(block.element) if block.element else gettext("none")),
        (
            gettext("Weapons"),
            in_language(
                listing(
                    [data_text(fists), *(data_text(weapons[w]) for w in block.weapons)],
                    last="comma",
                )
            ),
        ),
    ]
    if block.damage_reduction:
        rows.append((gettext("Damage reduction"), str(block.damage_reduction)))
    rows.append(
        (
            gettext("Starting spell power"),
            str(block.spell_power)
            if block.spell_power is not None
            else gettext("the house rule's"),
        )
    )
    return rows


def _element(element: str) -> str:
    """An element's name in the reader's language ("Metal", 金), as the sheet words it."""
    return str(capfirst(element_words(element)))


def summary(block: StatBlock) -> str:
    """One line for a list: "PWR 7 · CHA 9 · INT 6 · INS 8 · HP 100 · Speed 6 · Range 6"."""
    parts = [f"{PART_NAMES[k]} {block.stats[k]}" for k in MAIN_STATS]
    parts += [f"HP {block.hp}", f"Speed {block.speed}", f"Range {block.range}"]
    return " · ".join(parts)


# --------------------------------------------------------------------------- the page's form


def _number(label: Any, low: int, high: int, *, required: bool = True, help: Any = "") -> Any:
    return forms.IntegerField(
        label=label, min_value=low, max_value=high, required=required, help_text=help
    )


class StatBlockForm(forms.Form):
    """The stat block on its page (GMs): the numbers, checked again by the rules on save."""

    pwr = _number(_("PWR (Power)"), STAT_MIN, STAT_MAX)
    cha = _number(_("CHA (Charisma)"), STAT_MIN, STAT_MAX)
    int = _number(_("INT (Intelligence)"), STAT_MIN, STAT_MAX)
    ins = _number(_("INS (Insight)"), STAT_MIN, STAT_MAX)
    hp = _number(_("HP"), HP_MIN, HP_MAX)
    speed = _number(_("Speed"), 0, SPEED_MAX)
    range = _number(_("Range"), 0, RANGE_MAX, help=_("Squares her danmaku reaches."))
    element = forms.ChoiceField(
        label=_("Element"),
        required=False,
        choices=[("", _("none")), *((e.value, e.value.capitalize()) for e in Element)],  # below
    )
    weapons = forms.MultipleChoiceField(
        label=_("Weapons"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    damage_reduction = _number(
        _("Damage reduction"),
        0,
        DAMAGE_REDUCTION_MAX,
        required=False,
        help=_("Taken off every hit, to a minimum of 1 (as Resilience's 5)."),
    )
    spell_power = _number(
        _("Starting spell power"),
        0,
        SPELL_POWER_MAX,
        required=False,
        help=_("Empty: the campaign's house rule (50 unless the GM set otherwise)."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["weapons"]
        assert isinstance(field, forms.MultipleChoiceField)  # noqa: S101 - declared above
        # the catalog's names and the elements in the reader's language, as the page shows them
        field.choices = [(slug, data_text(name)) for slug, name in weapon_choices()]
        element = self.fields["element"]
        assert isinstance(element, forms.ChoiceField)  # noqa: S101 - declared above
        element.choices = [("", gettext("none")), *((e.value, _element(e.value)) for e in Element)]
        field.help_text = gettext("Beside her bare fists; at most %(n)s.") % {"n": MAX_WEAPONS}

    def stat_block_data(self) -> dict[str, Any]:
        """The cleaned numbers as the stat block's JSON (empty parts left out)."""
        data = dict(self.cleaned_data)
        data["element"] = data.get("element") or None
        return {k: v for k, v in data.items() if v is not None}
