"""How a game plugs into the table core: one :class:`TableGame` per game, registered once.

The core knows nothing about campaigns, characters or seats-as-users: the game's app answers
those questions through the hooks below (who sits where, who may watch, where its page is).
Everything else (versions and stale moves, the log, polling, views, notifications, schema checks) is
written once in :mod:`tables.services` and :mod:`tables.selectors`.

A game registers in its app's ``ready()``::

    register(TableGame(slug="duel", engine=ENGINE, table_model=DuelTable,
                       action_model=DuelAction, actions=DUEL_ACTIONS,
                       seat_of=duel_seat, players_of=duel_players, url=duel_url))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from westernroses.protocol import GameEngine, Seat

from .models import GameTable, TableAction
from .schema import ActionSchema

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    Viewer = AbstractBaseUser | AnonymousUser
else:
    Viewer = Any


@dataclass(frozen=True, slots=True)
class Wait:
    """Someone a table waits on. ``key`` names this one wait (a turn, a decision) so the
    notification service says "your turn" once per wait and "still waiting" once after the
    delay; ``title`` is the sentence she receives (naming the game and the table), ``body``
    what it says beneath (the game's public summary)."""

    key: str
    user_id: int
    title: str
    body: str = ""


@dataclass(frozen=True)
class TableGame:
    """A game as the table core sees it.

    Required hooks:

    * ``seat_of(user, table)`` - the seat ``user`` plays (``None``: a spectator); raises
      ``Http404`` when she may not see the table at all (and ``PermissionDenied`` for a 403).
    * ``players_of(table, seat)`` - the user ids who play ``seat`` (notified when it is her
      turn; empty for a bot seat).
    * ``url(table)`` - the table's page, for notifications.

    Optional hooks (defaults in brackets):

    * ``authorize(user, table, seat, state, action)`` - refuse an action the engine would
      accept but this user may not send (a GM-only action): raise PermissionDenied [none].
    * ``prepare(table, seat, action, now)`` - add what the server decides (a timestamp) to a
      validated action before the engine applies it [unchanged].
    * ``load(table, action)`` - the engine state an action applies to [``engine.from_json``].
      It may take the state the previous move left (:func:`tables.kept_states.kept`).
    * ``keep(state)`` - what of a move's new state to keep in the process for the next
      move's ``load`` (:mod:`tables.kept_states`; it must not change ``state``, which the
      move's answer still shows) [nothing is kept].
    * ``columns(table, before, after)`` - copy onto the table row what the game's own columns
      show about the new state (whose turn, when it ended), with no query: saved by the
      move's one write; returns their names [nothing].
    * ``after_apply(table, before, after)`` - keep the game's own rows (and columns) in step
      (an index of pieces, a pot paid out) inside the move's transaction, before the table
      row is saved; returns the names of the extra columns it changed [nothing].
    * ``after_apply_when(before, after)`` - whether this move needs ``after_apply`` (a move
      that needs no other row written is one statement, without a transaction) [always].
    * ``waits(table, state)`` - whom the table waits on, with keys [one :class:`Wait` per
      user of each seat in ``engine.waiting_on``, keyed by the seat: one wait, and one "your
      turn", for as long as the table keeps waiting on that seat, however many moves she
      makes meanwhile].
    * ``turn_title(table, seat)`` - the "your turn" title for the player of ``seat``, naming
      the game and the table in words, from public information only [``Your turn at the``
      ``name``].
    * ``campaign_of(table)`` - the campaign whose reminder delay applies [None: a table
      outside any campaign, reminded after the default delay].
    * ``visible_events(state, seat, events)`` - logged events as ``seat`` may see them, for
      an engine whose events mark secrets its own way [the protocol's ``visible_to``].
    * ``replay(table)`` - the state its log replays to, for an engine whose ``apply`` needs
      its history (an undo) [``protocol.replay`` of the rows from ``initial``].
    * ``reader_seat_of(user, table)`` - the seat whose view ``user`` reads in the log, which
      may differ from the seat she plays: a player whose resignation ended the game still
      reads her own seat's [``seat_of``].
    * ``seat_columns(user)`` - annotations (name → query expression) the core adds to the
      row it reads, so ``seat_of`` and ``authorize`` answer from the row without a query of
      their own (a battle reads the user's campaign role with its row). They may depend on
      who the user is (her id), never on the table: the read's SQL is compiled once per game
      and user [none].
    * ``keep_rows`` - a user's move may skip reading the row when this process's last move
      on the table wrote it (``tables.services._kept_move``): the write then checks the row
      and the user's ``seat_columns`` in its own statement, and reads back the other plain
      columns. Only for a game whose ``seat_of``, ``authorize`` and ``load`` read nothing
      from the row but its state and those columns, and whose JSON columns change only with
      a new version [False].
    * ``notify_task`` - the Celery task that syncs the waits on commit, called with
      ``(table_id, version)`` [the core's ``tables.turn_notify`` for this game].
    """

    slug: str
    engine: GameEngine[Any]
    table_model: type[GameTable]
    action_model: type[TableAction]
    actions: Mapping[str, ActionSchema]
    seat_of: Callable[[Viewer, Any], Seat | None]
    players_of: Callable[[Any, Seat], Sequence[int]]
    url: Callable[[Any], str]
    name: str = "game"
    authorize: Callable[[Viewer, Any, Seat, Any, Mapping[str, Any]], None] | None = None
    prepare: Callable[[Any, Seat, dict[str, Any], datetime], dict[str, Any]] | None = None
    load: Callable[[Any, Mapping[str, Any]], Any] | None = None
    keep: Callable[[Any], Any] | None = None
    columns: Callable[[Any, Any, Any], Sequence[str]] | None = None
    after_apply: Callable[[Any, Any, Any], Sequence[str] | None] | None = None
    after_apply_when: Callable[[Any, Any], bool] | None = None
    waits: Callable[[Any, Any], list[Wait]] | None = None
    turn_title: Callable[[Any, Seat], str] | None = None
    campaign_of: Callable[[Any], Any] | None = None
    replay: Callable[[Any], Any] | None = None
    visible_events: Callable[[Any, Seat | None, list[Any]], list[Any]] | None = None
    notify_task: Any = None
    seat_columns: Callable[[Viewer], Mapping[str, Any]] | None = None
    keep_rows: bool = False
    reader_seat_of: Callable[[Viewer, Any], Seat | None] | None = None
    #: Seats are stored as text in the log; ``seat_from_text`` turns one back (tavern seats
    #: are ints, battle seats text).
    seat_from_text: Callable[[str], Seat] = str

    def wait_prefix(self, table_id: int) -> str:
        """The start of every wait key of one table (to end the waits it no longer has)."""
        return f"{self.slug}:{table_id}:"


_GAMES: dict[str, TableGame] = {}


def register(game: TableGame) -> TableGame:
    """Make ``game`` known to the core (its app's ``ready()``); registering again replaces."""
    _GAMES[game.slug] = game
    return game


def game_for(slug: str) -> TableGame:
    try:
        return _GAMES[slug]
    except KeyError:
        raise LookupError(f"No game table is registered as {slug!r}.") from None


def registered() -> dict[str, TableGame]:
    return dict(_GAMES)


def wait_table(key: str) -> tuple[TableGame, int] | None:
    """The game and table a wait key names (the reverse of :meth:`TableGame.wait_prefix`), or
    None for a key that no registered game's table made."""
    slug, _, rest = key.partition(":")
    table_id, colon, _ = rest.partition(":")
    game = _GAMES.get(slug)
    if game is None or not colon or not table_id.isdigit():
        return None
    return game, int(table_id)
