"""The engine's entry points: ``legal_actions`` and ``apply``.

Actions are JSON objects with a ``type``, the ``player`` making them ("gm" or a user id), the
``combatant`` acting, optional ``at`` (a timestamp string the app passes; the engine never
reads a clock) and optional ``expected_version`` (refused when the state moved on, so a stale
click cannot act twice). Game actions:

* ``{"type": "start"}`` (GM, once): roll the turn order, the opening draw, round 1.
* ``do_nothing``, ``concentrate``, ``end_turn``.
* ``{"type": "move", "to": [x, y], "free": false}`` - ``free``: Fleet Hooves' extra move.
* ``{"type": "attack", "attack": slug, "target": id, "free": false, "goddess": false}`` -
  ``free``: Quick Strike; ``goddess``: a Shrine Maiden's goddess-element attack.
* ``{"type": "use_spellcard", "card": id, "targets": [[x, y], ...], "amount": n}``.
* ``{"type": "use_ability", "ability": slug, "target": [x, y] | null}``.
* ``{"type": "collect_power", "drop": id}``.
* ``{"type": "react", "hit": id, "choice": take|bomb|body_shield|pass|lucky|graze|no_graze|
  accept, "card": id}`` - the only actions while a hit waits for a decision.
* ``{"type": "recover_weapons"}`` - a winner, after the battle.
* GM overrides (``gm_*``, see ``overrides``), accepted at any time and logged like the rest.

``apply`` works on a clone, so it applies completely or raises :class:`IllegalAction` with
the state untouched. ``legal_actions`` lists what a player may do now, as action templates
with the choices to fill in (``reach``, ``targets``, ``target_squares``) and previews.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, Final

from westernroses.battle import (
    abilities,
    attacks,
    damage,
    end,
    fog,
    movement,
    overrides,
    reactions,
    spell_power,
    spellcasting,
    turn_order,
)
from westernroses.battle.arena import Arena, Square, square, squares_json
from westernroses.battle.context import Ctx
from westernroses.battle.errors import IllegalAction
from westernroses.battle.state import (
    AttackProfile,
    BattleState,
    Combatant,
    Json,
    WorkingCombatants,
    copy_json,
)
from westernroses.battle.stats import can_act
from westernroses.battle.status import fleeing, forced_target
from westernroses.house_rules import HouseRules
from westernroses.rng import NoDice, RandomSource

GM: Final = "gm"
TURN_ACTIONS: Final = (
    "do_nothing",
    "move",
    "attack",
    "concentrate",
    "use_spellcard",
    "use_ability",
    "collect_power",
    "end_turn",
)
#: "When choosing to take an action to control the dolls, every doll is given an action"
#: (ruling: a doll's action is a Move, an Attack or Do Nothing).
DOLL_ACTIONS: Final = ("do_nothing", "move", "attack")
#: Spellcards activated "during your turn, but activating it does not cost an action".
FREE_CARDS: Final = frozenset({"i_wanna_be_over_there"})


#: Where ``apply`` takes its dice from: the state's seeded source, read back from its dict.
#: A module variable, not a direct call, so that the rulebook tests can hand ``apply`` the dice
#: of a worked example (``tests/engine/battle/helpers.scripted``), compiled or not
#: (docs/native.md).
dice_from_state: Callable[[Json], RandomSource] = RandomSource.from_dict


def context(state: BattleState, player: str = GM, at: str | None = None) -> Ctx:
    return Ctx(state, dice_from_state(state.rng), house_rules(state), player, at)


_NO_DICE: Final = NoDice(0)


def read_context(state: BattleState, player: str = GM) -> Ctx:
    """A context for working out what ``state`` offers or shows (legal actions, open
    reactions, views), never for applying: its dice refuse to roll. Why: legal actions and
    views ask for a context many times per action, and rebuilding the random source from the
    state's dict each time was a fortieth of the engine's time."""
    return Ctx(state, _NO_DICE, house_rules(state), player)


def house_rules(state: BattleState) -> HouseRules:
    """The battle's house rules, parsed once per settings dict. The dict is fixed when the
    battle is created and shared by every state after (``BattleState.clone``), so it is
    remembered by identity (with the dict kept alongside, so a recycled id never matches)."""
    changed = state.house_rules
    hit = _RULES_OF.get(id(changed))
    if hit is not None and hit[0] is changed:
        return hit[1]
    rules = _rules(tuple(sorted(changed.items())))
    if len(_RULES_OF) >= _RULES_OF_LIMIT:
        _RULES_OF.clear()
    _RULES_OF[id(changed)] = (changed, rules)
    return rules


_RULES_OF: dict[int, tuple[dict[str, int], HouseRules]] = {}
_RULES_OF_LIMIT: Final = 256


def forget_house_rules() -> None:
    """Forget the parsed house rules (``caches.clear``)."""
    _RULES_OF.clear()
    _rules.cache_clear()


@functools.lru_cache(maxsize=64)
def _rules(changed: tuple[tuple[str, int], ...]) -> HouseRules:
    """House rules are read on every call; a campaign has few distinct sets, so cache them."""
    return HouseRules.from_dict(dict(changed))


def may_control(state: BattleState, player: str, c: Combatant) -> bool:
    """Players act for their own combatants; the GM for everyone (NPCs and overrides)."""
    return player == GM or c.controller == player


# --------------------------------------------------------------------------- apply


def apply(state: BattleState, action: Mapping[str, Any]) -> tuple[BattleState, list[Json]]:
    """Apply ``action`` to a copy of ``state``; returns the new state and its events."""
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
        raise IllegalAction("an action is an object with a type")
    player = action.get("player")
    if not isinstance(player, str) or not player:
        raise IllegalAction("an action names the player making it")
    expected = action.get("expected_version")
    if expected is not None and expected != state.version:
        raise IllegalAction(f"the battle has moved on (version {state.version}); reload it")
    at = action.get("at")
    if at is not None and not isinstance(at, str):
        raise IllegalAction("at must be a timestamp string")
    kind = action["type"]
    if kind == "gm_undo":
        if player != GM:
            raise IllegalAction("only the GM can undo")
        return overrides.undo(state, action)
    work = state.working_copy()
    ctx = context(work, player, at)
    _dispatch(ctx, kind, action)
    if work.phase == "active":
        turn_order.settle(ctx)
    if work.phase != "setup":
        damage.guardians_sync(ctx)
    return record(work, ctx, action)


def record(
    work: BattleState, ctx: Ctx, action: Mapping[str, Any]
) -> tuple[BattleState, list[Json]]:
    """Seal the work state: its random source, version and log entry. The events returned are
    the log entry's own (a new list of the same event dicts, not a deep copy): like states,
    events are values that nobody changes once written (the app stores them as JSON)."""
    if isinstance(work.combatants, WorkingCombatants):
        work.combatants = work.combatants.sealed()
    work.rng = ctx.rng.to_dict()
    work.version += 1
    fog.tag(work, ctx.events)
    work.log = (
        *work.log,
        {"n": work.version, "action": copy_json(dict(action)), "events": ctx.events},
    )
    work.memo = {}  # sealed: its legal actions are worked out once, when first asked
    return work, list(ctx.events)


def _dispatch(ctx: Ctx, kind: str, action: Mapping[str, Any]) -> None:
    state = ctx.state
    if kind.startswith("gm_"):
        if ctx.player != GM:
            raise IllegalAction("only the GM can do that")
        overrides.dispatch(ctx, kind, action)
        return
    if kind == "start":
        if ctx.player != GM:
            raise IllegalAction("only the GM starts the battle")
        start(ctx)
        return
    c = _actor(ctx, action)
    if kind == "recover_weapons":
        if not end.can_recover(ctx, c):
            raise IllegalAction(f"{c.name} has no weapons to recover")
        end.recover_weapons(ctx, c)
        return
    if state.phase != "active":
        raise IllegalAction("the battle is not running")
    if kind == "react":
        if state.pending and action.get("combatant") is None:
            raise IllegalAction("say which combatant reacts")
        reactions.react(ctx, dict(action))
        return
    if state.pending:
        raise IllegalAction("a hit is waiting for a reaction first")
    if kind not in TURN_ACTIONS:
        raise IllegalAction(f"unknown action {kind!r}")
    if _doll_acting(state, c):
        if kind not in DOLL_ACTIONS:
            raise IllegalAction("a doll can only move, attack or do nothing")
        if not can_act(c):
            raise IllegalAction(f"{c.name} cannot act")
        _TURN[kind](ctx, c, action)
        return
    if state.current != c.id:
        raise IllegalAction(f"it is not {c.name}'s turn")
    if kind == "end_turn":
        turn_order.end_turn(ctx)
        return
    if not can_act(c):
        raise IllegalAction(f"{c.name} cannot act")
    _TURN[kind](ctx, c, action)


def _actor(ctx: Ctx, action: Mapping[str, Any]) -> Combatant:
    cid = action.get("combatant")
    if not isinstance(cid, str) or cid not in ctx.state.combatants:
        raise IllegalAction("name an existing combatant")
    c = ctx.c(cid)
    if not may_control(ctx.state, ctx.player, c):
        raise IllegalAction(f"{ctx.player} does not control {c.name}")
    return c


def _doll_acting(state: BattleState, c: Combatant) -> bool:
    """A doll acts during her controller's turn, with the actions she was given."""
    return (
        c.kind == "doll" and c.owner is not None and c.owner == state.current and c.actions_left > 0
    )


