"""Writes for spellcards, decks and template cards, and the builder's live preview.

Keyword-only functions named ``<entity>_<action>``, called by pages, the API and the demo
seeder alike. The rules are the engine's (``westernroses.spellcards``): every write validates
the card with ``validate`` and refuses it with *every* broken rule (:class:`SpellcardRejected`);
decks are checked with ``deck.validate_deck`` against the limits on the character's sheet.
Each function re-checks that the acting user may act for the character (the pages and the API
have already answered 404/403; this keeps scripts and admin actions honest too).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import get_language, gettext, ngettext

from apibase.engine_words import in_language
from campaign.charts import distribution_svg
from campaign.permissions import access_for
from characters.models import Character
from characters.sheet_words import problem_in_language
from westernroses import probability
from westernroses.checks import pool_size
from westernroses.dice import DiceExpression
from westernroses.house_rules import HouseRules
from westernroses.spellcards import (
    CardFormatError,
    CardType,
    CardViolation,
    CasterInfo,
    PricingError,
    SpellcardDraft,
    Targets,
    ToHit,
    price,
    validate,
)
from westernroses.spellcards import deck as deck_engine
from westernroses.words import N_, Words

from . import selectors
from .models import DeckEntry, Spellcard, TemplateCard

if TYPE_CHECKING:
    from accounts.models import User
    from campaign.models import Campaign

#: The "typical target" of the builder's chance to hit: a defender with insight 12 (a 4d pool),
#: dodging without bonuses. The ruleset's own base difficulty is 12 too.
TYPICAL_DEFENDER_INSIGHT = 12


def _in_english() -> bool:
    return (get_language() or "en").startswith("en")


def problem_for_api(violation: CardViolation | deck_engine.DeckViolation) -> dict[str, Any]:
    """A broken rule as the API gives it (``code``, ``field``, ``message``, ``section``), its
    message and section in the reader's language; in English exactly as the engine writes it."""
    if _in_english():
        return violation.to_dict()
    return problem_in_language(violation.to_dict(words=True))


class SpellcardRejected(ValueError):
    """A card or deck change that breaks rules; carries every violation, none dropped."""

    def __init__(
        self,
        violations: Sequence[CardViolation] = (),
        deck: Sequence[deck_engine.DeckViolation] = (),
    ) -> None:
        self.violations = list(violations)
        self.deck_violations = list(deck)
        count = len(self.violations) + len(self.deck_violations)
        super().__init__(f"This breaks {count} rule{'s' if count != 1 else ''}.")

    def detail(self) -> str:
        """How many rules the change breaks, in the reader's language."""
        count = len(self.violations) + len(self.deck_violations)
        return ngettext("This breaks %(count)s rule.", "This breaks %(count)s rules.", count) % {
            "count": count
        }

    def field_errors(self) -> dict[str, list[str]]:
        """Messages keyed by the card field that causes them (``deck`` for deck rules), in the
        reader's language."""
        errors: dict[str, list[str]] = {}
        for v in self.violations:
            errors.setdefault(v.field, []).append(problem_for_api(v)["message"])
        for d in self.deck_violations:
            errors.setdefault("deck", []).append(problem_for_api(d)["message"])
        return errors

    def rules(self, *, words: bool = False) -> list[dict[str, Any]]:
        """Every broken rule with its code and rulebook section, cards first then the deck,
        in the reader's language (:func:`problem_for_api`); with ``words``, each as the engine
        keeps it with its words instead (for a page, which renders them itself)."""
        if words:
            out: list[dict[str, Any]] = [v.to_dict(words=True) for v in self.violations]
            out += [{**d.to_dict(words=True), "field": "deck"} for d in self.deck_violations]
            return out
        out = [problem_for_api(v) for v in self.violations]
        out += [{**problem_for_api(d), "field": "deck"} for d in self.deck_violations]
        return out

    def rules_words(self) -> list[dict[str, Any]]:
        """:meth:`rules` with their words, for a page to show in the reader's language."""
        return self.rules(words=True)


