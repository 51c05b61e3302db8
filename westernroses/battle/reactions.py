"""Hits waiting for a decision: bombs, Body-shield, grazing and Lucky.

An attack that reaches a defender becomes a *hit* (a JSON dict in ``state.pending``). A hit
moves through stages and stops wherever someone must choose:

* ``missed`` - a physical attack lost its versus: a Lucky attacker may re-roll.
* ``landed`` - it hits: a Guardian whose charge this is may Body-shield first; then the
  defender may bomb ("a bomb card can only be activated when the potential caster has been
  successfully hit"), use Lucky on her failed dodge, or take it.
* ``dodged`` - danmaku or a spellcard was dodged: she may try to graze ("may attempt to graze
  if she wishes").
* ``graze_failed`` - a Lucky defender may re-roll the failed graze.

While hits are pending nobody else acts: the legal actions are the first hit's choices. A
stage with only one possible choice resolves by itself, so most hits never wait - except the
reaction windows of a landed hit, which open on public information alone (issue 9): whether
the game pauses must not tell the table that someone holds a bomb or a Body-shield. A hit by
someone else on a defender who could act and holds any card always waits for her "take" (or
her bomb); a hit on a Guardian's charge always waits for the Guardian's "pass" (or her
Body-shield) while she could act, holds any card and may use protection cards.
"""

from __future__ import annotations

from typing import Any

from westernroses.battle import damage, spell_power, status
from westernroses.battle.context import Ctx
from westernroses.battle.errors import IllegalAction
from westernroses.battle.state import Combatant, Json, peek, scan
from westernroses.battle.stats import can_act, drunk, stat_roll
from westernroses.checks import CheckResult, VersusResult, reroll, reroll_versus
from westernroses.dice import DiceExpression
from westernroses.words import N_, Words

#: Sources that can be grazed: "danmaku" and spellcards (ruling: a physical attack that
#: misses is simply a miss; grazing is brushing past bullets).
GRAZEABLE = ("danmaku", "spellcard", "field")


def make_hit(
    ctx: Ctx,
    *,
    attacker: str,
    defender: str,
    source: str,
    name: str,
    stage: str,
    basic: bool,
    element: str | None,
    spec: Json | None,
    raw: int | None = None,
    critical: bool = False,
    on_hit: list[Json] | None = None,
    lucky: Json | None = None,
    physical: bool = False,
    card: str | None = None,
) -> Json:
    """A new hit; damage already rolled (``raw``) is modified for the defender now."""
    hit: Json = {
        "id": ctx.state.new_id("h"),
        "stage": stage,
        "attacker": attacker,
        "defender": defender,
        "source": source,
        "name": name,
        "card": card,
        "basic": basic,
        "element": element,
        "physical": physical,
        "critical": critical,
        "spec": spec,
        "raw": None,
        "damage": None,
        "steps": [],
        "on_hit": list(on_hit or []),
        "lucky": lucky,
        "shield_passed": False,
    }
    if raw is not None:
        set_damage(ctx, hit, raw)
    return hit


def set_damage(ctx: Ctx, hit: Json, raw: int) -> None:
    final, steps = damage.modified(ctx, ctx.c(hit["defender"]), raw, hit["element"])
    hit["raw"], hit["damage"], hit["steps"] = raw, final, steps


def roll_damage(ctx: Ctx, hit: Json) -> None:
    """Roll the damage a hit carries as ``spec`` (physical attacks roll only once they hit)."""
    spec = hit["spec"]
    expr = DiceExpression(spec["dice"], spec["modifier"] * spec["multiplier"], spec["multiplier"])
    rolled = ctx.damage(
        hit["attacker"], Words(N_("%(name)s damage"), {"name": hit["name"]}), expr, spec["parts"]
    )
    set_damage(ctx, hit, max(rolled.total, 0))


def enqueue(ctx: Ctx, hits: list[Json]) -> None:
    """New hits wait their turn behind earlier ones, in the order given; while a reaction is
    being resolved (a bomb striking back) they go first: the reaction interrupts."""
    if ctx.reacting:
        ctx.state.pending[0:0] = hits
    else:
        ctx.state.pending.extend(hits)