def _spend(c: Combatant, free: bool) -> None:
    """Use one of her actions (unless the action is free)."""
    if free:
        return
    if c.actions_left < 1:
        raise IllegalAction(f"{c.name} has no actions left this turn")
    c.actions_left -= 1


def _sq(value: object, name: str) -> Square:
    try:
        return square(value)
    except ValueError as exc:
        raise IllegalAction(f"{name}: {exc}") from None


def _restricted(ctx: Ctx, c: Combatant) -> str | None:
    """'flee' or 'forced' when a status dictates what she may do this turn."""
    if not c.effects:  # fear, berserk and taunts are effects
        return None
    if fleeing(ctx, c):
        return "flee"
    if forced_target(ctx, c) is not None:
        return "forced"
    return None


def start(ctx: Ctx) -> None:
    """ "When a battle begins, any character that has no cards in her hoof immediately draws a
    card"; then the turn order (RULINGS 11) and round 1."""
    state = ctx.state
    if state.phase != "setup":
        raise IllegalAction("the battle has already started")
    if len(end.standing_sides(ctx)) < 2:
        raise IllegalAction("a battle needs combatants of at least two sides on the board")
    state.phase = "active"
    ctx.emit("battle_started", at=ctx.at)
    for c in state.combatants.values():
        if c.alive and not c.deck.hand and (c.deck.draw_pile or c.cards):
            spell_power.draw_cards(ctx, c, 1, "start of battle")
    state.order = turn_order.initiative(ctx)
    state.turn_index = -1
    state.round = 1
    ctx.emit("round_started", round=1)