class DraftFormatInvalid(ValueError):
    """Card data of the wrong shape (not a rules problem): a 400 on the ``draft`` field."""


def draft_from_data(data: object) -> SpellcardDraft:
    """Parse client data into a draft; shape errors name every malformed field."""
    if not isinstance(data, dict):
        raise DraftFormatInvalid("Expected an object with the card's fields.")
    try:
        return SpellcardDraft.from_dict(data)
    except CardFormatError as exc:
        raise DraftFormatInvalid(str(exc)) from None


def _require_act(by: User, character: Character) -> None:
    if not selectors.can_act_for_character(by, character):
        raise PermissionDenied(
            gettext("Only the character's owner and the game masters may do that.")
        )


# --------------------------------------------------------------------------- preview


@dataclass(frozen=True, slots=True)
class AttackPreview:
    """Damage and the chance to hit a typical target (docs/spellcards.md, "Chance to hit").

    ``p_dodge`` is the typical defender's insight check against the dodge difficulty; a card
    with a to-hit roll must also pass the caster's own roll (``p_caster``) against the base
    difficulty. ``p_hit`` = ``p_caster`` × (1 − ``p_dodge``), both when known.
    """

    expression: DiceExpression
    distribution: dict[int, Fraction]
    chart_svg: str
    dodge_difficulty: int | None
    defender_insight: int
    defender_dice: int
    p_dodge: Fraction | None
    caster_roll: str | None
    caster_target: int | None
    p_caster: Fraction | None
    p_hit: Fraction | None
    expected_damage: Fraction | None
    rounds: int = 1
    homing: bool = False

    @property
    def mean(self) -> Fraction:
        return self.expression.average

    def to_dict(self) -> dict[str, Any]:
        def frac(value: Fraction | None) -> dict[str, Any] | None:
            if value is None:
                return None
            return {
                "exact": f"{value.numerator}/{value.denominator}",
                "percent": round(float(value) * 100, 2),
            }

        return {
            "damage": str(self.expression),
            "min": self.expression.min_total,
            "max": self.expression.max_total,
            "mean": f"{float(self.mean):g}",
            "distribution": [
                {"total": t, "exact": f"{p.numerator}/{p.denominator}"}
                for t, p in sorted(self.distribution.items())
            ],
            "dodge_difficulty": self.dodge_difficulty,
            "defender_insight": self.defender_insight,
            "defender_dice": self.defender_dice,
            "p_dodge": frac(self.p_dodge),
            "caster_roll": self.caster_roll,
            "caster_target": self.caster_target,
            "p_caster": frac(self.p_caster),
            "p_hit": frac(self.p_hit),
            "expected_damage": (
                None if self.expected_damage is None else f"{float(self.expected_damage):.2f}"
            ),
            "rounds": self.rounds,
            "homing": self.homing,
        }


@dataclass(frozen=True, slots=True)
class CasterStats:
    """The caster's numbers a to-hit roll and the dodge difficulty use (from the sheet)."""

    dodge_difficulty: int
    int_dice: int = 0
    int_modifier: int = 0
    pwr_dice: int = 0
    pwr_modifier: int = 0
    to_hit_bonus: int = 0


@dataclass(frozen=True, slots=True)
class CardPreview:
    """Everything the builder shows for a draft: cost, broken rules and the attack numbers."""

    draft: SpellcardDraft
    breakdown: dict[str, Any] | None
    pricing_error: str | None
    violations: list[CardViolation]
    attack: AttackPreview | None = None
    notes: list[str] = field(default_factory=list)
    #: ``pricing_error`` as the engine's words, for the page to show in the reader's language
    #: (``pricing_error`` is their English, which the API keeps)
    pricing_words: Words | str | None = None

    @property
    def valid(self) -> bool:
        return not self.violations and self.pricing_error is None

    @property
    def total(self) -> int | None:
        return None if self.breakdown is None else int(self.breakdown["total"])

    def to_dict(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "total": self.total,
            "cost": self.breakdown,
            "pricing_error": (
                self.pricing_error
                if self.pricing_words is None or _in_english()
                else in_language(self.pricing_words)
            ),
            "violations": [problem_for_api(v) for v in self.violations],
            "attack": None if self.attack is None else self.attack.to_dict(),
        }


