"""OpenSpiel's view of any protocol engine: one Python game per engine and seat count.

Why an adapter and not a search of our own: OpenSpiel's information-set MCTS
(``open_spiel/python/algorithms/ismcts.py``) only needs a ``pyspiel.State`` that can list its
legal actions, apply one, say whose turn it is, name the acting seat's information set and deal
the hidden information anew. Every engine already answers those questions through
:mod:`westernroses.protocol`, so one generic class serves all four tavern games (and any test
game); the engines never import OpenSpiel.

How the protocol maps onto OpenSpiel:

* **Registration**: :func:`register` registers ``wr_<slug>_<n>p`` with ``pyspiel.register_game``
  once per engine and seat count. ``pyspiel.load_game`` then builds a fresh :class:`EngineGame`
  each time (the game parameters ``seed``, ``options`` and ``config`` reach ``new_game``; the
  last two as canonical JSON strings).
* **Chance**: ``SAMPLED_STOCHASTIC``. The engine keeps its seeded random source in the state, so
  dice and shuffles happen inside ``apply``; OpenSpiel never sees a chance node.
* **Turns**: sequential. When ``waiting_on`` names several seats (a simultaneous face-down
  choice) they act one after another: the state's *leader* first if she is among them (the seat
  a bot is choosing for), then the others in ``waiting_on`` order. The protocol's views never
  show a seat another's pending face-down choice, so the seats acting later learn nothing from
  the order.
* **Information state**: canonical JSON of ``view(state, seat)`` with the facts that make it
  Markov for the search: whose move it is, who is waited on, and the seat's own legal action
  ids (she knows what she is offered, and the protocol keeps that list unchanged by
  ``determinize``; with it, one tree node never mixes two different sets of moves). Keys an
  engine lists in ``reference_view_keys`` (card descriptions for the page, not game state) are
  left out (:func:`game_view`).
* **Resampling**: ``resample_from_infostate(seat, sampler)`` calls ``determinize(state, seat,
  seed)`` with a seed drawn from ``sampler`` (the bot passes a seeded one, so a search is
  reproducible).
* **Action ids**: an interning table on the game object, keyed by the canonical JSON of the
  action. An id means the same move in every world the search samples (OpenSpiel's tree keys a
  node's children by id across all the worlds of one information set), whatever order an engine
  lists its moves in. Ids are assigned in first-seen order on a freshly loaded game, so one
  search is reproducible; legal ids are returned in the engine's order, not sorted, because
  that order is the protocol's deterministic one. The table is bounded by
  :data:`MAX_DISTINCT_ACTIONS`, far above any tavern game's action space.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pyspiel

from westernroses.protocol import Action, GameEngine, Json, Seat

#: Upper bound on distinct actions one loaded game may intern (declared to OpenSpiel).
MAX_DISTINCT_ACTIONS = 1 << 20
#: Declared upper bound on a game's length in moves, for engines that do not state their own
#: (an engine may set ``max_game_length`` on its ``ENGINE``).
DEFAULT_MAX_GAME_LENGTH = 100_000

#: ``name → (engine, seats)`` for every game this process registered.
_REGISTERED: dict[str, tuple[GameEngine[Any], int]] = {}


def canonical(value: Any) -> str:
    """The one JSON spelling of ``value`` (sorted keys, no spaces): equal values, equal text."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def game_name(engine: GameEngine[Any], seats: int) -> str:
    """The OpenSpiel short name of ``engine`` at ``seats`` seats (``wr_raigo_2p``)."""
    return f"wr_{engine.slug}_{seats}p"


def _game_type(engine: GameEngine[Any], seats: int) -> Any:
    return pyspiel.GameType(
        short_name=game_name(engine, seats),
        long_name=f"Western Roses: {engine.title} ({seats} seats)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=seats,
        min_num_players=seats,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={"seed": 0, "options": "{}", "config": "{}"},
    )


def _game_info(engine: GameEngine[Any], seats: int) -> Any:
    return pyspiel.GameInfo(
        num_distinct_actions=MAX_DISTINCT_ACTIONS,
        max_chance_outcomes=0,
        num_players=seats,
        min_utility=-1.0,
        max_utility=1.0,
        max_game_length=int(getattr(engine, "max_game_length", DEFAULT_MAX_GAME_LENGTH)),
    )


def register(engine: GameEngine[Any], seats: int) -> str:
    """Register ``engine`` at ``seats`` seats with OpenSpiel (once) and return the game's name.

    Registering again with another engine object of the same slug (a test's fresh instance)
    makes later ``load_game`` calls use the newer one.
    """
    if not engine.min_seats <= seats <= engine.max_seats:
        raise ValueError(f"{engine.title} is for {engine.min_seats} to {engine.max_seats} seats.")
    name = game_name(engine, seats)
    first_time = name not in _REGISTERED
    _REGISTERED[name] = (engine, seats)
    if first_time:
        pyspiel.register_game(_game_type(engine, seats), _factory(name))
    return name


