"""The move's version-checked write and the poll's one Redis script (issue 15) keep every
refusal: a write against a version that moved on applies nothing and is a 409; a poll whose
token was deleted, whose user was deactivated or whose token's stored id names someone else
is never answered from Redis."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token

from accounts.token_cache import token_cache_key, token_digest
from battles import services
from battles.models import Battle, BattleAction
from tables.errors import StaleVersion
from tables.services import log_and_save

pytestmark = pytest.mark.django_db


def _settled(battle, *users) -> None:
    settled_caches(battle.campaign_id, *users)


def settled_caches(campaign_id: Any, *users: Any) -> None:
    """As if the users, tokens and memberships had been made a minute ago (their change marks
    expired): the fast paths' caches of them start cold, as a poll long after they were made
    finds them (tests/battles/test_poll_round_trips.py too)."""
    keys = [f"campaign-role:{campaign_id}:{u.pk}" for u in users]
    keys += [f"auth-user-changed:{u.pk}" for u in users]
    for user in users:
        token, _ = Token.objects.get_or_create(user=user)
        keys.append(token_cache_key(token.key))
    cache.delete_many(keys)


def _poll(api, battle, version):
    return api.get(f"/api/battles/{battle.pk}/state/?since={version}")


def test_a_write_against_a_moved_on_version_applies_nothing(started, gm):
    battle = Battle.objects.get(pk=started.battle.pk)
    seen = battle.version
    services.battle_action_apply(  # someone else moves first
        battle_id=battle.pk,
        actor=gm,
        action={"type": "gm_adjust", "combatant": "npc1", "hp": -1},
        expected_version=seen,
    )
    stored = Battle.objects.get(pk=battle.pk)
    rows = BattleAction.objects.filter(battle=battle).count()
    # the late writer read version `seen` and writes as if it were still there
    battle.version = seen + 1
    battle.summary = "a move that must not land"
    entry = BattleAction(
        battle=battle,
        seq=seen + 1,
        actor=gm,
        seat="gm",
        action={"type": "gm_adjust", "combatant": "npc1", "hp": -5},
        events=[],
        version_after=seen + 1,
    )
    with pytest.raises(StaleVersion) as refused:
        log_and_save(
            entry, battle, ["summary", "version", "updated_at"], expected_version=seen, what="x"
        )
    assert refused.value.current == seen + 1
    after = Battle.objects.get(pk=battle.pk)
    assert (after.version, after.summary, after.state) == (
        stored.version,
        stored.summary,
        stored.state,
    )
    assert BattleAction.objects.filter(battle=battle).count() == rows  # no log row either


def test_a_stale_move_through_the_api_is_409_and_applies_nothing(started, gm, api_for):
    battle = started.refresh()
    api = api_for(gm)
    url = f"/api/battles/{battle.pk}/actions/"
    seen = battle.version
    body = {
        "action": {"type": "gm_adjust", "combatant": "npc1", "hp": -1},
        "expected_version": seen,
    }
    assert api.post(url, body, format="json").status_code == 201
    rows = BattleAction.objects.filter(battle=battle).count()
    stale = api.post(url, body, format="json")  # the same click again
    assert stale.status_code == 409
    assert stale.json()["version"] == seen + 1
    assert BattleAction.objects.filter(battle=battle).count() == rows
    assert started.refresh().version == seen + 1


def test_an_unchanged_poll_takes_token_head_and_role_from_redis(started, player, api_for):
    battle = started.refresh()
    api = api_for(player)
    _settled(battle, player)
    assert _poll(api, battle, battle.version).status_code == 204  # fills token, head, role
    with CaptureQueriesContext(connection) as ctx:
        response = _poll(api, battle, battle.version)
    assert response.status_code == 204
    assert response["X-Table-Version"] == str(battle.version)
    assert ctx.captured_queries == []


@pytest.mark.parametrize("revoke", ["delete the token", "deactivate the user"])
def test_a_poll_after_the_token_or_its_user_is_revoked_is_refused_at_once(
    started, player, api_for, revoke
):
    """The cached token and the Redis head answer polls without the database; revoking the
    token or deactivating its user must still refuse the very next poll."""
    battle = started.refresh()
    api = api_for(player)
    _settled(battle, player)
    for _ in range(2):
        assert _poll(api, battle, battle.version).status_code == 204
    if revoke == "delete the token":
        Token.objects.filter(user=player).delete()
    else:
        player.is_active = False
        player.save()
    assert _poll(api, battle, battle.version).status_code == 401


def test_a_token_whose_stored_id_names_someone_else_is_not_trusted(
    started, player, outsider, api_for
):
    battle = started.refresh()
    member, stranger = api_for(player), api_for(outsider)
    _settled(battle, player, outsider)
    assert _poll(member, battle, battle.version).status_code == 204
    assert _poll(stranger, battle, battle.version).status_code == 404
    # the outsider's token entry, with the player's id beside it (as a corrupted or
    # tampered cache might hold): her poll is answered for her, not for the player
    key = Token.objects.get(user=outsider).key
    cache.set(f"auth-token-user:{token_digest(key)}", player.pk, 60)
    assert _poll(stranger, battle, battle.version).status_code == 404
    assert _poll(member, battle, battle.version).status_code == 204


def test_the_compiled_read_answers_each_user_with_her_own_role(
    started, gm, player, outsider, api_for
):
    """The move's read is compiled once per user (tables.services._read): after the GM's
    moves, an outsider is still a 404 and a player still may not move the GM's piece (403),
    each answered from her own role, and nothing is written for them."""
    battle = started.refresh()
    url = f"/api/battles/{battle.pk}/actions/"

    def adjust(api):
        body = {
            "action": {"type": "gm_adjust", "combatant": "npc1", "hp": -1},
            "expected_version": started.refresh().version,
        }
        return api.post(url, body, format="json")

    gm_api, player_api, outsider_api = api_for(gm), api_for(player), api_for(outsider)
    for _ in range(2):
        assert adjust(gm_api).status_code == 201
        rows = BattleAction.objects.filter(battle=battle).count()
        assert adjust(outsider_api).status_code == 404
        assert adjust(player_api).status_code == 403
        assert BattleAction.objects.filter(battle=battle).count() == rows


def _state_view(battle: Battle) -> Any:
    """The core's state view the battle's ``state/`` route is bound to."""
    from django.urls import resolve

    return resolve(f"/api/battles/{battle.pk}/state/").func.view_class  # type: ignore[attr-defined]


def test_the_polls_script_counts_each_poll_against_the_api_rate_once(started, player, api_for):
    """With the API rate on, the poll's one script also counts the request (no round trip of
    the throttle's own), each poll exactly once against the polls' allowance (``poll``, not
    the rest of the API's), and the poll past it is a 429."""
    from django.test import override_settings
    from rest_framework.settings import api_settings

    from apibase.throttles import UserRateThrottle

    battle = started.refresh()
    api = api_for(player)
    _settled(battle, player)
    throttled = override_settings(
        REST_FRAMEWORK={
            **api_settings.user_settings,
            "DEFAULT_THROTTLE_RATES": {"user": "1/hour", "poll": "4/hour"},
        }
    )
    with throttled:
        assert _poll(api, battle, battle.version).status_code == 204  # fills token and head
        counter = UserRateThrottle.window_counter(_state_view(battle))
        assert counter is not None and "throttle_poll_" in counter.prefix
        key = counter.key(player.pk)
        client = cache._cache.get_client()
        assert int(client.get(key)) == 1
        with CaptureQueriesContext(connection) as ctx:
            assert [_poll(api, battle, battle.version).status_code for _ in range(3)] == [204] * 3
        assert ctx.captured_queries == []
        assert int(client.get(key)) == 4  # once each, not twice
        refused = _poll(api, battle, battle.version)
        assert refused.status_code == 429
        assert int(refused["Retry-After"]) > 0


def test_a_revoked_tokens_poll_counts_against_nobody(started, player, api_for):
    """The poll's script does not count a deleted token's poll against its user's rate (the
    entry is a revoked mark; the id beside it lives on)."""
    from django.test import override_settings
    from rest_framework.settings import api_settings

    from apibase.throttles import UserRateThrottle

    battle = started.refresh()
    api = api_for(player)
    _settled(battle, player)
    throttled = override_settings(
        REST_FRAMEWORK={
            **api_settings.user_settings,
            "DEFAULT_THROTTLE_RATES": {"user": "9/hour", "poll": "9/hour"},
        }
    )
    with throttled:
        for _ in range(2):
            assert _poll(api, battle, battle.version).status_code == 204
        counter = UserRateThrottle.window_counter(_state_view(battle))
        assert counter is not None
        client = cache._cache.get_client()
        assert int(client.get(counter.key(player.pk))) == 2
        Token.objects.filter(user=player).delete()
        assert _poll(api, battle, battle.version).status_code == 401
        assert int(client.get(counter.key(player.pk))) == 2


@pytest.mark.parametrize("redis", ["warm", "cold"])
def test_a_poll_ahead_of_the_battle_gets_the_whole_view(started, player, api_for, redis):
    """A client holding a version the server no longer has (moves lost in a crash of
    PostgreSQL) gets the whole view, as a first load, whether the head and her role are in
    Redis or not; only the battle's own version is answered 204."""
    from tables import heads

    battle = started.refresh()
    api = api_for(player)
    _settled(battle, player)
    first = api.get(f"/api/battles/{battle.pk}/state/")
    label = Battle._meta.label_lower
    if redis == "warm":
        assert _poll(api, battle, battle.version).status_code == 204  # head and role cached
        head = heads.poll_head(label, battle.pk, player.pk)
        assert head is not None and head.version == battle.version and head.grant is not None
    else:
        cache._cache.get_client(write=True).delete(heads.head_key(label, battle.pk))
    for ahead in (battle.version + 1, 1_000_000):
        response = _poll(api, battle, ahead)
        assert response.status_code == 200
        assert response["X-Table-Version"] == str(battle.version)
        assert response.json() == first.json()
    assert _poll(api, battle, battle.version).status_code == 204
    assert _poll(api, battle, battle.version - 1).status_code == 200


def test_a_moves_head_has_moved_when_its_answer_comes(started, gm, player):
    """The head's script is sent before the write and read after it (tables.heads.
    publishing): by the time the move returns, Redis has the new version."""
    from tables import heads

    battle = started.refresh()
    _settled(battle, gm, player)
    label = Battle._meta.label_lower
    for _ in range(3):
        seen = started.refresh().version
        services.battle_action_apply(
            battle_id=battle.pk,
            actor=gm,
            action={"type": "gm_adjust", "combatant": "npc1", "hp": -1},
            expected_version=seen,
        )
        head = heads.poll_head(label, battle.pk, player.pk)
        assert head is not None and head.version == seen + 1


def test_a_move_while_redis_is_down_is_applied_whole(started, gm, settings):
    """Redis refusing connections (a port nothing listens on) costs the move its head, never
    the move: the write lands with its log row, and nothing raises."""
    from django.test import override_settings

    from tests.notifications.celery_worker import dead_url

    battle = started.refresh()
    seen = battle.version
    rows = BattleAction.objects.filter(battle=battle).count()
    dead = {**settings.CACHES["default"], "LOCATION": dead_url("redis", "/0")}
    with override_settings(CACHES={**settings.CACHES, "default": dead}):
        services.battle_action_apply(
            battle_id=battle.pk,
            actor=gm,
            action={"type": "gm_adjust", "combatant": "npc1", "hp": -1},
            expected_version=seen,
        )
    assert started.refresh().version == seen + 1
    assert BattleAction.objects.filter(battle=battle).count() == rows + 1
