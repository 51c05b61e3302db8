"""Writes for campaigns and dice: keyword-only functions called by views, the API and tasks.

The rules (dice parsing, pools, criticals, exact odds) are the engine's; these functions turn
user input into engine calls, store the results, and report bad input as field errors.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from westernroses import checks, probability
from westernroses import dice as dice_engine
from westernroses.house_rules import DEFAULT_HOUSE_RULES, HouseRuleError, HouseRules
from westernroses.rng import RandomSource

from .charts import distribution_svg
from .models import Campaign, Membership, Role, Roll

if TYPE_CHECKING:
    from accounts.models import User

    from .permissions import CampaignAccess


# --------------------------------------------------------------------------- campaigns


@transaction.atomic
def campaign_create(*, name: str, description: str, gm: User) -> Campaign:
    """Create a campaign with its creator as its first GM."""
    campaign = Campaign.objects.create(name=name, description=description, created_by=gm)
    Membership.objects.create(campaign=campaign, user=gm, role=Role.GM)
    return campaign


@transaction.atomic
def campaign_update_settings(
    *,
    campaign: Campaign,
    by: CampaignAccess,
    name: str | None = None,
    description: str | None = None,
    house_rules: dict[str, Any] | None = None,
    reset_house_rules: bool = False,
) -> Campaign:
    """Change a campaign's name, description or house rules (GMs only).

    House rules are validated by the engine (``HouseRuleError`` names each bad field) and only
    the values that differ from the defaults are stored, so a later change of a default reaches
    every campaign that never chose otherwise. ``reset_house_rules`` returns to the defaults.
    """
    from django.core.exceptions import PermissionDenied

    if not by.can_manage or by.campaign_id != campaign.pk:
        raise PermissionDenied(_("Only the campaign's game masters may change its settings."))
    fields = []
    if name is not None:
        campaign.name = name
        fields.append("name")
    if description is not None:
        campaign.description = description
        fields.append("description")
    if reset_house_rules:
        campaign.house_rules = {}
        fields.append("house_rules")
    elif house_rules is not None:
        merged = {**campaign.rules().to_dict(), **house_rules}
        try:
            checked = HouseRules.checked(merged)
        except HouseRuleError as exc:
            raise ValidationError({k: [v] for k, v in exc.errors.items()}) from None
        campaign.house_rules = checked.changed()
        fields.append("house_rules")
    if fields:
        campaign.save(update_fields=[*fields, "updated_at"])
    return campaign


# --------------------------------------------------------------------------- dice


class DiceRequestError(ValueError):
    """Bad dice input, with the form/API field it belongs to."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True, slots=True)
class DiceRequest:
    """A validated request to roll or price: the parsed expression, target and house rules."""

    expression: dice_engine.DiceExpression
    target: int | None
    rules: HouseRules
    stat: int | None = None

    @property
    def notation(self) -> str:
        return str(self.expression)


def dice_request_from(
    *,
    notation: str = "",
    stat: int | None = None,
    modifier: int = 0,
    target: int | None = None,
    rules: HouseRules | None = None,
    pool: int | None = None,
) -> DiceRequest:
    """Validate notation, or a stat's pool plus a modifier, into a :class:`DiceRequest`.

    ``pool`` is a dice count already worked out (a character's check from its sheet, which
    also supplies the modifier); it wins over ``stat`` and ``notation``.
    """
    rules = rules or DEFAULT_HOUSE_RULES
    if pool is not None or stat is not None:
        pool = pool if pool is not None else checks.pool_size(stat or 0, rules)
        try:
            expression = dice_engine.DiceExpression(
                dice=pool, modifier=modifier, modifiers=(modifier,) if modifier else ()
            )
        except ValueError as exc:
            raise DiceRequestError("modifier", str(exc)) from None
    elif notation.strip():
        try:
            expression = dice_engine.parse(notation)
        except dice_engine.DiceNotationError as exc:
            raise DiceRequestError("notation", str(exc)) from None
        if modifier:
            try:
                expression = dice_engine.DiceExpression(
                    dice=expression.dice,
                    modifier=expression.modifier + modifier,
                    multiplier=expression.multiplier,
                    modifiers=(*expression.modifiers, modifier),
                )
            except ValueError as exc:
                raise DiceRequestError("modifier", str(exc)) from None
    else:
        raise DiceRequestError(
            "notation", gettext("Enter dice notation (like 4d+2) or a stat value.")
        )
    return DiceRequest(expression=expression, target=target, rules=rules, stat=stat)


