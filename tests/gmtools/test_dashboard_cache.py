"""The GM dashboard's party panel is built once per party version and reused (issue 15): a
repeated page reads one aggregate instead of the characters and their inventories, the same
however large the party, and a write shows on the very next request."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.gmtools.test_dashboard import JSON, add_characters

pytestmark = pytest.mark.django_db


def _get(client, url):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, url
    return response, [q["sql"] for q in ctx.captured_queries]


def _reads_characters(sql: list[str]) -> bool:
    return any(
        s.startswith(('SELECT "characters_character"."id"', 'SELECT "characters_inventoryitem"'))
        for s in sql
    )


def test_a_repeated_dashboard_reuses_the_party_and_its_cost_does_not_grow(campaign, gm, client_for):
    client = client_for(gm)
    url = f"/campaigns/{campaign.pk}/dashboard/"
    add_characters(campaign, 2)
    _, first = _get(client, url)
    assert _reads_characters(first)  # built and stored
    small, again = _get(client, url)
    assert not _reads_characters(again)  # reused: one aggregate query instead
    add_characters(campaign, 10)
    _get(client, url)  # a new version: rebuilt once
    large, warm = _get(client, url)
    assert not _reads_characters(warm)
    assert len(warm) == len(again)
    assert large.content.decode().count('data-character="') == 12
    assert small.content.decode().count('data-character="') == 2


def test_a_write_shows_on_the_next_request(campaign, gm, character, client_for):
    client = client_for(gm)
    page = f"/campaigns/{campaign.pk}/dashboard/"
    live = f"/campaigns/{campaign.pk}/dashboard/live/"
    client.get(page), client.get(live)  # warm
    client.post(
        f"/campaigns/{campaign.pk}/dashboard/status/",
        {"character": character.pk, "status": "stun"},
        **JSON,
    )
    assert 'data-status="stun"' in client.get(page).content.decode()
    assert 'data-status="stun"' in client.get(live).json()["panels"]["party"]
    client.post(
        f"/campaigns/{campaign.pk}/dashboard/level-up/",
        {"character": character.pk, "levels": "1"},
        **JSON,
    )
    row = next(r for r in client.get(live).json()["characters"] if r["id"] == character.pk)
    assert row["name"] == character.name
    html = client.get(page).content.decode()
    assert '<td class="level">2</td>' in html
    add_characters(campaign, 1)
    assert "Extra 0" in client.get(page).content.decode()
