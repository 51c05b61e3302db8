"""What one player may see of a battle (the only function that serialises state for clients).

* Everyone sees the board, every combatant's HP, spell power, meter, drunkenness and effects,
  the turn tracker, lasting card effects, dropped power and the log.
* Hands are seen only by their owner's controller and the GM; draw piles are face down for
  everyone (counts only). Cards already used (the discard pile) are public.
* The random source's seed is never shown, not even to the GM and not after the end (anyone
  holding it could predict every roll, and a replay or a log copied later must not carry it):
  ``seed`` is stripped from every logged roll and ``rng`` is always ``None``. Players are not
  shown a roll's place in the random stream while the battle runs either: it counts the dice
  rolled in the fog.
* Log events may mark fields ``private`` to their combatant (the cards a draw gave her).
* Logged actions are shown as their player may see them: a reinforcement's full combatant
  (hand, draw pile, card designs, attacks) only to the GM, everyone else sees who joined,
  on which side and where (:func:`public_action`); an undo's copy of the action it undid is
  filtered the same way.
* A hit waiting for a decision is shown to all; its options (which may reveal bombs in hand)
  only to the player who decides, through ``legal_actions``.
* Fog of war (:mod:`westernroses.battle.fog`): a combatant on a fogged square is absent from
  every player's view but her controller's, and so are the log events that would show her.
"""

from __future__ import annotations

from typing import Any

from westernroses.battle import fog
from westernroses.battle.actions import GM, legal_actions, may_control, read_context
from westernroses.battle.arena import squares_json
from westernroses.battle.odds import roll_odds, versus_event_odds, with_odds
from westernroses.battle.state import BattleState, Combatant, Json, copy_json
from westernroses.battle.stats import hp_max, mortally_wounded, options, reach_stat, speed
from westernroses.house_rules import HouseRules

SEED_KEYS = frozenset({"seed"})
#: A roll's place in the random stream (``sequence_start``, a die's ``sequence``) counts every
#: die rolled before it, those rolled in the fog included, so a player is shown it only once
#: the battle is over (with the seed, when it serves to verify the rolls).
POSITION_KEYS = frozenset({"seed", "sequence_start", "sequence"})


def _strip_seeds(value: Any, keys: frozenset[str] = SEED_KEYS) -> Any:
    if isinstance(value, dict):
        return {k: _strip_seeds(v, keys) for k, v in value.items() if k not in keys}
    if isinstance(value, list | tuple):
        return [_strip_seeds(v, keys) for v in value]
    return value


def condition(c: Combatant) -> str:
    if not c.alive:
        return "incapacitated" if c.kind == "doll" and c.life == "dead" else c.life
    if c.has("unconscious"):
        return "unconscious"
    if mortally_wounded(c):
        return "mortally_wounded"
    return "healthy"


def _combatant(state: BattleState, player: str, c: Combatant) -> Json:
    ctx = read_context(state, player)
    private = may_control(state, player, c)
    visible_cards = set(c.deck.discard) | (set(c.deck.hand) if private else set())
    return {
        "id": c.id,
        "name": c.name,
        "kind": c.kind,
        "side": c.side,
        "controller": c.controller,
        "owner": c.owner,
        "position": None if c.position is None else list(c.position),
        "condition": condition(c),
        "hp": c.hp,
        "hp_max": hp_max(c),
        "spell_power": c.spell_power,
        "options": options(c, ctx.rules),
        "meter": c.meter,
        "drunkenness": c.drunkenness,
        "speed": speed(c),
        "range": reach_stat(c),
        "element": c.profile.element,
        "traits": list(c.profile.traits),
        "effects": [e.to_dict() for e in c.effects],
        "actions_left": c.actions_left,
        "ammo": dict(c.ammo),
        "hand_count": len(c.deck.hand),
        "draw_pile_count": len(c.deck.draw_pile),
        "discard": list(c.deck.discard),
        "hand": list(c.deck.hand) if private else None,
        "cards": {k: copy_json(v) for k, v in c.cards.items() if k in visible_cards},
        "attacks": [a.to_dict() for a in c.profile.attacks] if private else None,
    }


#: What everyone may know of a combatant the GM adds: the rest (deck, hand, card designs,
#: attacks, profile) is hers and the GM's. Her public numbers are in every view anyway.
PUBLIC_COMBATANT_FIELDS = ("id", "name", "kind", "side", "controller", "owner", "position")


def public_action(player: str, action: Json) -> Json:
    """A logged action as ``player`` may see it. Actions that carry private data are the GM's
    (``gm_add_combatant`` holds the newcomer's whole deck): for anyone but the GM they keep
    only the public fields. Seeds are stripped for everyone."""
    shown: Json = _strip_seeds(action)
    if player == GM:
        return shown
    data = shown.get("combatant")
    if shown.get("type") == "gm_add_combatant" and isinstance(data, dict):
        shown["combatant"] = {k: data[k] for k in PUBLIC_COMBATANT_FIELDS if k in data}
    return shown


