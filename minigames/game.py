"""The four tavern games registered with the table core (docs/architecture.md, "How a new
game plugs in"): one :class:`tables.registry.TableGame` per engine slug, all on the same
:class:`~minigames.models.TavernTable` model.

Because the four share one model, each registration's ``seat_of`` first checks that the table
is a table of *its* game (404 otherwise), so a RAIGO table cannot be played through the Spirit
War endpoints.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

from django.core.exceptions import ValidationError
from django.http import Http404
from django.utils.translation import gettext, gettext_noop

from apibase.engine_words import in_language
from campaign.table_access import CAMPAIGN_AUDIENCE, campaign_notice
from minigames.engines.registry import ENGINE_MODULES, get_engine
from notifications import texts
from tables.models import TableStatus
from tables.registry import TableAccess, TableGame, TableHooks, register
from westernroses.words import Words, listing

from .models import TavernAction, TavernSeat, TavernTable, seat_words, seats_of


def may_watch(user: Any, table: TavernTable) -> bool:
    """Who may see a table at all: members of its campaign, or anyone signed in (open). A
    row read with the user's role (:func:`seat_columns`, the core's move read) answers
    without a query of its own."""
    if not getattr(user, "is_authenticated", False):
        return False
    if table.campaign_id is None:
        return True
    from campaign.permissions import access_for, access_from_row

    access = access_from_row(table, user, table.campaign_id)
    return (access or access_for(user, table.campaign_id)).can_view


def seat_columns(user: Any) -> dict[str, Any]:
    """Read with the table's row (the core's move read): the acting user's campaign role, and
    the host's and the campaign's names the move's answer shows (:func:`host_name`)."""
    from django.db.models import F, OuterRef, Subquery, Value
    from django.db.models.functions import Coalesce, NullIf

    from campaign.permissions import role_column

    seat = TavernSeat.objects.filter(table_id=OuterRef("pk"), user_id=user.pk, resigned=False)
    return {
        **role_column(user),
        # the seat she plays (the lowest, as seat_index_of): her seat without a query
        f"tavern_seat_of_{user.pk}": Subquery(seat.order_by("index").values("index")[:1]),
        "tavern_host_name": Coalesce(NullIf(F("host__display_name"), Value("")), "host__username"),
        "tavern_campaign_name": F("campaign__name"),
        **_seats_column(),
    }


#: What of a seat, her user and her character the row's read brings (:func:`table_seats`):
#: the seat's own columns, and what names, portraits and their access need.
_SEAT_USER: Final = ("id", "username", "display_name")
_SEAT_CHARACTER: Final = ("id", "name", "portrait", "owner_id", "campaign_id")


def _seats_column() -> dict[str, Any]:
    """The table's seats as one JSON array read with its row (PostgreSQL; elsewhere the
    seats are their own query): a move reads its table once, seats and all."""
    from django.contrib.postgres.aggregates import JSONBAgg
    from django.db import connections, router
    from django.db.models import F, OuterRef, Subquery
    from django.db.models.functions import JSONObject

    if connections[router.db_for_read(TavernSeat)].vendor != "postgresql":
        return {}
    fields = {f.attname: F(f.attname) for f in TavernSeat._meta.concrete_fields}
    fields |= {f"user__{n}": F(f"user__{n}") for n in _SEAT_USER}
    fields |= {f"character__{n}": F(f"character__{n}") for n in _SEAT_CHARACTER}
    seats = (
        TavernSeat.objects.filter(table_id=OuterRef("pk"))
        .order_by()
        .values("table_id")
        .annotate(seats=JSONBAgg(JSONObject(**fields), order_by="index"))
        .values("seats")
    )
    return {"tavern_seats_json": Subquery(seats)}


def _seats_from(rows: list[dict[str, Any]]) -> list[TavernSeat]:
    """The seats :func:`_seats_column` read, as model instances (their users and characters
    hold what was read; any other field is loaded on use, as a deferred one is)."""
    from django.contrib.auth import get_user_model

    from characters.models import Character

    def instance(model: Any, row: dict[str, Any], prefix: str, names: tuple[str, ...]) -> Any:
        if row.get(f"{prefix}id") is None:
            return None
        fields = [f.attname for f in model._meta.concrete_fields if f.attname in names]
        return model.from_db("default", fields, [row[f"{prefix}{n}"] for n in fields])

    seats = []
    for row in rows:
        own = [f.attname for f in TavernSeat._meta.concrete_fields]
        seat = TavernSeat.from_db("default", own, [row[n] for n in own])
        seat.user = instance(get_user_model(), row, "user__", _SEAT_USER)
        seat.character = instance(Character, row, "character__", _SEAT_CHARACTER)
        seats.append(seat)
    return seats


