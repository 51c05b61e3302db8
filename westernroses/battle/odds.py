"""Exact odds for the battle screen: a basic attack's chance to hit a target and its damage
distribution, and the odds a logged roll faced.

The numbers come from :mod:`westernroses.probability`, the same functions the spellcard
builder's odds use (``spellcards.services._attack_preview``: ``check_odds`` for a dodge or a
to-hit roll, ``total_distribution`` for the damage), fed with the same pools and modifiers the
attack itself rolls with (:mod:`westernroses.battle.attacks`, :func:`reactions.dodge`):

* Physical ("Attacking and Dodging"): a versus of the attacker's PWR pool against the
  defender's CHA pool, ties re-rolled (``versus_odds``); a defender who cannot dodge is hit when
  the attacker's roll beats the "undodged physical" target (``check_odds``). A defender who
  rolls to dodge several times (a drinking Drunken Master) makes a many-sided versus the
  probability module does not cover: no chance is given then (``hit`` None), never a guess.
* Danmaku: the damage is rolled anyway; the hit lands unless the defender's insight roll beats
  the dodge target, with each extra dodge roll another chance (independent rolls).

Damage is the rolled damage before the defender's reductions and reactions (grazing, shields),
which are her choices; the screen says so.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any

from westernroses import probability
from westernroses.battle.arena import manhattan
from westernroses.battle.context import Ctx
from westernroses.battle.state import AttackProfile, Combatant, Json
from westernroses.battle.stats import can_act, drunk, roll_mod, stat, stat_roll, to_hit_penalty
from westernroses.checks import pool_size
from westernroses.dice import DiceExpression
from westernroses.house_rules import HouseRules

from . import attacks


@lru_cache(maxsize=4096)
def _share(value: Fraction) -> Json:
    """A chance as the screen shows it. Cached, like :func:`damage_json`, because every view
    of a battle offers the same few dozen attacks again: the results are shared between
    views, so nothing may change them in place (views build new dicts around them)."""
    return probability._display(value)


@lru_cache(maxsize=512)
def _versus(a: int, a_mod: int, b: int, b_mod: int, rules: HouseRules) -> Fraction:
    return probability.versus_odds(a, a_mod, b, b_mod, None, rules).a_wins


@lru_cache(maxsize=512)
def _check(dice: int, modifier: int, target: int, rules: HouseRules) -> Fraction:
    return probability.check_odds(dice, modifier, target, rules).any_success


@lru_cache(maxsize=256)
def _damage(dice: int, modifier: int, multiplier: int) -> tuple[tuple[int, Fraction], ...]:
    """The damage dealt: the roll's total, never below zero (``reactions.set_damage``)."""
    out: dict[int, Fraction] = {}
    expression = DiceExpression(dice, modifier, multiplier)
    for total, p in probability.total_distribution(expression).items():
        out[max(total, 0)] = out.get(max(total, 0), Fraction(0)) + p
    return tuple(sorted(out.items()))


@lru_cache(maxsize=512)
def damage_json(dice: int, modifier: int, multiplier: int = 1) -> Json:
    """A damage roll's distribution: each total with its exact chance, and the average
    (shared between callers: never changed in place)."""
    rows = _damage(dice, modifier, multiplier)
    average = sum((total * p for total, p in rows), Fraction(0))
    return {
        "notation": str(DiceExpression(dice, modifier, multiplier)),
        "totals": [[total, _share(p)] for total, p in rows],
        "average": round(float(average), 2),
    }


