"""Shared fixtures. The suite runs against real PostgreSQL and Redis (see config/settings/test.py);
if Redis is unreachable the run stops at once instead of skipping anything."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

from tests.factories import CampaignFactory, UserFactory

# CI explores the same examples every run (a red build must mean a change broke something);
# local runs keep exploring new ones. HYPOTHESIS_PROFILE=explore forces exploring anywhere.
hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
hypothesis_settings.register_profile("explore", print_blob=True)
hypothesis_settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "explore")
)


#: Every test under it drives Chromium, and is marked ``browser`` here (``pytestmark`` in a
#: conftest.py marks nothing: pytest reads it only in test modules).
BROWSER_TESTS = Path(__file__).resolve().parent / "browser"
#: Two lanes; ``make test`` runs three workers (``-n 3``), so one more takes the rest from the start
#: (docs/test-suite.md: four measured within a run's noise of three).
BROWSER_LANES = 2


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test under tests/browser/ is marked ``browser``, and the browser tests (those and
    the ones marked elsewhere) run in lanes of their own (``xdist_group("browser-N")``).

    xdist hands out work in collection order, so without lanes every worker reached the
    browser tests together and waited on pages at once (cores idle), then reached the engine
    properties together (cores busy, nothing waiting). A lane is a group xdist queues first,
    each on one worker; a module stays in one lane, the modules taken in turn."""
    lanes: dict[Path, pytest.MarkDecorator] = {}
    for item in items:
        if BROWSER_TESTS in item.path.parents:
            item.add_marker(pytest.mark.browser)
        if not item.get_closest_marker("browser") or item.get_closest_marker("xdist_group"):
            continue
        if item.path not in lanes:
            lanes[item.path] = pytest.mark.xdist_group(f"browser-{len(lanes) % BROWSER_LANES + 1}")
        item.add_marker(lanes[item.path])


def pytest_sessionstart(session: pytest.Session) -> None:
    if os.environ.get("WR_NO_SERVICES") == "1":
        return  # `make test-fast`: the pure engine's tests need neither Redis nor a database
    import redis

    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    try:
        redis.Redis.from_url(url, socket_connect_timeout=5).ping()
    except redis.RedisError as exc:
        pytest.exit(f"Redis at {url} is unreachable ({exc}); the suite needs it.", returncode=3)


@pytest.fixture
def gm(db):
    return UserFactory(username="gm-user")


@pytest.fixture
def player(db):
    return UserFactory(username="player-one")


@pytest.fixture
def other_player(db):
    return UserFactory(username="player-two")


@pytest.fixture
def outsider(db):
    return UserFactory(username="outsider")


@pytest.fixture
def campaign(gm, player, other_player):
    """A campaign with a GM and two players (and nobody else)."""
    from campaign.models import Membership, Role

    c = CampaignFactory(created_by=gm, name="Scarlet Mist")
    Membership.objects.create(campaign=c, user=gm, role=Role.GM)
    Membership.objects.create(campaign=c, user=player, role=Role.PLAYER)
    Membership.objects.create(campaign=c, user=other_player, role=Role.PLAYER)
    return c


@pytest.fixture
def client_for(client):
    """``client_for(user)`` → a Django test client logged in as ``user`` (None: anonymous)."""
    from django.test import Client

    def make(user):
        c = Client()
        if user is not None:
            c.force_login(user)
        return c

    return make


@pytest.fixture
def api_for():
    """``api_for(user)`` → a DRF APIClient authenticated with the user's token."""
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    def make(user):
        c = APIClient()
        if user is not None:
            token, _ = Token.objects.get_or_create(user=user)
            c.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        return c

    return make


# --- One headless Chromium per test process ----------------------------------------------------
# Playwright's sync API runs an event loop in the test process's main thread, and a second
# sync_playwright() in the same process fails: every browser test (tests/browser, the tavern
# renderers) shares this one. Debian's Chromium (/usr/bin/chromium); nothing is downloaded.
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless=new",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


@pytest.fixture(scope="session")
def browser():
    from pathlib import Path

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run `make browser` (Debian's chromium package).")
    from playwright.sync_api import sync_playwright

    # The ORM calls tests make between browser steps stay synchronous and safe.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()
