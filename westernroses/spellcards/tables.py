"""The ruleset's standard spellcard cost tables, verbatim, with the labels the rulebook uses.

These are the printed figures of the "Spellcards" part (To-Hit, Targets, Duration, Attack
Power). The numbers that the rulings turned into house rules (element costs, the AOE-with-
targets multiplier, the minimum, bombs, Efficiency) are *not* here: they come from
:class:`~westernroses.house_rules.HouseRules` so a GM can change them.
"""

from __future__ import annotations

from westernroses.spellcards.card import Duration, Targets, ToHit

# Rulebook sections cited by cost lines and violations, in the words the builder shows (the
# rulings are named by what they rule, never by their number in RULINGS.md).
SEC_RULES = "Spellcards"
SEC_TYPE = "Spellcards: Type"
SEC_BOMB = "Spellcards: Type (Bomb)"
SEC_SPECIAL = "Spellcards: Type (special spellcards)"
SEC_TO_HIT = "Spellcards: To-Hit"
SEC_TARGETS = "Spellcards: Targets"
SEC_SELF = "Spellcards: Targets (Self)"
SEC_AOE_TARGETS = "Spellcards: Targets (AOE), as ruled for an AOE with targets"
SEC_DURATION = "Spellcards: Duration"
SEC_ATTACK_POWER = "Spellcards: Attack Power"
SEC_ELEMENT = "Spellcards: Elemental Affinity, as ruled for element costs"
SEC_MINIMUM = "Spellcards (the 20 minimum), as ruled for the order of costs"
SEC_EFFICIENCY = "Shot-types: Magic Missile (Efficiency), as ruled for the order of costs"
SEC_NAME = "Spellcards: Name"

TO_HIT_COST: dict[ToHit, int] = {
    ToHit.NONE: 0,
    ToHit.BURST: 0,
    ToHit.ROLL_VS_INT: -10,
    ToHit.ROLL_VS_PWR: -10,
}
TO_HIT_LABEL: dict[ToHit, str] = {
    ToHit.NONE: "No to-hit skill",
    ToHit.BURST: "Burst",
    ToHit.ROLL_VS_INT: "Roll against intelligence",
    ToHit.ROLL_VS_PWR: "Roll against power",
}

TARGETS_COST: dict[Targets, int] = {
    Targets.SELF: 0,
    Targets.SINGLE: 10,
    Targets.TWO: 20,
    Targets.THREE: 50,
    Targets.FOUR: 80,
}
TARGETS_LABEL: dict[Targets, str] = {
    Targets.SELF: "Self",
    Targets.SINGLE: "Single Target",
    Targets.TWO: "Two Targets",
    Targets.THREE: "Three Targets",
    Targets.FOUR: "Four Targets",
}

#: AOE radius -> cost. 0 means no AOE skill.
AOE_COST: dict[int, int] = {0: 0, 1: 40, 2: 60, 3: 100, 4: 120, 5: 150}
AOE_MAX = 5

DURATION_COST: dict[Duration, int] = {
    Duration.INSTANTANEOUS: 0,
    Duration.SINGLE_SPACE_2: 20,
    Duration.SINGLE_SPACE_3: 50,
    Duration.SINGLE_SPACE_4: 100,
    Duration.SINGLE_SPACE_5: 200,
    Duration.HOMING_2: 50,
    Duration.HOMING_3: 100,
    Duration.HOMING_4: 200,
    Duration.HOMING_5: 300,
}


def duration_label(duration: Duration) -> str:
    """The rulebook's wording, e.g. "3 Rounds – homing"."""
    if duration is Duration.INSTANTANEOUS:
        return "Instantaneous"
    kind = "homing" if duration.homing else "single space"
    return f"{duration.rounds} Rounds – {kind}"


#: Attack-power dice -> cost.
DICE_COST: dict[int, int] = {1: 5, 2: 10, 3: 15, 4: 20, 5: 40, 6: 60, 7: 80, 8: 100}
DICE_MIN = 1
DICE_MAX = 8
#: "+1 modifier – Cost: 10 per +1 added to the damage (up to +5)" then "20 per +1 (+6 and above)".
MODIFIER_LOW_COST = 10
MODIFIER_LOW_LIMIT = 5
MODIFIER_HIGH_COST = 20


def modifier_cost(modifier: int, tiered: bool = True) -> int:
    """Tiered: each of the first five points costs 10, each point from +6 on costs 20.

    So +5 = 50, +6 = 70, +8 = 110. (Project ruling, house rule ``damage_modifier_tiered``:
    the table prices each added point, so a +6 card pays 10 for the first five points and 20
    for the sixth. Off: a modifier above +5 pays 20 for every point, +6 = 120.)
    """
    if modifier <= 0:
        return 0
    if not tiered and modifier > MODIFIER_LOW_LIMIT:
        return modifier * MODIFIER_HIGH_COST
    low = min(modifier, MODIFIER_LOW_LIMIT)
    high = modifier - low
    return low * MODIFIER_LOW_COST + high * MODIFIER_HIGH_COST