def _physical_hit(ctx: Ctx, c: Combatant, attack: AttackProfile, d: Combatant) -> Fraction | None:
    power = stat(c, "pwr")
    halved = drunk(c).attack_power_halved
    if halved or "doll_master" in c.profile.traits:
        power = -(-power // 2)
    modifier = (
        attack.to_hit_bonus
        + (0 if halved else roll_mod(c, "pwr"))
        + d.profile.attackers_physical_to_hit
        + sum(a for _, a in to_hit_penalty(c))
    )
    dice = pool_size(power, ctx.rules)
    rolls = drunk(d).dodge_rolls
    if not can_act(d) or rolls <= 0:
        return _check(dice, modifier, ctx.target("undodged_physical"), ctx.rules)
    if rolls > 1:
        return None
    cha_dice = pool_size(stat(d, "cha"), ctx.rules)
    cha_mod = d.profile.physical_dodge_bonus + roll_mod(d, "cha")
    return _versus(dice, modifier, cha_dice, cha_mod, ctx.rules)


def _danmaku_hit(ctx: Ctx, c: Combatant, d: Combatant) -> Fraction:
    rolls = drunk(d).dodge_rolls
    if not can_act(d) or rolls <= 0:
        return Fraction(1)
    _, dice, mods = stat_roll(d, "ins", ctx.rules)
    modifier = (
        sum(a for _, a in mods) + d.profile.danmaku_dodge_bonus + c.profile.opponents_danmaku_dodge
    )
    dodge = _check(dice, modifier, ctx.target("dodge"), ctx.rules)
    return (1 - dodge) ** rolls


def attack_odds(ctx: Ctx, c: Combatant, attack: AttackProfile, defender: Combatant) -> Json:
    """``{"hit": share or None, "damage": distribution}`` for ``c``'s basic ``attack`` on
    ``defender``, as the next roll would face it."""
    if attack.kind == "danmaku":
        spec = attacks.danmaku_spec(ctx, c, attack)
        hit: Fraction | None = _danmaku_hit(ctx, c, defender)
        damage = damage_json(spec["dice"], spec["modifier"])
    else:
        spec = attacks.physical_spec(ctx, c, attack)
        hit = _physical_hit(ctx, c, attack, defender)
        damage = damage_json(
            spec["dice"], spec["modifier"] * spec["multiplier"], spec["multiplier"]
        )
    return {"hit": None if hit is None else _share(hit), "damage": damage}


def attack_odds_by_target(
    ctx: Ctx, c: Combatant, attack: AttackProfile, targets: list[str]
) -> dict[str, Json]:
    """:func:`attack_odds` for each target id (the legal action's ``odds``)."""
    return {t: attack_odds(ctx, c, attack, ctx.c(t)) for t in targets}


def roll_odds(result: Any, rules: HouseRules) -> Json | None:
    """The odds a logged check faced (``{"success", "critical_success", "critical_failure"}``),
    from its pool, modifier and target; None for a roll without a target."""
    if not isinstance(result, dict):
        return None
    dice, modifier, target = result.get("dice"), result.get("modifier"), result.get("target")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (dice, modifier, target)):
        return None
    assert isinstance(dice, int) and isinstance(modifier, int) and isinstance(target, int)  # noqa: S101
    if not 0 <= dice <= 100:
        return None
    odds = _check_odds(dice, modifier, target, rules)
    return {
        "success": _share(odds.any_success),
        "critical_success": _share(odds.critical_success),
        "critical_failure": _share(odds.critical_failure),
    }


@lru_cache(maxsize=512)
def _check_odds(dice: int, modifier: int, target: int, rules: HouseRules) -> Any:
    return probability.check_odds(dice, modifier, target, rules)


def versus_event_odds(result: Any, rules: HouseRules) -> Json | None:
    """Each side's exact chance to win a logged two-sided versus (ties re-rolled), from the
    pools and modifiers it was rolled with; None for other shapes."""
    if not isinstance(result, dict):
        return None
    people = result.get("participants")
    if not isinstance(people, list) or len(people) != 2:
        return None
    try:
        (a, b) = ((str(p["id"]), int(p["dice"]), int(p["modifier"])) for p in people)
    except (KeyError, TypeError, ValueError):
        return None
    if not (0 <= a[1] <= 100 and 0 <= b[1] <= 100):
        return None
    target = result.get("target")
    odds = probability.versus_odds(
        a[1], a[2], b[1], b[2], target if isinstance(target, int) else None, rules
    )
    return {"wins": {a[0]: _share(odds.a_wins), b[0]: _share(odds.b_wins)}}


