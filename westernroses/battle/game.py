"""Grid battles as a game of the one protocol (:mod:`westernroses.protocol`): ``ENGINE``.

Why an adapter rather than a rewrite: the battle engine predates the protocol and its own
entry points (``apply(state, action)`` with the player inside the action, ``view(state,
player)``) are what its rules tests drive. This module answers the protocol's questions from
them, so the table core stores, locks, polls, notifies and replays a battle exactly like a
tavern game, and the Django side needs nothing but this module's public names.

Seats are the battle's controllers: ``"gm"`` (the campaign's game masters, who play the NPCs
and may override anything) or a player key (the app uses the user id as a string). A battle has
no fixed number of seats, so ``returns`` is per side in :func:`sides` order rather than per seat.

Hidden information is each combatant's hand and draw pile (and the seed): ``hidden_from`` names
those cards as ``card:<combatant>:<card>`` ids, which a view shows only to the controller; and
whoever stands in fog out of a seat's sight, by her combatant id (``fog``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from westernroses.action_shapes import ActionShape
from westernroses.battle import fog, reactions
from westernroses.battle.actions import GM, apply, legal_actions, may_control, read_context
from westernroses.battle.arena import Arena
from westernroses.battle.context import DEFAULT_TARGETS
from westernroses.battle.creation import new_battle
from westernroses.battle.errors import IllegalAction
from westernroses.battle.player_view import _event as event_for  # the view's own event filter
from westernroses.battle.player_view import view
from westernroses.battle.replay import effective_actions, from_snapshot, replay
from westernroses.battle.shapes import ACTIONS
from westernroses.battle.state import BattleState, Combatant, Json
from westernroses.battle.status import STATUSES
from westernroses.house_rules import DEFAULT_HOUSE_RULES, HOUSE_RULES_META, HouseRules
from westernroses.protocol import HouseRule, Seat
from westernroses.rng import RandomSource
from westernroses.words import N_, Words

#: The seat of the campaign's game masters.
GM_SEAT: Final = GM
#: What a spectator is called when asking the battle engine for a view: no combatant has it
#: as a controller, so she sees only public information.
SPECTATOR: Final = "spectator"
#: The keys of the default target numbers (for the GM's override pickers).
TARGET_KEYS: Final = tuple(DEFAULT_TARGETS)
#: The status effects a GM may apply, by key (for the GM's override pickers).
STATUS_KEYS: Final = tuple(STATUSES)


@dataclass(frozen=True, slots=True)
class Waiting:
    """Someone the battle waits on: a combatant's turn or a decision on a hit.

    ``key`` names this wait uniquely within the battle ("turn:12", "hit:h4:pc3"), so a
    notification service can send "your turn" once per wait.
    """

    key: str
    combatant: str
    name: str
    seat: str
    reacting: bool


def waiting(state: BattleState) -> list[Waiting]:
    """Whom the battle waits on now, combatant by combatant (turn or reaction)."""
    if state.phase != "active":
        return []
    found: list[tuple[str, str, bool]] = []
    if state.pending:
        hit = state.pending[0]["id"]
        deciders = sorted({o["combatant"] for o in reactions.open_choices(read_context(state))})
        found = [(f"hit:{hit}:{cid}", cid, True) for cid in deciders]
    elif state.current is not None:
        found = [(f"turn:{state.turn_number}", state.current, False)]
    out = []
    for key, cid, reacting in found:
        c = state.find(cid)
        if c is not None:
            out.append(Waiting(key, cid, c.name, c.controller, reacting))
    return out


def visible_events(state: BattleState, seat: Seat | None, events: Iterable[Json]) -> list[Json]:
    """Logged events as ``seat`` may see them (``None``: a spectator): a draw's cards only for
    the drawer's controller and the GM, no seeds, nothing about a combatant in fog then or
    now (``fog``). Battle events mark their secret fields ``private`` rather than the
    protocol's ``visible_to``, so logs go through here."""
    player = SPECTATOR if seat is None else str(seat)
    events = list(events)
    hidden = fog.entry_hidden(state, player, events, fog.hidden_ids(state, player))
    return fog.shown_events([event_for(state, player, e) for e in events], hidden)


def summary(state: BattleState) -> str:
    """A short public sentence for lists and the dashboard, in English."""
    return str(summary_words(state))