def _event(state: BattleState, player: str, event: Json, rules: HouseRules | None = None) -> Json:
    hidden = event.get("private")
    owner = state.find(str(event.get("combatant", "")))
    running = state.phase != "ended"
    shown: Json = _strip_seeds(event, POSITION_KEYS if running and player != GM else SEED_KEYS)
    if isinstance(shown.get("action"), dict):  # ``undone`` carries the action it undid
        shown["action"] = public_action(player, shown["action"])
    if hidden and not (player == GM or (owner is not None and owner.controller == player)):
        shown = {k: v for k, v in shown.items() if k not in hidden}
    shown.pop("private", None)
    if shown.get("type") == "roll":  # the odds the roller faced, for the table log
        shown["odds"] = roll_odds(shown.get("result"), rules or read_context(state, player).rules)
    elif shown.get("type") == "versus":
        shown["odds"] = versus_event_odds(
            shown.get("result"), rules or read_context(state, player).rules
        )
    return shown


def view(state: BattleState, player: str, *, since: int = 0) -> Json:
    """The battle as ``player`` may see it; ``since`` returns only log entries after it."""
    ctx = read_context(state, player)
    pending = None
    if state.pending:
        hit = state.pending[0]
        deciders = sorted({o["combatant"] for o in _choices(state, player)})
        pending = {
            "hit": hit["id"],
            "stage": hit["stage"],
            "attacker": hit["attacker"],
            "defender": hit["defender"],
            "name": hit["name"],
            "damage": hit["damage"],
            "raw": hit["raw"],
            "steps": hit["steps"],
            "element": hit["element"],
            "waiting_for": deciders or [hit["defender"]],
            "queued": len(state.pending) - 1,
        }
    hidden = fog.hidden_ids(state, player)
    combatants = {cid: _combatant(state, player, c) for cid, c in state.combatants.items()}
    shown: Json = {
        "battle_id": state.battle_id,
        "version": state.version,
        "phase": state.phase,
        "house_rules": dict(state.house_rules),
        "arena": state.arena.to_dict(),
        "fog": squares_json(state.arena.fog),
        "turn": {
            "round": state.round,
            "turn_number": state.turn_number,
            "order": list(state.order),
            "current": state.current,
            "started_at": state.turn_started_at,
            "acted_this_round": list(state.done),
        },
        "combatants": combatants,
        "pending": pending,
        "field_effects": [f.to_dict() for f in state.field_effects],
        "drops": [d.to_dict() for d in state.drops],
        "targets": {name: ctx.target(name) for name in sorted(_target_names())},
        "winner": state.winner,
        "ended_reason": state.ended_reason,
        "you": {
            "player": player,
            "controls": [c.id for c in state.combatants.values() if may_control(state, player, c)],
            # odds name only combatants this view shows (a hidden one stays hidden)
            "legal_actions": with_odds(ctx, legal_actions(state, player), set(combatants) - hidden),
            # her pieces the fog walls in (every open square next to them fogged): the screen
            # says why they cannot move or aim there
            "fogbound": fog.fogbound(state, player),
        },
        "log": [
            _entry(state, player, entry, hidden, ctx.rules)
            for entry in state.log
            if entry["n"] > since
        ],
        "rng": None,  # the seed is never shown (see the module's docstring)
    }
    return fog.filter_view(state, player, shown, hidden)


def log_view(state: BattleState, player: str, entries: list[Json]) -> list[Json]:
    """Log entries (``{n, action, events}``) as ``player`` may see them in ``state``: the
    view's log, for a page of it (hands, seeds and fog filtered as :func:`view` does)."""
    hidden = fog.hidden_ids(state, player)
    rules = read_context(state, player).rules
    return [_entry(state, player, entry, hidden, rules) for entry in entries]


def _entry(
    state: BattleState, player: str, entry: Json, now: frozenset[str], rules: HouseRules
) -> Json:
    """One log entry as ``player`` may see it (hands, seeds and fog filtered)."""
    hidden = fog.entry_hidden(state, player, entry["events"], now)
    events = [_event(state, player, e, rules) for e in entry["events"]]
    return {
        "n": entry["n"],
        "action": fog.shown_action(public_action(player, entry["action"]), hidden),
        "events": fog.shown_events(events, hidden),
    }


def _choices(state: BattleState, player: str) -> list[Json]:
    from westernroses.battle import reactions

    del player
    return reactions.open_choices(read_context(state, GM))


def _target_names() -> list[str]:
    from westernroses.battle.context import DEFAULT_TARGETS

    return list(DEFAULT_TARGETS)
