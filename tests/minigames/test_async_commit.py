"""Issue 15: only a plain move commits without waiting for the WAL flush. A tavern move that
writes other rows (the pot paid at the end, a bot asked to move) waits for it, in one
transaction with them; a plain move (nothing but the table and its log row) does not, as a
battle's. The WAL is written in order, so the payout's flush makes every move before it
durable too."""

from __future__ import annotations

import pytest

from characters.models import Character
from minigames.engines.registry import get_engine
from minigames.models import TavernAction
from tests.commit_modes import recording

from .conftest import play_out, two_humans


@pytest.mark.django_db(transaction=True)
def test_a_staked_game_and_its_payout_wait_for_the_flush(
    campaign, player, other_player, reimu, marisa
):
    with recording(TavernAction) as modes:
        table = two_humans(
            "rso", player, other_player, campaign=campaign, stake=50,
            host_character=reimu, guest_character=marisa,
        )  # fmt: skip
        state = play_out(table, {0: player, 1: other_player})
        moves = modes.read()
    yen = dict(Character.objects.filter(pk__in=[reimu.pk, marisa.pk]).values_list("pk", "yen"))
    assert sum(yen.values()) == 350  # 200 + 150: the pot of 100 was paid out, nothing lost
    assert sorted(yen.values()) != [100, 150]  # the stakes are held no longer: paid out or returned
    assert get_engine("rso").is_terminal(state)
    assert len(moves) == table.actions.count() > 0
    assert moves[-1][1] == "on"  # the move that ended the game and paid the pot
    assert {mode for _, mode in moves} == {"on", "off"}  # and the plain ones before it