def _card_dodge_hit(ctx: Ctx, c: Combatant, d: Combatant, target: int) -> Fraction:
    """Chance a card's trigger lands on ``d``: her insight dodge against ``target`` (the
    caster's max(INT, PWR)), each extra dodge roll another chance (``reactions.dodge``)."""
    rolls = drunk(d).dodge_rolls
    if not can_act(d) or rolls <= 0:
        return Fraction(1)
    _, dice, mods = stat_roll(d, "ins", ctx.rules)
    modifier = (
        sum(a for _, a in mods) + d.profile.danmaku_dodge_bonus + c.profile.opponents_danmaku_dodge
    )
    return (1 - _check(dice, modifier, target, ctx.rules)) ** rolls


def card_odds(ctx: Ctx, c: Combatant, card: Any, squares: list[tuple[int, int]], aoe: int) -> Json:
    """An attack card's odds (``spellcasting._attack_card``): the caster's to-hit roll when
    the card has one ("a failed roll means the card does not hit"), the damage of one trigger,
    and for each combatant standing where the card can reach, the chance it lands on her
    (to-hit times her failed dodge; "die" cards cannot be dodged). None for other cards."""
    from westernroses.battle import spellcasting
    from westernroses.spellcards.card import ToHit

    found = spellcasting.slugs(card)
    elsewhere = {
        "what_was_i_doing_again",
        "i_wanna_be_over_there",
        "divine_fire",
        "summon_familiar",
    }
    if found & (elsewhere | spellcasting.DOLL_SKILLS):
        return {}  # resolved by their own rules before any attack (``spellcasting._resolve``)
    if not (spellcasting.is_attack(card) or "die" in found):
        return {}
    spec = spellcasting.damage_spec(ctx, c, card)
    to_hit = Fraction(1)
    if card.to_hit in (ToHit.ROLL_VS_INT, ToHit.ROLL_VS_PWR):
        key = "int" if card.to_hit is ToHit.ROLL_VS_INT else "pwr"
        modifier = (
            c.profile.spellcard_to_hit + roll_mod(c, key) + sum(a for _, a in to_hit_penalty(c))
        )
        dice = pool_size(stat(c, key), ctx.rules)
        to_hit = _check(dice, modifier, ctx.target("spellcard_to_hit"), ctx.rules)
    hits = {}
    for d in ctx.state.combatants.values():
        # someone the card can catch: alive, within its AOE of a square it can target
        if d.id == c.id or not d.alive or d.position is None:
            continue
        if not any(manhattan(d.position, sq) <= aoe for sq in squares):
            continue
        lands = (
            Fraction(1) if spec["no_dodge"] else _card_dodge_hit(ctx, c, d, spec["dodge_target"])
        )
        hits[d.id] = _share(to_hit * lands)
    return {
        "to_hit": _share(to_hit),
        "damage": damage_json(spec["dice"], spec["modifier"]),
        "hit": hits,
    }


def with_odds(ctx: Ctx, options: list[Json], visible: set[str] | None = None) -> list[Json]:
    """``legal_actions`` for a screen: each basic attack gains ``odds`` (per target: chance to
    hit and damage) and each card ``odds`` (:func:`card_odds`, null for cards that do not
    attack). Only the view adds them: bots and the rules ask for legal actions far more often
    than a person looks, and need no odds. With ``visible``, odds name only those combatants
    (the ones the asker's view shows), so they never tell of someone hidden."""
    from westernroses.battle import spellcasting

    out = []
    for option in options:
        kind = option.get("type")
        if kind == "attack":
            c = ctx.c(option["combatant"])
            profile = next((a for a in c.profile.attacks if a.slug == option["attack"]), None)
            if profile is not None:
                targets = [t for t in option["targets"] if visible is None or t in visible]
                option = {**option, "odds": attack_odds_by_target(ctx, c, profile, targets)}
        elif kind == "use_spellcard":
            c = ctx.c(option["combatant"])
            card = spellcasting.card_of(c, option["card"])
            squares = [(x, y) for x, y in option.get("target_squares") or []]
            aoe = int(option.get("targeting", {}).get("aoe") or 0)
            found = card_odds(ctx, c, card, squares, aoe)
            if found and visible is not None:
                found["hit"] = {k: v for k, v in found["hit"].items() if k in visible}
            option = {**option, "odds": found or None}
        out.append(option)
    return out