def caster_stats_from(ctx: selectors.CasterContext) -> CasterStats | None:
    """The sheet's dodge difficulty and INT/PWR checks, or None while there is no sheet."""
    sheet = ctx.sheet
    if sheet is None:
        return None
    sc = sheet.spellcards
    return CasterStats(
        dodge_difficulty=sc.dodge_difficulty,
        int_dice=sheet.stats["int"].check.dice,
        int_modifier=sheet.stats["int"].check.modifier,
        pwr_dice=sheet.stats["pwr"].check.dice,
        pwr_modifier=sheet.stats["pwr"].check.modifier,
        to_hit_bonus=sum(c.amount for c in sc.to_hit),
    )


def card_preview(
    draft: SpellcardDraft,
    caster: CasterInfo,
    rules: HouseRules,
    stats: CasterStats | None = None,
    *,
    chart: bool = True,
) -> CardPreview:
    """Price, validate and (for cards with attack power) judge a draft. Pure: no database.

    Pricing a card that breaks rules still works where it can (the builder shows a live cost
    next to the problems); a part that cannot be priced at all is reported instead.
    """
    violations = validate(draft, caster, rules)
    breakdown: dict[str, Any] | None = None
    pricing_error: str | None = None
    pricing_words: Words | str | None = None
    try:
        breakdown = price(draft, caster, rules).to_dict()
    except PricingError as exc:
        pricing_error = str(exc)
        first = exc.args[0] if len(exc.args) == 1 else None
        pricing_words = first if isinstance(first, Words) else pricing_error
    attack = _attack_preview(draft, rules, stats, chart=chart)
    return CardPreview(
        draft, breakdown, pricing_error, violations, attack, pricing_words=pricing_words
    )


def _attack_preview(
    draft: SpellcardDraft, rules: HouseRules, stats: CasterStats | None, *, chart: bool
) -> AttackPreview | None:
    """Damage distribution and chance to hit for a card that deals attack-power damage.

    Reading of the ruleset ("Attacking and Dodging"; docs/spellcards.md): the target dodges a
    spellcard like danmaku, with an insight check, but against the caster's max(INT, PWR). A
    "Roll against intelligence/power" to-hit skill is a check of that stat's pool against the
    base difficulty (12, the house rule ``danmaku_dodge_target``); failing it misses "regardless
    of the target's roll". Self cards hit their caster and are not judged.
    """
    power = draft.attack_power
    if power is None or draft.type is CardType.DEFENSIVE or draft.targets is Targets.SELF:
        return None
    if not 1 <= power.dice <= 8 or power.modifier < 0:
        return None  # validate reports it; nothing sensible to chart
    expression = DiceExpression(power.dice, min(power.modifier, 1000))
    distribution = probability.total_distribution(expression)
    svg = ""
    if chart:
        # Damage is not a check: the chart keeps no critical bands (criticals judge checks).
        svg = distribution_svg(expression, distribution, None, rules, criticals=False)
    defender_dice = pool_size(TYPICAL_DEFENDER_INSIGHT, rules)
    p_dodge = p_caster = p_hit = expected = None
    caster_roll: str | None = None
    caster_target: int | None = None
    difficulty = None if stats is None else stats.dodge_difficulty
    if stats is not None:
        dodge = probability.check_odds(defender_dice, 0, stats.dodge_difficulty, rules)
        p_dodge = dodge.any_success
        p_caster = Fraction(1)
        if draft.to_hit in (ToHit.ROLL_VS_INT, ToHit.ROLL_VS_PWR):
            use_int = draft.to_hit is ToHit.ROLL_VS_INT
            dice = stats.int_dice if use_int else stats.pwr_dice
            modifier = (stats.int_modifier if use_int else stats.pwr_modifier) + stats.to_hit_bonus
            modifier = max(-1000, min(1000, modifier))
            caster_target = rules.danmaku_dodge_target
            caster_roll = str(DiceExpression(dice, modifier)) + (" (INT)" if use_int else " (PWR)")
            p_caster = probability.check_odds(dice, modifier, caster_target, rules).any_success
        p_hit = p_caster * (1 - p_dodge)
        expected = p_hit * expression.average
    return AttackPreview(
        expression=expression,
        distribution=distribution,
        chart_svg=svg,
        dodge_difficulty=difficulty,
        defender_insight=TYPICAL_DEFENDER_INSIGHT,
        defender_dice=defender_dice,
        p_dodge=p_dodge,
        caster_roll=caster_roll,
        caster_target=caster_target,
        p_caster=p_caster,
        p_hit=p_hit,
        expected_damage=expected,
        rounds=draft.duration.rounds,
        homing=draft.duration.homing,
    )


