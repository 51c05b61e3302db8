"""Reads: characters a user may see, and their derived sheets, in a fixed number of queries.

Every lookup goes through :func:`campaign.permissions.owned_access`: a character in a campaign
the user is not in does not exist for them (404), exactly like the campaign itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Final

from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch, QuerySet
from django.http import Http404
from django.utils.translation import gettext

from campaign.permissions import CampaignAccess, OwnedAccess, access_for, owned_access
from westernroses.catalog import MAIN_STATS, STAT_NAMES, get_catalog
from westernroses.characters import CharacterDraft, DrunkLevel, SheetError, derive_sheet
from westernroses.characters.builder import BONUS_POINTS, SKILL_POINTS
from westernroses.characters.drunkenness import RULES
from westernroses.dice import MAX_DICE
from westernroses.house_rules import HouseRules
from westernroses.probability import check_odds
from westernroses.words import N_, Words

from .models import Character, InventoryItem
from .services import R_STORAGE, CharacterFormatError, character_to_draft, rules_for

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User

#: The sheet shows each check's exact chance of beating this number ("base difficulty 12").
SHEET_TARGET: Final = 12


def _characters() -> QuerySet[Character]:
    return Character.objects.select_related("owner", "campaign").prefetch_related(
        Prefetch("inventory", queryset=InventoryItem.objects.order_by("item"))
    )


def character_for(
    user: User | AnonymousUser,
    pk: int | str,
    *,
    edit: bool = False,
    manage: bool = False,
) -> tuple[Character, OwnedAccess]:
    """Fetch a character the user may see, else 404; ``edit``/``manage`` need more, else 403.

    ``edit``: the owner or the campaign's GMs. ``manage``: the campaign's GMs.
    """
    try:
        character = _characters().get(pk=int(pk))
    except (Character.DoesNotExist, ValueError, TypeError):
        raise Http404(gettext("No such character.")) from None
    access = owned_access(user, character.campaign, character.owner_id)
    if not access.can_view:
        raise Http404(gettext("No such character."))
    if edit and not access.can_edit:
        raise PermissionDenied(
            gettext("Only the owner and the campaign's game masters may do that.")
        )
    if manage and not access.can_manage:
        raise PermissionDenied(gettext("Only the campaign's game masters may do that."))
    return character, access


def characters_in_campaign(access: CampaignAccess) -> QuerySet[Character]:
    """Every character (and NPC) in a campaign: members see the public sheets of all."""
    return _characters().filter(campaign_id=access.campaign_id).order_by("is_npc", "name", "pk")


def characters_of_user(user: User) -> QuerySet[Character]:
    """The characters a user owns, in any campaign or none."""
    return _characters().filter(owner=user).order_by("name", "pk")


def accesses_for(user: User | AnonymousUser, characters: list[Character]) -> dict[int, OwnedAccess]:
    """Each character's access, with one membership query per distinct campaign (not per row)."""
    by_campaign: dict[int, CampaignAccess] = {}
    out: dict[int, OwnedAccess] = {}
    for c in characters:
        campaign_access = None
        if c.campaign_id is not None:
            if c.campaign_id not in by_campaign:
                by_campaign[c.campaign_id] = access_for(user, c.campaign_id)
            campaign_access = by_campaign[c.campaign_id]
        is_owner = bool(user.is_authenticated and user.pk == c.owner_id)
        out[c.pk] = OwnedAccess(campaign=campaign_access, owner_id=c.owner_id, is_owner=is_owner)
    return out


# --------------------------------------------------------------------------- sheets


def odds_display(value: Fraction) -> dict[str, str]:
    """A probability as the page shows it: percent for people, the exact fraction in data."""
    percent = f"{float(value) * 100:.2f}".rstrip("0").rstrip(".")
    return {"percent": percent, "exact": f"{value.numerator}/{value.denominator}"}


def _with_odds(check: dict[str, Any], rules: HouseRules) -> dict[str, Any]:
    """The check plus its exact chance of beating 12; None beyond the dice engine's limit
    (a stat in the hundreds, typed while experimenting, must not break the page)."""
    if not 0 <= check["dice"] <= MAX_DICE:
        return {**check, "odds": None}
    odds = check_odds(check["dice"], check["modifier"], SHEET_TARGET, rules)
    return {**check, "odds": odds_display(odds.any_success)}