def _do_nothing(ctx: Ctx, c: Combatant, action: Mapping[str, Any]) -> None:
    _spend(c, False)
    ctx.emit("did_nothing", combatant=c.id)


def _concentrate(ctx: Ctx, c: Combatant, action: Mapping[str, Any]) -> None:
    """ "You gain spell power equal to the amount you gained at the beginning of your turn."""
    if _restricted(ctx, c):
        raise IllegalAction(f"{c.name} cannot concentrate now")
    _spend(c, False)
    ctx.emit("concentrated", combatant=c.id)
    spell_power.change(ctx, c, c.sp_gained, "concentrate")
    spell_power.meter(ctx, c, spell_power.METER_CONCENTRATE, "concentrate")


def _move(ctx: Ctx, c: Combatant, action: Mapping[str, Any]) -> None:
    free = bool(action.get("free", False))
    if free and not _free_move(c):
        raise IllegalAction(f"{c.name} has no free move this turn")
    to = _sq(action.get("to"), "to")
    options = movement.reach_listed(ctx, c)[0]
    if to not in options:
        raise IllegalAction(f"{c.name} cannot reach {list(to)}")
    _spend(c, free)
    if free:
        c.turn_used["free_move"] = 1
    assert c.position is not None  # noqa: S101 - reach is empty off the board
    ctx.emit(
        "moved", combatant=c.id, frm=list(c.position), to=list(to), cost=options[to], free=free
    )
    c.position = to


def _free_move(c: Combatant) -> bool:
    """Fleet Hooves: "You may move for your full speed once per turn without taking an action.\""""
    return "fleet_hooves" in c.profile.traits and not c.turn_used.get("free_move")


def _quick_strike(c: Combatant) -> bool:
    """Quick Strike: "You may make an attack once per turn without taking an action.\""""
    return "quick_strike" in c.profile.traits and not c.turn_used.get("quick_strike")


