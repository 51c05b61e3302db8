"""GM overrides: actions only the GM may take, at any time, logged like every other action.

* ``gm_adjust`` ``{combatant, hp?, spell_power?, meter?}`` - add (or take, if negative) HP,
  spell power or meter points. Lost HP goes through the usual thresholds (mortal wounds,
  death); HP given to a dead combatant that brings her to 0 or more revives her. HP may be
  taken down to −100 (utter destruction) and no further, and at most her maximum HP + 100
  given at once: a larger number is a typo, refused.
* ``gm_add_status`` ``{combatant, status, turns?, save?, source?}`` - inflict a status
  effect; with ``save`` the rules' saving roll is made, without it the effect simply lands.
  Fear needs a ``source`` (someone else): the one she must run from.
* ``gm_remove_status`` ``{combatant, effect? | status?}`` - remove one effect or a kind.
* ``gm_set_drunkenness`` ``{combatant, level}``.
* ``gm_move`` ``{combatant, to: [x, y] | null}`` - place a piece anywhere open (null: off the
  board).
* ``gm_set_target`` ``{name, target: number | null}`` - change a target number for the rest
  of the battle (null: back to the default); names in ``context.DEFAULT_TARGETS``.
* ``gm_add_combatant`` ``{combatant: Combatant JSON}`` / ``gm_remove_combatant``.
* ``gm_end_battle`` ``{winner: side | null}``.
* ``gm_fog`` / ``gm_reveal`` ``{from: [x, y], to: [x, y]}`` - fog or clear every square of
  the rectangle between two corners (fog of war, ``fog``: whoever stands in fog is out of the
  players' views). Allowed in setup too, so a GM hides her ambush before anyone looks.
* ``gm_show`` ``{combatant, shown: true | false}`` - show a combatant who is off the board to
  the players, or hide her again (off the board and not shown she is out of their views, like
  a piece in fog: ``fog``). Allowed in setup and after the end too.
* ``gm_undo`` - replay the log without the last action still standing (``replay``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from westernroses.battle import creation, damage, end, fog, spell_power, status, turn_order
from westernroses.battle.arena import square
from westernroses.battle.context import DEFAULT_TARGETS, Ctx
from westernroses.battle.errors import IllegalAction
from westernroses.battle.state import BattleState, Combatant, Json, copy_json
from westernroses.battle.stats import hp_max
from westernroses.characters.drunkenness import DrunkLevel

#: Statuses that mean nothing without a source: the GM must name one.
SOURCED: Final = frozenset({"fear"})

OVERRIDES: Final = (
    "gm_adjust",
    "gm_add_status",
    "gm_remove_status",
    "gm_set_drunkenness",
    "gm_move",
    "gm_set_target",
    "gm_add_combatant",
    "gm_remove_combatant",
    "gm_end_battle",
    "gm_fog",
    "gm_reveal",
    "gm_show",
    "gm_undo",
)


def _int(action: Mapping[str, Any], key: str, default: int | None = None) -> int | None:
    value = action.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalAction(f"{key} must be a whole number")
    return value


def _who(ctx: Ctx, action: Mapping[str, Any]) -> Combatant:
    cid = action.get("combatant")
    if not isinstance(cid, str) or cid not in ctx.state.combatants:
        raise IllegalAction("name an existing combatant")
    return ctx.c(cid)


def dispatch(ctx: Ctx, kind: str, action: Mapping[str, Any]) -> None:
    handler = _HANDLERS.get(kind)
    if handler is None:
        raise IllegalAction(f"unknown GM action {kind!r}")
    after_end = ("gm_adjust", "gm_move", "gm_fog", "gm_reveal", "gm_show")
    if ctx.state.phase == "ended" and kind not in after_end:
        raise IllegalAction("the battle is over")
    ctx.emit("gm_override", action=kind)
    handler(ctx, action)


def _adjust(ctx: Ctx, action: Mapping[str, Any]) -> None:
    c = _who(ctx, action)
    hp = _int(action, "hp")
    sp = _int(action, "spell_power")
    meter = _int(action, "meter")
    if hp is None and sp is None and meter is None:
        raise IllegalAction("adjust hp, spell_power or meter")
    if hp:
        _check_hp_change(c, hp)
        before = c.hp
        if hp < 0:
            damage.lose_hp(ctx, c, -hp, "GM")
        else:
            c.hp = min(c.hp + hp, hp_max(c))
            ctx.emit("heal", combatant=c.id, amount=c.hp - before, cause="GM", hp=c.hp)
            if not c.alive and c.hp >= 0:
                c.life = "alive"
                ctx.emit("revived", combatant=c.id, hp=c.hp)
                damage.stand_clear(ctx, c)
            else:
                damage.after_change(ctx, c, before, "GM")
    if sp:
        spell_power.change(ctx, c, sp, "GM")
    if meter:
        if meter > 0:
            spell_power.meter(ctx, c, meter, "GM")
        else:
            c.meter = max(c.meter + meter, 0)
            ctx.emit("meter", combatant=c.id, reason="GM", points=meter, total=c.meter, cards=0)


def _check_hp_change(c: Combatant, hp: int) -> None:
    """The bound on a GM's HP change (docs/battle.md, "Actions"): HP taken may bring her down to
    utter destruction at −100 and no further; HP given may be at most what brings her from −100
    back to her maximum. Anything larger is a typo, refused before it kills anyone."""
    top = hp_max(c)
    if hp < 0 and c.hp <= damage.DESTROYED_AT:
        raise IllegalAction(f"{c.name} is utterly destroyed ({c.hp} HP): there is no HP to take")
    if hp < 0 and c.hp + hp < damage.DESTROYED_AT:
        raise IllegalAction(
            f"{c.name} has {c.hp} HP: take at most {c.hp - damage.DESTROYED_AT} "
            f"(down to {damage.DESTROYED_AT}, utter destruction)"
        )
    if hp > top - damage.DESTROYED_AT:
        raise IllegalAction(
            f"give at most {top - damage.DESTROYED_AT} HP "
            f"(from {damage.DESTROYED_AT} back to {c.name}'s maximum of {top})"
        )


def _add_status(ctx: Ctx, action: Mapping[str, Any]) -> None:
    c = _who(ctx, action)
    kind = action.get("status")
    if kind not in status.STATUSES:
        raise IllegalAction(f"status must be one of {', '.join(status.STATUSES)}")
    turns = _int(action, "turns")
    if turns is not None and turns < 1:
        raise IllegalAction("turns must be at least 1")
    source = action.get("source")
    if source is not None and source not in ctx.state.combatants:
        raise IllegalAction("source must be a combatant")
    if kind in SOURCED and (source is None or source == c.id):
        # Fear: "run as far as she can from the source of her fear" - without one she
        # would act freely (issue 9); taunt and berserk have their own target.
        raise IllegalAction(f"say who {c.name} is afraid of (the source of her fear)")
    status.inflict(
        ctx,
        c,
        str(kind),
        source=source,
        turns=turns,
        save=bool(action.get("save", False)),
        unavoidable_by_dolls=True,
    )


def _remove_status(ctx: Ctx, action: Mapping[str, Any]) -> None:
    c = _who(ctx, action)
    effect_id = action.get("effect")
    kind = action.get("status")
    found = [e for e in c.effects if e.id == effect_id or (kind is not None and e.kind == kind)]
    if not found:
        raise IllegalAction(f"{c.name} has no such effect")
    for effect in found:
        status.remove(ctx, c, effect, "GM")


def _drunkenness(ctx: Ctx, action: Mapping[str, Any]) -> None:
    c = _who(ctx, action)
    level = action.get("level")
    if level not in [lv.value for lv in DrunkLevel]:
        raise IllegalAction("level must be a drunkenness level")
    c.drunkenness = str(level)
    ctx.emit("drunkenness", combatant=c.id, level=level, reason="GM")


def _move(ctx: Ctx, action: Mapping[str, Any]) -> None:
    c = _who(ctx, action)
    raw = action.get("to")
    if raw is None:
        ctx.emit("moved", combatant=c.id, frm=_pos(c), to=None, reason="GM")
        c.position = None
        return
    try:
        to = square(raw)
    except ValueError as exc:
        raise IllegalAction(str(exc)) from None
    if not ctx.state.arena.open(to):
        raise IllegalAction(f"{list(to)} is not an open square")
    if any(
        o.id != c.id and o.conscious and o.position == to for o in ctx.state.combatants.values()
    ):
        raise IllegalAction(f"someone already stands on {list(to)}")
    ctx.emit("moved", combatant=c.id, frm=_pos(c), to=list(to), reason="GM")
    c.position = to
    if ctx.state.phase == "active" and c.id not in ctx.state.order and c.kind != "doll":
        turn_order.insert(ctx, c)


def _pos(c: Combatant) -> list[int] | None:
    return None if c.position is None else list(c.position)


def _set_target(ctx: Ctx, action: Mapping[str, Any]) -> None:
    name = action.get("name")
    if name not in DEFAULT_TARGETS:
        raise IllegalAction(f"name must be one of {', '.join(DEFAULT_TARGETS)}")
    value = _int(action, "target")
    if value is None:
        ctx.state.targets.pop(str(name), None)
    else:
        ctx.state.targets[str(name)] = value
    ctx.emit("target_set", name=name, target=ctx.target(str(name)))


def _add_combatant(ctx: Ctx, action: Mapping[str, Any]) -> None:
    data = action.get("combatant")
    if not isinstance(data, Mapping):
        raise IllegalAction("combatant must be a combatant object")
    try:
        c = Combatant.from_dict(copy_json(dict(data)))
        creation.check_placement(ctx.state, c)
    except (KeyError, TypeError, ValueError) as exc:
        raise IllegalAction(f"not a valid combatant: {exc}") from None
    creation.number_duplicate(ctx.state.combatants.values(), c)
    creation.prepare(c, ctx.rng, ctx.rules)
    ctx.state.combatants[c.id] = c
    creation.add_dolls(ctx.state, c)
    ctx.emit("combatant_added", combatant=c.id, name=c.name, side=c.side)
    if ctx.state.phase == "active" and c.position is not None and c.kind != "doll":
        turn_order.insert(ctx, c)


def _remove_combatant(ctx: Ctx, action: Mapping[str, Any]) -> None:
    c = _who(ctx, action)
    state = ctx.state
    if state.current == c.id:
        turn_order.end_turn(ctx)
    if c.id in state.order:
        index = state.order.index(c.id)
        state.order.remove(c.id)
        if index <= state.turn_index:
            state.turn_index -= 1
    state.pending = [h for h in state.pending if c.id not in (h["attacker"], h["defender"])]
    state.field_effects = [
        f for f in state.field_effects if f.caster != c.id and c.id not in f.follows
    ]
    for other in state.combatants.values():
        other.effects = [e for e in other.effects if e.ends is None or e.ends.of != c.id]
    for d in state.drops:
        d.eligible = tuple(e for e in d.eligible if e != c.id)
    state.drops = [d for d in state.drops if d.eligible]
    del state.combatants[c.id]
    ctx.emit("combatant_removed", combatant=c.id)


def _end_battle(ctx: Ctx, action: Mapping[str, Any]) -> None:
    winner = action.get("winner")
    sides = {c.side for c in ctx.state.combatants.values()}
    if winner is not None and winner not in sides:
        raise IllegalAction(f"winner must be one of the sides: {', '.join(sorted(sides))}")
    if ctx.state.phase == "setup":
        ctx.state.phase = "active"
    end.finish(ctx, None if winner is None else str(winner), "ended by the GM")


def _fog(ctx: Ctx, action: Mapping[str, Any], *, fogged: bool) -> None:
    arena, area = fog.changed_arena(ctx.state.arena, action, fogged=fogged)
    ctx.state.arena = arena
    ctx.emit(
        "fog_changed",
        fogged=fogged,
        frm=list(min(area)),
        to=list(max(area)),
        squares=len(area),
    )


def _fog_add(ctx: Ctx, action: Mapping[str, Any]) -> None:
    _fog(ctx, action, fogged=True)


def _fog_clear(ctx: Ctx, action: Mapping[str, Any]) -> None:
    _fog(ctx, action, fogged=False)


def _show(ctx: Ctx, action: Mapping[str, Any]) -> None:
    c = _who(ctx, action)
    shown = action.get("shown")
    if not isinstance(shown, bool):
        raise IllegalAction("shown must be true or false")
    c.shown = shown
    ctx.emit("shown" if shown else "unshown", combatant=c.id)


_HANDLERS: Final = {
    "gm_fog": _fog_add,
    "gm_reveal": _fog_clear,
    "gm_show": _show,
    "gm_adjust": _adjust,
    "gm_add_status": _add_status,
    "gm_remove_status": _remove_status,
    "gm_set_drunkenness": _drunkenness,
    "gm_move": _move,
    "gm_set_target": _set_target,
    "gm_add_combatant": _add_combatant,
    "gm_remove_combatant": _remove_combatant,
    "gm_end_battle": _end_battle,
}


def undo(state: BattleState, action: Mapping[str, Any]) -> tuple[BattleState, list[Json]]:
    """Rebuild the state without the last action still standing; log the undo itself."""
    from westernroses.battle.replay import effective_actions, from_snapshot, replay

    if state.initial is None:
        raise IllegalAction("this battle has no initial snapshot to undo from")
    standing = effective_actions(entry["action"] for entry in state.log)
    if not standing:
        raise IllegalAction("there is nothing to undo")
    rebuilt = replay(from_snapshot(state.initial), standing[:-1], check_versions=False)
    events: list[Json] = [{"type": "undone", "action": copy_json(standing[-1])}]
    rebuilt.version = state.version + 1
    rebuilt.log = (
        *state.log,
        {"n": rebuilt.version, "action": copy_json(dict(action)), "events": events},
    )
    return rebuilt, copy_json(events)
