"""An unchanged poll asks Redis once, with a token or a session cookie, for a battle or a tavern
table (tables/poll_auth.py, tables/poll_session.py), counted on the real server with
``MONITOR``; and the signed-in poll's one script keeps every refusal: a signed-out, rotated or
stale session, a new password, a deactivated user or a removed member is refused on the very
next poll, a moved table answers in full, and the API rate still counts each poll once."""

from __future__ import annotations

import uuid
from importlib import import_module
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from redis import Redis

from battles import services as battle_services
from tests.battles.test_fast_paths_safety import settled_caches

pytestmark = pytest.mark.django_db


class RoundTrips:
    """The commands this process's cache client sends to Redis while the ``with`` block runs
    (``MONITOR`` on the real server: what a script runs inside Redis is told apart and left
    out, and so are other processes' commands, such as a parallel test worker's)."""

    def __init__(self) -> None:
        self.watcher = Redis.from_url(settings.CACHES["default"]["LOCATION"])
        self.server = Redis.from_url(settings.CACHES["default"]["LOCATION"])
        self.server.ping()  # its one connection, open before the count starts
        self.seen: list[dict[str, Any]] = []
        self.commands: list[str] = []

    def __enter__(self) -> RoundTrips:
        self.monitor = self.watcher.monitor()
        self.monitor.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        mark = f"round-trips-{uuid.uuid4().hex}"
        self.server.echo(mark)
        while True:
            seen = self.monitor.next_command()
            if mark in seen["command"]:
                break
            if seen["client_type"] != "lua":
                self.seen.append(seen)
        self.monitor.__exit__(*exc)
        self.watcher.close()
        self.server.close()
        ours = _cache_connections()
        self.commands = [
            s["command"].split(" ", 1)[0]
            for s in self.seen
            if f"{s.get('client_address')}:{s.get('client_port')}" in ours
        ]


def _cache_connections() -> set[str]:
    """The addresses (as Redis sees them) of the cache client's pooled connections."""
    pool = cache._cache.get_client().connection_pool  # type: ignore[attr-defined]
    found = set()
    for conn in [*pool._available_connections, *pool._in_use_connections]:
        sock = getattr(conn, "_sock", None)
        if sock is not None:
            host, port = sock.getsockname()[:2]
            found.add(f"{host}:{port}")
    return found


def _settled(campaign_id: Any, *users: Any) -> None:
    settled_caches(campaign_id, *users)


def _tavern(host: Any, guest: Any) -> Any:
    from tests.minigames.conftest import two_humans

    return two_humans("raigo", host, guest)


def _signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _with_cookie(client: Client) -> Client:
    """Another browser holding the same session cookie (kept after ``client`` lets it go)."""
    other = Client()
    name = settings.SESSION_COOKIE_NAME
    other.cookies[name] = client.cookies[name].value
    return other


def _battle_poll(started: Any) -> str:
    battle = started.refresh()
    return f"/api/battles/{battle.pk}/state/?since={battle.version}"


@pytest.mark.parametrize("table", ["battle", "tavern"])
@pytest.mark.parametrize("how", ["token", "session cookie"])
def test_an_unchanged_poll_is_one_round_trip_to_redis_and_no_query(
    started, player, other_player, api_for, table, how
):
    if table == "battle":
        url = _battle_poll(started)
    else:
        tavern = _tavern(player, other_player)
        url = f"/api/tavern/tables/{tavern.pk}/state/?since={tavern.version}"
    _settled(started.battle.campaign_id, player)
    client = api_for(player) if how == "token" else _signed_in(player)
    for _ in range(2):  # the first fills what the cache keeps
        assert client.get(url).status_code == 204
    with CaptureQueriesContext(connection) as queries, RoundTrips() as trips:
        response = client.get(url)
    assert response.status_code == 204
    assert trips.commands == ["EVALSHA"]
    assert queries.captured_queries == []


def test_a_session_cached_before_its_user_id_was_kept_beside_it_is_one_round_trip_again(
    started, player
):
    url = _battle_poll(started)
    _settled(started.battle.campaign_id, player)
    client = _signed_in(player)
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    cache.delete(f"django.contrib.sessions.cached_db-user:{key}")
    for _ in range(2):
        assert client.get(url).status_code == 204
    with RoundTrips() as trips:
        assert client.get(url).status_code == 204
    assert trips.commands == ["EVALSHA"]


@pytest.mark.parametrize("change", ["sign out", "new key", "new password", "deactivate"])
def test_a_signed_in_poll_is_refused_at_once_when_its_session_no_longer_holds(
    started, player, change
):
    url = _battle_poll(started)
    _settled(started.battle.campaign_id, player)
    client = _signed_in(player)
    kept = _with_cookie(client)
    for _ in range(2):
        assert kept.get(url).status_code == 204
    if change == "sign out":
        client.logout()
    elif change == "new key":  # what signing in does: the same data under a fresh key
        store = import_module(settings.SESSION_ENGINE).SessionStore(
            client.cookies[settings.SESSION_COOKIE_NAME].value
        )
        store.cycle_key()
        client.cookies[settings.SESSION_COOKIE_NAME] = store.session_key
        assert client.get(url).status_code == 204
    elif change == "new password":
        player.set_password("a-new-secret-0123")
        player.save()
    else:
        player.is_active = False
        player.save()
    assert kept.get(url).status_code in (401, 403)


def test_a_member_removed_is_refused_on_her_next_signed_in_poll(started, player):
    from campaign.models import Membership

    url = _battle_poll(started)
    _settled(started.battle.campaign_id, player)
    client = _signed_in(player)
    for _ in range(2):
        assert client.get(url).status_code == 204
    Membership.objects.filter(campaign_id=started.battle.campaign_id, user=player).delete()
    assert client.get(url).status_code == 404


def test_a_signed_in_poll_answers_in_full_once_the_table_moved(started, gm, player):
    url = _battle_poll(started)
    battle = started.refresh()
    _settled(battle.campaign_id, player)
    client = _signed_in(player)
    for _ in range(2):
        assert client.get(url).status_code == 204
    battle_services.battle_action_apply(
        battle_id=battle.pk,
        actor=gm,
        action={"type": "gm_adjust", "combatant": "npc1", "hp": -1},
        expected_version=battle.version,
    )
    response = client.get(url)
    assert response.status_code == 200
    assert response.json()["version"] == battle.version + 1


def test_each_signed_in_poll_counts_once_against_the_polls_rate(started, player):
    from rest_framework.settings import api_settings

    url = _battle_poll(started)
    _settled(started.battle.campaign_id, player)
    client = _signed_in(player)
    throttled = override_settings(
        REST_FRAMEWORK={
            **api_settings.user_settings,
            "DEFAULT_THROTTLE_RATES": {"user": "1/hour", "poll": "4/hour"},
        }
    )
    with throttled:
        assert [client.get(url).status_code for _ in range(5)] == [204] * 4 + [429]
