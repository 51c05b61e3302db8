"""Changes the table makes to the characters of a campaign: the GM heals a character, gives or
clears a status effect, hands out loot; a game moves a character's yen by its rules (the
tavern's stakes). The GM tools (``gmtools``: the dashboard, awards, the API's party actions)
and the tavern call these; they write characters, so they live with them.

Rules stay in one place: every change goes through :func:`characters.services.character_update`,
which validates the whole new draft with the engine, and the numbers (max HP) come from the
engine's sheet. This module decides *what* changes, checks that the character is in the
campaign and that the caller may (GMs only, or the system for a game's rules), and locks each
row before reading its draft, so a change computed from it cannot overwrite a concurrent one.

A character whose stored sheet breaks a rule (a house rule changed under it, say) cannot be
changed here until it is fixed: the refusal lists the problems (``ValidationError`` on
``character``), because ``character_update`` refuses to store a sheet that breaks rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext

from apibase.engine_words import in_language
from campaign.members import campaign_touch
from campaign.models import Campaign, Role
from campaign.permissions import CampaignAccess, OwnedAccess
from campaign.registry import character_status_changed
from westernroses.catalog import get_catalog
from westernroses.characters import ItemStack, SheetError, derive_sheet

from .models import Character
from .services import (
    CharacterFormatError,
    CharacterRulesError,
    character_to_draft,
    character_update,
    rules_for,
)

if TYPE_CHECKING:
    from westernroses.characters import CharacterDraft


def check_gm(campaign_id: int, by: CampaignAccess, refusal: str | None = None) -> None:
    """Refuse anyone but the campaign's GMs, with ``refusal`` (a whole translated sentence
    naming what only they may do) or a general one."""
    if not by.is_gm or by.campaign_id != campaign_id:
        raise PermissionDenied(refusal or gettext("Only the campaign's game masters may do that."))


def check_in_campaign(character: Character, campaign_id: int) -> None:
    if character.campaign_id != campaign_id:
        raise ValidationError(
            {"character": [gettext("%(name)s is not in this campaign.") % {"name": character.name}]}
        )


def gm_access_to(character: Character, by: CampaignAccess) -> OwnedAccess:
    """The GM's access to a character of their campaign, for the characters services."""
    return OwnedAccess(
        campaign=by, owner_id=character.owner_id, is_owner=by.user_id == character.owner_id
    )


def locked_draft(character: Character) -> tuple[Character, CharacterDraft]:
    """Lock the character's row (inside the caller's transaction) and read its draft from the
    locked row, so a change computed from it cannot overwrite a concurrent one."""
    locked = (
        Character.objects.select_for_update(of=("self",))
        .select_related("campaign", "owner")
        .prefetch_related("inventory")
        .get(pk=character.pk)
    )
    try:
        return locked, character_to_draft(locked)
    except CharacterFormatError as exc:
        raise ValidationError(
            {
                "character": [
                    gettext("%(name)s: %(problem)s")
                    % {"name": locked.name, "problem": in_language(exc.detail_words)}
                ]
            }
        ) from None


def store_draft(character: Character, draft: CharacterDraft, by: CampaignAccess) -> Character:
    """Save the changed draft through :func:`character_update`; its refusal becomes field
    errors."""
    try:
        return character_update(character=character, by=gm_access_to(character, by), draft=draft)
    except CharacterRulesError as exc:
        messages = [
            gettext("%(name)s: %(problem)s") % {"name": character.name, "problem": v.message}
            for v in exc.violations
        ]
        raise ValidationError({"character": messages}) from None


def max_hp(draft: CharacterDraft, campaign: Campaign | None) -> int:
    try:
        return derive_sheet(draft, rules_for(campaign)).hp.maximum.total
    except SheetError:
        raise ValidationError(
            {
                "character": [
                    gettext("%(name)s's sheet is not complete: finish it first.")
                    % {"name": draft.name}
                ]
            }
        ) from None


def touched(character: Character) -> Character:
    """Mark the character's campaign changed (the dashboard's version moves on); returns it."""
    if character.campaign_id is not None:
        campaign_touch(character.campaign_id)
    return character


# --------------------------------------------------------------------------- the GM's actions


@transaction.atomic
def character_heal(
    *, character: Character, by: CampaignAccess, amount: int | None = None
) -> Character:
    """Heal ``amount`` HP, never above the maximum; ``None`` heals fully (GMs only)."""
    check_gm(
        character.campaign_id or 0,
        by,
        gettext("Only the campaign's game masters heal characters from the dashboard."),
    )
    check_in_campaign(character, by.campaign_id)
    if amount is not None and amount < 1:
        raise ValidationError(
            {"amount": [gettext("Heal at least 1 HP (leave it empty to heal fully).")]}
        )
    locked, draft = locked_draft(character)
    top = max_hp(draft, locked.campaign)
    if amount is None:
        draft.current_hp = None
    else:
        current = top if draft.current_hp is None else draft.current_hp
        healed = min(top, current + amount)
        draft.current_hp = None if healed >= top else healed
    return touched(store_draft(locked, draft, by))


