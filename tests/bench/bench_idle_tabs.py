"""Requests an idle open tab makes per minute (issue 39: "requests per idle open tab per minute
(goal: near zero)"), on a real ASGI server with sockets on (the Procfile's web command).

Each page is opened twice in Chromium at once: with its socket (what every browser does) and
with ``WebSocket`` removed before its scripts run, so it polls as a browser behind a proxy that
refuses sockets would: the baseline, measured in the same run. Nothing happens at any table
while they are counted; a request is any HTTP request the page sends after it has settled.
``BENCH_SHOW_REQUESTS=1`` prints which URLs each tab asked for, and when.
"""

from __future__ import annotations

import os
import secrets
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.bench.timing import record, section, write_json

#: Seconds each tab is watched (after SETTLE_SECONDS), scaled to a minute.
WINDOW_SECONDS = 30
SETTLE_SECONDS = 4
#: A page with its socket open asks at most this often (the dashboard asks once a minute by
#: design: its links expire by the clock).
TARGET_PER_MINUTE = 1.0


def _seed() -> tuple[dict[str, str], dict[str, Any]]:
    """A campaign with a GM and a player, a battle and a RAIGO table: the pages to open, and
    who opens each."""
    from django.contrib.auth import get_user_model

    from battles import services as battles
    from campaign.models import Membership, Role
    from campaign.permissions import access_for
    from tests.factories import CampaignFactory
    from tests.minigames.conftest import two_humans

    users = get_user_model().objects
    gm, player, guest = (users.create(username=n) for n in ("idle-gm", "idle-player", "idle-2"))
    campaign = CampaignFactory(created_by=gm, name="Idle tabs")
    for user, role in ((gm, Role.GM), (player, Role.PLAYER), (guest, Role.PLAYER)):
        Membership.objects.create(campaign=campaign, user=user, role=role)
    battle = battles.battle_create(
        campaign=campaign,
        by=access_for(gm, campaign),
        created_by=gm,
        name="Idle",
        width=6,
        height=4,
        seed=1,
    )
    table = two_humans("raigo", player, guest, campaign=campaign)
    pages = {
        "battle screen": f"/battles/{battle.pk}/",
        "tavern table": f"/tavern/tables/{table.pk}/",
        "GM dashboard": f"/campaigns/{campaign.pk}/dashboard/",
    }
    viewers = {"battle screen": player, "tavern table": player, "GM dashboard": gm}
    return pages, viewers


def run() -> dict[str, Any]:
    from django.conf import settings
    from django.db import connection
    from django.test import Client
    from playwright.sync_api import sync_playwright

    from tests.bench.bench_web import _throwaway_database
    from tests.load.processes import free_port, web_process

    section("idle open tabs (requests per minute, sockets on; baseline: the same page polling)")
    results: dict[str, Any] = {}
    with _throwaway_database() as database:
        pages, viewers = _seed()
        base = connection.settings_dict
        port = free_port()
        url = f"postgres://{base['USER']}@{base['HOST']}:{base['PORT'] or 5432}/{database}"
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "PUSH_SOCKETS": "1",
            "DATABASE_URL": url,
            "PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}",
            "PORT": str(port),
            "WEB_CONCURRENCY": "1",
            "CACHE_KEY_PREFIX": f"bench-idle-{secrets.token_hex(4)}",
        }
        log = Path(tempfile.mkdtemp(prefix="wr-bench-idle-")) / "web.log"
        cookies = {}
        for name, user in viewers.items():
            client = Client()
            client.force_login(user)
            cookies[name] = client.cookies[settings.SESSION_COOKIE_NAME].value
        with web_process(env, port, log), sync_playwright() as play:
            browser = play.chromium.launch(
                executable_path="/usr/bin/chromium", args=["--no-sandbox"]
            )
            counts: dict[tuple[str, str], list[str]] = {}
            try:
                for name, path in pages.items():
                    for mode in ("socket", "polling"):
                        context = browser.new_context(viewport={"width": 1280, "height": 800})
                        context.add_cookies(
                            [
                                {
                                    "name": settings.SESSION_COOKIE_NAME,
                                    "value": cookies[name],
                                    "url": f"http://127.0.0.1:{port}",
                                }
                            ]
                        )
                        if mode == "polling":
                            context.add_init_script("delete window.WebSocket;")
                        page = context.new_page()
                        page.goto(f"http://127.0.0.1:{port}{path}")
                        seen: list[str] = []
                        counts[(name, mode)] = seen
                        page.on(
                            "request",
                            lambda r, seen=seen: seen.append(f"{time.monotonic():.1f} {r.url}"),
                        )
                # Playwright's events arrive while it is waiting: one page's wait serves all
                page.wait_for_timeout(SETTLE_SECONDS * 1000)
                for seen in counts.values():
                    seen.clear()
                page.wait_for_timeout(WINDOW_SECONDS * 1000)
                per_minute = {k: len(v) * 60 / WINDOW_SECONDS for k, v in counts.items()}
                if os.environ.get("BENCH_SHOW_REQUESTS"):
                    from collections import Counter

                    for key, seen in counts.items():
                        print(key, Counter(u.split("?")[0].split()[1] for u in seen))
                        print("   ", [u.split()[0] for u in seen if "notifications" in u])
            finally:
                browser.close()
    for name in pages:
        live, polled = per_minute[(name, "socket")], per_minute[(name, "polling")]
        met = live <= TARGET_PER_MINUTE
        results[name] = {"socket_per_minute": live, "polling_per_minute": polled}
        print(f"{name + ': requests per idle minute':<48}{live:8.1f} (polling {polled:.1f})")
        record(
            f"{name}: requests per minute of an idle open tab",
            value=f"{live:.1f} a minute",
            ratio=live / polled if polled else 0.0,
            baseline=f"the same page polling ({polled:.0f} a minute)",
            target=f"<= {TARGET_PER_MINUTE:.0f} a minute",
            met=met,
        )
    write_json("idle_tabs", results)
    return results
