"""The GM's quick actions on the party: heal, apply or clear a status, raise a level, roll
for an NPC. The dashboard's forms and the API call these; so may battles later.

Rules stay in one place: every change to a character goes through the characters app's
services (:func:`characters.services.character_update` validates the whole new draft with the
engine; :func:`characters.services.character_level_up` raises levels), and the numbers (max HP)
come from the engine's sheet. This module only decides *what* the GM asked for, checks that
the character is in the campaign, and records what the timeline shows (level-ups).

A character whose stored sheet breaks a rule (a house rule changed under it, say) cannot be
changed here until it is fixed: the refusal lists the problems (``ValidationError`` on
``character``), because ``character_update`` refuses to store a sheet that breaks rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.urls import reverse

from westernroses.catalog import get_catalog

from .members import campaign_touch
from .models import Campaign, LevelUp, Roll

if TYPE_CHECKING:
    from accounts.models import User
    from characters.models import Character
    from westernroses.characters import CharacterDraft

    from .permissions import CampaignAccess, OwnedAccess


def check_gm(campaign_id: int, by: CampaignAccess, what: str = "do that") -> None:
    if not by.is_gm or by.campaign_id != campaign_id:
        raise PermissionDenied(f"Only the campaign's game masters {what}.")


def check_in_campaign(character: Character, campaign_id: int) -> None:
    if character.campaign_id != campaign_id:
        raise ValidationError({"character": [f"{character.name} is not in this campaign."]})


def gm_access_to(character: Character, by: CampaignAccess) -> OwnedAccess:
    """The GM's access to a character of their campaign, for the characters services."""
    from .permissions import OwnedAccess

    return OwnedAccess(
        campaign=by, owner_id=character.owner_id, is_owner=by.user_id == character.owner_id
    )


def locked_draft(character: Character) -> tuple[Character, CharacterDraft]:
    """Lock the character's row (inside the caller's transaction) and read its draft from the
    locked row, so a change computed from it cannot overwrite a concurrent one."""
    from characters.models import Character as CharacterModel
    from characters.services import CharacterFormatError, character_to_draft

    locked = (
        CharacterModel.objects.select_for_update(of=("self",))
        .select_related("campaign", "owner")
        .prefetch_related("inventory")
        .get(pk=character.pk)
    )
    try:
        return locked, character_to_draft(locked)
    except CharacterFormatError as exc:
        raise ValidationError({"character": [f"{locked.name}: {exc.detail}"]}) from None


def store_draft(character: Character, draft: CharacterDraft, by: CampaignAccess) -> Character:
    """Save the changed draft through the characters app; its refusal becomes field errors."""
    from characters.services import CharacterRulesError, character_update

    try:
        return character_update(character=character, by=gm_access_to(character, by), draft=draft)
    except CharacterRulesError as exc:
        messages = [f"{character.name}: {v.message}" for v in exc.violations]
        raise ValidationError({"character": messages}) from None


def max_hp(draft: CharacterDraft, campaign: Campaign | None) -> int:
    from characters.services import rules_for
    from westernroses.characters import SheetError, derive_sheet

    try:
        return derive_sheet(draft, rules_for(campaign)).hp.maximum.total
    except SheetError:
        raise ValidationError(
            {"character": [f"{draft.name}'s sheet is not complete: finish it first."]}
        ) from None


# --------------------------------------------------------------------------- quick actions


@transaction.atomic
def character_heal(
    *, character: Character, by: CampaignAccess, amount: int | None = None
) -> Character:
    """Heal ``amount`` HP, never above the maximum; ``None`` heals fully (GMs only)."""
    check_gm(character.campaign_id or 0, by, "heal characters from the dashboard")
    check_in_campaign(character, by.campaign_id)
    if amount is not None and amount < 1:
        raise ValidationError({"amount": ["Heal at least 1 HP (leave it empty to heal fully)."]})
    locked, draft = locked_draft(character)
    top = max_hp(draft, locked.campaign)
    if amount is None:
        draft.current_hp = None
    else:
        current = top if draft.current_hp is None else draft.current_hp
        healed = min(top, current + amount)
        draft.current_hp = None if healed >= top else healed
    return _done(store_draft(locked, draft, by))