@dataclass(frozen=True, slots=True)
class SheetView:
    """A derived sheet shaped for pages and the API; ``sheet`` is None when it cannot be
    derived (the draft names things that do not exist), with ``problems`` saying why."""

    draft: CharacterDraft
    sheet: dict[str, Any] | None
    problems: list[dict[str, str]]
    target: int = SHEET_TARGET

    @property
    def valid(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "target": self.target,
            "problems": self.problems,
            "sheet": self.sheet,
        }


def sheet_for_draft(draft: CharacterDraft, rules: HouseRules) -> SheetView:
    """Derive the sheet (engine) and add each main stat's and skill's exact odds against 12.

    Also used for the wizard's live preview: nothing here touches the database.
    """
    try:
        sheet = derive_sheet(draft, rules)
    except SheetError as exc:
        return SheetView(draft, None, [v.to_dict(words=True) for v in exc.violations])
    data = sheet.to_dict()
    data["problems"] = [p.to_dict(words=True) for p in sheet.problems]
    for line in data["stats"].values():
        line["check"] = _with_odds(line["check"], rules)
    for line in data["skills"].values():
        line["check"] = _with_odds(line["check"], rules)
    data["points"] = {
        "bonus": {"spent": sum(draft.bonus_points.values()), "budget": BONUS_POINTS},
        "skill": {"spent": sum(draft.skill_points.values()), "budget": SKILL_POINTS},
    }
    return SheetView(draft, data, data["problems"])


def skill_bases(view: SheetView) -> dict[str, int]:
    """Each skill's base from the stats chosen so far (the engine's sheet, as the printed sheet
    shows it); empty until the draft has a shot-type, race, profession and element."""
    if view.sheet is None:
        return {}
    return {slug: int(line["base"]) for slug, line in view.sheet["skills"].items()}


def character_sheet(character: Character) -> SheetView:
    """The stored character's sheet under its campaign's house rules."""
    try:
        draft = character_to_draft(character)
    except CharacterFormatError as exc:
        words = Words(N_("The stored character is damaged: %(reason)s."), {"reason": exc.message})
        problem: dict[str, Any] = {
            "code": "stored.damaged",
            "field": exc.field,
            "message": str(words),
            "words": words.to_json(),
            "rule": R_STORAGE,
        }
        return SheetView(CharacterDraft(name=character.name), None, [problem])
    return sheet_for_draft(draft, rules_for(character.campaign))


# --------------------------------------------------------------------------- page options


def creation_options() -> dict[str, Any]:
    """The catalog shaped for the wizard and edit pages (names, numbers, kit lines).

    Unavailable professions are listed too (the pages show them disabled, "not yet
    implemented"), so a player sees the whole rulebook, not a silently shorter list.
    """
    cat = get_catalog()

    def stats(values: Mapping[str, int]) -> list[dict[str, Any]]:
        return [{"key": k, "name": STAT_NAMES[k], "value": values.get(k, 0)} for k in MAIN_STATS]

    return {
        "stats": [{"key": k, "name": STAT_NAMES[k]} for k in MAIN_STATS],
        "shot_types": [
            {
                "slug": s.slug,
                "name": s.name,
                "description": s.description,
                "stats": stats(s.stats),
                "hp": s.hp,
                "speed": s.speed,
                "range": s.range,
                "passive": s.passive,
            }
            for s in cat.shot_types.values()
        ],
        "races": [
            {
                "slug": r.slug,
                "name": r.name,
                "description": r.description,
                "stats": [s for s in stats(r.stats) if s["value"]],
                "speed": r.speed,
                "extra_abilities": r.extra_abilities,
                "natural_weapon_choice": r.natural_weapon_choice,
                "traits": list(r.all_traits),
            }
            for r in cat.races.values()
        ],
        "professions": [
            {
                "slug": p.slug,
                "name": p.name,
                "available": p.available,
                "description": p.description,
                "kit_text": p.starting_equipment_text,
                "starting_yen": p.starting_yen,
                "needs_goddess_element": p.needs_goddess_element,
                "needs_charge": p.needs_charge,
                "kit": [
                    {
                        "index": i,
                        "field": f"kit_{p.slug}_{i}",
                        "quantity": e.quantity,
                        "is_choice": e.is_choice,
                        "options": [{"slug": o, "name": cat.items[o].name} for o in e.options],
                    }
                    for i, e in enumerate(p.starting_equipment)
                ],
            }
            for p in cat.professions.values()
        ],
        "elements": [{"slug": e.element.value, "name": e.name} for e in cat.elements.values()],
        "skills": [
            {"slug": s.slug, "name": s.name, "kind": s.kind, "formula": s.formula, "text": s.text}
            for s in cat.skills.values()
        ],
        "abilities": [
            {
                "slug": a.slug,
                "name": a.name,
                "text": a.text,
                "manipulation": a.manipulation,
                "element": a.element.value if a.element else None,
                "choice": a.choice,
            }
            for a in cat.abilities.values()
        ],
        "items": [
            {"slug": i.slug, "name": i.name, "category": i.category.replace("_", " ")}
            for i in cat.items.values()
            if i.category != "natural_weapon"
        ],
        "drunkenness": [{"slug": level.value, "name": RULES[level].name} for level in DrunkLevel],
        "status_effects": [
            {"slug": s.slug, "name": s.name, "text": s.text} for s in cat.status_effects.values()
        ],
        "bonus_points": BONUS_POINTS,
        "skill_points": SKILL_POINTS,
    }