def requeue(ctx: Ctx, hit: Json) -> None:
    """A hit taken off the queue for a decision goes back to the front for the next one."""
    ctx.state.pending.insert(0, hit)


# --------------------------------------------------------------------------- choices


def _lucky_ready(c: Combatant) -> bool:
    return "lucky" in c.profile.traits and not c.battle_used.get("lucky") and c.conscious


def _bombs(ctx: Ctx, c: Combatant) -> list[tuple[str, int]]:
    from westernroses.battle import spellcasting

    if not can_act_now(c):
        return []
    return spellcasting.usable_bombs(ctx, c)


def can_act_now(c: Combatant) -> bool:
    """Reactions need a combatant who could act (conscious, not stunned or frozen)."""
    return can_act(c)


def _guardians(ctx: Ctx, hit: Json) -> list[Combatant]:
    """Guardians whose reaction window this hit opens: public facts only (she guards the
    defender, could act, holds a card, her charge is unharmed so protection cards are open)."""
    from westernroses.battle import spellcasting

    if hit["shield_passed"] or not hit["damage"]:
        return []
    defender = hit["defender"]
    found = sorted(
        g.id
        for g in scan(ctx.state.combatants)
        if g.profile.charge == defender
        and g.id != defender
        and can_act_now(g)
        and g.deck.hand
        and not spellcasting.charge_harmed(ctx, g)
    )
    return [ctx.c(gid) for gid in found]  # taken by id: copies, as everything rules code holds


def _shields(ctx: Ctx, guardians: list[Combatant]) -> list[tuple[str, str]]:
    from westernroses.battle import spellcasting

    return [(g.id, card) for g in guardians for card in spellcasting.usable_shields(ctx, g)]


def bomb_window(ctx: Ctx, hit: Json) -> bool:
    """Whether a landed hit waits for its defender: hit by someone else, she could act and
    holds any card (public: her hand size, her statuses), whatever the cards are."""
    defender = ctx.c(hit["defender"])
    return hit["attacker"] != defender.id and can_act_now(defender) and bool(defender.deck.hand)


def waits(ctx: Ctx, hit: Json, options: list[Json] | None = None) -> bool:
    """Whether this hit waits for a decision: more than one choice, or a reaction window
    (which opens on public information, even when the only choice is to take it).
    ``options``: the hit's :func:`choices`, when the caller has them already (they change
    nothing, so asking twice gives the same list)."""
    if len(choices(ctx, hit) if options is None else options) > 1:
        return True
    return hit["stage"] == "landed" and (bool(_guardians(ctx, hit)) or bomb_window(ctx, hit))


def choices(ctx: Ctx, hit: Json) -> list[Json]:
    """The decisions open on this hit, as ``react`` actions (one: it resolves by itself)."""
    base = {"type": "react", "hit": hit["id"]}
    stage = hit["stage"]
    attacker = peek(ctx.state.combatants, hit["attacker"])  # read only
    defender = ctx.c(hit["defender"])
    lucky = hit.get("lucky")
    if stage == "missed":
        out = [{**base, "combatant": hit["attacker"], "choice": "accept"}]
        if (
            attacker is not None
            and lucky
            and lucky["who"] == attacker.id
            and _lucky_ready(attacker)
        ):
            out.append({**base, "combatant": attacker.id, "choice": "lucky"})
        return out
    if stage == "landed":
        guardians = _guardians(ctx, hit)
        if guardians:
            shields = _shields(ctx, guardians)
            out = [{**base, "combatant": guardians[0].id, "choice": "pass"}]
            out += [
                {**base, "combatant": g, "choice": "body_shield", "card": card}
                for g, card in shields
            ]
            return out
        out = [{**base, "combatant": defender.id, "choice": "take"}]
        if hit["attacker"] != defender.id:  # a bomb answers an opponent, not her own card
            out += [
                {**base, "combatant": defender.id, "choice": "bomb", "card": card, "cost": cost}
                for card, cost in _bombs(ctx, defender)
            ]
        if lucky and lucky["who"] == defender.id and _lucky_ready(defender):
            out.append({**base, "combatant": defender.id, "choice": "lucky"})
        return out
    if stage == "dodged":
        out = [{**base, "combatant": defender.id, "choice": "no_graze"}]
        # Dolls "do not gain spellpower", so they have nothing to graze for.
        if (
            hit["source"] in GRAZEABLE
            and hit["damage"]
            and defender.conscious
            and defender.kind != "doll"
        ):
            out.append({**base, "combatant": defender.id, "choice": "graze"})
        return out
    if stage == "graze_failed":
        out = [{**base, "combatant": defender.id, "choice": "accept"}]
        if lucky and _lucky_ready(defender):
            out.append({**base, "combatant": defender.id, "choice": "lucky"})
        return out
    raise ValueError(f"unknown hit stage {stage!r}")  # pragma: no cover


