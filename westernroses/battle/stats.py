"""A combatant's numbers right now: base profile + drink + buffs + Options + status effects.

The profile is fixed for the battle; everything that changes during it is applied here, at the
moment a roll or a move needs it, so a buff ending or a drink taking hold is never stale.
"""

from __future__ import annotations

import functools

from westernroses.battle.state import Combatant
from westernroses.characters.drunkenness import DrunkModifiers, modifiers
from westernroses.checks import pool_size
from westernroses.house_rules import HouseRules

#: "A blind character suffers a -6 to all to-hit rolls" ("Status Effects").
BLIND_TO_HIT = -6


@functools.cache
def _drunk(level: str, race: str | None, profession: str | None) -> DrunkModifiers:
    return modifiers(level, race, profession)


def drunk(c: Combatant) -> DrunkModifiers:
    """What her drunkenness does to her rolls, after her race's and profession's exceptions."""
    return _drunk(c.drunkenness, c.profile.race, c.profile.profession)


def buff(c: Combatant, target: str) -> int:
    """Sum of ``stat`` buffs on ``target`` (pwr, cha, int, ins, speed, range, hp_max)."""
    if not c.effects:  # most combatants most of the time: asked on every legal-actions call
        return 0
    return sum(
        int(e.data.get("amount", 0))
        for e in c.effects
        if e.kind == "stat" and e.data.get("stat") == target
    )


def stat(c: Combatant, key: str) -> int:
    """A main stat with buffs (Read a book: +6 INT; Bob and weave: +1 CHA)."""
    return int(c.profile.stats[key]) + buff(c, key)


def roll_mod(c: Combatant, key: str) -> int:
    """Drink's modifier to rolls of a main stat ("Drinking")."""
    return drunk(c).stat(key)


def speed(c: Combatant) -> int:
    return max(c.profile.speed + drunk(c).speed + buff(c, "speed"), 0)


def reach_stat(c: Combatant) -> int:
    return max(c.profile.range + buff(c, "range"), 0)


def hp_max(c: Combatant) -> int:
    """Her maximum HP now: the profile's, Sturdy and the like, less a Guardian's extra HP while
    her charge is injured (the ``charge_injured`` effect, see ``damage.guardians_sync``)."""
    lost = c.profile.charge_hp if c.has("charge_injured") else 0
    return max(c.profile.hp_max + buff(c, "hp_max") - lost, 1)


def options(c: Combatant, rules: HouseRules) -> int:
    """RULINGS 8: +1 per ``option_spell_power_step`` spell power held, at most the maximum.
    A familiar "does not become more powerful by gaining spellpower"."""
    if c.spell_power <= 0 or c.kind == "familiar":
        return 0
    return min(c.spell_power // rules.option_spell_power_step, rules.option_max_bonus)


def sp_cap(c: Combatant, rules: HouseRules) -> int:
    """RULINGS 8: never above the cap (a familiar holds at most 200, "Summon Familiar")."""
    cap = rules.spell_power_cap
    return cap if c.profile.sp_cap is None else min(cap, c.profile.sp_cap)


def mortal_threshold(c: Combatant) -> int:
    """ "Once your HP drops below ¼ of your max" (¼ rounded up, RULINGS 3)."""
    return -(-hp_max(c) // 4)


def mortally_wounded(c: Combatant) -> bool:
    return c.alive and c.kind != "doll" and c.hp < mortal_threshold(c)


def pool(value: int, rules: HouseRules) -> int:
    return pool_size(value, rules)


def will(c: Combatant, rules: HouseRules) -> tuple[int, list[tuple[str, int]]]:
    """Will: dice from the skill value, its bonuses and drink's cognition penalty."""
    mods = [("Will bonuses", c.profile.will_bonus), ("Drink", drunk(c).mental_skills)]
    return pool(c.profile.will, rules), mods


def stat_roll(
    c: Combatant, key: str, rules: HouseRules, *, halved: bool = False
) -> tuple[int, int, list[tuple[str, int]]]:
    """(value, dice, modifiers) for a roll against a main stat, with drink applied."""
    value = stat(c, key)
    if halved:
        value = -(-value // 2)
    return value, pool(value, rules), [("Drink", roll_mod(c, key))]


def status_resistance(c: Combatant) -> list[tuple[str, int]]:
    """Youkai Hardy: "+2 to all rolls to avoid status effects such as freeze, stun, etc.\""""
    return [("Hardy", c.profile.status_resistance)]


def to_hit_penalty(c: Combatant) -> list[tuple[str, int]]:
    return [("Blind", BLIND_TO_HIT)] if c.has("blind") else []


def can_act(c: Combatant) -> bool:
    """Alive, conscious, on the board and not held by a status that takes every action."""
    if not c.conscious or c.position is None:
        return False
    return not any(e.kind in _HELD for e in c.effects)


#: Statuses that take every action.
_HELD = frozenset({"stun", "freeze", "thawing"})