def _factory(name: str) -> type[EngineGame]:
    """A subclass of :class:`EngineGame` bound to ``name``, as OpenSpiel's factory.

    A class, as OpenSpiel's own Python games register, not a closure or ``functools.partial``:
    OpenSpiel's registry keeps the factory until the C++ runtime shuts down, after Python's,
    and releasing a partial there aborts the interpreter at exit.
    """

    def __init__(self: EngineGame, params: Mapping[str, Any] | None = None) -> None:
        engine, seats = _REGISTERED[name]
        EngineGame.__init__(self, engine, seats, params)

    return type(f"EngineGame_{name}", (EngineGame,), {"__init__": __init__})


def load_game(engine: GameEngine[Any], seats: int, **params: Any) -> EngineGame:
    """A fresh OpenSpiel game for ``engine`` (registered on first use) with its own action
    table. ``params`` are ``seed`` (an int of OpenSpiel's, so below 2**31; the bots never need
    it, they start from an engine state) and ``options``/``config`` (JSON strings)."""
    seed = params.get("seed", 0)
    if not 0 <= seed < 2**31:
        raise ValueError("OpenSpiel's game parameters hold seeds from 0 to 2**31 - 1.")
    game = pyspiel.load_game(register(engine, seats), params)
    if not isinstance(game, EngineGame):
        raise TypeError(f"{game!r} is not one of the tavern's games")
    return game


def game_view(engine: GameEngine[Any], view: Json) -> Json:
    """``view`` without the keys the engine names in ``reference_view_keys``: reference text
    for the page (card descriptions in words) that is a function of the rest of the view, so
    it tells the search nothing and only makes every information state string longer (DBS's
    card texts made them about three times longer)."""
    omit = getattr(engine, "reference_view_keys", ())
    if not omit or not isinstance(view, dict):
        return view
    return {key: value for key, value in view.items() if key not in omit}


class EngineGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type hints
    """One tavern game at a fixed seat count, as OpenSpiel sees it; holds the action table."""

    def __init__(
        self, engine: GameEngine[Any], seats: int, params: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(_game_type(engine, seats), _game_info(engine, seats), dict(params or {}))
        self.engine = engine
        self.seats = seats
        parameters = self.get_parameters()
        self._seed = int(parameters.get("seed", 0))
        self._options: Json = json.loads(parameters.get("options", "{}"))
        self._config: Json = json.loads(parameters.get("config", "{}"))
        self._ids: dict[str, int] = {}
        self._actions: list[Action] = []

    def new_initial_state(self) -> EngineState:
        state = self.engine.new_game(
            seats=self.seats, seed=self._seed, options=self._options, config=self._config
        )
        return EngineState(self, state)

    def state_from_engine(self, state: Any, leader: Seat | None = None) -> EngineState:
        """An OpenSpiel state around an engine ``state``; ``leader`` acts first whenever she is
        among several seats waited on at once (the seat a bot chooses for)."""
        return EngineState(self, state, leader)

    def action_id(self, action: Mapping[str, Any]) -> int:
        """The id of ``action`` in this game's table (interned on first sight)."""
        key = canonical(action)
        found = self._ids.get(key)
        if found is not None:
            return found
        if len(self._actions) >= MAX_DISTINCT_ACTIONS:
            raise RuntimeError(f"more than {MAX_DISTINCT_ACTIONS} distinct actions in one game")
        self._ids[key] = len(self._actions)
        self._actions.append(json.loads(key))
        return len(self._actions) - 1

    def action(self, action_id: int) -> Action:
        """The JSON action behind ``action_id`` (a copy; the table keeps its own)."""
        stored: Action = json.loads(canonical(self._actions[action_id]))
        return stored

    def action_view(self, action_id: int) -> Action:
        """The table's own action behind ``action_id``, not to be mutated (for speed)."""
        return self._actions[action_id]


class EngineState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no type hints
    """A protocol engine state behind OpenSpiel's ``State`` interface.

    ``apply`` never mutates an engine state, so clones share it; ``apply_action`` swaps in the
    new one. Whose turn it is, the legal ids and the acting seat's legal JSON are cached per
    engine state.
    """

    def __init__(
        self,
        game: EngineGame,
        state: Any,
        leader: Seat | None = None,
        history: Sequence[int] = (),
    ) -> None:
        super().__init__(game)
        self._wr_game = game
        self._engine = game.engine
        self._state = state
        self._leader = leader
        self._history = list(history)
        self._player: int | None = None
        self._legal: tuple[list[int], list[Action]] | None = None
        self._infostates: dict[int, str] = {}

    # -- what the bots read -------------------------------------------------------------------

    @property
    def engine_state(self) -> Any:
        """The engine's own state (never mutated by this adapter)."""
        return self._state

    @property
    def wr_game(self) -> EngineGame:
        return self._wr_game

    def legal_json(self) -> list[Action]:
        """The acting seat's legal actions as JSON, in the engine's order (not to be mutated)."""
        return self._legal_pair()[1]

    # -- OpenSpiel's State API ----------------------------------------------------------------

    def current_player(self) -> int:
        if self._player is None:
            self._resolve()
        assert self._player is not None  # noqa: S101 - set by _resolve
        return self._player

    def _resolve(self) -> None:
        """Whose move it is (the leader first among the seats waited on, then ``waiting_on``
        order) and her legal moves.

        Every seat waited on has a legal move in every world ``determinize`` deals (the
        protocol's promise, checked by tests/engine/conformance.py), so a world in which none
        has one is an engine's bug, and said so.
        """
        player, actions = int(pyspiel.PlayerId.TERMINAL), []
        if not self._engine.is_terminal(self._state):
            waiting = self._engine.waiting_on(self._state)
            for seat in sorted(waiting, key=lambda s: s != self._leader):
                actions = self._engine.legal_actions(self._state, seat)
                if actions:
                    player = int(seat)  # tavern seats are 0 .. n-1
                    break
            else:
                raise RuntimeError(
                    f"{self._engine.title}: seats {list(waiting)} are waited on but none has "
                    "a legal move (a world determinize should never deal)."
                )
        self._player = player
        self._legal = ([self._wr_game.action_id(a) for a in actions], actions)

    def _legal_pair(self) -> tuple[list[int], list[Action]]:
        if self._legal is None:
            self._resolve()
        assert self._legal is not None  # noqa: S101 - set by _resolve
        return self._legal

    def legal_actions(self, player: int | None = None) -> list[int]:
        if player is not None and player != self.current_player():
            return []
        return list(self._legal_pair()[0])

    def _legal_actions(self, player: int) -> list[int]:
        return self.legal_actions(player)

    def _apply_action(self, action_id: int) -> None:
        ids, actions = self._legal_pair()
        try:
            action = actions[ids.index(action_id)]
        except ValueError:
            action = self._wr_game.action_view(action_id)  # apply refuses it, in words
        self._state, _events = self._engine.apply(self._state, self.current_player(), action)
        self._history.append(action_id)
        self._player = None
        self._legal = None
        self._infostates = {}

    def apply_action(self, action_id: int) -> None:
        # Straight to the engine: OpenSpiel's C++ bookkeeping (history, move number) is kept
        # here in Python instead, which is what clone() can copy.
        self._apply_action(action_id)

    def history(self) -> list[int]:
        return list(self._history)

    def move_number(self) -> int:
        return len(self._history)

    def is_terminal(self) -> bool:
        return self.current_player() == int(pyspiel.PlayerId.TERMINAL)

    def is_chance_node(self) -> bool:
        return False

    def is_simultaneous_node(self) -> bool:
        return False

    def is_player_node(self) -> bool:
        return not self.is_terminal()

    def returns(self) -> list[float]:
        return [float(r) for r in self._engine.returns(self._state)]

    def rewards(self) -> list[float]:
        return self.returns() if self.is_terminal() else [0.0] * self._wr_game.seats

    def information_state_string(self, player: int | None = None) -> str:
        seat = self.current_player() if player is None else player
        if seat < 0:
            raise ValueError("information_state_string needs a seat at a finished game")
        found = self._infostates.get(seat)
        if found is None:
            found = self._infostates[seat] = canonical(
                {
                    "seat": seat,
                    "to_move": self.current_player(),
                    "waiting_on": list(self._engine.waiting_on(self._state)),
                    "legal": self.legal_actions(seat),
                    "view": game_view(self._engine, self._engine.view(self._state, seat)),
                }
            )
        return found

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> EngineState:
        """A state ``player_id`` cannot tell from this one, with everything hidden from her
        dealt anew by the engine's ``determinize`` (seeded from ``probability_sampler``)."""
        seed = int(float(probability_sampler()) * 2**53) % 2**53
        dealt = self._engine.determinize(self._state, player_id, seed)
        return EngineState(self._wr_game, dealt, self._leader, self._history)

    def clone(self) -> EngineState:
        copy = EngineState(self._wr_game, self._state, self._leader, self._history)
        copy._player, copy._legal, copy._infostates = self._player, self._legal, self._infostates
        return copy

    def __deepcopy__(self, memo: dict[int, Any]) -> EngineState:
        return self.clone()

    def _action_to_string(self, player: int, action_id: int) -> str:
        action = self._wr_game.action_view(action_id)
        return str(self._engine.describe_action(self._state, player, action))

    def action_to_string(self, *args: int) -> str:
        player, action_id = args if len(args) == 2 else (self.current_player(), args[0])
        return self._action_to_string(player, action_id)

    def __str__(self) -> str:
        # The spectator's view: enough to debug, and never anything hidden.
        return (
            f"{self._engine.summary(self._state)} {canonical(self._engine.view(self._state, None))}"
        )