def host_name(table: TavernTable) -> str:
    """The host's shown name (from the row when the move read it with her)."""
    found = table.__dict__.get("tavern_host_name")
    return str(found) if found is not None else table.host.shown_name


def campaign_name(table: TavernTable) -> str:
    """The table's campaign's name, or empty (from the row when the move read it with it)."""
    if table.campaign_id is None:
        return ""
    found = table.__dict__.get("tavern_campaign_name")
    if found is not None:
        return str(found)
    return table.campaign.name if table.campaign is not None else ""


def table_seats(table: TavernTable) -> list[TavernSeat]:
    """The table's seats, read once per table instance: a move's seat, its waits and its
    answer share one query."""
    seats = table.__dict__.get("_tavern_seats")
    if seats is None:
        read = table.__dict__.get("tavern_seats_json")  # read with the row (seat_columns)
        if isinstance(read, str | bytes):  # the driver leaves json text to its reader
            read = json.loads(read)
        seats = _seats_from(read or []) if "tavern_seats_json" in table.__dict__ else None
        seats = seats if seats is not None else seats_of(table)
        table.__dict__["_tavern_seats"] = seats
    return list(seats)


def forget_seats(table: TavernTable) -> None:
    """Drop the seats kept on ``table`` (the next :func:`table_seats` reads them whole)."""
    table.__dict__.pop("_tavern_seats", None)
    table.__dict__.pop("tavern_seats_json", None)


def seat_index_of(user: Any, table: TavernTable) -> int | None:
    """The seat ``user`` plays (not resigned), or None."""
    if not getattr(user, "is_authenticated", False):
        return None
    read = f"tavern_seat_of_{user.pk}"
    if read in table.__dict__:  # read with the row (seat_columns)
        found = table.__dict__[read]
        return None if found is None else int(found)
    if "_tavern_seats" in table.__dict__:
        return next(
            (s.index for s in table_seats(table) if s.user_id == user.pk and not s.resigned), None
        )
    row = (
        TavernSeat.objects.filter(table_id=table.pk, user_id=user.pk, resigned=False)
        .values_list("index", flat=True)
        .first()
    )
    return None if row is None else int(row)


def _seat_of(slug: str) -> Any:
    def seat_of(user: Any, table: TavernTable) -> int | None:
        if table.game != slug or not may_watch(user, table):
            raise Http404("No such table.")
        return seat_index_of(user, table)

    return seat_of


def _load(slug: str) -> Any:
    engine = get_engine(slug)

    def load(table: TavernTable, action: Any) -> Any:
        """The state a move applies to; a table not in play takes none (400)."""
        if table.status != TableStatus.ACTIVE:
            raise ValidationError({"action": [gettext("This game is not in progress.")]})
        return engine.from_json(table.state)

    return load


def seat_read(seat: int | None, resigned: bool, outcome: dict[str, Any]) -> int | None:
    """The seat whose view (and log) a player reads: the seat she plays, or the seat whose
    resignation ended the game (nothing came to it since); a seat a bot plays on after she
    resigned is not hers to read any more (None: the public view)."""
    if seat is None or (resigned and outcome.get("resigned") != seat):
        return None
    return seat


def _reader_seat_of(slug: str) -> Any:
    def reader_seat_of(user: Any, table: TavernTable) -> int | None:
        if table.game != slug or not may_watch(user, table):
            raise Http404("No such table.")
        if not getattr(user, "is_authenticated", False):
            return None
        row = (
            TavernSeat.objects.filter(table_id=table.pk, user_id=user.pk)
            .order_by("resigned", "index")  # the seat she plays first, as seat_index_of
            .values_list("index", "resigned")
            .first()
        )
        return None if row is None else seat_read(int(row[0]), row[1], table.outcome or {})

    return reader_seat_of


def players_of(table: TavernTable, seat: Any) -> list[int]:
    """The user to tell it is her turn: the human of that seat (none for a bot). From the
    table's seats, read once per table instance (a move asks before and after it)."""
    return [
        s.user_id
        for s in table_seats(table)
        if s.index == int(seat) and not s.bot and not s.resigned and s.user_id is not None
    ]


def table_url(table: TavernTable) -> str:
    return f"/tavern/tables/{table.pk}/"