def open_choices(ctx: Ctx) -> list[Json]:
    """The choices of the first pending hit, if someone must decide."""
    state = ctx.state
    if not state.pending:
        return []
    # Once per sealed state: whoever asks who must act next asks legal actions right after.
    return state.remember(("open_choices",), lambda: choices(ctx, state.pending[0]))


def drain(ctx: Ctx) -> None:
    """Resolve pending hits in order until one needs a decision."""
    guard = 0
    while ctx.state.pending:
        guard += 1
        if guard > 10_000:  # pragma: no cover - a bug, never a game situation
            raise RuntimeError("pending hits do not settle")
        hit = ctx.state.pending[0]
        options = choices(ctx, hit)
        if waits(ctx, hit, options):
            return
        ctx.state.pending.pop(0)
        _resolve(ctx, hit, options[0])


def react(ctx: Ctx, action: Json) -> None:
    """Apply a decision on the first pending hit (validated against :func:`choices`)."""
    if not ctx.state.pending:
        raise IllegalAction("nothing is waiting for a reaction")
    hit = ctx.state.pending[0]
    if action.get("hit") not in (None, hit["id"]):
        raise IllegalAction(f"the hit waiting for a reaction is {hit['id']}")
    wanted = {k: action.get(k) for k in ("combatant", "choice", "card")}
    for option in choices(ctx, hit):
        if {k: option.get(k) for k in ("combatant", "choice", "card")} == wanted:
            ctx.state.pending.pop(0)
            _resolve(ctx, hit, option)
            drain(ctx)
            return
    raise IllegalAction("that reaction is not open now")


# --------------------------------------------------------------------------- resolution


def _resolve(ctx: Ctx, hit: Json, option: Json) -> None:
    choice = option["choice"]
    stage = hit["stage"]
    if choice == "lucky":
        _lucky(ctx, hit)
    elif stage == "missed":
        ctx.emit("missed", attacker=hit["attacker"], defender=hit["defender"], name=hit["name"])
    elif choice == "pass":
        hit["shield_passed"] = True
        requeue(ctx, hit)
    elif choice == "body_shield":
        _body_shield(ctx, hit, option["combatant"], option["card"])
    elif choice == "bomb":
        _bomb(ctx, hit, option["card"])
    elif choice == "take":
        land(ctx, hit)
    elif choice == "no_graze":
        ctx.emit("dodged", attacker=hit["attacker"], defender=hit["defender"], name=hit["name"])
    elif choice == "graze":
        _graze(ctx, hit)
    elif choice == "accept":
        _graze_failed(ctx, hit, CheckResult.from_dict(hit["lucky"]["result"]))
    else:  # pragma: no cover - choices() only offers the above
        raise ValueError(choice)


def land(ctx: Ctx, hit: Json) -> None:
    """The hit lands: damage (or a fairy's memory of it), the meter, then on-hit effects."""
    defender = ctx.c(hit["defender"])
    amount = int(hit["damage"] or 0)
    ctx.emit(
        "hit",
        attacker=hit["attacker"],
        defender=defender.id,
        name=hit["name"],
        raw=hit["raw"],
        steps=hit["steps"],
        damage=amount,
        element=hit["element"],
    )
    damage.take(ctx, defender, amount, hit["name"])
    if amount > 0:
        spell_power.meter(ctx, defender, spell_power.METER_DAMAGED, "took damage")
    else:
        _hit_without_damage(ctx, hit, defender, "hit without damage")
    for effect in hit["on_hit"]:
        apply_on_hit(ctx, hit, defender, effect)


