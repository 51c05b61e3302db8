"""Replays: any table watched again move by move, rebuilt by its engine from its log.

Why rebuilt, never stored: the log (``TableAction`` rows) and the table's ``initial`` state
already determine every position (the protocol's replay rule), so a replay applies the logged
actions again with the engine's own ``apply`` from ``initial``. No state of a past step is
kept in the database, and a replay that did not end at the stored state would be a bug the
tests catch (``tests/tables/test_replay.py`` replays every finished game to it, byte for byte).

What a viewer sees at each step (the rule, for every game):

* step 0 is the position the game started from, step ``k`` the position after the ``k``-th
  logged move; ``steps`` is the number of moves;
* at every step she sees ``engine.view(state_k, seat)`` for the seat whose view she reads at
  the table (``reader_seat_of``: her own seat, or the public view for a spectator or a
  player who handed her seat to a bot), and of move ``k`` only the events that seat may see
  (the game's ``visible_events``, else the protocol's ``visible_to``): before the end a seat
  replays only its own view;
* after the end, each step still shows that step's view for her seat (a hand hidden at the
  time stays hidden: no engine here turns hands face up at its end) and the end's reveal is
  what the last step shows: the final view and the game's public ``result``. Nothing else:
  never the seed, the deck order, another seat's hand or hidden choice.

The move list names each move in words: the texts of the events the viewer may see of it,
else, for her own move, the engine's ``describe_action``, else "A move" (a move whose whole
effect is hidden from her). A game may name its moves itself (``TableHooks.move_words``: a
battle's events carry no text, and its moves in fog are named to nobody).

Rebuilding costs one ``apply`` per logged move, so the steps are cached per table, version and
seat, under the database's epoch (a finished table's log never changes; a table in play has a
new version, hence a new key, with every move) for :data:`CACHE_SECONDS`, in chunks of
:data:`CHUNK` steps, and one request reads at most two keys
(``docs/decisions/replays-rebuilt-from-the-log.md``). The cache holds the engine's words as
message ids (:class:`westernroses.words.Words` as JSON): a step is put in the reader's language
when it is read, so one cached replay serves readers of every language.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from django.utils.translation import gettext
from rest_framework.exceptions import ValidationError

from apibase.engine_words import events_in_language, in_language, json_in_language, stored
from apibase.redis_down import soft_get_many
from westernroses.protocol import Seat, event_visible
from westernroses.words import N_, Words

from . import store
from .models import TableStatus
from .registry import TableGame, game_of
from .selectors import table_for

if TYPE_CHECKING:
    from .registry import Viewer

#: How long rebuilt steps stay cached (a viewer stepping through reads them again and again).
CACHE_SECONDS: Final = 15 * 60
#: Steps cached under one key (a battle's view is a few kilobytes; a chunk stays small).
CHUNK: Final = 20
#: A page of the move list holds this many moves unless asked for fewer; never more than the
#: maximum.
MOVES_PAGE: Final = 100
MOVES_PAGE_MAX: Final = 500
#: The longest a move's words get (events of one move can be many).
WORDS_MAX: Final = 300


@dataclass(frozen=True, slots=True)
class Replayed:
    """One step of a rebuild: the logged row (None for step 0), the seat that moved, the
    state before and after it, and the events the engine gave (all seats')."""

    row: Any
    seat: Seat | None
    before: Any
    state: Any
    events: list[Any]


def log_rows(game: TableGame, table: Any) -> list[Any]:
    """The table's logged moves that stand, oldest first: a move taken back by an undo request
    and the row marking it are left out (:func:`tables.undo.services.effective_log`), so the
    replay ends at the table's state."""
    from .undo.services import effective_log

    return effective_log(
        game.action_model._default_manager.filter(**{game.table_model.log_table_field: table})
        .only("seq", "seat", "action", "events")
        .order_by("seq")
    )


def replayed(
    game: TableGame, initial: Mapping[str, Any], rows: Sequence[Any]
) -> Iterator[Replayed]:
    """Every position of a game, from ``initial`` through each logged row, applied by the
    engine (the game's ``replay_apply`` for an engine whose ``apply`` needs its history)."""
    engine = game.engine
    state = engine.from_json(initial)
    yield Replayed(row=None, seat=None, before=state, state=state, events=[])
    for i, row in enumerate(rows):
        seat = game.hooks.seat_from_text(row.seat)
        if game.hooks.replay_apply is not None:
            after, events = game.hooks.replay_apply(state, initial, rows[:i], seat, row.action)
        else:
            after, events = engine.apply(state, seat, row.action)
        yield Replayed(row=row, seat=seat, before=state, state=after, events=list(events))
        state = after


def shown_events(game: TableGame, state: Any, seat: Seat | None, events: list[Any]) -> list[Any]:
    """``events`` as ``seat`` may see them, by the game's hook or the protocol's rule."""
    if game.hooks.visible_events is not None:
        return list(game.hooks.visible_events(state, seat, events))
    return [e for e in events if event_visible(e, seat)]


def _read(words: Any) -> str:
    """Words from the cache (a string, or :class:`Words` as JSON) in the active language."""
    return in_language(words) if isinstance(words, dict) else str(words)


def default_move_words(
    game: TableGame, step: Replayed, viewer: Seat | None, events: list[Any]
) -> list[Any]:
    """A move in words for ``viewer``, as parts to join (each a string or words as JSON): the
    texts of the events she may see of it, else her own move as the engine describes it, else
    "A move" (nothing of it is hers to see)."""
    texts = [
        e["words"] if isinstance(e.get("words"), dict) else str(e["text"])
        for e in events
        if isinstance(e, Mapping) and e.get("text")
    ]
    if texts:
        return texts
    if viewer is not None and step.seat == viewer:
        return [stored(game.engine.describe_action(step.before, step.seat, step.row.action))]
    return [Words(N_("A move.")).to_json()]


def move_in_language(move: dict[str, Any] | None) -> dict[str, Any] | None:
    """A cached move of the list with its words joined in the active language."""
    if move is None:
        return None
    parts = move["words"] if isinstance(move["words"], list) else [move["words"]]
    return {**move, "words": bounded_words(" ".join(_read(part) for part in parts))}


def step_in_language(step: dict[str, Any]) -> dict[str, Any]:
    """A cached step with the engine's words (summary, events, its move) in the active
    language."""
    return {
        **step,
        "view": json_in_language(step["view"]),
        "result": json_in_language(step["result"]),
        "summary": _read(step["summary"]),
        "events": events_in_language(list(step["events"])),
        "move": move_in_language(step["move"]),
    }


def bounded_words(words: str) -> str:
    """``words`` cut to :data:`WORDS_MAX` characters (a move of many events stays one line)."""
    return words if len(words) <= WORDS_MAX else words[: WORDS_MAX - 1].rstrip() + "…"


def build_steps(
    game: TableGame, initial: Mapping[str, Any], rows: Sequence[Any], viewer: Seat | None
) -> tuple[list[dict[str, Any]], Any]:
    """Every step as ``viewer`` may see it, and the final state (for the audit)."""
    engine = game.engine
    steps: list[dict[str, Any]] = []
    state: Any = None
    for step in replayed(game, initial, rows):
        state = step.state
        events = shown_events(game, state, viewer, step.events)
        move = None
        if step.row is not None and step.seat is not None:
            if game.hooks.move_words is not None:
                words: list[Any] = [
                    game.hooks.move_words(step.before, state, viewer, step.seat, step.row.action)
                ]
            else:
                words = default_move_words(game, step, viewer, events)
            move = {"n": len(steps), "words": words}
        terminal = engine.is_terminal(state)
        steps.append(
            {
                "view": engine.view(state, viewer),
                "waiting_on": list(engine.waiting_on(state)),
                "summary": stored(engine.summary(state)),
                "events": events,
                "move": move,
                "result": engine.result(state) if terminal else None,
            }
        )
    return steps, state


def final_state(game: TableGame, table: Any) -> Any:
    """The state the replay of ``table``'s whole log ends at (it must equal the stored one)."""
    state: Any = None
    for step in replayed(game, table.initial, log_rows(game, table)):
        state = step.state
    return state


def _key(game: TableGame, table: Any, seat: Seat | None, part: str) -> str:
    """Under the database's epoch, the table's version and the viewer's seat: a version is
    never reused within an epoch (``tables.epoch``), and nobody reads another seat's steps."""
    who = "spectator" if seat is None else f"seat-{seat}"
    return f"replay:{store.epoch_now()}:{game.slug}:{table.pk}:{table.version}:{who}:{part}"


def _store(game: TableGame, table: Any, seat: Seat | None, steps: list[dict[str, Any]]) -> None:
    """Cache the rebuilt steps in chunks and the move list (nothing while Redis is away)."""
    from django.core.cache import cache
    from redis.exceptions import RedisError

    values: dict[str, Any] = {
        _key(game, table, seat, "moves"): [s["move"] for s in steps[1:]],
    }
    for start in range(0, len(steps), CHUNK):
        values[_key(game, table, seat, f"chunk-{start // CHUNK}")] = steps[start : start + CHUNK]
    with contextlib.suppress(RedisError):
        cache.set_many(values, CACHE_SECONDS)


def _steps_for(
    game: TableGame, table: Any, seat: Seat | None, step: int | None
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """The move list and step ``step`` (None: the last), from the cache or a rebuild."""
    moves_key = _key(game, table, seat, "moves")
    if step is not None:
        chunk_key = _key(game, table, seat, f"chunk-{step // CHUNK}")
        found = soft_get_many([moves_key, chunk_key])
        if moves_key in found and chunk_key in found:
            moves: list[dict[str, Any]] = found[moves_key]
            chunk = found[chunk_key]
            index = step % CHUNK
            return moves, chunk[index] if index < len(chunk) else None
    initial = (
        game.table_model._default_manager.filter(pk=table.pk)
        .values_list("initial", flat=True)
        .first()
    )
    if not initial:
        raise ValidationError(
            {"step": [gettext("This game has not started: there is nothing to replay.")]}
        )
    steps, _ = build_steps(game, initial, log_rows(game, table), seat)
    _store(game, table, seat, steps)
    chosen = len(steps) - 1 if step is None else step
    return [s["move"] for s in steps[1:]], steps[chosen] if chosen < len(steps) else None


def table_replay_step(
    game: TableGame,
    *,
    table_id: Any,
    user: Viewer,
    step: int | None = None,
    moves_after: int = 0,
    limit: int = MOVES_PAGE,
) -> dict[str, Any]:
    """Step ``step`` (None: the last) of the table's replay as ``user`` may see it, with the
    number of steps and a page of the move list (moves after ``moves_after``, at most
    ``limit``); 404 when she may not see the table, 400 for a step it does not have.
    ``game`` may be any game of the table's model."""
    table, seat = table_for(game, user, table_id, reading=True)
    game = game_of(table)
    limit = max(1, min(int(limit), MOVES_PAGE_MAX))
    moves_after = max(int(moves_after), 0)
    moves, found = _steps_for(game, table, seat, step)
    count = len(moves)
    if found is None:
        raise ValidationError(
            {
                "step": [
                    gettext("There is no step %(step)s: this replay has steps 0 to %(count)s.")
                    % {"step": step, "count": count}
                ]
            }
        )
    page = moves[moves_after : moves_after + limit]
    more = moves_after + limit < count
    return {
        "step": count if step is None else step,
        "steps": count,
        "version": table.version,
        "seat": seat,
        "finished": table.status == TableStatus.ENDED,
        **step_in_language(found),
        "moves": [move_in_language(move) for move in page],
        "next_after": moves_after + len(page) if more else None,
    }