def turn_title(table: TavernTable, seat: Any) -> texts.Words:
    """ "Your move at Spirit War with Marisa and Sakuya": the game, and the table by the others
    sitting at it (their names at the table: public). "Move", not "turn": the table may wait on
    her to answer a spell in someone else's turn, which the text tells (``tables.services``'s
    ``_wait_text``)."""
    seats = seats_of(table)
    others = [
        _text(n) for s, n in zip(seats, seat_words(seats), strict=True) if s.index != int(seat)
    ]
    if not others:
        return texts.gettext_lazy("Your move at %(game)s", game=table.game_title)
    return texts.gettext_lazy(
        "Your move at %(game)s with %(names)s", game=table.game_title, names=names_words(others)
    )


def _text(name: Words | str) -> texts.Words:
    """A seat's name (:func:`~minigames.models.seat_words`) as a notification's words: a
    bot's name in each recipient's language, a player's as written."""
    if isinstance(name, str):
        return name
    return texts.gettext_lazy(name.text, **{k: _text(v) for k, v in name.params.items()})


def names_words(names: Sequence[texts.Words]) -> texts.Words:
    """:func:`names_in_words` in the reader's language (for a notification)."""
    if len(names) == 1:
        return names[0]
    head = names[0]
    for name in names[1:-1]:
        head = texts.gettext_lazy("%(first)s, %(next)s", first=head, next=name)
    return texts.gettext_lazy("%(names)s and %(last)s", names=head, last=names[-1])


def names_in_words(names: Sequence[str]) -> str:
    """ "Marisa", "Marisa and Sakuya", "Reimu, Marisa and Sakuya" (at least one name), joined
    the way the reader's language joins a list."""
    return in_language(listing(list(names)))


def _payload(
    table: TavernTable, user: Any, seat: Any, state: Any, since: int | None
) -> dict[str, Any]:
    """The API's answer at a tavern table (:func:`minigames.selectors.payload_of`): the
    seat's payload and the table around it (seats, stakes, what she may do)."""
    from tables.clocks.services import clock_payload
    from tables.selectors import table_state

    from .selectors import payload_of

    if state is None:
        table_state(table)  # a poll's row was read without it
    data = payload_of(table, user, state)
    data["clock"] = clock_payload(table)  # the turn clock (tables/clocks), shown to everyone
    return data


def _rows_too(table: TavernTable, before: Any, after: Any) -> bool:
    """Whether a move writes more than the table (the core's one statement): a finished game
    pays its pot, and a table that now waits on a bot enqueues its move on commit."""
    engine = get_engine(table.game)
    if engine.is_terminal(after):
        return True
    waiting = set(engine.waiting_on(after))
    return any(s.bot and s.index in waiting for s in table_seats(table))


def _after_apply(table: TavernTable, before: Any, after: Any) -> list[str]:
    from .services import after_move

    return after_move(table, after)


def _replay_page(table: TavernTable, user: Any, seat: Any) -> dict[str, Any]:
    from .replay_page import replay_page

    return replay_page(table, user, seat)


def register_games() -> None:
    from tables.clocks.hooks import ClockHooks, register_clock_hooks
    from tables.undo.hooks import UndoHooks, register_undo_hooks

    from .services import tavern_clock_bot, tavern_forfeit, tavern_manages

    for slug in ENGINE_MODULES:
        register_clock_hooks(
            slug,
            ClockHooks(bot_action=tavern_clock_bot, forfeit=tavern_forfeit, manages=tavern_manages),
        )
        # undo is off at a staked or rated table unless the host allows it (tables/undo)
        register_undo_hooks(
            slug,
            UndoHooks(
                guarded=lambda t: bool(t.stake or (t.stakes or {}).get("held") or t.rated),
                host_of=lambda t: int(t.host_id),
            ),
        )
        register(
            TableGame(
                slug=slug,
                name=gettext_noop("table"),
                engine=get_engine(slug),
                table_model=TavernTable,
                action_model=TavernAction,
                access=TableAccess(
                    seat_of=_seat_of(slug),
                    players_of=players_of,
                    reader_seat_of=_reader_seat_of(slug),
                    seat_columns=seat_columns,
                    audience=CAMPAIGN_AUDIENCE,
                ),
                hooks=TableHooks(
                    url=table_url,
                    load=_load(slug),
                    after_apply=_after_apply,
                    after_apply_when=_rows_too,
                    turn_title=turn_title,
                    notice=campaign_notice(lambda table: table.campaign),
                    seat_from_text=int,
                    payload=_payload,
                    replay_page=_replay_page,
                ),
                table_filter={"game": slug},
            )
        )