def preview_for(ctx: selectors.CasterContext, draft: SpellcardDraft) -> CardPreview:
    return card_preview(draft, ctx.caster, ctx.rules, caster_stats_from(ctx))


# --------------------------------------------------------------------------- spellcards


def _checked_cost(draft: SpellcardDraft, ctx: selectors.CasterContext) -> int:
    """Validate ``draft`` for the character and return its cost; refuse with every violation."""
    violations = validate(draft, ctx.caster, ctx.rules)
    if violations:
        raise SpellcardRejected(violations)
    try:
        return price(draft, ctx.caster, ctx.rules).total
    except PricingError as exc:  # pragma: no cover - validate reports unpriceable parts first
        raise SpellcardRejected(
            [CardViolation("unpriceable", "draft", str(exc), "Spellcards")]
        ) from None


def _fill(card: Spellcard, draft: SpellcardDraft, cost: int) -> None:
    card.draft = draft.to_dict()
    card.name = draft.name.strip()[:120]
    card.card_type = draft.type.value
    card.is_bomb = draft.bomb
    card.cost = cost


@transaction.atomic
def spellcard_create(
    *,
    by: User,
    character: Character,
    draft: SpellcardDraft,
    description: str = "",
    add_to_deck: int = 0,
    source_template: TemplateCard | None = None,
) -> Spellcard:
    """Create a legal card; with ``add_to_deck`` put that many copies in the deck, all or
    nothing (a full deck refuses the card too, so "Save to deck" never half-happens)."""
    _require_act(by, character)
    ctx = selectors.caster_context(character)
    cost = _checked_cost(draft, ctx)
    card = Spellcard(character=character, description=description, source_template=source_template)
    _fill(card, draft, cost)
    card.save()
    if add_to_deck:
        deck_set_copies(by=by, character=character, spellcard=card, copies=add_to_deck, ctx=ctx)
    return card


@transaction.atomic
def spellcard_update(
    *,
    by: User,
    spellcard: Spellcard,
    draft: SpellcardDraft,
    description: str | None = None,
) -> Spellcard:
    """Replace the card's design; the cost is recomputed, never taken from the client."""
    character = spellcard.character
    _require_act(by, character)
    ctx = selectors.caster_context(character)
    cost = _checked_cost(draft, ctx)
    card = Spellcard.objects.select_for_update().get(pk=spellcard.pk)
    _fill(card, draft, cost)
    if description is not None:
        card.description = description
    card.save()
    return card


def spellcard_delete(*, by: User, spellcard: Spellcard) -> None:
    """Delete a card; its deck entry goes with it (a smaller deck is always legal)."""
    _require_act(by, spellcard.character)
    spellcard.delete()


