"""House rules: every number or choice the rulings make, as a named setting with its default.

The source rulebooks contradict themselves in places; the project's default rulings are listed
in ``docs/rulings.md``. A GM may change any of these per campaign. The engine never reads a
constant where a house rule exists: it takes a :class:`HouseRules` (the defaults when none is
given) and results record the values that affected them (:meth:`HouseRules.changed`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from westernroses.words import N_, Words


@dataclass(frozen=True, slots=True)
class HouseRule:
    """Metadata for one setting, shown to GMs in the campaign settings page. ``label`` and
    ``help`` are English message ids (:func:`~westernroses.words.N_`), translated where shown."""

    name: str
    label: str
    help: str
    minimum: int
    maximum: int


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The Western Roses house rules of one campaign. Defaults are the project's rulings."""

    # Ruling 1: dice pool = floor(stat / divisor), at least ``min_dice``.
    stat_per_die: int = 3
    min_dice: int = 1
    # Ruling 2: criticals are the top / bottom ``critical_band`` totals the dice can roll; a
    # critical success still fails when the target exceeds the total by this much or more.
    critical_band: int = 3
    critical_fail_margin: int = 10
    # Versus checks with a target where everyone fails: 0 = no one wins, 1 = the lowest margin
    # of failure wins ("Versus Checks" allows either).
    versus_all_fail_closest: int = 0
    # "Base difficulty to dodge an attack is 12" ("Attacking and Dodging"); the
    # rulebook gives no target for grazing, so the default is the same 12.
    danmaku_dodge_target: int = 12
    graze_target: int = 12
    # Ruling 4: physical damage = weapon dice + ceil-free floor(PWR / divisor); danmaku dice =
    # floor(INT / divisor).
    physical_damage_pwr_divisor: int = 2
    danmaku_int_per_die: int = 3
    # Ruling 5: AOE cost + multiplier × the target-skill cost when more than one target is taken.
    aoe_targets_multiplier: int = 2
    # Ruling 6: element costs.
    element_cost_same_cycle: int = 40
    element_cost_other_cycle: int = 80
    # Ruling 7: minimum card cost, bomb multiplier, Magic Missile's Efficiency and its floor.
    spellcard_min_cost: int = 20
    bomb_multiplier: int = 2
    efficiency_discount: int = 10
    efficiency_floor: int = 10
    # Ruling 8: spell power at the start of a battle, its cap, and Options.
    starting_spell_power: int = 50
    spell_power_cap: int = 400
    option_spell_power_step: int = 100
    option_max_bonus: int = 4
    # Turn tracking (issue 5/6): minutes a player's turn may wait before a reminder.
    turn_reminder_minutes: int = 60
    # Issue 9 (rules audit). Guardian: "If harm comes to this pony or object, the Guardian
    # loses all Guardian-related powers": 1 = her extra 20 HP goes too while the charge is
    # injured (sheet and battle); 0 = she keeps it (only her protection cards are lost).
    guardian_hp_needs_safe_charge: int = 1
    # Mental rolls "are made by the DM so the character does not know whether or not she
    # succeeded": 1 = a player's Intuition, Legends, Sense and Will checks on the dice page
    # are GM-secret rolls (she sees that she rolled, not the result); 0 = ordinary rolls.
    mental_rolls_secret: int = 1
    # Rulings made house rules (issue 9). Damage modifier prices: 1 = tiered (the first five
    # points 10 each, every point from +6 on 20: +6 costs 70); 0 = a modifier above +5 pays 20
    # for every point (+6 costs 120).
    damage_modifier_tiered: int = 1
    # Drunken Master's bare fists: +1d per level from buzzed, at most this many extra dice (3:
    # 4d in all from drunk on, the rule text; 2: 3d, the rulebook's "3dX2" example).
    drunken_fists_max_extra_dice: int = 3
    # 1 = a Librarian holding a Grimoire gets both extras (+10 cards, +2 kinds); 0 = only one.
    librarian_grimoire_stack: int = 1
    # 1 = skill bonuses (Skill Focus, Keen Senses ...) are added to the roll (Intuition 12 +2
    # rolls 4d+2); 0 = added to the skill value, so they can add dice (14: still 4d, 15: 5d).
    skill_bonus_to_roll: int = 1
    # The tavern (issue 12): 1 = tables in this campaign's tavern may play for yen; 0 = the GM
    # turned stakes off.
    tavern_stakes: int = 1
    # RULINGS 12: a profession skill card whose text prints its cost (Shield 50, Taunt 20 ...).
    # 1 = it costs exactly that: no target, AOE, duration or other section on top (a bomb that
    # is not one by default is still doubled); 0 = only the target its text fixes is free, and a
    # duration or AOE its text allows is added (Shield for 3 rounds homing: 150).
    printed_costs_complete: int = 1

    def to_dict(self) -> dict[str, int]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> HouseRules:
        """Build from stored settings, ignoring unknown keys; raises ValueError per bad field."""
        if not data:
            return cls()
        known = {f.name for f in fields(cls)}
        values: dict[str, int] = {}
        errors: dict[str, str] = {}
        for key, value in data.items():
            if key not in known:
                continue
            meta = HOUSE_RULES_META[key]
            if isinstance(value, bool) or not isinstance(value, int):
                errors[key] = "must be a whole number"
            elif not meta.minimum <= value <= meta.maximum:
                errors[key] = f"must be between {meta.minimum} and {meta.maximum}"
            else:
                values[key] = value
        if errors:
            raise HouseRuleError(errors)
        return cls(**values)

    @classmethod
    def checked(cls, data: dict[str, Any] | None) -> HouseRules:
        """:meth:`from_dict` for a GM's new settings: each value in range *and* the ordered
        pairs in order (:data:`ORDERED_PAIRS`). Stored settings load with :meth:`from_dict`,
        which never refuses a campaign over an order it was saved with."""
        rules = cls.from_dict(data)
        problems = rules.order_problems()
        if problems:
            raise HouseRuleError(problems)
        return rules

    def order_problems(self) -> dict[str, str]:
        """Each ordered pair of settings out of order, as ``{field: message}`` in English."""
        return {key: str(words) for key, words in self.order_problem_words().items()}

    def order_problem_words(self) -> dict[str, Words]:
        """Each ordered pair of settings out of order, as ``{field: words}`` to translate
        where they are shown."""
        problems: dict[str, Words] = {}
        for low, high, message in ORDERED_PAIRS:
            low_value, high_value = getattr(self, low), getattr(self, high)
            if low_value > high_value:
                problems[low] = Words(message, {"low": low_value, "high": high_value})
        return problems

    def changed(self) -> dict[str, int]:
        """Settings that differ from the defaults, to record with a result they affected."""
        default = HouseRules()
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if getattr(self, f.name) != getattr(default, f.name)
        }


