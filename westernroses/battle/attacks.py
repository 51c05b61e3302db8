"""Basic attacks: physical, thrown and danmaku ("Attacking and Dodging", "Damage Rolls").

* Physical: the target within the weapon's range; a versus check of the attacker's PWR against
  the defender's CHA; if she wins, weapon dice + floor(PWR / 2) damage (RULINGS 4), plus
  Training, Brute Force, Options, Combat-Maid's extra die on thrown weapons and a Drunken
  Master's fists. Fairies' Diminutive gives attackers −2; blindness −6.
* Danmaku: the target within the range stat + Options (RULINGS 8, 9); damage floor(INT / 3)
  dice is rolled at once; the target rolls insight against 12 to dodge (−2 against Homing,
  +2 with Shoot and I'll Move) and may then graze.
* Every basic attack adds 1 to the attacker's spell meter, hit or miss.

Doll Masters' INT and PWR are halved for basic attacks; a plastered Drunken Master's power is
halved for the to-hit roll and her damage doubled (``4dX2+8``: the bonus doubled too).
"""

from __future__ import annotations

from westernroses.battle import reactions, spell_power
from westernroses.battle.context import Ctx
from westernroses.battle.state import AttackProfile, Combatant, Json, scan
from westernroses.battle.stats import (
    can_act,
    drunk,
    options,
    reach_stat,
    roll_mod,
    stat,
    to_hit_penalty,
)
from westernroses.checks import Critical, critical_bands, pool_size
from westernroses.dice import DiceExpression
from westernroses.words import N_, Words


def reach(ctx: Ctx, c: Combatant, attack: AttackProfile) -> int:
    if attack.kind == "danmaku":
        return reach_stat(c) + options(c, ctx.rules)
    return attack.range or 0


def targets(
    ctx: Ctx,
    c: Combatant,
    attack: AttackProfile,
    near: list[tuple[str, int]] | None = None,
) -> list[str]:
    """Living combatants (not herself) within the attack's range; none without ammunition.

    ``near`` is :func:`distances` for her, when the caller asks for several attacks of hers in
    one position (legal actions ask for every one): the scan is then made once."""
    if c.position is None:
        return []
    if attack.kind == "thrown" and c.ammo.get(attack.slug, 0) <= 0:
        return []
    distance = reach(ctx, c, attack)
    if near is None:
        near = distances(ctx, c)
    return [cid for cid, d in near if d <= distance]


def distances(ctx: Ctx, c: Combatant) -> list[tuple[str, int]]:
    """Every living combatant but her, with her Manhattan distance to them (RULINGS 9), in the
    state's order; empty while she is off the map."""
    if c.position is None:
        return []
    x, y = c.position
    found = []
    for o in scan(ctx.state.combatants):
        there = o.position
        if there is not None and o.id != c.id and o.life == "alive":
            found.append((o.id, abs(there[0] - x) + abs(there[1] - y)))
    return found


def _element(c: Combatant, attack: AttackProfile, goddess: bool) -> str | None:
    """Danmaku carries her element; a Shrine Maiden may declare any basic attack to be of her
    goddess's element. Physical attacks are otherwise non-elemental (ruling)."""
    if goddess:
        return c.profile.goddess_element
    return c.profile.element if attack.kind == "danmaku" else None


def _on_hit(c: Combatant, attack: AttackProfile, critical: bool) -> list[Json]:
    effects: list[Json] = []
    if attack.on_hit == "stun_1":
        effects.append({"kind": "stun", "turns": 1, "save": True})
    if attack.on_hit == "destroy_buffs":
        effects.append({"kind": "destroy_buffs"})
    if "stunning_note" in c.profile.traits:
        effects.append({"kind": "stun", "turns": 2, "save": True})
    if critical and "manipulation_of_ice" in c.profile.traits:
        effects.append({"kind": "freeze"})
    return effects


