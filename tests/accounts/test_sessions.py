"""Sessions in the cache with the database behind (``accounts/sessions.py``): a signed-in
request reads its session from Redis, and with Redis stopped or frozen the database answers,
signing in works and signing out changes nothing (a 503 from the view, then signing out again
once Redis answers).

The fault is real: each test starts its own ``redis-server`` (``PrivateRedis``, as the Redis
outage test does), points the cache at it and stops (connections refused) or freezes it
(SIGSTOP: connections accepted, nothing answered; what it holds survives).
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from importlib import import_module

import pytest
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.models import Session
from django.test import override_settings
from redis.exceptions import RedisError

from accounts.sessions import SessionStore
from tests.hardening.test_redis_outage import PrivateRedis

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server"),
]

#: How long the app leaves a failed Redis alone here (``REDIS_RETRY_SECONDS``).
RETRY = 1


@pytest.fixture
def server() -> Iterator[PrivateRedis]:
    server = PrivateRedis()
    caches = {
        "default": {
            "BACKEND": "config.redis_cache.RedisCache",
            "LOCATION": server.url,
            "KEY_PREFIX": "sessions-test",
        }
    }
    try:
        with override_settings(CACHES=caches, REDIS_RETRY_SECONDS=RETRY):
            yield server
    finally:
        server.stop()


def _signed_in(user) -> SessionStore:
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return store


def _after_retry() -> None:
    time.sleep(RETRY + 0.1)


def test_the_engine_is_the_cached_one():
    engine = import_module(settings.SESSION_ENGINE)
    assert engine.SessionStore is SessionStore


def test_a_session_is_read_from_the_cache_without_the_database(
    server, player, django_assert_num_queries
):
    key = _signed_in(player).session_key
    with django_assert_num_queries(0):
        assert SessionStore(key).load()[SESSION_KEY] == str(player.pk)


@pytest.mark.parametrize("fault", ["stop", "freeze"])
def test_redis_away_a_signed_in_session_is_read_from_the_database(server, player, fault):
    key = _signed_in(player).session_key
    getattr(server, fault)()
    try:
        assert SessionStore(key).load()[SESSION_KEY] == str(player.pk)
        # and again, now that the process knows Redis is away
        assert SessionStore(key).load()[SESSION_KEY] == str(player.pk)
    finally:
        server.thaw()


def test_redis_stopped_signing_in_makes_a_new_session_in_the_database(server, player):
    server.stop()
    store = _signed_in(player)
    assert Session.objects.filter(session_key=store.session_key).exists()
    # a sign-in moves what a visitor's session held under a new key (``cycle_key``)
    old = store.session_key
    store.cycle_key()
    assert store.session_key != old
    assert not Session.objects.filter(session_key=old).exists()
    assert SessionStore(store.session_key).load()[SESSION_KEY] == str(player.pk)


def test_redis_frozen_signing_out_changes_nothing_and_works_once_redis_answers(server, player):
    store = _signed_in(player)
    key = store.session_key
    server.freeze()
    try:
        with pytest.raises(RedisError):  # the view's 503 (apibase/redis_down.py)
            store.flush()
        # nothing changed: the row, the data and the key are as they were
        assert store.session_key == key
        assert store[SESSION_KEY] == str(player.pk)
        assert Session.objects.filter(session_key=key).exists()
    finally:
        server.thaw()
    _after_retry()
    store.flush()
    assert not Session.objects.filter(session_key=key).exists()
    # the cached copy went too: the session does not come back from Redis
    assert SessionStore(key).load() == {}


def test_a_session_made_while_redis_was_frozen_is_read_and_cached_once_it_answers(
    server, player, django_assert_num_queries
):
    server.freeze()
    try:
        key = _signed_in(player).session_key
    finally:
        server.thaw()
    _after_retry()
    assert SessionStore(key).load()[SESSION_KEY] == str(player.pk)  # the row, then cached
    with django_assert_num_queries(0):
        assert SessionStore(key).load()[SESSION_KEY] == str(player.pk)
