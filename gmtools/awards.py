"""Loot and yen awards: the GMs give yen and/or catalog items to one or more characters.

All or nothing: the characters app adds the yen and items to each character
(:func:`characters.party.loot_add`: the rows locked in id order, so two awards never deadlock,
and each new draft validated by the engine). If any character refuses (an unknown item, a sheet
that breaks a rule), the transaction rolls back and nobody got anything; the refusal names the
character and the reason. This module checks the request, records the award for the timeline
and tells the campaign (``loot_awarded``, on commit, through the notification service).

``yen`` and ``items`` are per character: "100 yen each".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Final

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext

from campaign.members import campaign_touch
from campaign.models import Campaign
from characters.party import loot_add
from notifications import EventType, notify_campaign, texts
from westernroses.catalog import get_catalog

from .models import Award, AwardRecipient, GameSession

if TYPE_CHECKING:
    from accounts.models import User
    from campaign.permissions import CampaignAccess
    from characters.models import Character

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


def _award_words(yen: int, items: Mapping[str, int]) -> texts.Words:
    """:func:`award_describe` for a notification, read in each player's language (the items'
    names are the game data's)."""
    names = award_items_known()
    things = ", ".join(
        f"{q} × {names.get(slug, slug)}" if q > 1 else names.get(slug, slug)
        for slug, q in sorted(items.items())
    )
    if yen and things:
        return texts.gettext_lazy("%(yen)s yen, %(items)s", yen=yen, items=things)
    if yen:
        return texts.gettext_lazy("%(yen)s yen", yen=yen)
    return things or texts.gettext_lazy("nothing")


def _validate(
    campaign: Campaign,
    characters: Sequence[Character],
    yen: int,
    items: Mapping[str, int],
    session: GameSession | None,
) -> None:
    errors: dict[str, list[str]] = {}
    if not characters:
        errors["characters"] = [gettext("Choose at least one character.")]
    strangers = [c.name for c in characters if c.campaign_id != campaign.pk]
    if strangers:
        errors["characters"] = [
            gettext("Not in this campaign: %(names)s.") % {"names": ", ".join(strangers)}
        ]
    if not 0 <= yen <= MAX_YEN:
        errors["yen"] = [
            gettext("Between 0 and %(most)s yen per character.") % {"most": f"{MAX_YEN:,}"}
        ]
    known = award_items_known()
    item_errors = [
        gettext("Unknown item “%(slug)s”.") % {"slug": slug} for slug in items if slug not in known
    ] + [
        gettext("Give between 1 and %(most)s of %(item)s.")
        % {"most": MAX_ITEM_QUANTITY, "item": known.get(slug, slug)}
        for slug, quantity in items.items()
        if not 1 <= quantity <= MAX_ITEM_QUANTITY
    ]
    if item_errors:
        errors["items"] = item_errors
    if not yen and not items and "yen" not in errors and "items" not in errors:
        errors["yen"] = [gettext("Award some yen or at least one item.")]
    if session is not None and session.campaign_id != campaign.pk:
        errors["session"] = [gettext("That session is in another campaign.")]
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
    if not by.is_gm or by.campaign_id != campaign.pk:
        raise PermissionDenied(gettext("Only the campaign's game masters award loot."))
    items = dict(items or {})
    unique = sorted({c.pk: c for c in characters}.values(), key=lambda c: c.pk)
    _validate(campaign, unique, yen, items, session)
    recipients = loot_add(characters=unique, by=by, yen=yen, items=items)
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
    what = _award_words(yen, items)
    names = ", ".join(c.name for c in recipients)
    notify_campaign(
        campaign=campaign,
        event=EventType.LOOT_AWARDED,
        title=texts.gettext_lazy("Loot for %(names)s: %(what)s", names=names, what=what),
        body=reason.strip()
        or texts.gettext_lazy("%(gm)s handed out loot.", gm=awarded_by.shown_name),
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
