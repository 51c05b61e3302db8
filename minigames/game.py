"""The four tavern games registered with the table core (docs/architecture.md, "How a new
game plugs in"): one :class:`tables.registry.TableGame` per engine slug, all on the same
:class:`~minigames.models.TavernTable` model.

Because the four share one model, each registration's ``seat_of`` first checks that the table
is a table of *its* game (404 otherwise), so a RAIGO table cannot be played through the Spirit
War endpoints.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.http import Http404

from minigames.action_schemas import ACTIONS
from minigames.engines.registry import ENGINE_MODULES, get_engine
from tables.registry import TableGame, register

from .models import TavernAction, TavernSeat, TavernTable, seat_names, seats_of


def may_watch(user: Any, table: TavernTable) -> bool:
    """Who may see a table at all: members of its campaign, or anyone signed in (open)."""
    if not getattr(user, "is_authenticated", False):
        return False
    if table.campaign_id is None:
        return True
    from campaign.permissions import access_for

    return access_for(user, table.campaign_id).can_view


def seat_index_of(user: Any, table: TavernTable) -> int | None:
    """The seat ``user`` plays (not resigned), or None."""
    if not getattr(user, "is_authenticated", False):
        return None
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
    """The user to tell it is her turn: the human of that seat (none for a bot)."""
    return [
        uid
        for uid in TavernSeat.objects.filter(
            table_id=table.pk, index=int(seat), bot="", resigned=False, user__isnull=False
        ).values_list("user_id", flat=True)
        if uid is not None
    ]


def table_url(table: TavernTable) -> str:
    return f"/tavern/tables/{table.pk}/"


def turn_title(table: TavernTable, seat: Any) -> str:
    """ "Your move at Spirit War with Marisa and Sakuya": the game, and the table by the others
    sitting at it (their names at the table: public). "Move", not "turn": the table may wait on
    her to answer a spell in someone else's turn, which the text tells (``tables.services``'s
    ``_wait_text``)."""
    seats = seats_of(table)
    others = [n for s, n in zip(seats, seat_names(seats), strict=True) if s.index != int(seat)]
    if not others:
        return f"Your move at {table.game_title}"
    return f"Your move at {table.game_title} with {names_in_words(others)}"


def names_in_words(names: Sequence[str]) -> str:
    """ "Marisa", "Marisa and Sakuya", "Reimu, Marisa and Sakuya" (at least one name)."""
    return f"{', '.join(names[:-1])} and {names[-1]}" if len(names) > 1 else names[0]


def _after_apply(table: TavernTable, before: Any, after: Any) -> list[str]:
    from .services import after_move

    return after_move(table, after)


def register_games() -> None:
    for slug in ENGINE_MODULES:
        register(
            TableGame(
                slug=slug,
                name="table",
                engine=get_engine(slug),
                table_model=TavernTable,
                action_model=TavernAction,
                actions=ACTIONS[slug],
                seat_of=_seat_of(slug),
                reader_seat_of=_reader_seat_of(slug),
                players_of=players_of,
                url=table_url,
                campaign_of=lambda table: table.campaign,
                turn_title=turn_title,
                after_apply=_after_apply,
                seat_from_text=int,
            )
        )
