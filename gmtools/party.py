"""The GM's quick actions on the party that the campaign keeps a record of: raising a level
(for the timeline, and the table is told) and rolling for an NPC (the roll log). The dashboard's
forms and the API call these; heal and status effects change only the characters, so they are
the characters app's (:mod:`characters.party`).

Rules stay in one place: the level itself is raised by the characters app's service
(:func:`characters.services.character_level_up`), the dice by the campaign's roller
(:func:`campaign.services.roll_make`). This module checks that the GM may, that the character
is in the campaign, and records what the timeline shows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext

from campaign.models import Campaign, Roll
from campaign.services import roll_make
from characters.party import check_gm, check_in_campaign, gm_access_to, locked_draft, touched
from characters.services import CharacterRulesError, character_level_up
from notifications import EventType, notify_campaign, texts

from .models import LevelUp

if TYPE_CHECKING:
    from accounts.models import User
    from campaign.permissions import CampaignAccess
    from characters.models import Character


@transaction.atomic
def level_up_grant(
    *, character: Character, by: CampaignAccess, raised_by: User, levels: int = 1
) -> LevelUp:
    """Raise a level through the characters app's service (GMs only; it tells the owner),
    record it for the timeline and tell the rest of the table and its webhook (``level_up``)."""
    check_gm(
        character.campaign_id or 0,
        by,
        gettext("Only the campaign's game masters raise levels."),
    )
    check_in_campaign(character, by.campaign_id)
    if not 1 <= levels <= 10:
        raise ValidationError({"levels": [gettext("Raise between 1 and 10 levels at a time.")]})
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
        title=texts.gettext_lazy(
            "%(name)s reached level %(level)s", name=locked.name, level=locked.level
        ),
        body=texts.gettext_lazy(
            "%(gm)s raised %(name)s from level %(level)s.",
            gm=raised_by.shown_name,
            name=locked.name,
            level=before,
        ),
        url=reverse("characters:sheet", args=[locked.pk]),
        dedupe_key=f"level_up:{level_up.pk}",
        # The characters app's service already told the owner (once per level).
        exclude=[raised_by, locked.owner],
    )
    touched(locked)
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
    check_gm(campaign.pk, by, gettext("Only the campaign's game masters roll for NPCs."))
    if npc is not None:
        check_in_campaign(npc, campaign.pk)
        label = f"{npc.name}: {label}" if label else npc.name
    return roll_make(user=user, dice=dice, campaign=campaign, label=label[:120], secret=secret)