# --------------------------------------------------------------------------- decks


@dataclass(frozen=True, slots=True)
class DeckSummary:
    """A deck as shown: rows with live costs, totals against the limits, broken rules."""

    character: Character
    rows: list[dict[str, Any]]
    limits: deck_engine.DeckLimits
    cards: int
    kinds: int
    violations: list[deck_engine.DeckViolation]
    outside: list[Spellcard]

    def to_dict(self) -> dict[str, Any]:
        return {
            "character": self.character.pk,
            "entries": [
                {
                    "spellcard": row["card"].pk,
                    "name": row["card"].name,
                    "type": row["card"].card_type,
                    "bomb": row["card"].is_bomb,
                    "copies": row["entry"].copies,
                    "cost": row["cost"],
                }
                for row in self.rows
            ],
            "cards": self.cards,
            "kinds": self.kinds,
            "limits": self.limits.to_dict(),
            "valid": not self.violations,
            "violations": [problem_for_api(v) for v in self.violations],
            "not_in_deck": [{"spellcard": c.pk, "name": c.name} for c in self.outside],
        }


def deck_summary(character: Character, ctx: selectors.CasterContext | None = None) -> DeckSummary:
    """The deck with live costs (the caster may have changed since a card was saved).

    Two queries whatever the deck's size (entries with their cards; cards outside the deck),
    plus what building the caster context costs.
    """
    entries = selectors.deck_entries(character)
    outside = selectors.cards_outside_deck(character)
    if ctx is None:
        try:
            ctx = selectors.caster_context(character)
        except selectors.CharacterIncomplete:
            ctx = None
    rows: list[dict[str, Any]] = []
    for entry in entries:
        cost: int | None = entry.spellcard.cost
        draft = selectors.parse_draft(entry.spellcard.draft)
        if ctx is not None and draft is not None:
            try:
                cost = price(draft, ctx.caster, ctx.rules).total
            except PricingError:
                cost = None
        rows.append({"entry": entry, "card": entry.spellcard, "cost": cost, "draft": draft})
    limits = (
        ctx.deck_limits()
        if ctx is not None
        # An incomplete character: the base limits of its level (no profession bonus known).
        else deck_engine.deck_limits(max(character.level, 1), "witch", False)
    )
    engine_entries = selectors.engine_entries(entries)
    violations = deck_engine.validate_deck(engine_entries, limits)
    return DeckSummary(
        character=character,
        rows=rows,
        limits=limits,
        cards=sum(e.copies for e in entries),
        kinds=len(entries),
        violations=violations,
        outside=outside,
    )


def deck_check(
    *, character: Character, copies: dict[int, int], ctx: selectors.CasterContext | None = None
) -> list[deck_engine.DeckViolation]:
    """Every deck rule a proposed deck (card id → copies) breaks, without saving anything.

    Cards that are not the character's are reported too: a deck holds only its own cards.
    """
    ctx = ctx or selectors.caster_context(character)
    names = dict(
        Spellcard.objects.filter(character=character, pk__in=list(copies)).values_list("pk", "name")
    )
    out = [
        deck_engine.DeckViolation.of(
            "not_this_characters_card",
            Words(
                N_("Card %(card)s is not one of %(character)s's spellcards."),
                {"card": card_id, "character": character.name},
            ),
            str(card_id),
        )
        for card_id in copies
        if card_id not in names
    ]
    entries = [
        deck_engine.DeckEntry(str(card_id), n, names.get(card_id, str(card_id)))
        for card_id, n in copies.items()
    ]
    return out + deck_engine.validate_deck(entries, ctx.deck_limits())