def _status(slug: str) -> str:
    if slug not in get_catalog().status_effects:
        known = ", ".join(sorted(get_catalog().status_effects))
        raise ValidationError({"status": [f"Unknown status effect “{slug}”; one of: {known}."]})
    return slug


@transaction.atomic
def character_status_apply(*, character: Character, by: CampaignAccess, status: str) -> Character:
    """Give a character a status effect from the catalog (GMs only); having it already is fine."""
    check_gm(character.campaign_id or 0, by, "apply status effects from the dashboard")
    check_in_campaign(character, by.campaign_id)
    _status(status)
    locked, draft = locked_draft(character)
    if status in draft.status_effects:
        return locked
    draft.status_effects = [*draft.status_effects, status]
    return _done(store_draft(locked, draft, by))


@transaction.atomic
def character_status_clear(*, character: Character, by: CampaignAccess, status: str) -> Character:
    """Take a status effect away (GMs only)."""
    check_gm(character.campaign_id or 0, by, "clear status effects from the dashboard")
    check_in_campaign(character, by.campaign_id)
    _status(status)
    locked, draft = locked_draft(character)
    if status not in draft.status_effects:
        return locked
    draft.status_effects = [s for s in draft.status_effects if s != status]
    return _done(store_draft(locked, draft, by))


def _done(character: Character) -> Character:
    if character.campaign_id is not None:
        campaign_touch(character.campaign_id)
    return character


@transaction.atomic
def level_up_grant(
    *, character: Character, by: CampaignAccess, raised_by: User, levels: int = 1
) -> LevelUp:
    """Raise a level through the characters app's service (GMs only; it tells the owner),
    record it for the timeline and tell the rest of the table and its webhook (``level_up``)."""
    from characters.services import CharacterRulesError, character_level_up
    from notifications import EventType, notify_campaign

    check_gm(character.campaign_id or 0, by, "raise levels")
    check_in_campaign(character, by.campaign_id)
    if not 1 <= levels <= 10:
        raise ValidationError({"levels": ["Raise between 1 and 10 levels at a time."]})
    locked, _ = locked_draft(character)
    before = locked.level
    try:
        character_level_up(character=locked, by=gm_access_to(locked, by), levels=levels)
    except CharacterRulesError as exc:
        raise ValidationError({"levels": [v.message for v in exc.violations]}) from None
    level_up = LevelUp.objects.create(
        campaign_id=by.campaign_id,
        character=locked,
        character_name=locked.name,
        owner_id=locked.owner_id,
        raised_by=raised_by,
        from_level=before,
        to_level=locked.level,
    )
    notify_campaign(
        campaign=cast("Campaign", locked.campaign),  # in the campaign: checked above
        event=EventType.LEVEL_UP,
        title=f"{locked.name} reached level {locked.level}",
        body=f"{raised_by.shown_name} raised {locked.name} from level {before}.",
        url=reverse("characters:sheet", args=[locked.pk]),
        dedupe_key=f"level_up:{level_up.pk}",
        # The characters app's service already told the owner (once per level).
        exclude=[raised_by, locked.owner],
    )
    _done(locked)
    return level_up


@transaction.atomic
def npc_roll(
    *,
    campaign: Campaign,
    by: CampaignAccess,
    user: User,
    dice: Any,
    npc: Character | None = None,
    label: str = "",
    secret: bool = True,
) -> Roll:
    """A GM rolls for an NPC (or anyone nameless): the roll joins the campaign's log, secret
    by default (only the GMs see it). ``dice`` is a validated ``DiceRequest``."""
    from .services import roll_make

    check_gm(campaign.pk, by, "roll for NPCs")
    if npc is not None:
        check_in_campaign(npc, campaign.pk)
        label = f"{npc.name}: {label}" if label else npc.name
    return roll_make(user=user, dice=dice, campaign=campaign, label=label[:120], secret=secret)