def attack_targets(ctx: Ctx, c: Combatant, slug: str) -> list[str]:
    profile = c.profile.attack(slug)
    if profile is None:
        return []
    return _attack_targets(ctx, c, profile, _restricted(ctx, c))


def _attack_targets(
    ctx: Ctx,
    c: Combatant,
    profile: AttackProfile,
    mode: str | None,
    near: list[tuple[str, int]] | None = None,
) -> list[str]:
    """:func:`attack_targets` with her attack, :func:`_restricted` and, optionally, her
    distances to everyone (``attacks.distances``) known: legal actions ask for every attack
    of hers."""
    if mode == "flee":
        return []
    found = attacks.targets(ctx, c, profile, near)
    if ctx.state.arena.fog:  # nobody is unseen on an arena without fog
        combatants = ctx.state.combatants  # read without copying (``state.scan``)
        found = [
            t for t in found if not fog.unseen_by(ctx.state, c, dict.__getitem__(combatants, t))
        ]
    if mode == "forced":
        forced = forced_target(ctx, c)
        return [t for t in found if t == forced]
    return found


def _attack(ctx: Ctx, c: Combatant, action: Mapping[str, Any]) -> None:
    free = bool(action.get("free", False))
    if free and not _quick_strike(c):
        raise IllegalAction(f"{c.name} has no Quick Strike left this turn")
    slug = action.get("attack")
    profile = c.profile.attack(slug) if isinstance(slug, str) else None
    if profile is None:
        raise IllegalAction(f"{c.name} has no attack {slug!r}")
    target = action.get("target")
    if target not in attack_targets(ctx, c, profile.slug):
        raise IllegalAction("that target is not within range of this attack")
    goddess = bool(action.get("goddess", False))
    if goddess and not _goddess(c):
        raise IllegalAction(f"{c.name} has no goddess to call on")
    _spend(c, free)
    if free:
        c.turn_used["quick_strike"] = 1
    attacks.basic_attack(ctx, c, profile, ctx.c(str(target)), goddess=goddess)


def _goddess(c: Combatant) -> bool:
    """Shrine Maiden: "declare any of her basic attacks ... to be of the element of her
    goddess"."""
    return "shrine_maiden" in c.profile.traits and bool(c.profile.goddess_element)


def _use_spellcard(ctx: Ctx, c: Combatant, action: Mapping[str, Any]) -> None:
    if _restricted(ctx, c):
        raise IllegalAction(f"{c.name} cannot use spellcards now")
    card_id = action.get("card")
    if not isinstance(card_id, str):
        raise IllegalAction("name a card")
    raw = action.get("targets") or []
    if not isinstance(raw, list):
        raise IllegalAction("targets is a list of squares")
    given = [_sq(t, "targets") for t in raw]
    found = spellcasting.castable(ctx, c, card_id)
    if isinstance(found, str):
        raise IllegalAction(found)
    free = bool(spellcasting.slugs(found[0]) & FREE_CARDS)
    _spend(c, free)
    amount = action.get("amount")
    spellcasting.cast(ctx, c, card_id, given, amount if isinstance(amount, int) else None)
    second = action.get("second")
    if second is not None:
        _second_card(ctx, c, second, free)


def _second_card(ctx: Ctx, c: Combatant, second: object, first_free: bool) -> None:
    """Librarian: "librarians may activate two spellcards in the same turn with a single
    action" - the second card rides on the first one's action (``second``: card, targets,
    amount)."""
    if "librarian" not in c.profile.traits:
        raise IllegalAction("only a Librarian activates two spellcards with one action")
    if first_free or not isinstance(second, Mapping):
        raise IllegalAction("second is a card (with targets) cast with the first one's action")
    if c.turn_used.get("second_card"):
        raise IllegalAction("she has already cast two cards with one action this turn")
    card_id = second.get("card")
    raw = second.get("targets") or []
    if not isinstance(card_id, str) or not isinstance(raw, list):
        raise IllegalAction("second needs a card and a list of target squares")
    c.turn_used["second_card"] = 1
    amount = second.get("amount")
    given = [_sq(t, "second.targets") for t in raw]
    spellcasting.cast(ctx, c, card_id, given, amount if isinstance(amount, int) else None)


