"""The view endpoint runs a fixed number of queries however many combatants there are, and an
unchanged poll costs at most one small one (the version with the role). Authentication's token
lookup is not counted: it is answered from the cache (tests/accounts/test_token_cache.py) except
just after a change to the user or the token."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apibase.cache_redis import default_redis
from battles import services
from campaign.table_access import role_key
from tests.battles.conftest import build_battle

pytestmark = pytest.mark.django_db


def _started(campaign, gm, characters, npcs):
    battle = build_battle(campaign, gm, characters, npcs=npcs, width=12, height=10)
    services.battle_action_apply(
        battle_id=battle.pk, actor=gm, action={"type": "start"}, expected_version=battle.version
    )
    battle.refresh_from_db()
    return battle


def _queries(client, url):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code in (200, 204)
    return len(_counted(ctx.captured_queries)), response


def _counted(queries):
    return [q for q in queries if "authtoken_token" not in q["sql"]]


def test_view_queries_do_not_grow_with_combatants(
    campaign, gm, player, character, other_character, api_for
):
    small = _started(campaign, gm, [character], npcs=1)
    large = _started(campaign, gm, [character, other_character], npcs=8)
    api = api_for(player)
    counts = {}
    redis = default_redis()
    assert redis is not None
    for label, battle in (("small", small), ("large", large)):
        url = f"/api/battles/{battle.pk}/state/"
        # The fixtures' membership changes leave a mark that keeps her role out of the cache
        # for a few seconds (campaign/table_access.py): clear it, so both battles start alike
        # however long the setup took, and the full read below caches the role for both.
        redis.client.delete(role_key(campaign.pk, player.pk))
        api.get(url)  # warm the token cache and the role alike
        counts[label] = _queries(api, url)[0]
        unchanged, response = _queries(api, f"{url}?since={battle.version}")
        assert response.status_code == 204
        assert unchanged <= 1  # version with the membership's role, or none (tables/heads.py)
        counts[label + "-unchanged"] = unchanged
    assert counts["small"] == counts["large"], counts
    assert counts["small-unchanged"] == counts["large-unchanged"]


def test_the_view_query_count_is_pinned(started, player, api_for, django_assert_max_num_queries):
    api = api_for(player)
    url = f"/api/battles/{started.battle.pk}/state/"
    # (token auth,) version + campaign + role, state, log rows (then cached per version)
    with django_assert_max_num_queries(4):
        assert api.get(url).status_code == 200


def test_applying_a_move_runs_a_fixed_number_of_queries(
    campaign, gm, character, other_character, api_for
):
    """The row read (with the role), then the log row and the battle row in one version-checked
    statement (the token aside), however many combatants."""
    counts = []
    for npcs in (1, 8):
        battle = _started(campaign, gm, [character, other_character], npcs=npcs)
        api = api_for(gm)
        with CaptureQueriesContext(connection) as ctx:
            response = api.post(
                f"/api/battles/{battle.pk}/actions/",
                {
                    "action": {"type": "gm_adjust", "combatant": "npc1", "hp": -1},
                    "expected_version": battle.version,
                },
                format="json",
            )
        assert response.status_code == 201
        counts.append(
            len(
                [
                    q
                    for q in _counted(ctx.captured_queries)
                    if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))
                ]
            )
        )
    assert counts[0] == counts[1] <= 2, counts
