"""The API's per-user rate (``API_USER_RATE``, DRF's ``user`` scope) counted in Redis by
:class:`apibase.throttles.UserRateThrottle`: one counter per user and window, a 429 in words
with Retry-After once the allowance is spent, other users untouched, and the counter expiring
with its window (the test settings allow more than any test asks; these tests allow less)."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from rest_framework.settings import api_settings
from rest_framework.test import APIClient

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

URL = "/api/campaigns/"


def _throttled(rate: str):
    return override_settings(
        REST_FRAMEWORK={
            **api_settings.user_settings,
            "DEFAULT_THROTTLE_RATES": {"user": rate},
        }
    )


def _settled(user) -> None:
    """As if the user and her token had been made a minute ago (their change marks expired),
    so the token's entry can be cached and the lookup's script answers."""
    from rest_framework.authtoken.models import Token

    from accounts.token_cache import token_cache_key

    token, _ = Token.objects.get_or_create(user=user)
    cache.delete_many([f"auth-user-changed:{user.pk}", token_cache_key(token.key)])


def _token_queries(api, url: str) -> int:
    """Requests ``url`` and says how many queries read the token table."""
    with CaptureQueriesContext(connection) as ctx:
        api.get(url)
    return sum("authtoken_token" in q["sql"] for q in ctx.captured_queries)


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_the_allowance_is_spent_then_refused_in_words_for_that_user_only():
    alice, bob = UserFactory(), UserFactory()
    with _throttled("3/hour"):
        client = _client(alice)
        assert [client.get(URL).status_code for _ in range(3)] == [200, 200, 200]
        refused = client.get(URL)
        assert refused.status_code == 429
        assert 0 < int(refused["Retry-After"]) <= 3600
        assert "Request was throttled" in refused.json()["detail"]
        assert _client(bob).get(URL).status_code == 200  # her own allowance


def test_the_counter_is_one_small_key_that_expires_with_its_window():
    user = UserFactory()
    with _throttled("5/minute"):
        for _ in range(4):
            assert _client(user).get(URL).status_code == 200
    keys = list(cache._cache.get_client().scan_iter(cache.make_key(f"throttle_user_{user.pk}:*")))
    assert len(keys) == 1, keys  # one counter for the window, not a log of timestamps
    client = cache._cache.get_client()
    assert int(client.get(keys[0])) == 4
    assert 0 < client.ttl(keys[0]) <= 61


def test_without_redis_drf_own_log_still_throttles():
    user = UserFactory()
    memory = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    with _throttled("2/hour"), override_settings(CACHES=memory):
        client = _client(user)
        assert [client.get(URL).status_code for _ in range(3)] == [200, 200, 429]


def test_a_token_request_is_counted_once_by_the_token_lookup(api_for):
    """With a token, the cached user and the count come from one script; the throttle takes
    that count instead of counting the request a second time."""
    from apibase.throttles import UserRateThrottle
    from campaign.rest.campaigns import CampaignViewSet

    user = UserFactory()
    api = api_for(user)
    _settled(user)
    with _throttled("6/hour"):
        assert _token_queries(api, URL) == 1  # the database answers and fills the cache
        counter = UserRateThrottle.window_counter(CampaignViewSet)
        assert counter is not None
        key = counter.key(user.pk)
        redis = cache._cache.get_client()
        assert int(redis.get(key)) == 1
        assert [_token_queries(api, URL) for _ in range(5)] == [0] * 5  # the script answers
        assert int(redis.get(key)) == 6  # once each
        assert api.get(URL).status_code == 429


def test_a_revoked_token_counts_against_nobody(api_for):
    """A deleted token's cache entry is a short revoked mark while the user id beside it
    lives on: the lookup's script does not count a request made with it against that user's
    allowance (someone holding an old token cannot spend another's rate; the poll's script:
    tests/battles/test_fast_paths_safety.py)."""
    from rest_framework.authtoken.models import Token

    from apibase.throttles import UserRateThrottle
    from campaign.rest.campaigns import CampaignViewSet

    user = UserFactory()
    api = api_for(user)
    _settled(user)
    with _throttled("100/hour"):
        assert _token_queries(api, URL) == 1  # the database answers and fills the cache
        assert _token_queries(api, URL) == 0  # the script answers and counts
        counter = UserRateThrottle.window_counter(CampaignViewSet)
        assert counter is not None
        redis = cache._cache.get_client()
        assert int(redis.get(counter.key(user.pk))) == 2
        Token.objects.filter(user=user).delete()
        assert api.get(URL).status_code == 401
        assert int(redis.get(counter.key(user.pk))) == 2
