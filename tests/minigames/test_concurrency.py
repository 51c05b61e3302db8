"""Two players ask for a rematch of a finished table at the same instant: one table is made
(201), the other request answers it (200).

Real threads, each with its own database connection, on a committed (transactional) test
database, released together by a barrier: the finished table's row lock decides, not the
test's timing."""

from __future__ import annotations

import pytest

from minigames import services
from minigames.models import TavernTable
from tests.at_once import at_once

from .conftest import two_humans

pytestmark = pytest.mark.django_db(transaction=True)


def _race(clients, url):
    """Each client POSTs ``url`` at the same instant: their (status, table id) answers."""

    def ask(api):
        response = api.post(url)
        return response.status_code, response.json()["id"]

    return at_once([lambda a=a: ask(a) for a in clients])


def test_two_rematches_asked_at_once_make_one_table(api_for, player, other_player):
    for _ in range(3):
        table = two_humans("raigo", player, other_player)
        services.tavern_resign(table_id=table.pk, by=player)
        answers = _race(
            [api_for(player), api_for(other_player)], f"/api/tavern/tables/{table.pk}/rematch/"
        )
        made = list(TavernTable.objects.filter(rematch_of=table).values_list("pk", flat=True))
        assert len(made) == 1
        assert answers == [(200, made[0]), (201, made[0])]
