"""Rated tables: how a finished tavern game places its seats, and counting it once
(:func:`tables.ratings.services.rate_result`).

Who placed where comes from the engine's own result (the rules' words, cited per game):

* **RAIGO**: with four players the seats facing each other are one team (rulebook, "Player
  setup" 10: seats 0 and 2, 1 and 3); the side with the most Yang balls wins, a tie going to
  fewer Inner Tokens, a side out of Yang balls losing ("End of the game"). Every side is
  placed by that order (out last, then balls, then Inner Tokens); nobody winning is a draw.
* **Spirit War**: the Spirit King (or the survivors of a shared end) first; the others by
  when they were eliminated, the last out placed best.
* **RSO, DBS**: the winner first, the other second; no winner is a draw.

A seat that resigned (or ran out of time, or left) counts as a loss: its side is placed last,
whatever the bot that played on for it did (issue 39, "Ratings").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from minigames.engines.registry import get_engine


def _dense(keys: Sequence[Any]) -> list[int]:
    """Each key's rank, 0 the best (the smallest key); equal keys share a rank."""
    order = sorted(set(keys))
    return [order.index(k) for k in keys]


def placings(
    game: str,
    state: Any,
    seats: int,
    *,
    resigned: Sequence[int] = (),
    winners: Sequence[int] | None = None,
) -> list[tuple[list[int], int]]:
    """The sides (lists of seats) and their ranks (0 the best; equal ranks tie) of a finished
    game. ``winners`` given (a game ended by a resignation, not by the engine) places them
    first and the rest after; ``resigned`` seats place their sides last."""
    engine = get_engine(game)
    result = engine.result(state) if state is not None and engine.is_terminal(state) else {}
    # RAIGO at four: the seats facing each other are one team (rulebook, "Player setup" 10)
    teams = game == "raigo" and seats == 4
    sides = [[0, 2], [1, 3]] if teams else [[s] for s in range(seats)]
    if winners is not None:
        won = set(winners)
        ranks = [0 if set(side) & won else 1 for side in sides]
    elif game == "raigo":
        rows = {tuple(row["seats"]): row for row in result["sides"]}
        if not result["winners"]:
            ranks = [0] * len(sides)
        else:
            ranks = _dense(
                [
                    (
                        bool(rows[tuple(s)]["out"]),
                        -rows[tuple(s)]["balls"],
                        rows[tuple(s)]["inner_tokens"],
                    )
                    for s in sides
                ]
            )
    elif game == "spirit_war":
        won = set(result["winners"])
        out = list(result.get("eliminated_order") or [])
        # winners 0; then the rest, the last eliminated best (never eliminated: just after
        # the winners)
        ranks = _dense(
            [
                (0, 0) if s[0] in won else (1, -(out.index(s[0]) if s[0] in out else len(out)))
                for s in sides
            ]
        )
    else:
        returns = engine.returns(state)
        ranks = _dense([-returns[s[0]] for s in sides])
    gave_up = set(resigned)
    if gave_up:
        last = max(ranks) + 1
        ranks = [
            last if set(side) & gave_up else rank for side, rank in zip(sides, ranks, strict=True)
        ]
        ranks = _dense(ranks)
    return list(zip(sides, ranks, strict=True))


def _player(seat: Any) -> Any:
    """Whose rating a seat moves: its user's (even when a bot played on for her after she
    resigned), else its bot's; a resigned seat whose user is gone (her account deleted) moves
    nobody's, not the bot's that finished it."""
    from tables.ratings.services import Player

    if seat.user_id is not None:
        return Player(user_id=seat.user_id)
    if seat.resigned:
        return Player(gone=True)
    return Player(bot=seat.bot)


def result_key(table: Any) -> str:
    """The key a table's rated result is counted under (``minigames.taverntable:12``)."""
    return f"{table._meta.label_lower}:{table.pk}"


def rate_table(table: Any, state: Any) -> bool:
    """Count a finished rated tavern table (inside the transaction that ends it): its seats'
    players (the user of a seat, even one a bot played on for after she resigned; else the
    bot's strength) by their sides' placings, at the site's open tables or in the table's
    campaign. Once per table: False when it was counted before, or is not rated."""
    from tables.ratings.services import Team, rate_result

    from .game import table_url
    from .models import seats_of

    if not table.rated or table.abandoned:
        return False
    seats = seats_of(table)
    outcome = table.outcome or {}
    placed = placings(
        table.game,
        state,
        len(seats),
        resigned=[s.index for s in seats if s.resigned],
        winners=outcome.get("winners") if "resigned" in outcome else None,
    )
    players = {s.index: _player(s) for s in seats}
    return rate_result(
        key=result_key(table),
        game=table.game,
        campaign_id=table.campaign_id,
        teams=[Team(players=tuple(players[s] for s in side), rank=rank) for side, rank in placed],
        url=table_url(table),
        at=table.ended_at,
    )
