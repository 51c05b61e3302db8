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


def _rates(**rates: str):
    return override_settings(
        REST_FRAMEWORK={**api_settings.user_settings, "DEFAULT_THROTTLE_RATES": rates}
    )


POLLED = "/api/notifications/?unread=true&limit=20"  # the bell's poll (static/js/site.js)


def test_the_reads_pages_poll_count_apart_from_the_rest_of_the_api():
    """A page left open polls its table and the bell all session long; those reads have their
    own allowance (``API_POLL_RATE``), so they neither spend the user's API allowance nor run
    out with it."""
    user = UserFactory()
    client = _client(user)
    with _rates(user="3/hour", poll="6/hour"):
        assert [client.get(POLLED).status_code for _ in range(5)] == [200] * 5
        # five polls later the rest of the API still has its whole allowance ...
        assert [client.get(URL).status_code for _ in range(4)] == [200, 200, 200, 429]
        # ... and spending it does not stop the page: polls have their own, bounded too
        assert client.get(POLLED).status_code == 200
        refused = client.get(POLLED)
        assert refused.status_code == 429
        assert 0 < int(refused["Retry-After"]) <= 3600


def test_a_write_to_a_polled_view_counts_as_any_call():
    """Only reads are polls: a move sent to a table counts against the user's allowance."""
    from apibase.throttles import POLL_SCOPE, UserRateThrottle
    from tables.api import TableActionView as ActionView  # every game's, battles' included
    from tables.api import TableStateView as StateView

    assert UserRateThrottle.scope_for(StateView, "GET") == POLL_SCOPE
    assert UserRateThrottle.scope_for(StateView, "POST") == "user"
    assert UserRateThrottle.scope_for(ActionView, "POST") == "user"


def test_the_default_poll_allowance_lasts_an_open_battle_page_a_whole_hour():
    """A battle page asks for its view and its chat feed every ``POLL_MILLISECONDS`` and the
    bell asks every 1.5 s (site.js): the default poll rate must outlast an hour of that, with
    room for a second page (a GM's battle and tavern at once), while the user's allowance
    alone would not (the page went stale 37 minutes into every hour)."""
    import re
    from pathlib import Path

    from django.conf import settings

    from battles.views import POLL_MILLISECONDS
    from minigames.views import POLL_MILLISECONDS as TAVERN_POLL_MILLISECONDS

    site_js = (Path(settings.BASE_DIR) / "static" / "js" / "site.js").read_text()
    bell = re.search(r"if \(!document\.hidden && !pushed\) poll\(\); \}, (\d+)\);", site_js)
    assert bell is not None, "the bell's poll interval moved: update this test"
    per_hour = 3_600_000 / POLL_MILLISECONDS * 2 + 3_600_000 / int(bell.group(1))
    per_hour += 3_600_000 / TAVERN_POLL_MILLISECONDS + 3_600_000 / int(bell.group(1))
    from config.settings import base  # the deployed defaults, not the tests' settings

    rates = base.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    count, period = rates["poll"].split("/")
    assert period == "hour" and int(count) >= per_hour, (rates["poll"], per_hour)
    user_count, _ = rates["user"].split("/")
    assert int(user_count) < 3_600_000 / POLL_MILLISECONDS * 2 + 3_600_000 / int(bell.group(1))