def _hit_without_damage(ctx: Ctx, hit: Json, defender: Combatant, reason: str) -> None:
    """Spell-meter: "Being hit by an attack from an opponent that does not deal damage - 1
    point": an ally's hit (her own card's area, say) gives none (issue 9)."""
    attacker = ctx.state.find(hit["attacker"])
    if attacker is not None and attacker.side != defender.side:
        spell_power.meter(ctx, defender, spell_power.METER_HIT_NO_DAMAGE, reason)


def apply_on_hit(ctx: Ctx, hit: Json, defender: Combatant, effect: Json) -> None:
    if not defender.alive:
        return
    kind = effect["kind"]
    if kind == "destroy_buffs":
        status.destroy_buffs(ctx, defender, hit["attacker"])
    elif kind == "stun":
        status.inflict(
            ctx,
            defender,
            "stun",
            source=hit["attacker"],
            turns=int(effect.get("turns", 1)),
            save=bool(effect.get("save", True)),
            unavoidable_by_dolls=bool(effect.get("unavoidable", False)),
        )
    else:
        status.inflict(ctx, defender, kind, source=hit["attacker"], turns=effect.get("turns"))


def _lucky(ctx: Ctx, hit: Json) -> None:
    """Lucky: "re-roll a roll of your choice made this turn, using the new roll as your result"."""
    info = hit["lucky"]
    who = ctx.c(info["who"])
    who.battle_used["lucky"] = 1
    ctx.emit("lucky", combatant=who.id, hit=hit["id"])
    if info["kind"] == "versus":
        result = reroll_versus(VersusResult.from_dict(info["result"]), who.id, ctx.rng)
        ctx.emit(
            "versus", purpose=Words(N_("Lucky re-roll")), modifiers={}, result=result.to_dict()
        )
        attacker_won = result.winner == hit["attacker"]
        other = hit["defender"] if who.id == hit["attacker"] else hit["attacker"]
        hit["lucky"] = {"who": other, "kind": "versus", "result": result.to_dict()}
        if attacker_won and hit["stage"] == "missed":
            hit["stage"] = "landed"
            roll_damage(ctx, hit)
        elif not attacker_won:
            hit["stage"] = "missed"
        requeue(ctx, hit)
        return
    old = CheckResult.from_dict(info["result"])
    new = reroll(old, ctx.rng)
    ctx.emit("roll", combatant=who.id, purpose=Words(N_("Lucky re-roll")), result=new.to_dict())
    hit["lucky"] = None
    if hit["stage"] == "graze_failed":
        if new.success:
            _graze_success(ctx, hit)
        else:
            _graze_failed(ctx, hit, new)
        return
    if hit["stage"] == "missed" and new.success:  # her own to-hit roll, now a hit
        hit["stage"] = "landed"
        roll_damage(ctx, hit)
    elif hit["stage"] == "landed" and new.success:  # a failed dodge re-rolled into a dodge
        hit["stage"] = "dodged"
        from westernroses.battle import spellcasting

        spellcasting.unfollow(ctx, hit)
    requeue(ctx, hit)


def _graze(ctx: Ctx, hit: Json) -> None:
    """ "In order to graze make a roll against your insight." (target: the graze house rule)"""
    defender = ctx.c(hit["defender"])
    attacker = ctx.state.find(hit["attacker"])
    value, dice, mods = stat_roll(defender, "ins", ctx.rules)
    mods = [
        *mods,
        ("Graze bonuses", defender.profile.graze_bonus),
        ("Attacker (Curvy Lasers)", attacker.profile.opponents_graze if attacker else 0),
    ]
    result = ctx.check(
        defender.id,
        Words(N_("graze (insight)")),
        dice,
        mods,
        ctx.target("graze"),
        stat="ins",
        value=value,
    )
    if result.success:
        _graze_success(ctx, hit)
    elif _lucky_ready(defender):
        hit["stage"] = "graze_failed"
        hit["lucky"] = {"who": defender.id, "kind": "check", "result": result.to_dict()}
        requeue(ctx, hit)
    else:
        _graze_failed(ctx, hit, result)


