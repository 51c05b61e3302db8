"""Status effects: inflicting them with their saves, their turn-start rolls, and their timers.

Ruleset "Status Effects", with the rulings in docs/battle.md:

* Stun: a charisma save unless the source says it cannot be avoided; a stunned combatant
  loses her next N turns (stunned during her own turn, she also loses the rest of it).
* Blind: −6 to every to-hit roll (not standard danmaku); lasts what its source says.
* Fear: a will save; terrified, she makes a will check at each turn start: success ends it;
  a failure makes her flee (she may only move away from the source of her fear), a critical
  failure paralyses her for the turn, two failures in a row make her faint. Fear sobers her.
* Knockdown: a charisma save, or on her next turn she hits the ground: 2d damage and no
  actions (she still gains spell power); square effects skip her until her following turn.
* Knockback: one square straight away from the attacker, if that square is free.
* Freeze: no actions; a power roll at each turn start thaws her, after which she loses two
  more turns thawing (the turn of the roll is lost as well).
* Insanity: an insight roll at each turn start returns her to reality; on gaining it an
  insight roll decides whether she is also berserk for as long as she stays insane.
* Berserk: she must attack the nearest character, friend or foe (a die between equals); if
  also insane, a failed insight roll means she spends the turn on an inanimate object.
* Taunt: a failed will save means she must attack the Guardian on her next turn (or for the
  card's duration), or else move as close as she can.

Youkai Hardy adds +2 to every roll made to avoid or shake off a status effect. Dolls are
"not treated as alive and as such cannot be effected by status effects".
"""

from __future__ import annotations

from typing import Final

from westernroses.battle import damage, fog
from westernroses.battle.arena import knockback_square, manhattan
from westernroses.battle.context import Ctx
from westernroses.battle.state import Combatant, Effect, Json, Timer, peek, scan
from westernroses.battle.stats import hp_max, stat_roll, status_resistance, will
from westernroses.dice import DiceExpression
from westernroses.words import N_, Words

#: Status slugs a GM (or a card) can inflict; buffs have their own kinds.
STATUSES: Final = (
    "stun",
    "blind",
    "fear",
    "knockdown",
    "knockback",
    "freeze",
    "insanity",
    "berserk",
    "taunted",
    "unconscious",
)
NEGATIVE: Final = frozenset(STATUSES) | {"thawing", "returning"}
#: Knockdown: "taking 2d damage from the impact".
KNOCKDOWN_DAMAGE: Final = DiceExpression(2)
#: Freeze: "she loses her next 2 turns while she thaws" (+ the turn of the roll, ruling).
THAW_TURNS: Final = 2
#: Fear: "On two consecutive failures, the character faints".
FEAR_FAINT_AFTER: Final = 2
#: Unconsciousness: "unable to act for five full rounds. On your sixth turn ... roll".
UNCONSCIOUS_ROUNDS: Final = 5


def add(
    ctx: Ctx,
    c: Combatant,
    kind: str,
    label: str,
    *,
    source: str | None = None,
    data: Json | None = None,
    ends: Timer | None = None,
) -> Effect:
    effect = Effect(ctx.state.new_id("e"), kind, label, source, dict(data or {}), ends)
    c.effects.append(effect)
    ctx.emit(
        "effect_added",
        combatant=c.id,
        effect=effect.id,
        kind=kind,
        label=label,
        source=source,
        data=dict(effect.data),
        ends=None if ends is None else ends.to_dict(),
    )
    return effect


def remove(ctx: Ctx, c: Combatant, effect: Effect, reason: str) -> None:
    """End an effect, undoing what it changed (Sturdy's HP; the berserk insanity brought)."""
    if effect not in c.effects:
        return
    c.effects.remove(effect)
    ctx.emit("effect_ended", combatant=c.id, effect=effect.id, kind=effect.kind, reason=reason)
    if effect.kind == "stat" and effect.data.get("stat") == "hp_max" and c.hp > hp_max(c):
        c.hp = hp_max(c)
        ctx.emit("hp_capped", combatant=c.id, hp=c.hp)
    if effect.kind == "insanity":
        for other in list(c.effects):
            if other.kind == "berserk" and other.data.get("from_insanity"):
                remove(ctx, c, other, "no longer insane")
    if effect.kind == "unconscious":
        ctx.emit("woke", combatant=c.id, reason=reason)
        damage.stand_clear(ctx, c)


