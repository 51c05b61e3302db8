"""How a game plugs into the table core: one :class:`TableGame` per game, registered once.

The core knows nothing about campaigns, characters or seats-as-users: the game's app answers
those questions through the hooks below (who sits where, who may watch, where its page is).
Everything else (versions and stale moves, the log, polling, views, notifications, the
action shape checks) is written once in :mod:`tables.services` and :mod:`tables.selectors`.

A game registers in its app's ``ready()``::

    register(TableGame(slug="duel", engine=ENGINE, table_model=DuelTable,
                       action_model=DuelAction,
                       access=TableAccess(seat_of=duel_seat, players_of=duel_players),
                       hooks=TableHooks(url=duel_url)))
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import TYPE_CHECKING, Any, Protocol

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext, gettext_noop

from apibase.numbers import object_id
from westernroses.action_shapes import ActionShape
from westernroses.protocol import GameEngine, Seat

from .models import GameTable, TableAction

if TYPE_CHECKING:
    from notifications.texts import Words

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    Viewer = AbstractBaseUser | AnonymousUser
else:
    Viewer = Any


class Audience(Protocol):
    """The game's permission hook for the fast poll: who may see a table from its cached head
    alone (:mod:`tables.heads`), without the database. The core stores and reads only what
    the hook names; what a scope means (a campaign) and what is kept under it (a user's role)
    are the game's (:class:`campaign.table_access.CampaignAudience`)."""

    def scope(self, table: Any) -> str:
        """The Redis key prefix the table's head names: the user's grant is read from
        ``<scope>:<user id>`` with the head ("": none, the head alone decides)."""
        ...

    def sees(self, user: Viewer, head: Any) -> bool | None:
        """Whether ``user`` may see a table whose head (:class:`tables.heads.Head`: version,
        scope, her grant) this is; None: the head cannot tell (ask the database)."""
        ...

    def remember(self, user: Viewer, table: Any) -> None:
        """After a read of ``table`` for ``user`` (with the game's ``seat_columns``): keep
        what :meth:`sees` needs for her next poll."""
        ...


@dataclass(frozen=True, slots=True)
class Wait:
    """Someone a table waits on. ``key`` names this one wait (a turn, a decision) so the
    notification service says "your turn" once per wait and "still waiting" once after the
    delay; ``title`` is the sentence she receives (naming the game and the table), ``body``
    what it says beneath (the game's public summary)."""

    key: str
    user_id: int
    title: Words
    body: Words = ""


@dataclass(frozen=True, slots=True)
class TableAccess:
    """The game's permission hook: who sits where, who may see a table and act at it. The
    core knows nothing of campaigns or users beyond what this answers.

    * ``seat_of(user, table)`` - the seat ``user`` plays (``None``: a spectator); raises
      ``Http404`` when she may not see the table at all (and ``PermissionDenied`` for a 403).
    * ``players_of(table, seat)`` - the user ids who play ``seat`` (notified when it is her
      turn; empty for a bot seat).
    * ``authorize(user, table, seat, state, action)`` - refuse an action the engine would
      accept but this user may not send (a GM-only action): raise PermissionDenied [none].
    * ``reader_seat_of(user, table)`` - the seat whose view ``user`` reads in the log, which
      may differ from the seat she plays: a player whose resignation ended the game still
      reads her own seat's [``seat_of``].
    * ``seat_columns(user)`` - annotations (name → query expression) the core adds to the
      row it reads, so ``seat_of`` and ``authorize`` answer from the row without a query of
      their own (a battle reads the user's campaign role with its row). They may depend on
      who the user is (her id), never on the table: the read's SQL is compiled once per game
      and user [none].
    * ``audience`` - the fast poll's permission (:class:`Audience`): an unchanged poll is
      answered from the table's cached head without the database [None: every poll asks the
      database].
    """

    seat_of: Callable[[Viewer, Any], Seat | None]
    players_of: Callable[[Any, Seat], Sequence[int]]
    authorize: Callable[[Viewer, Any, Seat, Any, Mapping[str, Any]], None] | None = None
    reader_seat_of: Callable[[Viewer, Any], Seat | None] | None = None
    seat_columns: Callable[[Viewer], Mapping[str, Any]] | None = None
    audience: Audience | None = None


@dataclass(frozen=True, slots=True)
class TableHooks:
    """How the game's moves, answers and notices differ from the core's defaults (in
    brackets). Only ``url`` is required.

    * ``url(table)`` - the table's page, for notifications.
    * ``prepare(table, seat, action, now)`` - add what the server decides (a timestamp) to a
      validated action before the engine applies it [unchanged].
    * ``load(table, action)`` - the engine state an action applies to [``engine.from_json``].
      It may take the state the previous move left (:func:`tables.store.kept_state`).
    * ``keep(state)`` - what of a move's new state to keep in the process for the next
      move's ``load`` (:mod:`tables.kept_states`; it must not change ``state``, which the
      move's answer still shows) [nothing is kept].
    * ``keep_rows`` - a user's move may skip reading the row when this process's last move
      on the table wrote it (``tables.services._kept_move``): the write then checks the row
      and the user's ``seat_columns`` in its own statement, and reads back the other plain
      columns. Only for a game whose ``seat_of``, ``authorize`` and ``load`` read nothing
      from the row but its state and those columns, and whose JSON columns change only with
      a new version [False].
    * ``columns(table, before, after)`` - copy onto the table row what the game's own columns
      show about the new state (whose turn, when it ended), with no query: saved by the
      move's one write; returns their names [nothing].
    * ``after_apply(table, before, after)`` - keep the game's own rows (and columns) in step
      (an index of pieces, a pot paid out) inside the move's transaction, before the table
      row is saved; returns the names of the extra columns it changed [nothing].
    * ``after_apply_when(table, before, after)`` - whether this move needs ``after_apply`` (a
      move that needs no other row written is one statement, without a transaction) [always].
    * ``waits(table, state)`` - whom the table waits on, with keys [one :class:`Wait` per
      user of each seat in ``engine.waiting_on``, keyed by the seat: one wait, and one "your
      turn", for as long as the table keeps waiting on that seat, however many moves she
      makes meanwhile].
    * ``turn_title(table, seat)`` - the "your turn" title for the player of ``seat``, naming
      the game and the table in words, from public information only [``Your turn at the``
      ``name``].
    * ``notice(table, user_ids)`` - who of ``user_ids`` may be told of the table, and the
      scope the notification service files the notice under (its reminder delay and
      settings), as ``(scope, user_ids)``: the game's to answer, as with access (a campaign's
      table tells only its members, :func:`campaign.table_access.campaign_notice`)
      [``(None, user_ids)``: everyone named, reminded after the default delay].
    * ``notify_task`` - the Celery task that syncs the waits on commit, called with
      ``(table_id, version)`` [the core's ``tables.turn_notify`` for this game].
    * ``replay(table)`` - the state its log replays to, for an engine whose ``apply`` needs
      its history (an undo) [``protocol.replay`` of the rows from ``initial``].
    * ``replay_apply(state, initial, rows_before, seat, action)`` - one logged action applied
      again in a replay (:mod:`tables.replay`), as ``(state, events)``, for an engine whose
      ``apply`` needs the history (a battle's undo): ``rows_before`` are the log rows before
      it [``engine.apply``].
    * ``move_words(before, after, viewer, seat, action)`` - a logged move in words for the
      ``viewer`` of a replay (None: a spectator), naming nothing hidden from her [the texts
      of the events she may see of it, else her own move's ``describe_action``].
    * ``replay_page(table, user, seat)`` - what the replay page (:mod:`tables.pages`) draws
      a step with: ``title``, ``back`` (the table's page), ``api`` (its ``replay/`` URL),
      ``board`` (a template holding the game's board markup), ``scripts`` and ``styles``
      (static paths of the game's renderer) and ``config`` (JSON for the renderer: the
      seats' names) [no replay page].
    * ``visible_events(state, seat, events)`` - one move's logged events as ``seat`` may see
      them, for an engine whose events mark secrets its own way (a replay's step) [the
      protocol's ``visible_to``].
    * ``seat_from_text(text)`` - a seat as the log stores it (text) turned back [``str``; the
      tavern's seats are ints].
    * ``log_view(state, seat, entries)`` - log entries (``{n, action, events}``) as ``seat``
      may see them, for an engine whose events mark secrets its own way; each keeps its
      ``n`` [``{n, events}`` with the events the protocol's ``visible_to`` lets her see].
    * ``move(actor, table_id, action, expected_version)`` - a user's move sent to the API,
      when one request does more than one engine apply (a battle: fog painted while setting
      up is a setup change, and the statuses the characters bring come right after the
      start); it returns what :func:`tables.services.table_action_apply` returns, whose one
      move path it takes for every engine action [``table_action_apply``].
    * ``payload(table, user, seat, state, since)`` - what the API answers ``user`` (at
      ``seat``) about the table: its view and whatever the game shows beside it (the tavern's
      seats and stakes, a battle's map and log tail); ``state`` is the engine state when the
      caller has it (a move's answer, built from memory), else None (:func:`tables.selectors.
      table_state`); ``since`` the version the caller had (None: a first load)
      [:func:`tables.selectors.view_payload`: version, seat, view, whom it waits on, legal
      actions, summary, result].
    """

    url: Callable[[Any], str]
    prepare: Callable[[Any, Seat, dict[str, Any], datetime], dict[str, Any]] | None = None
    load: Callable[[Any, Mapping[str, Any]], Any] | None = None
    keep: Callable[[Any], Any] | None = None
    keep_rows: bool = False
    columns: Callable[[Any, Any, Any], Sequence[str]] | None = None
    after_apply: Callable[[Any, Any, Any], Sequence[str] | None] | None = None
    after_apply_when: Callable[[Any, Any, Any], bool] | None = None
    waits: Callable[[Any, Any], list[Wait]] | None = None
    turn_title: Callable[[Any, Seat], Words] | None = None
    notice: Callable[[Any, Collection[int]], tuple[Any, set[int]]] | None = None
    notify_task: Any = None
    replay: Callable[[Any], Any] | None = None
    replay_apply: (
        Callable[[Any, Mapping[str, Any], Sequence[Any], Seat, Mapping[str, Any]], Any] | None
    ) = None
    move_words: Callable[[Any, Any, Seat | None, Seat, Mapping[str, Any]], str] | None = None
    replay_page: Callable[[Any, Viewer, Seat | None], Mapping[str, Any]] | None = None
    visible_events: Callable[[Any, Seat | None, list[Any]], list[Any]] | None = None
    seat_from_text: Callable[[str], Seat] = str
    log_view: Callable[[Any, Seat | None, list[dict[str, Any]]], list[dict[str, Any]]] | None = None
    move: Callable[..., tuple[Any, Any, Seat]] | None = None
    payload: Callable[[Any, Viewer, Seat | None, Any, int | None], Any] | None = None


@dataclass(frozen=True)
class TableGame:
    """A game as the table core sees it: only what differs between games. Its engine (whose
    ``action_shapes()`` the core checks every action against), the models that store its
    tables and their logs, its permission hook (:class:`TableAccess`) and the hooks where its
    moves and answers differ from the core's (:class:`TableHooks`); ``table_filter``: the
    lookups that pick this game's rows of ``table_model``, for a model several games share
    (the tavern's ``{"game": slug}``) [every row]; ``name``: the table in words ("battle")."""

    slug: str
    engine: GameEngine[Any]
    table_model: type[GameTable]
    action_model: type[TableAction]
    access: TableAccess
    hooks: TableHooks
    name: str = gettext_noop("game")
    table_filter: Mapping[str, Any] | None = None

    @property
    def in_words(self) -> str:
        """The table in the reader's words ("battle" in English, "戦闘" in Japanese)."""
        return gettext(self.name)

    def no_seat(self) -> PermissionDenied:
        """The refusal for someone who may see one of its tables but sits at none of its seats."""
        return PermissionDenied(
            gettext("You have no seat at this %(game)s.") % {"game": self.in_words}
        )

    @cached_property
    def actions(self) -> Mapping[str, ActionShape]:
        """What each action type may carry (the engine's shapes, as pure data)."""
        return self.engine.action_shapes()

    def wait_prefix(self, table_id: int) -> str:
        """The start of every wait key of one table (to end the waits it no longer has)."""
        return f"{self.slug}:{table_id}:"

    def told(self, table: Any, user_ids: Collection[int]) -> tuple[Any, set[int]]:
        """The notice's scope and who of ``user_ids`` may be told (``hooks.notice``)."""
        if self.hooks.notice is None:
            return None, set(user_ids)
        return self.hooks.notice(table, user_ids)


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


def game_of(table: Any) -> TableGame:
    """The registered game ``table`` is a table of: the game of its model whose
    ``table_filter`` it matches (several games may share one model, as the tavern's four)."""
    for game in _GAMES.values():
        if isinstance(table, game.table_model) and all(
            getattr(table, key) == value for key, value in (game.table_filter or {}).items()
        ):
            return game
    raise LookupError(f"No registered game plays {type(table).__name__} {table.pk}.")


def games_of(model: type[GameTable]) -> list[TableGame]:
    """The registered games whose tables are rows of ``model``."""
    return [game for game in _GAMES.values() if game.table_model is model]


def wait_table(key: str) -> tuple[TableGame, int] | None:
    """The game and table a wait key names (the reverse of :meth:`TableGame.wait_prefix`), or
    None for a key that no registered game's table made."""
    slug, _, rest = key.partition(":")
    table_id, colon, _ = rest.partition(":")
    game = _GAMES.get(slug)
    pk = object_id(table_id)
    if game is None or not colon or pk is None:
        return None
    return game, pk