def _graze_success(ctx: Ctx, hit: Json) -> None:
    defender = ctx.c(hit["defender"])
    ctx.emit("grazed", defender=defender.id, attacker=hit["attacker"], damage=hit["damage"])
    spell_power.graze_gain(ctx, defender, int(hit["damage"] or 0))


def _graze_failed(ctx: Ctx, hit: Json, result: CheckResult) -> None:
    """ "On a failure you take half the damage ... On a critical failure you take damage as if
    you had not dodged the attack." (half rounded up, RULINGS 3)"""
    defender = ctx.c(hit["defender"])
    full = int(hit["damage"] or 0)
    critical = result.outcome is not None and result.outcome.value == "critical_failure"
    amount = full if critical else -(-full // 2)
    ctx.emit(
        "graze_failed",
        defender=defender.id,
        attacker=hit["attacker"],
        damage=amount,
        critical=critical,
    )
    damage.take(ctx, defender, amount, f"{hit['name']} (failed graze)")
    if amount > 0:
        spell_power.meter(ctx, defender, spell_power.METER_DAMAGED, "took damage")


def _bomb(ctx: Ctx, hit: Json, card_id: str) -> None:
    """ "the bomb cancels out any damage or other effects the caster would have taken and
    targets the opponent who would have dealt damage to the caster"."""
    from westernroses.battle import spellcasting

    defender = ctx.c(hit["defender"])
    ctx.emit("bombed", defender=defender.id, attacker=hit["attacker"], card=card_id, hit=hit["id"])
    _hit_without_damage(ctx, hit, defender, "hit without damage")
    ctx.reacting = True
    try:
        spellcasting.cast_bomb(ctx, defender, card_id, hit["attacker"])
    finally:
        ctx.reacting = False


def _body_shield(ctx: Ctx, hit: Json, guardian_id: str, card_id: str) -> None:
    """Body-shield: "the Guardian takes the damage her charge would have taken"."""
    from westernroses.battle import spellcasting

    guardian = ctx.c(guardian_id)
    spellcasting.pay_and_discard(ctx, guardian, card_id)
    amount = int(hit["damage"] or 0)
    ctx.emit("body_shield", guardian=guardian.id, charge=hit["defender"], damage=amount)
    _hit_without_damage(ctx, hit, ctx.c(hit["defender"]), "shielded")
    damage.take(ctx, guardian, amount, f"{hit['name']} (body-shield)")
    if amount > 0:
        spell_power.meter(ctx, guardian, spell_power.METER_DAMAGED, "took damage")


def dodge(
    ctx: Ctx, defender: Combatant, attacker: Combatant | None, target: int, purpose: str | Words
) -> tuple[bool, Json | None]:
    """A dodge roll against danmaku or a spellcard: insight against ``target``.

    Returns (dodged, Lucky info for a single failed roll). A sober Drunken Master cannot dodge;
    drinking gives her up to four rolls, any success dodges. An unconscious, stunned or frozen
    combatant cannot dodge (ruling)."""
    rolls = drunk(defender).dodge_rolls
    if not can_act(defender) or rolls <= 0:
        ctx.emit("cannot_dodge", combatant=defender.id, purpose=purpose)
        return False, None
    value, dice, mods = stat_roll(defender, "ins", ctx.rules)
    mods = [
        *mods,
        ("Dodge bonuses", defender.profile.danmaku_dodge_bonus),
        ("Attacker (Homing)", attacker.profile.opponents_danmaku_dodge if attacker else 0),
    ]
    last: Any = None
    for _ in range(rolls):
        last = ctx.check(defender.id, purpose, dice, mods, target, stat="ins", value=value)
        if last.success:
            return True, None
    if rolls == 1:
        return False, {"who": defender.id, "kind": "check", "result": last.to_dict()}
    return False, None
