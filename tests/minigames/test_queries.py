"""A tavern move reads its table row once (the core's read, with the user's campaign role and
the names its answer shows), and its answer is built from what that read and the engine hold:
nothing is read back. Its queries are pinned, and the same however many seats the table has
and however long its log is. The token lookup is not counted (answered from the cache)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from minigames import services
from tests.minigames.conftest import character, three_humans_at_war, two_humans

pytestmark = pytest.mark.django_db

#: The table row read (with the role, the names and the seats), then the move's one statement:
#: as a battle's move (tests/battles/test_queries.py).
MOVE_QUERIES = 2
#: A move that passes the turn also ends the notification service's open turn of the seat it
#: leaves (its lookup), in one transaction with the move (a savepoint and its release under
#: the test's transaction), as a battle's does.
TURN_ENDS = 3


def _counted(queries: list[dict[str, Any]]) -> list[str]:
    return [q["sql"] for q in queries if "authtoken_token" not in q["sql"]]


def _move(api: Any, table_id: int) -> tuple[list[str], Any]:
    """The first legal move of whoever the table waits on, through the API."""
    payload = api.get(f"/api/tavern/tables/{table_id}/state/").json()
    with CaptureQueriesContext(connection) as ctx:
        response = api.post(
            f"/api/tavern/tables/{table_id}/actions/",
            {"action": payload["moves"][0]["action"], "expected_version": payload["version"]},
            format="json",
        )
    assert response.status_code == 201, response.content
    return _counted(ctx.captured_queries), response


def _mover(apis: dict[int, Any], table_id: int) -> Any:
    for api in apis.values():
        if api.get(f"/api/tavern/tables/{table_id}/state/").json()["moves"]:
            return api
    raise AssertionError("nobody may move")


def _counts(table: Any, apis: dict[int, Any], moves: int) -> list[int]:
    counts = []
    for _ in range(moves):
        sql, _ = _move(_mover(apis, table.pk), table.pk)
        reads = [q for q in sql if q.startswith("SELECT") and '"minigames_taverntable"' in q]
        reads = [q for q in reads if q.index('"minigames_taverntable"') < q.index(" WHERE ")]
        assert len(reads) == 1, reads  # the core's one read of the row
        counts.append(len(sql))
    return counts


def test_a_move_reads_its_table_once_whatever_the_seats_and_the_log(
    player, other_player, outsider, api_for
):
    apis = {u.pk: api_for(u) for u in (player, other_player, outsider)}
    two = two_humans("spirit_war", player, other_player)
    three = three_humans_at_war(player, other_player, outsider)
    counts_two = _counts(two, apis, 6)
    counts_three = _counts(three, apis, 6)
    # a plain move and one that passes the turn are pinned, whatever the seats and however
    # many moves came before
    assert min(counts_two) == min(counts_three) == MOVE_QUERIES, (counts_two, counts_three)
    assert max(counts_two) == max(counts_three) == MOVE_QUERIES + TURN_ENDS, (
        counts_two,
        counts_three,
    )


def test_a_campaign_tables_move_reads_the_role_with_the_row(
    campaign, player, other_player, api_for
):
    reimu = character(player, campaign, "Reimu", 200)
    marisa = character(other_player, campaign, "Marisa", 150)
    table = two_humans(
        "raigo",
        player,
        other_player,
        campaign=campaign,
        host_character=reimu,
        guest_character=marisa,
        stake=5,
    )
    apis = {u.pk: api_for(u) for u in (player, other_player)}
    sql, response = _move(_mover(apis, table.pk), table.pk)
    assert not [q for q in sql if q.startswith("SELECT") and '"campaign_membership"' in q[:80]]
    # and the portraits' access (one per campaign)
    assert len(sql) <= MOVE_QUERIES + TURN_ENDS + 1, sql
    payload = response.json()
    assert payload["table"]["campaign_name"] == campaign.name
    assert payload["table"]["host"] == player.shown_name


def test_the_answer_is_the_read_after_it(player, other_player, api_for):
    apis = {u.pk: api_for(u) for u in (player, other_player)}
    table = two_humans("rso", player, other_player)
    api = _mover(apis, table.pk)
    _, response = _move(api, table.pk)
    assert response.json() == api.get(f"/api/tavern/tables/{table.pk}/state/").json()
    assert services.TavernTable.objects.get(pk=table.pk).version == response.json()["version"]


def test_an_unchanged_poll_is_one_query_and_a_changed_one_two(
    campaign, player, other_player, api_for
):
    """The row with the viewer's role and seat (or nothing: the fast poll, below); a changed
    table adds its state, and the seats its payload shows."""
    open_table = two_humans("raigo", player, other_player)
    reimu = character(player, campaign, "Reimu", 200)
    marisa = character(other_player, campaign, "Marisa", 150)
    campaign_table = two_humans(
        "raigo", player, other_player, campaign=campaign, host_character=reimu,
        guest_character=marisa,
    )  # fmt: skip
    api = api_for(player)
    for table in (open_table, campaign_table):
        url = f"/api/tavern/tables/{table.pk}/state/"
        version = api.get(url).json()["version"]
        with CaptureQueriesContext(connection) as ctx:
            assert api.get(f"{url}?since={version}").status_code == 204
        # at most the row (an open table's head, which the start wrote, answers from Redis)
        assert len(_counted(ctx.captured_queries)) <= 1, ctx.captured_queries
        with CaptureQueriesContext(connection) as ctx:
            assert api.get(f"{url}?since={version - 1}").status_code == 200
        changed = _counted(ctx.captured_queries)
        assert len(changed) <= 4, changed  # row, state, seats, (campaign: portraits' access)


def test_an_unchanged_poll_is_answered_from_the_tables_head_and_never_stale(
    campaign, player, other_player, outsider, api_for
):
    """The core's fast poll, as the battle's (tables/heads.py): an unchanged table's poll is
    answered from Redis with no query; a move moves the head before its commit, so the poll
    at the old version is answered in full at once; a deleted table is a 404."""
    table = two_humans("raigo", player, other_player)
    api = api_for(player)
    url = f"/api/tavern/tables/{table.pk}/state/"
    version = api.get(url).json()["version"]
    assert api.get(f"{url}?since={version}").status_code == 204
    with CaptureQueriesContext(connection) as ctx:
        assert api.get(f"{url}?since={version}").status_code == 204
    assert _counted(ctx.captured_queries) == [], ctx.captured_queries
    watcher = api_for(outsider)  # anyone signed in may watch an open table
    assert watcher.get(f"{url}?since={version}").status_code == 204
    _move(_mover({u.pk: api_for(u) for u in (player, other_player)}, table.pk), table.pk)
    changed = api.get(f"{url}?since={version}")
    assert changed.status_code == 200 and changed.json()["version"] == version + 1
    assert api.get(f"{url}?since={version + 1}").status_code == 204
    services.TavernTable.objects.filter(pk=table.pk).delete()
    assert api.get(f"{url}?since={version + 1}").status_code == 404


def test_a_campaign_tables_poll_from_its_head_refuses_who_left(
    campaign, player, other_player, api_for
):
    """A member's role is read with the head (cached by a poll of the campaign's battles);
    once she leaves the campaign her very next poll asks the database (the role's entry is
    marked on the change) and is a 404."""
    from apibase.cache_redis import default_redis
    from campaign.table_access import role_key

    table = two_humans("raigo", player, other_player, campaign=campaign)
    api = api_for(other_player)
    url = f"/api/tavern/tables/{table.pk}/state/"
    version = api.get(url).json()["version"]
    assert api.get(f"{url}?since={version}").status_code == 204  # the head, from the database
    # what a battle poll of the campaign leaves (set outright: the membership just made
    # holds its five-second mark, which a poll's remembering would respect)
    redis = default_redis()
    assert redis is not None
    redis.client.set(role_key(campaign.pk, other_player.pk), "player", ex=60)
    with CaptureQueriesContext(connection) as ctx:
        assert api.get(f"{url}?since={version}").status_code == 204
    assert _counted(ctx.captured_queries) == [], ctx.captured_queries
    campaign.memberships.filter(user=other_player).delete()
    assert api.get(f"{url}?since={version}").status_code == 404