def _use_ability(ctx: Ctx, c: Combatant, action: Mapping[str, Any]) -> None:
    if _restricted(ctx, c):
        raise IllegalAction(f"{c.name} cannot use abilities now")
    slug = action.get("ability")
    raw = action.get("target")
    target = None if raw is None else _sq(raw, "target")
    rule = abilities.ABILITIES.get(str(slug))
    _spend(c, rule is not None and rule.free)
    abilities.use(ctx, c, str(slug), target)


def _collect(ctx: Ctx, c: Combatant, action: Mapping[str, Any]) -> None:
    drop_id = action.get("drop")
    if not any(d.id == drop_id for d, _ in spell_power.collectable(ctx, c)):
        raise IllegalAction(f"{c.name} cannot collect that power")
    _spend(c, False)
    spell_power.collect(ctx, c, str(drop_id))


_TURN: Final = {
    "do_nothing": _do_nothing,
    "move": _move,
    "attack": _attack,
    "concentrate": _concentrate,
    "use_spellcard": _use_spellcard,
    "use_ability": _use_ability,
    "collect_power": _collect,
}


# --------------------------------------------------------------------------- legal actions


def legal_actions(state: BattleState, player: str) -> list[Json]:
    """What ``player`` may do now: action templates with the choices to fill in.

    * while a hit waits: that hit's ``react`` options for the player's combatants;
    * in a turn: the current combatant's actions, if the player controls her;
    * after the battle: ``recover_weapons`` for winners who threw weapons.
    GM overrides are always open to the GM and are not listed (see ``overrides.OVERRIDES``).

    Worked out once per version and player for the states ``apply`` returns
    (:meth:`BattleState.remember`): the list is shared, so read it, never change it.
    """
    return state.remember(("legal_actions", player), lambda: _legal_actions(state, player))


def _legal_actions(state: BattleState, player: str) -> list[Json]:
    ctx = read_context(state, player)
    if state.phase == "setup":
        # offered only when ``start`` would take it: two sides on the board
        ready = player == GM and len(end.standing_sides(ctx)) >= 2
        return [{"type": "start", "player": GM}] if ready else []
    if state.phase == "ended":
        return [
            {"type": "recover_weapons", "combatant": c.id}
            for c in state.combatants.values()
            if may_control(state, player, c) and end.can_recover(ctx, c)
        ]
    if state.pending:
        return [
            o
            for o in reactions.open_choices(ctx)
            if may_control(state, player, ctx.c(o["combatant"]))
        ]
    if state.current is None:
        return []
    c = ctx.c(state.current)
    if not may_control(state, player, c):
        return []
    out = turn_options(ctx, c)
    for d in state.combatants.values():
        if d.kind == "doll" and _doll_acting(state, d) and can_act(d):
            out += doll_options(ctx, d)
    return out


def doll_options(ctx: Ctx, doll: Combatant) -> list[Json]:
    """A doll with actions to spend: Move, Attack or Do Nothing (ruling)."""
    return [o for o in turn_options(ctx, doll) if o["type"] in DOLL_ACTIONS and not o.get("free")]


def turn_options(ctx: Ctx, c: Combatant) -> list[Json]:
    out: list[Json] = []
    cid = c.id
    if not can_act(c):
        return [{"type": "end_turn", "combatant": cid}]
    acting = c.actions_left > 0
    mode = _restricted(ctx, c)
    if acting and mode is None:
        out.append({"type": "do_nothing", "combatant": cid})
    reach, squares = movement.reach_listed(ctx, c)
    if reach and acting:
        out.append({"type": "move", "combatant": cid, "free": False, "reach": squares})
    if reach and _free_move(c):
        out.append({"type": "move", "combatant": cid, "free": True, "reach": squares})
    quick = bool(c.profile.attacks) and _quick_strike(c)
    if c.profile.attacks and (acting or quick):
        goddess = [False, True] if _goddess(c) else [False]
        near = attacks.distances(ctx, c)
        for profile in c.profile.attacks:
            found = _attack_targets(ctx, c, profile, mode, near)
            if not found:
                continue
            for free in (False, True):
                if (free and quick) or (not free and acting):
                    out.append(
                        {
                            "type": "attack",
                            "combatant": cid,
                            "attack": profile.slug,
                            "name": profile.name,
                            "kind": profile.kind,
                            "free": free,
                            "range": attacks.reach(ctx, c, profile),
                            "targets": found,
                            "goddess": goddess,
                        }
                    )
    if acting and mode is None:
        out.append({"type": "concentrate", "combatant": cid})
    if mode is None:
        if c.deck.hand:
            out += _card_options(ctx, c, acting)
        out += _ability_options(ctx, c, acting)
    if acting and ctx.state.drops:
        out += [
            {"type": "collect_power", "combatant": cid, "drop": d.id, "amount": amount}
            for d, amount in spell_power.collectable(ctx, c)
        ]
    out.append({"type": "end_turn", "combatant": cid})
    return out


