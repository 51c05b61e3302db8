"""What a player's browser receives never holds another player's hand, a draw pile's order or
the seed (boardgame.io's issue #1159: the unfiltered state reached clients). Every payload a
player can ask for is checked, raw bytes included."""

from __future__ import annotations

import json
from typing import Any

import pytest

from battles import services
from tests.battles.conftest import play_until

pytestmark = pytest.mark.django_db


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


def _payloads(client: Any, started: Any, campaign: Any) -> dict[str, bytes]:
    pk = started.battle.pk
    urls = {
        "list": f"/api/campaigns/{campaign.pk}/battles/",
        "retrieve": f"/api/battles/{pk}/",
        "view": f"/api/battles/{pk}/view/",
        "view-since": f"/api/battles/{pk}/view/?since=1",
        "legal": f"/api/battles/{pk}/legal-actions/",
        "log": f"/api/battles/{pk}/log/?limit=200",
        "combatants": f"/api/battles/{pk}/combatants/",
        "page": f"/battles/{pk}/",
        "list-page": f"/campaigns/{campaign.pk}/battles/",
        "timeline": f"/api/campaigns/{campaign.pk}/timeline/",
    }
    out = {}
    for name, url in urls.items():
        response = client.get(url)
        assert response.status_code == 200, (name, response.status_code)
        out[name] = response.content
    return out


@pytest.fixture
def played(started, gm, player):
    """A few turns in: both players drew opening cards, the player acted once."""
    play_until(started, gm, started.pc)
    result = services.battle_action_apply(
        battle_id=started.battle.pk,
        actor=player,
        action={"type": "concentrate", "combatant": started.pc},
        expected_version=started.version,
    )
    started.response = result  # type: ignore[attr-defined]
    play_until(started, gm, started.other_pc)
    return started


def test_no_payload_leaks_another_hand_or_the_seed(played, campaign, player, api_for, gm):
    battle = played.refresh()
    seed = str(battle.initial["rng"]["seed"])
    other = battle.state["combatants"][played.other_pc]
    assert other["deck"]["hand"], "the other player holds a card (the test needs one)"
    client = api_for(player)
    client.force_login(player)  # pages too
    for name, raw in _payloads(client, played, campaign).items():
        text = raw.decode()
        assert seed not in text, name
        assert "Secret Card" not in text, name  # the other player's card, in her hand
        assert 'draw_pile"' not in text, name  # piles are counts only
        assert '"initial"' not in text, name  # the snapshot with the seed
        if raw.startswith(b"{") or raw.startswith(b"["):
            assert "seed" not in _keys(json.loads(raw)), name
    view = client.get(f"/api/battles/{battle.pk}/view/").json()
    assert view["combatants"][played.other_pc]["hand"] is None
    assert view["combatants"][played.other_pc]["hand_count"] == len(other["deck"]["hand"])
    assert view["combatants"][played.pc]["hand"] is not None  # her own
    assert view["rng"] is None


def test_the_action_answer_is_the_actors_view(started, gm, player, other_player, api_for):
    """Even the answer to your own move is filtered: the other player's opening draw (in the
    start entry's events) stays hidden."""
    play_until(started, gm, started.pc)
    battle = started.refresh()
    response = api_for(player).post(
        f"/api/battles/{battle.pk}/actions/",
        {"action": {"type": "concentrate", "combatant": started.pc}, "expected_version": 0},
        format="json",
    )
    assert response.status_code == 409  # stale on purpose: nothing leaks in errors either
    assert b"seed" not in response.content
    response = api_for(player).post(
        f"/api/battles/{battle.pk}/actions/",
        {
            "action": {"type": "concentrate", "combatant": started.pc},
            "expected_version": battle.version,
        },
        format="json",
    )
    assert response.status_code == 201
    text = response.content.decode()
    assert str(battle.initial["rng"]["seed"]) not in text and "Secret Card" not in text
    assert "seed" not in _keys(response.json())


def test_draws_show_cards_only_to_the_drawer(started, player, other_player, gm, api_for):
    log = api_for(player).get(f"/api/battles/{started.battle.pk}/log/").json()["results"]
    draws = [e for entry in log for e in entry["events"] if e["type"] == "draw"]
    mine = [e for e in draws if e["combatant"] == started.pc]
    theirs = [e for e in draws if e["combatant"] == started.other_pc]
    assert mine and "cards" in mine[0]
    assert theirs and "cards" not in theirs[0]
    gm_log = api_for(gm).get(f"/api/battles/{started.battle.pk}/log/").json()["results"]
    assert all("cards" in e for entry in gm_log for e in entry["events"] if e["type"] == "draw")


def test_the_gm_sees_hands_but_not_the_seed_until_the_end(started, gm, api_for):
    battle = started.refresh()
    seed = str(battle.initial["rng"]["seed"])
    api = api_for(gm)
    view = api.get(f"/api/battles/{battle.pk}/view/").json()
    assert view["combatants"][started.other_pc]["hand"] is not None
    assert seed not in json.dumps(view) and view["rng"] is None
    api.post(
        f"/api/battles/{battle.pk}/actions/",
        {"action": {"type": "gm_end_battle", "winner": None}, "expected_version": battle.version},
        format="json",
    )
    ended = api.get(f"/api/battles/{battle.pk}/view/").json()
    assert ended["rng"]["seed"] == int(seed)  # revealed: every roll can now be verified