def summary_words(state: BattleState) -> Words:
    """:func:`summary` as words to translate where it is read (lists store its JSON)."""
    if state.phase == "setup":
        return Words(N_("Setting up the arena"))
    if state.phase == "ended":
        if state.winner:
            return Words(N_("Ended: %(winner)s won"), {"winner": state.winner})
        return Words(N_("Ended"))
    # Public (lists, the dashboard): a combatant in fog is named to nobody (``fog``).
    names = {cid: c.name for cid, c in state.combatants.items() if not fog.in_fog(state, c)}
    round_ = {"round": state.round}
    if state.pending:
        defender = str(state.pending[0].get("defender"))
        if defender not in names:
            return Words(N_("Round %(round)s · waiting for a reaction"), round_)
        return Words(
            N_("Round %(round)s · waiting for %(name)s to react"),
            {**round_, "name": names[defender]},
        )
    if state.current:
        if state.current not in names:
            c = state.find(state.current)
            if c is None or c.controller == GM:
                return Words(N_("Round %(round)s · the GM is acting"), round_)
            return Words(N_("Round %(round)s · a turn in the fog"), round_)
        return Words(
            N_("Round %(round)s · %(name)s's turn"), {**round_, "name": names[state.current]}
        )
    return Words(N_("Round %(round)s"), round_)


def sides(state: BattleState) -> list[str]:
    """The battle's sides in a stable order (``returns`` follows it)."""
    return sorted({c.side for c in state.combatants.values() if c.kind != "doll"})


def rebuild_setup(
    state: BattleState,
    *,
    arena: Arena | None = None,
    combatants: Sequence[Combatant] | None = None,
    rules: HouseRules = DEFAULT_HOUSE_RULES,
) -> BattleState:
    """A battle still being set up, rebuilt from a new arena or new combatants with the same
    secret seed and id, one version on (so pollers see the change). The snapshot the log
    replays from is the new state. Raises ``ValueError`` for a placement the rules refuse."""
    if state.phase != "setup":
        raise IllegalAction("The battle has started: use the GM overrides.")
    fighters = (
        list(combatants)
        if combatants is not None
        else [c for c in state.combatants.values() if c.kind != "doll"]
    )
    seed = int((state.initial or {}).get("rng", {}).get("seed") or state.rng["seed"])
    new = new_battle(
        arena=arena or state.arena,
        combatants=fighters,
        seed=seed,
        rules=rules,
        battle_id=state.battle_id,
    )
    new.version = state.version + 1
    new.initial = new.to_dict(history=False)
    return new


def with_history(
    state: BattleState, initial: Mapping[str, Any] | None, entries: Iterable[Mapping[str, Any]]
) -> BattleState:
    """``state`` with the snapshot it started from and log entries (``{n, action, events}``,
    as stored): what an undo replays, and what a view shows as the recent log."""
    out = state.clone()
    out.initial = dict(initial) if initial else None
    out.log = tuple(dict(e) for e in entries)
    return out


def replay_actions(initial: Mapping[str, Any], actions: Iterable[Mapping[str, Any]]) -> Json:
    """The state (as JSON) reached by replaying logged actions from a snapshot."""
    state = replay(from_snapshot(initial), effective_actions(actions), check_versions=False)
    return state.to_dict(history=False)