def remove_kind(ctx: Ctx, c: Combatant, kinds: frozenset[str] | set[str], reason: str) -> None:
    for effect in list(c.effects):
        if effect.kind in kinds:
            remove(ctx, c, effect, reason)


def clock(c: Combatant) -> str:
    """Whose turns count her timers: her own, or for a doll (who has no turns of her own) her
    controller's, during which she acts."""
    return c.owner if c.kind == "doll" and c.owner else c.id


def _own_turn(ctx: Ctx, c: Combatant) -> bool:
    return ctx.state.phase == "active" and ctx.state.current == clock(c)


def turns_timer(ctx: Ctx, c: Combatant, turns: int) -> Timer:
    """Ends at the end of ``c``'s turn, ``turns`` of her turns from now: "for the next N turns"
    does not count the current one when it is hers."""
    return Timer("end", clock(c), turns + int(_own_turn(ctx, c)))


def _save(ctx: Ctx, c: Combatant, stat_key: str, target_name: str, purpose: str | Words) -> bool:
    """A roll to avoid a status effect: the stat, drink, and Hardy."""
    value, dice, mods = stat_roll(c, stat_key, ctx.rules)
    result = ctx.check(
        c.id,
        purpose,
        dice,
        [*mods, *status_resistance(c)],
        ctx.target(target_name),
        stat=stat_key,
        value=value,
    )
    return bool(result.success)


def _will_save(ctx: Ctx, c: Combatant, purpose: str | Words) -> bool:
    dice, mods = will(c, ctx.rules)
    result = ctx.check(
        c.id, purpose, dice, [*mods, *status_resistance(c)], ctx.target("will"), stat="will"
    )
    return bool(result.success)


def stun(ctx: Ctx, c: Combatant, turns: int, source: str | None, *, save: bool) -> None:
    """ "the target must make a check against their charisma. If they fail, they become
    stunned" (``save``), or an unavoidable stun (Stay where you are!, Stay still!)."""
    if save and _save(ctx, c, "cha", "status_save", Words(N_("resist stun (charisma)"))):
        return
    count = turns + (1 if _own_turn(ctx, c) else 0)
    existing = c.effect("stun")
    if existing is not None and existing.ends is not None:
        existing.ends.count = max(existing.ends.count, count)
        ctx.emit("effect_extended", combatant=c.id, effect=existing.id, count=existing.ends.count)
    else:
        add(
            ctx,
            c,
            "stun",
            f"Stunned ({turns} turn)",
            source=source,
            ends=Timer("end", clock(c), count),
        )
    c.actions_left = 0  # a doll too loses what her controller gave her this turn