def item_names() -> dict[str, str]:
    return {slug: item.name for slug, item in get_catalog().items.items()}


def choice_names() -> dict[str, dict[str, str]]:
    """Display names of stored choices (lists show "Homing Amulets", not the slug)."""
    cat = get_catalog()
    return {
        "shot_type": {s: v.name for s, v in cat.shot_types.items()},
        "race": {s: v.name for s, v in cat.races.items()},
        "profession": {s: v.name for s, v in cat.professions.items()},
    }


# --------------------------------------------------------------------------- dice roller


@dataclass(frozen=True, slots=True)
class CharacterCheck:
    """One roll the dice page offers for a character: a main stat or a skill, as the sheet
    computes it (pool from the value, drink and effect modifiers included)."""

    value: str
    name: str
    dice: int
    modifier: int
    expression: str

    @property
    def label(self) -> str:
        """For a select box: the roll's name and its dice ("Cirno: Intelligence (6d)")."""
        return f"{self.name} ({self.expression})"


def rollable_characters(user: User, access: CampaignAccess | None) -> list[Character]:
    """Characters whose checks ``user`` may roll: their own; in a campaign a GM rolls for
    everyone (NPCs included). Outside a campaign: the user's own characters."""
    if access is not None:
        characters = characters_in_campaign(access)
        if not access.is_gm:
            characters = characters.filter(owner=user)
        return list(characters)
    return list(characters_of_user(user))


def character_checks(characters: list[Character]) -> list[CharacterCheck]:
    """Every main stat and skill check of each character, labelled for a select box."""
    out: list[CharacterCheck] = []
    for character in characters:
        try:
            sheet = derive_sheet(character_to_draft(character), rules_for(character.campaign))
        except (SheetError, CharacterFormatError):
            continue  # a broken sheet offers nothing to roll; its page explains why
        for key in MAIN_STATS:
            check = sheet.stats[key].check
            out.append(
                CharacterCheck(
                    f"{character.pk}:stat:{key}",
                    f"{character.name}: {STAT_NAMES[key]}",
                    check.dice,
                    check.modifier,
                    check.expression,
                )
            )
        for slug, skill in sheet.skills.items():
            check = skill.check
            out.append(
                CharacterCheck(
                    f"{character.pk}:skill:{slug}",
                    f"{character.name}: {skill.name}",
                    check.dice,
                    check.modifier,
                    check.expression,
                )
            )
    return out


def roll_checks_for(user: User, access: CampaignAccess | None) -> list[CharacterCheck]:
    """The checks ``user`` may roll in the campaign of ``access`` (None: outside any): the
    source the dice roller asks through ``campaign.registry.roll_checks``."""
    return character_checks(rollable_characters(user, access))