class BattleEngine:
    """The protocol's ``GameEngine`` for grid battles (module-level :data:`ENGINE`)."""

    slug = "battle"
    title = "Grid battle"
    min_seats = 1
    max_seats = 64

    def house_rules(self) -> Sequence[HouseRule]:
        return tuple(
            HouseRule(
                key=meta.name,
                label=meta.label,
                default=getattr(DEFAULT_HOUSE_RULES, meta.name),
                help=meta.help,
                minimum=meta.minimum,
                maximum=meta.maximum,
            )
            for meta in HOUSE_RULES_META.values()
        )

    def action_shapes(self) -> Mapping[str, ActionShape]:
        """What each move and GM override may carry (``shapes``)."""
        return ACTIONS

    def new_game(
        self,
        *,
        seats: int,
        seed: int,
        options: Mapping[str, Any] | None = None,
        config: Mapping[str, Any] | None = None,
    ) -> BattleState:
        """``config``: ``arena`` (``{"width", "height", ...}``), ``combatants`` (a list of
        :class:`Combatant` or their ``to_dict``) and ``battle_id``. ``seats`` is not used:
        the seats are the combatants' controllers."""
        del seats
        config = config or {}
        fighters = [
            c if isinstance(c, Combatant) else Combatant.from_dict(c)
            for c in config.get("combatants", ())
        ]
        return new_battle(
            arena=config.get("arena") or {"width": 9, "height": 7},
            combatants=fighters,
            seed=seed,
            rules=HouseRules.from_dict(dict(options or {})),
            battle_id=str(config.get("battle_id", "")),
        )

    def waiting_on(self, state: BattleState) -> tuple[Seat, ...]:
        if state.phase == "setup":
            return (GM,)
        seats: list[str] = []
        for w in waiting(state):
            if w.seat not in seats:
                seats.append(w.seat)
        return tuple(seats)

    def legal_actions(self, state: BattleState, seat: Seat) -> list[Json]:
        return legal_actions(state, str(seat))

    def apply(
        self, state: BattleState, seat: Seat, action: Mapping[str, Any]
    ) -> tuple[BattleState, list[Json]]:
        if not isinstance(action, Mapping):
            raise IllegalAction("An action is an object with a type.")
        new, events = apply(state, {**action, "player": str(seat)})
        if action.get("type") != "gm_undo":
            new.log = new.log[-1:]  # the rows hold the log; a state carries only the last
        return new, events

    def view(self, state: BattleState, seat: Seat | None) -> Json:
        return view(state, SPECTATOR if seat is None else str(seat))

    def hidden_from(self, state: BattleState, seat: Seat | None) -> set[str]:
        player = SPECTATOR if seat is None else str(seat)
        hidden: set[str] = set()
        for c in state.combatants.values():
            # Copies share a card id: an id is hidden when no copy of it is visible.
            visible = set(c.deck.discard)
            if may_control(state, player, c):
                visible |= set(c.deck.hand)
            secret = (set(c.deck.draw_pile) | set(c.deck.hand)) - visible
            hidden |= {f"card:{c.id}:{card}" for card in secret}
        # Fog of war: a combatant standing in fog (not hers) is hidden by her own id.
        return hidden | fog.hidden_ids(state, player)

    def determinize(self, state: BattleState, seat: Seat, seed: int) -> BattleState:
        """A fresh random source for future rolls and draws; hands stay as they are (a valid,
        if not uniform, deal consistent with what ``seat`` has seen)."""
        new = state.clone()
        new.rng = RandomSource(seed).to_dict()
        return new

    def is_terminal(self, state: BattleState) -> bool:
        return state.phase == "ended"

    def returns(self, state: BattleState) -> list[float]:
        names = sides(state)
        if state.phase != "ended" or state.winner is None:
            return [0.0] * len(names)
        return [1.0 if side == state.winner else -1.0 for side in names]

    def result(self, state: BattleState) -> Json:
        text = f"{state.winner} won." if state.winner else "The battle ended."
        return {
            "winners": [state.winner] if state.winner else [],
            "reason": state.ended_reason,
            "text": text,
        }

    def summary(self, state: BattleState) -> str:
        return summary(state)

    def timeout_action(self, state: BattleState, seat: Seat) -> Json | None:
        """A player who does not answer a hit declines (takes it, passes, accepts); nobody
        plays a turn for her."""
        if not state.pending:
            return None
        for option in legal_actions(state, str(seat)):
            if option.get("type") == "react":
                return option
        return None

    def describe_action(self, state: BattleState, seat: Seat, action: Mapping[str, Any]) -> str:
        kind = str(action.get("type", "")).replace("gm_", "GM: ").replace("_", " ")
        who = state.find(str(action.get("combatant", "")))
        text = kind[:1].upper() + kind[1:]
        return f"{who.name}: {text}" if who is not None else text

    def public_action(self, state: BattleState, seat: Seat, action: Mapping[str, Any]) -> Json:
        """Every battle move is its own public face: nothing a seat chooses is kept from the
        others as a choice (what fog hides is hidden by the views, per combatant)."""
        return dict(action)

    def to_json(self, state: BattleState) -> Json:
        return state.to_dict(history=False)

    def from_json(self, data: Mapping[str, Any]) -> BattleState:
        return BattleState.from_dict(data)


ENGINE: Final = BattleEngine()
