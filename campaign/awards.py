"""Loot and yen awards: the GMs give yen and/or catalog items to one or more characters.

All or nothing: the characters are locked (in id order, so two awards never deadlock), each
gets the yen and items added to its draft, and each new draft is stored through the characters
app's :func:`characters.services.character_update`, which lets the engine validate it. If any
character refuses (an unknown item, a sheet that breaks a rule), the transaction rolls back and
nobody got anything; the refusal names the character and the reason. Then the campaign hears
about it (``loot_awarded``, on commit, through the notification service).

``yen`` and ``items`` are per character: "100 yen each".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Final

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Prefetch, QuerySet

from westernroses.catalog import get_catalog
from westernroses.characters import ItemStack

from .members import campaign_touch
from .models import Award, AwardRecipient, Campaign, GameSession
from .party import locked_draft, store_draft

if TYPE_CHECKING:
    from accounts.models import User
    from characters.models import Character

    from .permissions import CampaignAccess

MAX_YEN: Final = 1_000_000
MAX_ITEM_QUANTITY: Final = 1000


def award_items_known() -> dict[str, str]:
    """Catalog items that can be awarded (slug → name): anything carried, no natural weapons."""
    return {
        slug: item.name
        for slug, item in get_catalog().items.items()
        if item.category != "natural_weapon"
    }


def award_describe(yen: int, items: Mapping[str, int]) -> str:
    """ "100 yen, 2 × Sword" for titles and the timeline."""
    names = award_items_known()
    parts = [f"{yen} yen"] if yen else []
    parts += [
        f"{q} × {names.get(slug, slug)}" if q > 1 else names.get(slug, slug)
        for slug, q in sorted(items.items())
    ]
    return ", ".join(parts) or "nothing"


def _validate(
    campaign: Campaign,
    characters: Sequence[Character],
    yen: int,
    items: Mapping[str, int],
    session: GameSession | None,
) -> None:
    errors: dict[str, list[str]] = {}
    if not characters:
        errors["characters"] = ["Choose at least one character."]
    strangers = [c.name for c in characters if c.campaign_id != campaign.pk]
    if strangers:
        errors["characters"] = [f"Not in this campaign: {', '.join(strangers)}."]
    if not 0 <= yen <= MAX_YEN:
        errors["yen"] = [f"Between 0 and {MAX_YEN:,} yen per character."]
    known = award_items_known()
    item_errors = [f"Unknown item “{slug}”." for slug in items if slug not in known] + [
        f"Give between 1 and {MAX_ITEM_QUANTITY} of {known.get(slug, slug)}."
        for slug, quantity in items.items()
        if not 1 <= quantity <= MAX_ITEM_QUANTITY
    ]
    if item_errors:
        errors["items"] = item_errors
    if not yen and not items and "yen" not in errors and "items" not in errors:
        errors["yen"] = ["Award some yen or at least one item."]
    if session is not None and session.campaign_id != campaign.pk:
        errors["session"] = ["That session is in another campaign."]
    if errors:
        raise ValidationError(errors)


@transaction.atomic
def award_grant(
    *,
    campaign: Campaign,
    by: CampaignAccess,
    awarded_by: User,
    characters: Sequence[Character],
    yen: int = 0,
    items: Mapping[str, int] | None = None,
    reason: str = "",
    session: GameSession | None = None,
) -> Award:
    """Give ``yen`` and ``items`` (slug → quantity) to each of ``characters`` (GMs only)."""
    from notifications import EventType, notify_campaign

    if not by.is_gm or by.campaign_id != campaign.pk:
        raise PermissionDenied("Only the campaign's game masters award loot.")
    items = dict(items or {})
    unique = sorted({c.pk: c for c in characters}.values(), key=lambda c: c.pk)
    _validate(campaign, unique, yen, items, session)
    recipients = []
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
        stored = store_draft(locked, draft, by)
        recipients.append(stored)
    award = Award.objects.create(
        campaign=campaign,
        awarded_by=awarded_by,
        session=session,
        reason=reason.strip()[:200],
        yen=yen,
        items=items,
    )
    AwardRecipient.objects.bulk_create(
        [
            AwardRecipient(award=award, character=c, character_name=c.name, owner_id=c.owner_id)
            for c in recipients
        ]
    )
    what = award_describe(yen, items)
    names = ", ".join(c.name for c in recipients)
    notify_campaign(
        campaign=campaign,
        event=EventType.LOOT_AWARDED,
        title=f"Loot for {names}: {what}",
        body=reason.strip() or f"{awarded_by.shown_name} handed out loot.",
        url=f"/campaigns/{campaign.pk}/timeline/",
        dedupe_key=f"loot:{award.pk}",
        exclude=[awarded_by],
    )
    campaign_touch(campaign.pk)
    return award


# --------------------------------------------------------------------------- reads


def awards_of(campaign_id: int) -> QuerySet[Award]:
    """A campaign's awards, newest first, with recipients (two queries). Awards are public to
    the campaign's members: the loot is on the characters' public sheets anyway."""
    return (
        Award.objects.filter(campaign_id=campaign_id)
        .select_related("awarded_by", "session")
        .prefetch_related(Prefetch("recipients", queryset=AwardRecipient.objects.order_by("pk")))
    )


# --------------------------------------------------------------------------- yen moves


@transaction.atomic
def yen_move(*, campaign: Campaign, changes: Mapping[int, int]) -> dict[int, int]:
    """Add ``changes[character_id]`` yen (negative: take) to characters of ``campaign``, all or
    nothing, through the same locked drafts and character service as an award; returns each
    character's new yen. Used by features that move a character's own money by the rules of
    something she chose to do (the tavern's stakes: held at the start of a game, paid to the
    winners, returned on abandon), not by a GM's decision. Refuses (``ValidationError`` on
    ``yen``, nothing changed) any change that would leave a character below 0 yen."""
    from characters.models import Character as CharacterModel

    from .models import Role
    from .permissions import CampaignAccess

    system = CampaignAccess(campaign_id=campaign.pk, user_id=None, role=Role.GM)
    wanted = {int(k): int(v) for k, v in changes.items() if int(v)}
    characters = list(
        CharacterModel.objects.filter(pk__in=wanted, campaign_id=campaign.pk).order_by("pk")
    )
    if len(characters) != len(wanted):
        raise ValidationError({"characters": ["Not every character is in this campaign."]})
    after: dict[int, int] = {}
    for character in characters:
        locked, draft = locked_draft(character)
        if draft.yen + wanted[character.pk] < 0:
            raise ValidationError(
                {"yen": [f"{locked.name} has {draft.yen} yen, not {-wanted[character.pk]}."]}
            )
        draft.yen += wanted[character.pk]
        store_draft(locked, draft, system)
        after[character.pk] = draft.yen
    if after:
        campaign_touch(campaign.pk)
    return after