def inflict(
    ctx: Ctx,
    c: Combatant,
    kind: str,
    *,
    source: str | None = None,
    turns: int | None = None,
    save: bool = True,
    unavoidable_by_dolls: bool = False,
) -> None:
    """Inflict a status effect with the save the rules give it (``save=False``: no save)."""
    if not c.alive:
        return
    if c.kind == "doll" and not unavoidable_by_dolls:
        ctx.emit("immune", combatant=c.id, kind=kind, reason="dolls are not alive")
        return
    src = ctx.state.find(source) if source else None
    if kind == "stun":
        stun(ctx, c, turns or 1, source, save=save)
    elif kind == "blind":
        ends = None if turns is None else turns_timer(ctx, c, turns)
        add(ctx, c, "blind", "Blind", source=source, ends=ends)
    elif kind == "fear":
        if save and _will_save(ctx, c, Words(N_("resist fear (will)"))):
            return
        add(ctx, c, "fear", "Terrified", source=source, data={"fails": 0})
        if c.drunkenness != "sober":
            c.drunkenness = "sober"
            ctx.emit("drunkenness", combatant=c.id, level="sober", reason="fear")
    elif kind == "knockdown":
        if save and _save(ctx, c, "cha", "status_save", Words(N_("resist knockdown (charisma)"))):
            return
        add(ctx, c, "knockdown", "Knocked down", source=source)
    elif kind == "knockback":
        knockback(ctx, c, src)
    elif kind == "freeze":
        if not c.has("freeze"):
            add(ctx, c, "freeze", "Frozen", source=source)
            c.actions_left = 0
    elif kind == "insanity":
        if save and _will_save(ctx, c, Words(N_("resist insanity (will)"))):
            return
        if c.has("insanity"):
            return
        add(ctx, c, "insanity", "Insane", source=source)
        if not _save(ctx, c, "ins", "insight", Words(N_("insanity: berserk? (insight)"))):
            add(ctx, c, "berserk", "Berserk", source=source, data={"from_insanity": True})
    elif kind == "berserk":
        ends = None if turns is None else turns_timer(ctx, c, turns)
        add(ctx, c, "berserk", "Berserk", source=source, ends=ends)
    elif kind == "taunted":
        if save and _will_save(ctx, c, Words(N_("resist taunt (will)"))):
            return
        add(
            ctx,
            c,
            "taunted",
            "Taunted",
            source=source,
            data={"by": source},
            ends=turns_timer(ctx, c, turns or 1),
        )
    elif kind == "unconscious":
        damage.knock_out(ctx, c, "status effect")
    else:
        raise ValueError(f"unknown status effect {kind!r}")


def knockback(ctx: Ctx, c: Combatant, attacker: Combatant | None) -> None:
    """ "moved one space in a straight line away from the attacker" (if that square is free)."""
    if attacker is None or attacker.position is None or c.position is None:
        return
    to = knockback_square(attacker.position, c.position)
    taken = {o.position for o in ctx.state.combatants.values() if o.conscious and o.id != c.id}
    if to == c.position or not ctx.state.arena.open(to) or to in taken:
        ctx.emit("knockback_blocked", combatant=c.id, square=list(to))
        return
    ctx.emit("moved", combatant=c.id, frm=list(c.position), to=list(to), cost=0, reason="knockback")
    c.position = to


def tick(ctx: Ctx, cid: str, boundary: str) -> None:
    """A turn boundary of ``cid`` passed: count down every effect timed by it."""
    timed = []
    for o in scan(ctx.state.combatants):
        for e in o.effects:
            if _timed_by(e, cid, boundary):
                timed.append(o.id)
                break
    for oid in timed:  # taken by id: copied before her effects are counted down
        c = ctx.c(oid)
        for effect in list(c.effects):
            ends = effect.ends
            if ends is None or ends.of != cid or ends.boundary != boundary:
                continue
            ends.count -= 1
            if ends.count <= 0:
                remove(ctx, c, effect, f"{boundary} of {cid}'s turn")


def _timed_by(effect: Effect, cid: str, boundary: str) -> bool:
    ends = effect.ends
    return ends is not None and ends.of == cid and ends.boundary == boundary


def destroy_buffs(ctx: Ctx, c: Combatant, source: str) -> None:
    """Gohei: "successful attack destroys buffs" (every card-granted buff on the target)."""
    for effect in list(c.effects):
        if effect.kind in ("stat", "shield", "card"):
            remove(ctx, c, effect, f"destroyed by {source}'s gohei")