def physical_spec(ctx: Ctx, c: Combatant, attack: AttackProfile) -> Json:
    """Weapon dice + floor(PWR / divisor) + bonuses, ×2 for a plastered Drunken Master."""
    d = drunk(c)
    power = stat(c, "pwr")
    if "doll_master" in c.profile.traits:
        power = -(-power // 2)
    fist_dice = min(d.fist_extra_dice, ctx.rules.drunken_fists_max_extra_dice)
    dice = attack.dice + (fist_dice if attack.fists else 0)
    divisor = ctx.rules.physical_damage_pwr_divisor
    parts = [
        (f"PWR {power} / {divisor}", power // divisor),
        ("Weapon and abilities", attack.bonus),
        ("Options", options(c, ctx.rules)),
    ]
    return {
        "dice": dice,
        "modifier": sum(a for _, a in parts),
        "multiplier": d.physical_damage_multiplier,
        "parts": [[label, amount] for label, amount in parts if amount],
    }


def danmaku_spec(ctx: Ctx, c: Combatant, attack: AttackProfile) -> Json:
    """floor(INT / 3) dice (RULINGS 4), + Magic Spirit and Options."""
    intelligence = stat(c, "int")
    if "doll_master" in c.profile.traits:
        intelligence = -(-intelligence // 2)
    dice = max(intelligence // ctx.rules.danmaku_int_per_die, ctx.rules.min_dice)
    parts = [("Abilities", attack.bonus), ("Options", options(c, ctx.rules))]
    return {
        "dice": dice,
        "modifier": sum(a for _, a in parts),
        "multiplier": 1,
        "parts": [[label, amount] for label, amount in parts if amount],
    }


def basic_attack(
    ctx: Ctx, c: Combatant, attack: AttackProfile, defender: Combatant, *, goddess: bool = False
) -> None:
    ctx.emit(
        "attack",
        attacker=c.id,
        defender=defender.id,
        attack=attack.slug,
        name=attack.name,
        kind=attack.kind,
    )
    if attack.kind == "thrown":
        c.ammo[attack.slug] = c.ammo.get(attack.slug, 0) - 1
        c.thrown_used[attack.slug] = c.thrown_used.get(attack.slug, 0) + 1
    element = _element(c, attack, goddess)
    if attack.kind == "danmaku":
        hit = _danmaku(ctx, c, attack, defender, element)
    else:
        hit = _physical(ctx, c, attack, defender, element)
    spell_power.meter(ctx, c, spell_power.METER_BASIC_ATTACK, "basic attack")
    reactions.enqueue(ctx, [hit])
    reactions.drain(ctx)


def _physical(
    ctx: Ctx, c: Combatant, attack: AttackProfile, defender: Combatant, element: str | None
) -> Json:
    d = drunk(c)
    power = stat(c, "pwr")
    if d.attack_power_halved or "doll_master" in c.profile.traits:
        power = -(-power // 2)
    mods = [
        ("Weapon", attack.to_hit_bonus),
        ("Drink", 0 if d.attack_power_halved else roll_mod(c, "pwr")),
        ("Defender (Diminutive)", defender.profile.attackers_physical_to_hit),
        *to_hit_penalty(c),
    ]
    dice = pool_size(power, ctx.rules)
    spec = physical_spec(ctx, c, attack)
    rolls = drunk(defender).dodge_rolls
    common: Json = {
        "attacker": c.id,
        "defender": defender.id,
        "source": attack.kind,
        "name": attack.name,
        "basic": True,
        "element": element,
        "spec": spec,
        "physical": True,
    }
    if not can_act(defender) or rolls <= 0:
        # "physical attacks hit as long as the opponent succeeds her roll" (a defender who
        # cannot dodge): the attacker's roll against a target number (ruling: 12).
        ctx.emit("cannot_dodge", combatant=defender.id, purpose=attack.name)
        result = ctx.check(
            c.id,
            Words(N_("%(name)s to-hit"), {"name": attack.name}),
            dice,
            mods,
            ctx.target("undodged_physical"),
            value=power,
        )
        critical = result.outcome is not None and result.outcome.value == "critical_success"
        stage = "landed" if result.success else "missed"
        lucky = (
            None if result.success else {"who": c.id, "kind": "check", "result": result.to_dict()}
        )
        hit = reactions.make_hit(
            ctx,
            stage=stage,
            critical=critical,
            on_hit=_on_hit(c, attack, critical),
            lucky=lucky,
            **common,
        )
        if stage == "landed":
            reactions.roll_damage(ctx, hit)
        return hit
    cha_dice = pool_size(stat(defender, "cha"), ctx.rules)
    cha_mods = [
        ("Dodge bonuses", defender.profile.physical_dodge_bonus),
        ("Drink", roll_mod(defender, "cha")),
    ]
    sides = [(c.id, dice, mods)]
    if rolls == 1:
        sides.append((defender.id, cha_dice, cha_mods))
    else:
        sides += [(f"{defender.id}#{i + 1}", cha_dice, cha_mods) for i in range(rolls)]
    contest = ctx.versus(Words(N_("%(name)s: PWR vs CHA"), {"name": attack.name}), sides)
    won = contest.winner == c.id
    critical = won and contest.result_for(c.id).critical is Critical.SUCCESS
    second_chance: Json | None = None
    if rolls == 1:
        second_chance = {
            "who": defender.id if won else c.id,
            "kind": "versus",
            "result": contest.to_dict(),
        }
    hit = reactions.make_hit(
        ctx,
        stage="landed" if won else "missed",
        critical=critical,
        on_hit=_on_hit(c, attack, critical),
        lucky=second_chance,
        **common,
    )
    if won:
        reactions.roll_damage(ctx, hit)
    return hit


def _danmaku(
    ctx: Ctx, c: Combatant, attack: AttackProfile, defender: Combatant, element: str | None
) -> Json:
    """ "the attacker immediately rolls for damage. But, the target may make a roll against her
    insight in order to dodge". Critical: the damage dice land in the critical band."""
    spec = danmaku_spec(ctx, c, attack)
    expr = DiceExpression(spec["dice"], spec["modifier"])
    rolled = ctx.damage(
        c.id, Words(N_("%(name)s damage"), {"name": attack.name}), expr, spec["parts"]
    )
    critical = (
        critical_bands(spec["dice"], ctx.rules).critical(rolled.dice_total) is Critical.SUCCESS
    )
    dodged, lucky = reactions.dodge(
        ctx, defender, c, ctx.target("dodge"), Words(N_("dodge danmaku"))
    )
    return reactions.make_hit(
        ctx,
        attacker=c.id,
        defender=defender.id,
        source="danmaku",
        name=attack.name,
        stage="dodged" if dodged else "landed",
        basic=True,
        element=element,
        spec=spec,
        raw=max(rolled.total, 0),
        critical=critical,
        on_hit=_on_hit(c, attack, critical),
        lucky=lucky,
    )
