"""The move and the poll on their fast paths (issue 15): a move is one read and one
version-checked write whatever the size of the battle or of its log; an unchanged poll is one
indexed query besides authentication; views are cached per version, so a changed battle is
never answered with 204 or with an older view, and each viewer gets her own."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles import services
from battles.models import BattleAction
from tables import heads
from tables.services import table_replay
from tests.battles.conftest import build_battle

pytestmark = pytest.mark.django_db


def _sql(ctx: CaptureQueriesContext) -> list[str]:
    """The statements run, the token lookup aside (answered from the cache but just after a
    change to the user or the token: tests/accounts/test_token_cache.py)."""
    return [
        q["sql"]
        for q in ctx.captured_queries
        if not q["sql"].startswith(("SAVEPOINT", "RELEASE", "BEGIN", "COMMIT"))
        and "authtoken_token" not in q["sql"]
    ]


def _settled(battle, *users) -> None:
    """As if the memberships had been made a minute ago: their change marks expired."""
    cache.delete_many([f"campaign-role:{battle.campaign_id}:{u.pk}" for u in users])


def _started(campaign, gm, characters, npcs):
    battle = build_battle(campaign, gm, characters, npcs=npcs, width=12, height=10)
    services.battle_action_apply(
        battle_id=battle.pk, actor=gm, action={"type": "start"}, expected_version=battle.version
    )
    battle.refresh_from_db()
    return battle


def _adjust(api, battle, version):
    return api.post(
        f"/api/battles/{battle.pk}/actions/",
        {
            "action": {"type": "gm_adjust", "combatant": "npc1", "hp": -1},
            "expected_version": version,
        },
        format="json",
    )


def _sent(into: list[tuple[str, Any]]) -> Any:
    """An execute wrapper that records each statement with its parameters."""

    def record(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        into.append((sql, params))
        return execute(sql, params, many, context)

    return record


def test_a_move_is_one_read_and_one_version_checked_write_as_the_battle_and_its_log_grow(
    campaign, gm, character, other_character, api_for
):
    api = api_for(gm)
    shapes = []
    for npcs, moves_before in ((1, 0), (8, 25)):
        battle = _started(campaign, gm, [character, other_character], npcs=npcs)
        for _ in range(moves_before):  # a longer log
            battle.refresh_from_db()
            assert _adjust(api, battle, battle.version).status_code == 201
        battle.refresh_from_db()
        sent: list[tuple[str, Any]] = []
        with CaptureQueriesContext(connection) as ctx, connection.execute_wrapper(_sent(sent)):
            response = _adjust(api, battle, battle.version)
        assert response.status_code == 201, response.content
        sql = _sql(ctx)
        # no transaction of its own (the test's own is outside): one statement is atomic
        assert not [q for q in ctx.captured_queries if q["sql"].startswith("SAVEPOINT")]
        reads = [s for s in sql if s.startswith("SELECT")]
        writes = [s for s in sql if s.startswith(("INSERT", "UPDATE", "WITH", "DELETE"))]
        assert len(reads) == 1 and '"campaign_battle"' in reads[0]
        assert "FOR UPDATE" not in reads[0]  # the write checks the version instead
        # the role comes with the row, not from a query of its own
        assert "campaign_membership" in reads[0]
        assert len(writes) == 1 and writes[0].startswith('WITH updated AS (UPDATE "campaign_')
        # the version read is the write's condition (a parameter bound on the server; logged
        # as "$n" the first times, then, prepared, with its value: config/postgresql/base.py)
        found = re.search(r'"version" = (\$?)(\d+) RETURNING 1\) INSERT INTO', writes[0])
        assert found is not None, writes[0]
        params = next(p for q, p in sent if q.startswith("WITH updated"))
        bound = params[int(found.group(2)) - 1] if found.group(1) else int(found.group(2))
        assert bound == battle.version
        shapes.append(len(sql))
    assert shapes[0] == shapes[1] == 2, shapes  # the read, the write


def test_the_one_statement_write_keeps_log_and_state_in_step(campaign, gm, character, api_for):
    battle = _started(campaign, gm, [character], npcs=2)
    api = api_for(gm)
    for _ in range(3):
        battle.refresh_from_db()
        assert _adjust(api, battle, battle.version).status_code == 201
    battle.refresh_from_db()
    rows = list(BattleAction.objects.filter(battle=battle).order_by("seq"))
    # setup is not logged; from the start on, one row per version, the last one this one
    assert [r.seq for r in rows] == list(range(rows[0].seq, battle.version + 1))
    assert len(rows) == 4  # the start and three moves
    assert rows[-1].version_after == battle.version
    assert rows[-1].created_at is not None and rows[-1].actor_id == gm.pk
    assert services.engine.ENGINE.to_json(table_replay(services.BATTLE_GAME, battle)) == (
        battle.state
    )


def test_an_unchanged_poll_is_answered_from_the_cache_or_one_query(
    campaign, gm, player, character, other_character, api_for
):
    counts = []
    for npcs in (1, 8):
        battle = _started(campaign, gm, [character, other_character], npcs=npcs)
        api = api_for(player)
        url = f"/api/battles/{battle.pk}/state/?since={battle.version}"
        _settled(battle, player)
        # head_key is already the cache's full key: deleted through the client, not cache.delete
        cache._cache.get_client(write=True).delete(heads.head_key("battles.battle", battle.pk))
        with CaptureQueriesContext(connection) as ctx:
            assert api.get(url).status_code == 204  # no head cached: the database
        sql = _sql(ctx)
        assert len(sql) == 1
        assert "campaign_membership" in sql[0] and '"campaign_battle"' in sql[0]
        with CaptureQueriesContext(connection) as ctx:
            response = api.get(url)  # the head and the role from Redis
        assert response.status_code == 204
        assert response["X-Table-Version"] == str(battle.version)
        counts.append(len(_sql(ctx)))
    assert counts == [0, 0]


def test_a_changed_battle_is_never_answered_204_nor_with_an_older_view(
    campaign, gm, player, character, api_for
):
    battle = _started(campaign, gm, [character], npcs=2)
    gm_api, player_api = api_for(gm), api_for(player)
    view = f"/api/battles/{battle.pk}/state/"
    seen = battle.version
    first = player_api.get(view).json()  # cached under this version
    assert first["version"] == seen
    assert _adjust(gm_api, battle, seen).status_code == 201
    polled = player_api.get(f"{view}?since={seen}")
    assert polled.status_code == 200
    assert polled.json()["version"] == seen + 1
    assert player_api.get(view).json()["version"] == seen + 1
    # a change outside play (the GM's override through a service) is a new version too
    services.battle_action_apply(
        battle_id=battle.pk,
        actor=gm,
        action={"type": "gm_adjust", "combatant": "npc1", "hp": -1},
        expected_version=seen + 1,
    )
    assert player_api.get(f"{view}?since={seen + 1}").status_code == 200
    assert player_api.get(view).json()["version"] == seen + 2


def test_a_setup_change_is_seen_at_once(campaign, gm, character, api_for):
    battle = build_battle(campaign, gm, [character], npcs=1)
    api = api_for(gm)
    view = f"/api/battles/{battle.pk}/state/"
    before = api.get(view).json()
    services.battle_square_set(battle_id=battle.pk, by=gm, square=[3, 3], terrain="blocked")
    after = api.get(view).json()
    assert after["version"] == before["version"] + 1
    assert after != before


def test_each_viewer_gets_her_own_cached_view(campaign, gm, player, outsider, character, api_for):
    battle = _started(campaign, gm, [character], npcs=2)
    view = f"/api/battles/{battle.pk}/state/"
    gm_view = api_for(gm).get(view).json()["view"]
    player_view = api_for(player).get(view).json()["view"]
    assert gm_view["you"]["player"] == "gm"
    assert player_view["you"]["player"] == str(player.pk)
    assert player_view != gm_view
    assert api_for(outsider).get(view).status_code == 404
    assert api_for(outsider).get(f"{view}?since={battle.version}").status_code == 404


def test_a_cached_poll_is_never_stale_nor_shared(
    campaign, gm, player, outsider, character, api_for
):
    """The head and the role in Redis (tables/heads.py): a move, a removal and an outsider are
    each answered right on the very next poll."""
    from campaign.models import Membership

    battle = _started(campaign, gm, [character], npcs=2)
    gm_api, player_api = api_for(gm), api_for(player)
    view = f"/api/battles/{battle.pk}/state/"
    seen = battle.version
    _settled(battle, gm, player, outsider)
    assert player_api.get(f"{view}?since={seen}").status_code == 204  # fills head and role
    assert player_api.get(f"{view}?since={seen}").status_code == 204  # from Redis
    # the GM's move (through the API) and a service's override: each seen at once
    assert _adjust(gm_api, battle, seen).status_code == 201
    assert player_api.get(f"{view}?since={seen}").status_code == 200
    services.battle_action_apply(
        battle_id=battle.pk,
        actor=gm,
        action={"type": "gm_adjust", "combatant": "npc1", "hp": -1},
        expected_version=seen + 1,
    )
    assert player_api.get(f"{view}?since={seen + 1}").status_code == 200
    # an older version read by a slow poll never moves the head back
    heads.remember("battles.battle", battle.pk, seen, heads.scope_of(battle))
    assert player_api.get(f"{view}?since={seen + 1}").status_code == 200
    assert player_api.get(f"{view}?since={seen + 2}").status_code == 204
    # an outsider is refused, from the database and then from her cached (absent) role
    outsider_api = api_for(outsider)
    for _ in range(2):
        assert outsider_api.get(f"{view}?since={seen + 2}").status_code == 404
    # a removed member is refused on her very next poll
    Membership.objects.get(campaign=campaign, user=player).delete()
    assert player_api.get(f"{view}?since={seen + 2}").status_code == 404


def test_a_deleted_battle_is_not_answered_from_its_head(campaign, gm, character, api_for):
    battle = build_battle(campaign, gm, [character], npcs=1)
    api = api_for(gm)
    url = f"/api/battles/{battle.pk}/state/?since={battle.version}"
    _settled(battle, gm)
    assert api.get(url).status_code == 204
    assert api.get(url).status_code == 204
    services.battle_delete(battle_id=battle.pk, by=gm)
    assert api.get(url).status_code == 404


def test_the_api_sends_the_cached_view_as_encoded_and_it_equals_the_view(
    campaign, gm, player, character, api_for
):
    """The view API passes the cached JSON through (apibase/renderers.py): for each viewer the
    body is the view her page gets from the selector, map included, with the right type."""
    from battles import selectors

    battle = _started(campaign, gm, [character], npcs=2)
    url = f"/api/battles/{battle.pk}/state/"
    for user in (gm, player):
        for _ in range(2):  # built and stored, then from the cache
            response = api_for(user).get(url)
            assert response.status_code == 200
            assert response["Content-Type"] == "application/json"
            body = response.json()
            assert body == selectors.battle_state(battle.pk, user)
            assert "map" in body["view"] and body["version"] == battle.version
    key = selectors.view_cache_key(battle.pk, battle.version, "gm", 0)
    assert isinstance(cache.get(key), bytes)


def _script_calls(client: Any) -> dict[str, int]:
    stats = client.info("commandstats")
    return {name: stats.get(f"cmdstat_{name}", {}).get("calls", 0) for name in ("eval", "evalsha")}


def test_the_hot_paths_scripts_go_by_their_sha1_and_survive_a_flushed_server(
    campaign, gm, character, api_for
):
    """A move (the token's script, then the head's) and a poll (the poll's script) send their
    Lua scripts by SHA1 (``apibase.cache_redis.lua``), never whole; after ``SCRIPT FLUSH`` (a
    restarted or new Redis) each is loaded again and answers the same."""
    from rest_framework.authtoken.models import Token

    from accounts.token_cache import _COUNTED_SCRIPT, token_cache_key

    battle = _started(campaign, gm, [character], npcs=2)
    api = api_for(gm)
    cache.delete_many(
        [token_cache_key(Token.objects.get(user=gm).key), f"auth-user-changed:{gm.pk}"]
    )
    _settled(battle, gm)
    client = cache._cache.get_client(write=True)
    scripts = (_COUNTED_SCRIPT, heads._FORWARD_SCRIPT, heads._POLL_SCRIPT)
    for flushed in (False, True):
        battle.refresh_from_db()
        assert _adjust(api, battle, battle.version).status_code == 201  # fills the caches
        if flushed:
            client.script_flush()
        before = _script_calls(client)
        with CaptureQueriesContext(connection) as ctx:
            moved = _adjust(api, battle, battle.version + 1)
            polled = api.get(f"/api/battles/{battle.pk}/state/?since={battle.version + 2}")
        after = _script_calls(client)
        assert moved.status_code == 201 and polled.status_code == 204
        assert polled["X-Table-Version"] == str(battle.version + 2)
        assert not any("authtoken_token" in q["sql"] for q in ctx.captured_queries)
        assert after["eval"] == before["eval"]  # no script sent whole
        assert after["evalsha"] - before["evalsha"] >= 3  # the token's, the head's, the poll's
        assert all(client.script_exists(*(s.sha for s in scripts)))


def test_the_moves_statements_are_prepared_on_the_server_and_still_logged_with_their_text(
    campaign, gm, character, api_for
):
    """``prepare_threshold`` (config/settings/base.py): after a few moves PostgreSQL runs the
    move's read and write as prepared statements (no parsing and planning each time), and
    the debug log still shows what ran (config/postgresql/base.py)."""
    battle = _started(campaign, gm, [character], npcs=2)
    api = api_for(gm)
    with CaptureQueriesContext(connection) as ctx:
        for _ in range(8):
            battle.refresh_from_db()
            assert _adjust(api, battle, battle.version).status_code == 201
    assert all(q["sql"] for q in ctx.captured_queries)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any(s.startswith('WITH updated AS (UPDATE "campaign_battle"') for s in prepared)
    assert any('FROM "campaign_battle"' in s and s.startswith("SELECT") for s in prepared), prepared