def _percent(value: Any) -> str:
    return f"{float(value) * 100:.2f}".rstrip("0").rstrip(".")


def odds_for(request: DiceRequest) -> dict[str, Any]:
    """Exact odds and the distribution of totals, shaped for the page and the API."""
    expr = request.expression
    distribution = probability.total_distribution(expr)
    result: dict[str, Any] = {
        "notation": request.notation,
        "target": request.target,
        "min_total": expr.min_total,
        "max_total": expr.max_total,
        "mean": f"{float(expr.average):g}",
        "distribution": [
            {"total": total, "exact": f"{p.numerator}/{p.denominator}", "p": float(p)}
            for total, p in sorted(distribution.items())
        ],
    }
    if request.target is not None:
        target = request.target
        if expr.multiplier == 1:
            odds = probability.check_odds(expr.dice, expr.modifier, target, request.rules)
            chances = {
                "success": odds.any_success,
                "critical_success": odds.critical_success,
                "critical_failure": odds.critical_failure,
                "failure": odds.any_failure,
            }
        else:
            # Multiplied rolls (3dX2) are damage: no critical bands, a plain comparison.
            above = sum((p for total, p in distribution.items() if total > target), Fraction(0))
            chances = {
                "success": above,
                "critical_success": Fraction(0),
                "critical_failure": Fraction(0),
                "failure": 1 - above,
            }
        for key, value in chances.items():
            result[key] = {
                "exact": f"{value.numerator}/{value.denominator}",
                "percent": _percent(value),
            }
    result["chart_svg"] = distribution_svg(expr, distribution, request.target, request.rules)
    return result


#: Mental skills ("Mental rolls are made by the DM so the character does not know whether or
#: not she succeeded", ruleset "Skills").
MENTAL_SKILLS = frozenset({"intuition", "legends", "sense", "will"})


def hidden_from_roller(
    *, check: str | None, rules: HouseRules, campaign: Campaign | None, is_gm: bool
) -> bool:
    """Whether a dice-page roll of a character's ``check`` ("<id>:skill:<slug>") is rolled for
    the GMs only: a player's mental skill check in a campaign, while the house rule
    ``mental_rolls_secret`` is on. The player learns that she rolled, never the result."""
    if campaign is None or is_gm or not check or not rules.mental_rolls_secret:
        return False
    parts = check.split(":")
    return len(parts) == 3 and parts[1] == "skill" and parts[2] in MENTAL_SKILLS


HIDDEN_ROLL_NOTE = _("rolled in secret: only the GMs see the dice and the result")


def roll_make(
    *,
    user: User,
    dice: DiceRequest,
    campaign: Campaign | None = None,
    label: str = "",
    secret: bool = False,
    hidden: bool = False,
    rng: RandomSource | None = None,
) -> Roll:
    """Roll and log. Inside a campaign the roll joins its roll log (secret: GMs and roller;
    ``hidden``: the GMs only, the roller is told only that she rolled)."""
    rng = rng or RandomSource.from_entropy()
    expr = dice.expression
    if expr.multiplier == 1:
        check = checks.check(expr.dice, expr.modifier, dice.target, rng, dice.rules, stat=dice.stat)
        logged, margin, success = check.roll, check.margin, check.success
        critical = str(check.critical) if check.critical else ""
        detail = check.to_dict()
    else:
        # Multiplied rolls (3dX2) are damage, not checks: no critical bands, plain comparison.
        logged = dice_engine.roll(expr, rng)
        margin = None if dice.target is None else logged.total - dice.target
        success = None if margin is None else margin > 0
        critical = ""
        detail = {"roll": logged.to_dict(), "house_rules": dice.rules.changed()}
    detail.update(dice=list(logged.dice), seed=logged.seed, sequence_start=logged.sequence_start)
    if hidden:
        detail["hidden_from_roller"] = True
        secret = True
    return Roll.objects.create(
        campaign=campaign,
        user=user,
        label=label,
        notation=dice.notation,
        target=dice.target,
        total=logged.total,
        margin=margin,
        success=success,
        critical=critical,
        secret=secret,
        detail=detail,
    )