def _card_options(ctx: Ctx, c: Combatant, acting: bool) -> list[Json]:
    out = []
    for card_id in sorted(set(c.deck.hand)):
        found = spellcasting.castable_aimed(ctx, c, card_id)
        if isinstance(found, str):
            continue
        card, cost, aim = found
        free = bool(spellcasting.slugs(card) & FREE_CARDS)
        if not (free or acting):
            continue
        count, squares = _candidates_json(ctx, c, aim)
        if aim["count"] and count < aim["count"]:
            continue
        option: Json = {
            "type": "use_spellcard",
            "combatant": c.id,
            "card": card_id,
            "name": card.name,
            "cost": cost,
            "free": free,
            "second_card": "librarian" in c.profile.traits
            and not free
            and not c.turn_used.get("second_card"),
            "targeting": aim,
            "target_squares": squares,
            "area": _area_json(aim["aoe"]),
            "amount": None,
        }
        if spellcasting.slugs(card) & {"soul_transfer", "power_transfer"}:
            low, high = spellcasting.amount_range(c, card, cost)
            if high < low:
                continue
            option["amount"] = {"min": low, "max": high}
        out.append(option)
    return out


def _candidates_json(ctx: Ctx, c: Combatant, aim: Json) -> tuple[int, list[list[int]]]:
    """How many squares a card may aim at, and their JSON (shared, read only). A card aimed
    at squares, by a piece fog does not hold back, may aim at the open area around her:
    remembered per position and range rather than per list of squares (no list to build and
    hash on every call)."""
    if aim["mode"] == "squares" and c.position is not None and not fog.blocks(ctx.state, c):
        return _open_area_json(ctx.state.arena, c.position, aim["range"])
    found = spellcasting.candidate_squares(ctx, c, aim)
    return len(found), shared_squares_json(tuple(found))


@functools.lru_cache(maxsize=4096)
def _open_area_json(arena: Arena, centre: Square, radius: int) -> tuple[int, list[list[int]]]:
    """``spellcasting.candidate_squares`` of a card aimed at squares, without fog."""
    squares = arena.open_area(centre, radius)
    return len(squares), shared_squares_json(tuple(squares))


@functools.lru_cache(maxsize=4096)
def shared_squares_json(squares: tuple[Square, ...]) -> list[list[int]]:
    """:func:`squares_json`, remembered per set of squares: a card's candidates are most often
    the open area around the caster (``Arena.open_area``, itself remembered per position), so
    the same sorted list of 20 to 60 pairs was rebuilt for every card in hand on every call.
    Shared between legal-action lists, which are values: read it, never change it."""
    return squares_json(squares)


@functools.lru_cache(maxsize=16)
def _area_json(radius: int) -> list[list[int]]:
    """The AOE shape's JSON per radius (shared, like :func:`shared_squares_json`)."""
    return squares_json(_offsets(radius))


def _offsets(radius: int) -> list[Square]:
    """The AOE shape around a target square, as offsets (RULINGS 9), for a UI to draw."""
    return [
        (dx, dy)
        for dx in range(-radius, radius + 1)
        for dy in range(-(radius - abs(dx)), radius - abs(dx) + 1)
    ]


def _ability_options(ctx: Ctx, c: Combatant, acting: bool) -> list[Json]:
    out = []
    for rule in abilities.available(ctx, c):
        if not (rule.free or acting):
            continue
        squares = abilities.target_squares(ctx, c, rule)
        if rule.target != "none" and not squares:
            continue
        out.append(
            {
                "type": "use_ability",
                "combatant": c.id,
                "ability": rule.slug,
                "name": rule.name,
                "free": rule.free,
                "target_squares": squares_json(squares) if rule.target != "none" else None,
            }
        )
    return out