@transaction.atomic
def deck_set_copies(
    *,
    by: User,
    character: Character,
    spellcard: Spellcard,
    copies: int,
    ctx: selectors.CasterContext | None = None,
) -> DeckEntry | None:
    """Put ``copies`` of a card in the deck (0 takes it out); refuse a deck over its limits.

    The character row is locked so two tabs adding cards cannot together overfill the deck.
    """
    _require_act(by, character)
    if spellcard.character_id != character.pk:
        raise SpellcardRejected(
            deck=[
                deck_engine.DeckViolation.of(
                    "not_this_characters_card",
                    Words(
                        N_("%(card)s is not one of %(character)s's spellcards."),
                        {"card": spellcard.name, "character": character.name},
                    ),
                    str(spellcard.pk),
                )
            ]
        )
    if isinstance(copies, bool) or not isinstance(copies, int) or copies < 0:
        raise SpellcardRejected(
            deck=[
                deck_engine.DeckViolation.of(
                    "invalid_copies",
                    Words(N_("Copies must be a whole number, 0 or more.")),
                    str(spellcard.pk),
                )
            ]
        )
    Character.objects.select_for_update().filter(pk=character.pk).first()
    current = {e.spellcard_id: e.copies for e in DeckEntry.objects.filter(character=character)}
    if copies == 0:
        DeckEntry.objects.filter(character=character, spellcard=spellcard).delete()
        return None
    current[spellcard.pk] = copies
    violations = deck_check(character=character, copies=current, ctx=ctx)
    if violations:
        raise SpellcardRejected(deck=violations)
    entry, _ = DeckEntry.objects.update_or_create(
        character=character, spellcard=spellcard, defaults={"copies": copies}
    )
    return entry


# --------------------------------------------------------------------------- templates


def _require_gm(by: User, campaign: Campaign) -> None:
    if not access_for(by, campaign).can_manage:
        raise PermissionDenied(
            gettext("Only the campaign's game masters manage its template cards.")
        )


def _template_name(draft: SpellcardDraft) -> str:
    """A template's stored name; an empty one is refused (the only check before copying)."""
    if not draft.name.strip():
        raise SpellcardRejected(
            [CardViolation("name_required", "name", "Give the spellcard a name.", "Spellcards")]
        )
    return draft.name.strip()[:120]


def template_card_create(
    *, by: User, campaign: Campaign, draft: SpellcardDraft, description: str = ""
) -> TemplateCard:
    """A GM's card for the campaign's library. Legality is checked per character on copying
    (a template has no caster); an empty name is refused here already."""
    _require_gm(by, campaign)
    name = _template_name(draft)
    return TemplateCard.objects.create(
        campaign=campaign,
        created_by=by,
        name=name,
        description=description,
        draft=draft.to_dict(),
    )


def template_card_update(
    *, by: User, template: TemplateCard, draft: SpellcardDraft, description: str | None = None
) -> TemplateCard:
    _require_gm(by, template.campaign)
    name = _template_name(draft)
    template.draft = draft.to_dict()
    template.name = name
    if description is not None:
        template.description = description
    template.save()
    return template


def template_card_delete(*, by: User, template: TemplateCard) -> None:
    _require_gm(by, template.campaign)
    template.delete()


def template_card_copy(
    *, by: User, template: TemplateCard, character: Character, add_to_deck: int = 0
) -> Spellcard:
    """Copy a template onto a character of the same campaign, validated for that character.

    Illegal parts (another profession's skill, a Self card with a to-hit roll ...) are reported
    as violations, never silently dropped: the player can open the template in the builder
    and change what does not fit.
    """
    if character.campaign_id != template.campaign_id:
        raise PermissionDenied(
            gettext("Copy a template only onto a character of the same campaign.")
        )
    draft = selectors.parse_draft(template.draft)
    if draft is None:
        raise SpellcardRejected(
            [CardViolation("broken_template", "draft", "This template's data is damaged.", "")]
        )
    return spellcard_create(
        by=by,
        character=character,
        draft=draft,
        description=template.description,
        add_to_deck=add_to_deck,
        source_template=template,
    )
