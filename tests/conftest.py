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
# ``make soak`` (HYPOTHESIS_PROFILE=soak) explores ten times as many examples, and the many-game
# properties play ten times as many games (tests/soak.py): the same checks, before a release.
hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
hypothesis_settings.register_profile("explore", print_blob=True)
hypothesis_settings.register_profile("soak", max_examples=1000, print_blob=True)
hypothesis_settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "explore")
)


#: Every test under it drives Chromium, and is marked ``browser`` here (``pytestmark`` in a
#: conftest.py marks nothing: pytest reads it only in test modules).
BROWSER_TESTS = Path(__file__).resolve().parent / "browser"
#: Two lanes; ``make test`` runs three workers (``-n 3``), so one more takes the rest from the start
#: (docs/test-suite.md: four measured within a run's noise of three).
BROWSER_LANES = 2
#: The tests that start real Celery workers, beats or web processes mark their module (or
#: themselves) ``xdist_group("celery-worker")``; they go into this many lanes, a module wholly in
#: one (its module-scoped worker starts once), so that two of them can wait at once. Each xdist
#: process has its own test database, Redis key prefix and Celery queues
#: (config/settings/test.py), so tests of two lanes never see each other's messages.
CELERY_GROUP = "celery-worker"
CELERY_LANES = 2
#: What a test of these files costs, in seconds of a CI run (its --durations: a file's tests
#: averaged), for dealing the lanes evenly; a test not listed counts :data:`TEST_SECONDS`.
COSTS = {
    # 103 s and 72 s a role in CI; about a quarter less since it photographs only the pictures
    # the docs show (docs/test-suite.md)
    "tests/browser/test_visual.py": 65.0,
    # a language a test (the demo's pages at both widths, no axe, no pictures): 39 s and 34 s
    # beside the English sweep's 128 s a role on the loaded machine
    "tests/browser/test_i18n_sweep.py": 25.0,
    "tests/browser/test_card_game_tables.py": 32.0,
    "tests/browser/test_battle.py": 19.0,
    "tests/browser/test_table_chat.py": 20.0,  # 25 s alone: three polls of 3 s between pages
    # the four whole games by keyboard (Spirit War's 5 to 15 s, the others' 10 to 70 s, by
    # their length), the battle's turns and every game's moves, rows and first screen
    "tests/browser/test_play_layout.py": 14.0,
    "tests/ops/test_beat.py": 20.0,  # 34 s and 24 s in CI before the second-long schedules
    "tests/hardening/test_procfile.py": 10.0,  # 17 s and a short one
}
TEST_SECONDS = 3.0
#: Files whose tests share no module-scoped fixture and take long each: their tests are dealt
#: to the lanes one by one (the visual sweep's two roles, its two languages, the two card
#: games), the other files' as whole modules.
DEALT_BY_TEST = (
    "tests/browser/test_visual.py",
    "tests/browser/test_i18n_sweep.py",
    "tests/browser/test_card_game_tables.py",
)


#: Files whose tests take the most CPU (each a few to over a hundred seconds: the many-game
#: properties, the fast-path oracle, the win rates, schemathesis's operations). They are queued
#: first, right after the groups, so that the last tests a worker takes are short ones and no
#: worker ends minutes after the others (docs/test-suite.md, "How the suite stays fast").
#: The upgrade from the previous release leads them: a group of one test (23 s) that xdist
#: queues among the single tests in this order, and that otherwise ran last, alone.
LONG_FIRST = (
    "tests/test_upgrade.py",
    "tests/engine/rso/test_many_games.py",
    "tests/engine/dbs/test_many_games.py",
    "tests/engine/raigo/test_many_games.py",
    "tests/engine/spirit_war/test_many_games.py",
    "tests/bots/test_win_rates.py",
    "tests/engine/battle/test_fast_paths.py",
    "tests/engine/battle/test_properties.py",
    "tests/api_fuzz/test_schemathesis.py",
)
ROOT = Path(__file__).resolve().parent.parent


def _path(item: pytest.Item) -> str:
    return item.path.relative_to(ROOT).as_posix() if ROOT in item.path.parents else ""


def _queue_rank(item: pytest.Item) -> int:
    """The place of ``item``'s file in :data:`LONG_FIRST`, after them every other file."""
    path = _path(item)
    return LONG_FIRST.index(path) if path in LONG_FIRST else len(LONG_FIRST)


def _groups(item: pytest.Item) -> set[str]:
    return {
        str(m.args[0] if m.args else m.kwargs.get("name")) for m in item.iter_markers("xdist_group")
    }