def start_of_turn(ctx: Ctx, c: Combatant) -> bool:
    """Status rolls at the start of her turn (after spell power); False: the turn is lost."""
    effect = c.effect("returning")
    if effect is not None:
        remove(ctx, c, effect, "back in the sky")
    knocked = c.effect("knockdown")
    if knocked is not None:
        remove(ctx, c, knocked, "hit the ground")
        rolled = ctx.damage(c.id, Words(N_("knockdown impact")), KNOCKDOWN_DAMAGE, [])
        amount, steps = damage.not_from_an_attack(c, rolled.total)
        if steps:
            ctx.emit("damage_reduced", combatant=c.id, raw=rolled.total, steps=steps)
        damage.take(ctx, c, amount, "knockdown")
        add(ctx, c, "returning", "Returning to the sky", data={})
        ctx.emit("turn_lost", combatant=c.id, reason="knocked down")
        return False
    if c.has("stun"):
        ctx.emit("turn_lost", combatant=c.id, reason="stunned")
        return False
    frozen = c.effect("freeze")
    if frozen is not None:
        if _save(ctx, c, "pwr", "thaw", Words(N_("thaw (power)"))):
            remove(ctx, c, frozen, "thawing")
            add(ctx, c, "thawing", "Thawing", ends=Timer("end", c.id, THAW_TURNS + 1))
        ctx.emit("turn_lost", combatant=c.id, reason="frozen")
        return False
    if c.has("thawing"):
        ctx.emit("turn_lost", combatant=c.id, reason="thawing")
        return False
    if not _fear(ctx, c):
        return False
    insane = c.effect("insanity")
    if insane is not None and _save(
        ctx, c, "ins", "insight", Words(N_("return to reality (insight)"))
    ):
        remove(ctx, c, insane, "returned to reality")
    return _berserk(ctx, c)


def _fear(ctx: Ctx, c: Combatant) -> bool:
    fear = c.effect("fear")
    if fear is None:
        return True
    dice, mods = will(c, ctx.rules)
    result = ctx.check(
        c.id,
        Words(N_("regain control (will)")),
        dice,
        [*mods, *status_resistance(c)],
        ctx.target("will"),
    )
    if result.success:
        remove(ctx, c, fear, "regained control")
        return True
    fails = int(fear.data.get("fails", 0)) + 1
    fear.data["fails"] = fails
    if fails >= FEAR_FAINT_AFTER:
        remove(ctx, c, fear, "fainted")
        damage.knock_out(ctx, c, "fear")
        return False
    if result.outcome is not None and result.outcome.value == "critical_failure":
        ctx.emit("turn_lost", combatant=c.id, reason="paralysed by fear")
        return False
    fear.data["fleeing"] = ctx.state.turn_number
    ctx.emit("fleeing", combatant=c.id, source=fear.source)
    return True


def fleeing(ctx: Ctx, c: Combatant) -> bool:
    """Whether a failed fear check this turn makes her run, "taking no other actions"."""
    fear = c.effect("fear")
    return fear is not None and fear.data.get("fleeing") == ctx.state.turn_number


def fleeing_from(ctx: Ctx, c: Combatant) -> Combatant | None:
    """The source she must run from this turn, if a failed fear check made her flee (None
    also when the source has left the battle: she still may only move or end her turn)."""
    fear = c.effect("fear")
    if not fleeing(ctx, c) or fear is None or not fear.source:
        return None
    return ctx.state.find(fear.source)


def _berserk(ctx: Ctx, c: Combatant) -> bool:
    rage = c.effect("berserk")
    if rage is None:
        return True
    rage.data.pop("target", None)
    if c.has("insanity") and not _save(
        ctx, c, "ins", "insight", Words(N_("berserk: whom to attack"))
    ):
        ctx.emit("turn_lost", combatant=c.id, reason="attacks an inanimate object")
        return False
    others = [
        o
        for o in ctx.state.combatants.values()
        if o.id != c.id
        and o.alive
        and o.position is not None
        and c.position is not None
        and not fog.unseen_by(ctx.state, c, o)  # a player's berserker rages at what she sees
    ]
    if not others or c.position is None:
        return True
    nearest = min(manhattan(c.position, o.position) for o in others if o.position is not None)
    ties = [
        o for o in others if o.position is not None and manhattan(c.position, o.position) == nearest
    ]
    chosen = (
        ties[0]
        if len(ties) == 1
        else ties[ctx.die(c.id, Words(N_("berserk: nearest tie")), len(ties)) - 1]
    )
    rage.data["target"] = chosen.id
    ctx.emit("berserk_target", combatant=c.id, target=chosen.id)
    return True


