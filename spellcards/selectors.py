"""Reads for spellcards: who may see a character's cards, the caster facts the engine needs,
and a character's deck in a constant number of queries.

Permissions come from :mod:`campaign.permissions` only. Decks are private (project choice,
docs/spellcards.md): a character's cards and deck are seen and changed by its owner and the
campaign's GMs (``CampaignAccess.can_act_for``); other members get 403 (they know the character
from its public sheet), outsiders 404. A character outside any campaign is its owner's alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext

from apibase.engine_words import reason_in_language
from campaign.models import Campaign
from campaign.permissions import CampaignAccess, access_for, owned_access
from characters import selectors as characters_selectors
from characters.models import Character
from characters.services import CharacterFormatError, character_to_draft, rules_for
from characters.sheet_words import label_words
from westernroses.characters.sheet import Sheet, SheetError, derive_sheet
from westernroses.elements import Element
from westernroses.house_rules import HouseRules
from westernroses.spellcards import (
    CardFormatError,
    CasterInfo,
    PricingError,
    Profession,
    SpellcardDraft,
    price,
)
from westernroses.spellcards import deck as deck_engine
from westernroses.words import N_, Words

from .models import DeckEntry, Spellcard, TemplateCard

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User


# --------------------------------------------------------------------------- permissions


def can_act_for_character(user: User | AnonymousUser | None, character: Character) -> bool:
    """Owner and the campaign's GMs build, edit and see a character's cards and deck."""
    return owned_access(user, character.campaign_id, character.owner_id).can_edit


def character_for(user: User | AnonymousUser, character_id: int | str) -> Character:
    """The character whose cards ``user`` may build and see, else 404 (outsider) / 403 (member).

    The characters app's own lookup: members of the character's campaign see its public sheet,
    so they get 403 here; everyone else gets 404. Its inventory comes prefetched, which
    ``character_to_draft`` uses.
    """
    character, _ = characters_selectors.character_for(user, character_id, edit=True)
    return character


def spellcard_for(user: User | AnonymousUser, spellcard_id: int | str) -> Spellcard:
    """A card ``user`` may see and edit (the same rule as its character's deck)."""
    try:
        card = Spellcard.objects.only("pk", "character_id").get(pk=int(spellcard_id))
    except (Spellcard.DoesNotExist, ValueError, TypeError):
        raise Http404(gettext("No such spellcard.")) from None
    try:
        character = character_for(user, card.character_id)
    except Http404:
        raise Http404(gettext("No such spellcard.")) from None
    card = Spellcard.objects.get(pk=card.pk)
    card.character = character
    return card


def spellcards_visible_to(user: User | AnonymousUser) -> QuerySet[Spellcard]:
    """Every card whose character ``user`` may act for: own characters, and all characters of
    campaigns ``user`` runs as GM."""
    from django.db.models import Q

    from campaign.models import Role

    if not user.is_authenticated:
        return Spellcard.objects.none()
    gm_campaigns = Campaign.objects.filter(memberships__user=user, memberships__role=Role.GM)
    return Spellcard.objects.filter(
        Q(character__owner=user) | Q(character__campaign__in=gm_campaigns)
    ).select_related("character")


def campaign_characters_for(user: User, campaign: Campaign) -> QuerySet[Character]:
    """Characters of ``campaign`` that ``user`` may copy a template card onto."""
    access = access_for(user, campaign)
    qs = Character.objects.filter(campaign=campaign)
    if not access.is_gm:
        qs = qs.filter(owner=user)
    return qs.order_by("name", "pk")


def template_cards_for(access: CampaignAccess) -> QuerySet[TemplateCard]:
    """The campaign's template library: every member may browse and copy from it."""
    if not access.can_view:
        return TemplateCard.objects.none()
    return TemplateCard.objects.filter(campaign_id=access.campaign_id).select_related("created_by")


def template_card_for(
    user: User | AnonymousUser, template_id: int | str, *, manage: bool = False
) -> tuple[TemplateCard, CampaignAccess]:
    """A template of a campaign ``user`` is in (404 otherwise); ``manage`` needs a GM (403)."""
    try:
        template = TemplateCard.objects.select_related("campaign").get(pk=int(template_id))
    except (TemplateCard.DoesNotExist, ValueError, TypeError):
        raise Http404(gettext("No such template card.")) from None
    access = access_for(user, template.campaign)
    if not access.can_view:
        raise Http404(gettext("No such template card."))
    if manage and not access.can_manage:
        raise PermissionDenied(gettext("Only the campaign's game masters edit its template cards."))
    return template, access


# --------------------------------------------------------------------------- the caster


class CharacterIncomplete(ValueError):
    """The character lacks what a card is priced from (profession, shot-type, element).

    Its one argument is :class:`Words`: the API says them in English (``str``), the pages in
    the reader's language (``reason_in_language``)."""


def _joined_words(items: list[Words]) -> Words | str:
    """``items`` as the English "a, b" the reason has always listed, joined in each language."""
    head: Words | str = items[0] if items else ""
    for item in items[1:]:
        head = Words(N_("%(first)s, %(next)s"), {"first": head, "next": item})
    return head


@dataclass(frozen=True, slots=True)
class CasterContext:
    """What the engine needs to price, validate and judge a card for one character.

    ``sheet`` is None while the character's sheet cannot be derived yet (unknown race ...):
    cards can still be priced and validated, but the dodge difficulty and the deck limits'
    extras (Grimoire) are unknown, so the base limits are used.
    """

    character: Character
    caster: CasterInfo
    rules: HouseRules
    sheet: Sheet | None

    @property
    def dodge_difficulty(self) -> int | None:
        """Ruleset: dodging a spellcard is against max(INT, PWR) of the caster."""
        return None if self.sheet is None else self.sheet.spellcards.dodge_difficulty

    def deck_limits(self) -> deck_engine.DeckLimits:
        """The sheet's limits (level, Librarian, a Grimoire held) in the deck engine's form."""
        if self.sheet is None:
            return deck_engine.deck_limits(
                self.caster.level, self.caster.profession, False, self.rules
            )
        limits = self.sheet.spellcards.deck
        reasons = [
            gettext("%(label)s: %(amount)s cards")
            % {"label": label_words(c.label), "amount": f"{c.amount:+d}"}
            for c in limits.cards
        ]
        reasons += [
            gettext("%(label)s: %(amount)s kinds")
            % {"label": label_words(c.label), "amount": f"{c.amount:+d}"}
            for c in limits.kinds
        ]
        return deck_engine.DeckLimits(
            max_cards=limits.max_cards,
            max_kinds=limits.max_kinds,
            max_copies=limits.copies_per_card,
            reasons=tuple(reasons),
        )


def caster_context(character: Character) -> CasterContext:
    """Caster facts, house rules and (when derivable) the sheet of ``character``."""
    try:
        draft = character_to_draft(character)  # the characters app owns row → draft
    except CharacterFormatError as exc:
        raise CharacterIncomplete(
            gettext("%(name)s: %(problem)s")
            % {"name": character.name, "problem": reason_in_language(exc)}
        ) from None
    missing = [
        label
        for label, value in (
            (N_("profession"), draft.profession),
            (N_("shot-type"), draft.shot_type),
            (N_("element"), draft.element),
        )
        if not value
    ]
    if missing:
        raise CharacterIncomplete(
            Words(
                N_(
                    "%(character)s has no %(missing)s yet: finish the character before "
                    "designing spellcards."
                ),
                {
                    "character": character.name,
                    "missing": _joined_words([Words(m) for m in missing]),
                },
            )
        )
    rules = rules_for(character.campaign if character.campaign_id else None)
    try:
        # Complete (checked above): the draft's choices are the engine's values.
        caster = CasterInfo(
            profession=Profession(draft.profession or ""),
            shot_type=str(draft.shot_type),
            element=Element(draft.element or ""),
            level=draft.level,
            goddess_element=Element(draft.goddess_element) if draft.goddess_element else None,
        )
    except ValueError as exc:
        why = exc.args[0] if len(exc.args) == 1 and isinstance(exc.args[0], Words) else str(exc)
        raise CharacterIncomplete(
            Words(N_("%(character)s: %(reason)s"), {"character": character.name, "reason": why})
        ) from None
    try:
        sheet: Sheet | None = derive_sheet(draft, rules)
    except (SheetError, KeyError, ValueError):
        sheet = None
    return CasterContext(character=character, caster=caster, rules=rules, sheet=sheet)


# --------------------------------------------------------------------------- decks


@dataclass(frozen=True, slots=True)
class DeckRow:
    entry: DeckEntry
    card: Spellcard
    draft: SpellcardDraft | None


def deck_entries(character: Character) -> list[DeckEntry]:
    """The deck, one query whatever its size (each entry with its card)."""
    return list(
        DeckEntry.objects.filter(character=character)
        .select_related("spellcard")
        .order_by("spellcard__name", "spellcard_id")
    )


def cards_outside_deck(character: Character) -> list[Spellcard]:
    """The character's cards that no deck entry lists (one query)."""
    return list(
        Spellcard.objects.filter(character=character)
        .exclude(deck_entries__character=character)
        .order_by("name", "pk")
    )


def parse_draft(data: object) -> SpellcardDraft | None:
    """A stored draft, or None when stored data no longer parses (shown as broken, not a 500)."""
    if not isinstance(data, dict):
        return None
    try:
        return SpellcardDraft.from_dict(data)
    except CardFormatError:
        return None


def engine_entries(entries: Iterable[DeckEntry]) -> list[deck_engine.DeckEntry]:
    return [
        deck_engine.DeckEntry(card_id=str(e.spellcard_id), copies=e.copies, name=e.spellcard.name)
        for e in entries
    ]


def template_summaries(
    templates: Iterable[TemplateCard], characters: Iterable[Character]
) -> list[dict[str, Any]]:
    """Each template card with what a deck row shows: its type, its damage, and its cost for
    each of the viewer's ``characters`` (the cost depends on the caster: element, Efficiency).
    A character whose sheet is incomplete, or a draft that no longer parses, shows no cost."""
    contexts = []
    for character in characters:
        try:
            contexts.append(caster_context(character))
        except CharacterIncomplete:
            continue
    rows = []
    for template in templates:
        draft = parse_draft(template.draft)
        damage = ""
        costs: list[dict[str, Any]] = []
        if draft is not None:
            power = draft.attack_power
            if power is not None and power.dice:
                sign = f"{power.modifier:+d}" if power.modifier else ""
                damage = f"{power.dice}d{sign}"
            for ctx in contexts:
                try:
                    cost: int | None = price(draft, ctx.caster, ctx.rules).total
                except (PricingError, KeyError, ValueError):
                    cost = None
                costs.append({"character": ctx.character.name, "cost": cost})
        card_type = str(getattr(draft.type, "value", draft.type)) if draft else ""
        rows.append({"template": template, "type": card_type, "damage": damage, "costs": costs})
    return rows