def _status(slug: str) -> str:
    if slug not in get_catalog().status_effects:
        known = ", ".join(sorted(get_catalog().status_effects))
        raise ValidationError(
            {
                "status": [
                    gettext("Unknown status effect “%(slug)s”; one of: %(known)s.")
                    % {"slug": slug, "known": known}
                ]
            }
        )
    return slug


@transaction.atomic
def character_status_apply(*, character: Character, by: CampaignAccess, status: str) -> Character:
    """Give a character a status effect from the catalog (GMs only); having it already is fine."""
    check_gm(
        character.campaign_id or 0,
        by,
        gettext("Only the campaign's game masters apply status effects from the dashboard."),
    )
    check_in_campaign(character, by.campaign_id)
    _status(status)
    locked, draft = locked_draft(character)
    if status in draft.status_effects:
        return locked
    draft.status_effects = [*draft.status_effects, status]
    stored = store_draft(locked, draft, by)
    # a character fighting in a running battle gets it there too (battles listen)
    character_status_changed(character=stored, status=status, applied=True, by=by)
    return touched(stored)


@transaction.atomic
def character_status_clear(*, character: Character, by: CampaignAccess, status: str) -> Character:
    """Take a status effect away (GMs only)."""
    check_gm(
        character.campaign_id or 0,
        by,
        gettext("Only the campaign's game masters clear status effects from the dashboard."),
    )
    check_in_campaign(character, by.campaign_id)
    _status(status)
    locked, draft = locked_draft(character)
    if status not in draft.status_effects:
        return locked
    draft.status_effects = [s for s in draft.status_effects if s != status]
    stored = store_draft(locked, draft, by)
    character_status_changed(character=stored, status=status, applied=False, by=by)
    return touched(stored)


@transaction.atomic
def loot_add(
    *, characters: Sequence[Character], by: CampaignAccess, yen: int, items: Mapping[str, int]
) -> list[Character]:
    """Add ``yen`` and ``items`` (slug → quantity) to each of ``characters`` (GMs only), all or
    nothing: the rows are locked in id order (two awards never deadlock) and each new draft is
    validated by the engine; the first refusal (an unknown item, a sheet that breaks a rule)
    rolls everything back and names the character. Returns the stored characters, by id."""
    check_gm(by.campaign_id, by, gettext("Only the campaign's game masters award loot."))
    unique = sorted({c.pk: c for c in characters}.values(), key=lambda c: c.pk)
    for character in unique:
        check_in_campaign(character, by.campaign_id)
    stored = []
    for character in unique:
        locked, draft = locked_draft(character)
        draft.yen += yen
        inventory = dict(draft.inventory)
        for slug, quantity in items.items():
            stack = inventory.get(slug)
            inventory[slug] = ItemStack(
                quantity=(stack.quantity if stack else 0) + quantity,
                equipped=stack.equipped if stack else False,
            )
        draft.inventory = inventory
        stored.append(store_draft(locked, draft, by))
    return stored


# --------------------------------------------------------------------------- yen moves


@transaction.atomic
def yen_move(*, campaign: Campaign, changes: Mapping[int, int]) -> dict[int, int]:
    """Add ``changes[character_id]`` yen (negative: take) to characters of ``campaign``, all or
    nothing, through the same locked drafts and character service as an award; returns each
    character's new yen. Used by features that move a character's own money by the rules of
    something she chose to do (the tavern's stakes: held at the start of a game, paid to the
    winners, returned on abandon), not by a GM's decision. Refuses (``ValidationError`` on
    ``yen``, nothing changed) any change that would leave a character below 0 yen."""
    system = CampaignAccess(campaign_id=campaign.pk, user_id=None, role=Role.GM)
    wanted = {int(k): int(v) for k, v in changes.items() if int(v)}
    characters = list(
        Character.objects.filter(pk__in=wanted, campaign_id=campaign.pk).order_by("pk")
    )
    if len(characters) != len(wanted):
        raise ValidationError({"characters": [gettext("Not every character is in this campaign.")]})
    after: dict[int, int] = {}
    for character in characters:
        locked, draft = locked_draft(character)
        if draft.yen + wanted[character.pk] < 0:
            raise ValidationError(
                {
                    "yen": [
                        gettext("%(name)s has %(yen)s yen, not %(wanted)s.")
                        % {"name": locked.name, "yen": draft.yen, "wanted": -wanted[character.pk]}
                    ]
                }
            )
        draft.yen += wanted[character.pk]
        store_draft(locked, draft, system)
        after[character.pk] = draft.yen
    if after:
        campaign_touch(campaign.pk)
    return after
