"""The ruleset's standard spellcard cost tables, verbatim, with the labels the rulebook uses.

These are the printed figures of the "Spellcards" part (To-Hit, Targets, Duration, Attack
Power). The numbers that the rulings turned into house rules (element costs, the AOE-with-
targets multiplier, the minimum, bombs, Efficiency) are *not* here: they come from
:class:`~westernroses.house_rules.HouseRules` so a GM can change them.
"""

from __future__ import annotations

from westernroses.spellcards.card import Duration, Targets, ToHit
from westernroses.words import N_, Words

# Rulebook sections cited by cost lines and violations, in the words the builder shows (the
# rulings are named by what they rule, never by their number in RULINGS.md).
SEC_RULES = N_("Spellcards")
SEC_TYPE = N_("Spellcards: Type")
SEC_BOMB = N_("Spellcards: Type (Bomb)")
SEC_SPECIAL = N_("Spellcards: Type (special spellcards)")
SEC_TO_HIT = N_("Spellcards: To-Hit")
SEC_TARGETS = N_("Spellcards: Targets")
SEC_SELF = N_("Spellcards: Targets (Self)")
SEC_AOE_TARGETS = N_("Spellcards: Targets (AOE), as ruled for an AOE with targets")
SEC_DURATION = N_("Spellcards: Duration")
SEC_ATTACK_POWER = N_("Spellcards: Attack Power")
SEC_ELEMENT = N_("Spellcards: Elemental Affinity, as ruled for element costs")
SEC_MINIMUM = N_("Spellcards (the 20 minimum), as ruled for the order of costs")
SEC_EFFICIENCY = N_("Shot-types: Magic Missile (Efficiency), as ruled for the order of costs")
SEC_NAME = N_("Spellcards: Name")

#: Every section above, for the app to look up only these in its catalog.
SECTIONS = frozenset(
    {
        SEC_RULES,
        SEC_TYPE,
        SEC_BOMB,
        SEC_SPECIAL,
        SEC_TO_HIT,
        SEC_TARGETS,
        SEC_SELF,
        SEC_AOE_TARGETS,
        SEC_DURATION,
        SEC_ATTACK_POWER,
        SEC_ELEMENT,
        SEC_MINIMUM,
        SEC_EFFICIENCY,
        SEC_NAME,
    }
)

TO_HIT_COST: dict[ToHit, int] = {
    ToHit.NONE: 0,
    ToHit.BURST: 0,
    ToHit.ROLL_VS_INT: -10,
    ToHit.ROLL_VS_PWR: -10,
}
TO_HIT_LABEL: dict[ToHit, str] = {
    ToHit.NONE: N_("No to-hit skill"),
    ToHit.BURST: N_("Burst"),
    ToHit.ROLL_VS_INT: N_("Roll against intelligence"),
    ToHit.ROLL_VS_PWR: N_("Roll against power"),
}

TARGETS_COST: dict[Targets, int] = {
    Targets.SELF: 0,
    Targets.SINGLE: 10,
    Targets.TWO: 20,
    Targets.THREE: 50,
    Targets.FOUR: 80,
}
TARGETS_LABEL: dict[Targets, str] = {
    Targets.SELF: N_("Self"),
    Targets.SINGLE: N_("Single Target"),
    Targets.TWO: N_("Two Targets"),
    Targets.THREE: N_("Three Targets"),
    Targets.FOUR: N_("Four Targets"),
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


def duration_words(duration: Duration) -> Words:
    """The rulebook's wording, e.g. "3 Rounds – homing", as words for the reader's language."""
    if duration is Duration.INSTANTANEOUS:
        return Words(N_("Instantaneous"))
    if duration.homing:
        return Words(N_("%(rounds)s Rounds – homing"), {"rounds": duration.rounds})
    return Words(N_("%(rounds)s Rounds – single space"), {"rounds": duration.rounds})


def duration_label(duration: Duration) -> str:
    """The rulebook's wording in English, e.g. "3 Rounds – homing"."""
    return str(duration_words(duration))


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