def deal_lanes(items: list[pytest.Item], name: str, lanes: int) -> dict[str, list[pytest.Item]]:
    """Deal ``items`` into ``lanes`` lanes called ``name-1`` ... of about equal cost: the units
    (a module, or a test of :data:`DEALT_BY_TEST`) dearest first, each to the cheapest lane so
    far. The same items give the same lanes in every xdist process."""
    units: dict[str, list[pytest.Item]] = {}
    for item in items:
        path = _path(item) or str(item.path)
        units.setdefault(item.nodeid if path in DEALT_BY_TEST else path, []).append(item)
    cost = {
        key: sum(COSTS.get(_path(i), TEST_SECONDS) for i in unit) for key, unit in units.items()
    }
    dealt: dict[str, list[pytest.Item]] = {f"{name}-{n + 1}": [] for n in range(lanes)}
    load = dict.fromkeys(dealt, 0.0)
    for key in sorted(units, key=lambda k: -cost[k]):  # stable: ties keep collection order
        lane = min(load, key=lambda lane: load[lane])
        dealt[lane] += units[key]
        load[lane] += cost[key]
    return dealt


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test under tests/browser/ is marked ``browser``, and the browser tests (those and
    the ones marked elsewhere) run in lanes of their own (``xdist_group("browser-N")``); the
    tests marked ``xdist_group("celery-worker")`` in lanes of theirs (joined with the mark,
    xdist calls each ``celery-worker_lane-N``).

    xdist hands out work in collection order, so without lanes every worker reached the
    browser tests together and waited on pages at once (cores idle), then reached the engine
    properties together (cores busy, nothing waiting). A lane is a group xdist queues first,
    each on one worker; the units are dealt so that the lanes cost about the same
    (:func:`deal_lanes`)."""
    browser: list[pytest.Item] = []
    celery: list[pytest.Item] = []
    for item in items:
        if BROWSER_TESTS in item.path.parents:
            item.add_marker(pytest.mark.browser)
        groups = _groups(item)
        if CELERY_GROUP in groups:
            celery.append(item)
        elif item.get_closest_marker("browser") and not groups:
            browser.append(item)
    for lanes, name, count in ((browser, "browser", BROWSER_LANES), (celery, "lane", CELERY_LANES)):
        for lane, dealt in deal_lanes(lanes, name, count).items():
            for item in dealt:
                item.add_marker(pytest.mark.xdist_group(lane))


class LongFirst:
    """Puts the files of :data:`LONG_FIRST` at the front of the collected order, after every
    other plugin has ordered it: pytest-django sorts the tests as Django's runner does (tests
    that use the database, then transactional ones, then the rest), which put the many-game
    properties, using no database, at the very end. xdist (--dist loadgroup) queues the groups
    first, the largest first, then every other test in this order (a stable sort keeps the
    order within each file and among the rest)."""

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        items.sort(key=_queue_rank)


def pytest_configure(config: pytest.Config) -> None:
    """A browser killed after a context's close hung is shown in the summary, not made the
    test's error as every other warning is (pyproject.toml's ``filterwarnings``; added here,
    after them, since pyproject's filters are read before ``tests`` can be imported:
    tests/chromium.py).

    The message catalogs compiled before any test reads them: ``make test`` compiles them
    (``make messages``), and so does a run of pytest alone, once, in the process that starts
    the workers (docs/i18n.md). Only a catalog newer than its .mo is compiled."""
    config.addinivalue_line("filterwarnings", "default::tests.chromium.BrowserKilled")
    config.pluginmanager.register(LongFirst(), "wr-long-first")
    if hasattr(config, "workerinput"):
        return
    import subprocess

    for po in sorted((ROOT / "locale").glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            subprocess.run(["msgfmt", "--check-format", "-o", str(mo), str(po)], check=True)  # noqa: S603, S607


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
# renderers) shares this one. Debian's Chromium: the headless shell, or the full browser for the
# modules marked ``full_chromium`` (tests/chromium.py); nothing is downloaded. A context that
# Chromium never closes costs a new browser, not the lane.


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import BrowserContext, sync_playwright

    from tests import chromium

    for executable in (chromium.CHROMIUM, chromium.HEADLESS_SHELL):
        if not Path(executable).exists():
            pytest.fail(
                f"{executable} is missing: run `make browser` (Debian's chromium and "
                "chromium-headless-shell packages)."
            )
    # The ORM calls tests make between browser steps stay synchronous and safe.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    original = chromium.guard_context_close(BrowserContext)
    try:
        with sync_playwright() as p:
            b = chromium.Chromium(p)
            b.current()
            yield b
            b.close()
    finally:
        BrowserContext.close = original


@pytest.fixture(scope="module", autouse=True)
def _chromium_build(request: pytest.FixtureRequest) -> None:
    """A module's browser tests run on the headless shell, or on the full browser when the
    module is marked ``full_chromium`` (tests/chromium.py). Chosen per module, before its
    module-scoped fixtures, so that a page one of them opens is on the module's build."""
    from tests import chromium

    full = request.node.get_closest_marker(chromium.FULL_MARK) is not None
    chromium.Chromium.use(chromium.CHROMIUM if full else chromium.HEADLESS_SHELL)