class HouseRuleError(ValueError):
    """One or more house-rule values are out of range; ``errors`` maps field to message."""

    def __init__(self, errors: dict[str, str]) -> None:
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))
        self.errors = errors


HOUSE_RULES_META: dict[str, HouseRule] = {
    rule.name: rule
    for rule in (
        HouseRule(
            "stat_per_die",
            N_("Stat points per die"),
            N_("Dice pool = stat ÷ this, rounded down."),
            1,
            10,
        ),
        HouseRule(
            "min_dice", N_("Minimum dice"), N_("Every check rolls at least this many dice."), 0, 10
        ),
        HouseRule(
            "critical_band",
            N_("Critical band"),
            N_("Top/bottom this many totals are criticals."),
            0,
            10,
        ),
        HouseRule(
            "critical_fail_margin",
            N_("Critical success limit"),
            N_("A critical success fails when the target beats the total by this much or more."),
            1,
            100,
        ),
        HouseRule(
            "versus_all_fail_closest",
            N_("Versus: closest failure wins"),
            N_("1: when everyone fails a versus check, the smallest failure wins; 0: no one wins."),
            0,
            1,
        ),
        HouseRule(
            "danmaku_dodge_target",
            N_("Danmaku dodge target"),
            N_("An insight roll must beat this to dodge danmaku."),
            1,
            100,
        ),
        HouseRule(
            "graze_target",
            N_("Graze target"),
            N_("An insight roll must beat this to graze (the rulebook gives none)."),
            1,
            100,
        ),
        HouseRule(
            "physical_damage_pwr_divisor",
            N_("PWR divisor for physical damage"),
            N_("Physical damage = weapon dice + PWR ÷ this (rounded down)."),
            1,
            10,
        ),
        HouseRule(
            "danmaku_int_per_die",
            N_("INT per danmaku die"),
            N_("Danmaku dice = INT ÷ this."),
            1,
            10,
        ),
        HouseRule(
            "aoe_targets_multiplier",
            N_("AOE + targets multiplier"),
            N_("An AOE card with several targets pays this × the target cost."),
            1,
            10,
        ),
        HouseRule("element_cost_same_cycle", N_("Element cost, same cycle"), "", 0, 400),
        HouseRule("element_cost_other_cycle", N_("Element cost, other cycle"), "", 0, 400),
        HouseRule("spellcard_min_cost", N_("Minimum spellcard cost"), "", 0, 400),
        HouseRule("bomb_multiplier", N_("Bomb cost multiplier"), "", 1, 10),
        HouseRule(
            "efficiency_discount", N_("Efficiency discount"), N_("Magic Missile's saving."), 0, 100
        ),
        HouseRule(
            "efficiency_floor", N_("Efficiency floor"), N_("Efficiency never goes below."), 0, 100
        ),
        HouseRule("starting_spell_power", N_("Starting spell power"), "", 0, 400),
        HouseRule("spell_power_cap", N_("Spell power cap"), "", 1, 10000),
        HouseRule("option_spell_power_step", N_("Spell power per Option"), "", 1, 1000),
        HouseRule("option_max_bonus", N_("Maximum Option bonus"), "", 0, 20),
        HouseRule("turn_reminder_minutes", N_("Turn reminder delay (minutes)"), "", 1, 10080),
        HouseRule(
            "guardian_hp_needs_safe_charge",
            N_("Guardian HP needs a safe charge"),
            N_("1: a Guardian's extra 20 HP is lost while her charge is injured; 0: she keeps it."),
            0,
            1,
        ),
        HouseRule(
            "damage_modifier_tiered",
            N_("Damage modifier priced in tiers"),
            N_(
                "1: +1 to +5 cost 10 each and each point from +6 on 20 (+6 = 70); 0: above +5, "
                "every point costs 20 (+6 = 120)."
            ),
            0,
            1,
        ),
        HouseRule(
            "drunken_fists_max_extra_dice",
            N_("Drunken Master: extra fist dice"),
            N_(
                "Her bare fists gain +1d per drinking level from buzzed, at most this many "
                "(3: 4d in all, the rule text; 2: 3d, the rulebook's example)."
            ),
            0,
            3,
        ),
        HouseRule(
            "librarian_grimoire_stack",
            N_("Librarian and Grimoire extras stack"),
            N_("1: a Librarian holding a grimoire gets +10 cards and +2 kinds; 0: +5 and +1 only."),
            0,
            1,
        ),
        HouseRule(
            "skill_bonus_to_roll",
            N_("Skill bonuses go to the roll"),
            N_(
                "1: skill bonuses are added to the roll; 0: to the skill value (they can add dice)."
            ),
            0,
            1,
        ),
        HouseRule(
            "mental_rolls_secret",
            N_("Mental rolls are secret"),
            N_(
                "1: a player's Intuition, Legends, Sense and Will checks are rolled for the GMs "
                "only (she sees that she rolled, not the result); 0: ordinary rolls."
            ),
            0,
            1,
        ),
        HouseRule(
            "printed_costs_complete",
            N_("Printed card costs are complete"),
            N_(
                "1: a skill card whose text prints its cost (Shield 50, Taunt 20 ...) costs "
                "exactly that, whatever duration, AOE or targets it is given; 0: only its target "
                "is free, a duration or AOE is added."
            ),
            0,
            1,
        ),
        HouseRule(
            "tavern_stakes",
            N_("Tavern stakes"),
            N_("1: tavern tables may play for yen; 0: stakes are off in this campaign."),
            0,
            1,
        ),
    )
}

#: Settings that must not exceed another: ``(lower, higher, message)``, the message naming
#: both values (``%(low)s``, ``%(high)s``). Refused by :meth:`HouseRules.checked` beside the
#: lower one. Other pairs were weighed and left free: an Efficiency floor above the minimum
#: cost or the discount never makes a card dearer (the cost takes the smaller of the floor and
#: the card's total), and element costs, Option steps and the dodge and graze targets are a
#: GM's choice in either order.
ORDERED_PAIRS: tuple[tuple[str, str, str], ...] = (
    (
        "starting_spell_power",
        "spell_power_cap",
        N_(
            "Starting spell power (%(low)s) cannot be above the spell power cap (%(high)s): a "
            "character never holds more spell power than the cap, so she could not start a "
            "battle with it."
        ),
    ),
)

DEFAULT_HOUSE_RULES = HouseRules()