def forced_target(ctx: Ctx, c: Combatant) -> str | None:
    """Whom she must attack this turn: a berserk's nearest character, or the taunter (while
    that one is still alive and on the board)."""
    chosen = None
    rage = c.effect("berserk")
    taunt = c.effect("taunted")
    if rage is not None and rage.data.get("target"):
        chosen = str(rage.data["target"])
    elif taunt is not None and taunt.data.get("by"):
        chosen = str(taunt.data["by"])
    target = peek(ctx.state.combatants, chosen)  # read only
    if target is None or not target.alive or target.position is None:
        return None
    return chosen


def unconscious_turn(ctx: Ctx, c: Combatant) -> bool:
    """An unconscious combatant's turn: count it; from the sixth, roll charisma to wake.

    Drink-induced fainting lasts minutes (``rounds`` of one second each, "Turn Order"), or
    for the rest of the battle when plastered; it ends only by time or a Recover card."""
    out = c.effect("unconscious")
    if out is None:
        return True
    out.data["turns"] = int(out.data.get("turns", 0)) + 1
    turns = out.data["turns"]
    if out.data.get("cause") == "drink":
        rounds = out.data.get("rounds")
        if rounds is not None and turns > int(rounds):
            remove(ctx, c, out, "slept it off")
            return True
        ctx.emit("turn_lost", combatant=c.id, reason="unconscious")
        return False
    if turns <= UNCONSCIOUS_ROUNDS:
        ctx.emit("turn_lost", combatant=c.id, reason="unconscious", turns=turns)
        return False
    if _save(ctx, c, "cha", "wake", Words(N_("wake up (charisma)"))):
        remove(ctx, c, out, "woke up")
        return True
    ctx.emit("turn_lost", combatant=c.id, reason="unconscious", turns=turns)
    return False


#: Drink-induced fainting, in rounds of one second ("Turn Order": a round lasts a second):
#: drunk "for the next five minutes", heavily drunk "ten minutes", plastered until she
#: sobers (the rest of the battle: None).
FAINT_ROUNDS: Final = {"drunk": 300, "heavily_drunk": 600, "plastered": None}


def drink_up(ctx: Ctx, c: Combatant, reason: str) -> None:
    """Go up one level of drunkenness ("Drunk as I please", "Have a drink!"), then roll to stay
    conscious when drunk or worse ("Drinking", with Iron Blood and Kaze Sake)."""
    from westernroses.characters.drunkenness import TRACK, DrunkLevel, consciousness_check

    if not c.alive or c.kind == "doll":
        return
    level = DrunkLevel(c.drunkenness)
    new = TRACK[min(TRACK.index(level) + 1, len(TRACK) - 1)]
    c.drunkenness = new.value
    ctx.emit("drunkenness", combatant=c.id, level=new.value, reason=reason)
    needed = consciousness_check(new, c.profile.race)
    if not needed.required or not c.conscious:
        return
    if needed.automatic_success:
        ctx.emit("stays_conscious", combatant=c.id, reason="automatic (race)")
        return
    value, dice, mods = stat_roll(c, "cha", ctx.rules)
    result = ctx.check(
        c.id,
        Words(N_("stay conscious (charisma)")),
        dice,
        [("Drink", needed.modifier)],
        ctx.target("consciousness"),
        stat="cha",
        value=value,
    )
    del mods  # the consciousness modifier already includes the level's penalty
    if not result.success:
        damage.knock_out(ctx, c, "drink", FAINT_ROUNDS.get(new.value))
        out = c.effect("unconscious")
        if out is not None and FAINT_ROUNDS.get(new.value) is None:
            out.data["rounds"] = None
