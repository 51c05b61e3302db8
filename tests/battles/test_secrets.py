"""What a player's browser receives never holds another player's hand, a draw pile's order or
the seed (boardgame.io's issue #1159: the unfiltered state reached clients). Every payload a
player can ask for is checked, raw bytes included."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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
        "view": f"/api/battles/{pk}/state/",
        "view-since": f"/api/battles/{pk}/state/?since=1",
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
    view = client.get(f"/api/battles/{battle.pk}/state/").json()["view"]
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


def test_the_gm_sees_hands_but_never_the_seed(started, gm, api_for):
    battle = started.refresh()
    seed = str(battle.initial["rng"]["seed"])
    api = api_for(gm)
    view = api.get(f"/api/battles/{battle.pk}/state/").json()["view"]
    assert view["combatants"][started.other_pc]["hand"] is not None
    assert seed not in json.dumps(view) and view["rng"] is None
    api.post(
        f"/api/battles/{battle.pk}/actions/",
        {"action": {"type": "gm_end_battle", "winner": None}, "expected_version": battle.version},
        format="json",
    )
    ended = api.get(f"/api/battles/{battle.pk}/state/").json()["view"]
    assert ended["rng"] is None and seed not in json.dumps(ended)  # not after the end either


def _revealed(battle: Any) -> set[str]:
    """Card designs gone face up so far (every card used shows its name in the log)."""
    from battles.models import BattleAction

    return {
        str(e.get("name"))
        for row in BattleAction.objects.filter(battle=battle)
        for e in row.events
        if e["type"] == "card_used"
    }


def _every_payload(client: Any, battle: Any, campaign: Any) -> dict[str, bytes]:
    """Everything a member's browser can ask for about the battle: pages, the view API and
    its poll, the log API, legal actions, the combatants index, notifications."""
    pk, version = battle.pk, battle.version
    urls = {
        "page": f"/battles/{pk}/",
        "list-page": f"/campaigns/{campaign.pk}/battles/",
        "list": f"/api/campaigns/{campaign.pk}/battles/",
        "retrieve": f"/api/battles/{pk}/",
        "view": f"/api/battles/{pk}/state/",
        "poll": f"/api/battles/{pk}/state/?since={max(version - 3, 0)}",
        "log": f"/api/battles/{pk}/log/?limit=200",
        "legal": f"/api/battles/{pk}/legal-actions/",
        "combatants": f"/api/battles/{pk}/combatants/",
        "timeline": f"/api/campaigns/{campaign.pk}/timeline/",
        "notifications": "/api/notifications/",
        "notifications-page": "/notifications/",
    }
    out = {}
    for name, url in urls.items():
        response = client.get(url)
        assert response.status_code == 200, (name, url, response.status_code)
        out[name] = response.content
    return out


def _gm_override(state: Any, rng: Any) -> dict[str, Any] | None:
    """Now and then the GM steps in (adjust, a status with its source, a move, an undo)."""
    ids = sorted(c for c in state.combatants if state.combatants[c].kind != "doll")
    who = rng.choice(ids)
    choice = rng.randrange(4)
    if choice == 0:
        return {"type": "gm_adjust", "combatant": who, "hp": rng.randint(-8, 8)}
    if choice == 1:
        return {
            "type": "gm_add_status",
            "combatant": who,
            "status": rng.choice(["stun", "blind", "fear"]),
            "turns": 1,
            "source": rng.choice([i for i in ids if i != who]),
        }
    if choice == 2:
        x, y = rng.randrange(state.arena.width), rng.randrange(state.arena.height)
        return {"type": "gm_move", "combatant": who, "to": [x, y]}
    return {"type": "gm_undo"}


@pytest.mark.parametrize("seed", [3, 11])
def test_no_seat_receives_another_seats_secrets_in_a_random_battle_with_gm_overrides(
    seed, started, campaign, gm, player, other_player, api_for, django_capture_on_commit_callbacks
):
    """Issue 9: for every seat, every payload (pages, the view API and its poll, the log API,
    legal actions, notifications) of a random battle with GM overrides - a reinforcement
    carrying her deck among them - holds no other seat's hand, draw pile, card designs not yet
    revealed, or the seed. Each player's deck has a card the others must never read."""
    import random

    from battles.models import Battle
    from tests.engine.battle.random_play import acting_player, random_action

    rng = random.Random(seed)
    battle = started.refresh()
    # The other player's character left the board; the GM brings her back mid-battle as a
    # reinforcement (``gm_add_combatant`` with her whole deck: "Secret Card").
    services.battle_action_apply(
        battle_id=battle.pk,
        actor=gm,
        action={"type": "gm_remove_combatant", "combatant": started.other_pc},
        expected_version=battle.version,
    )
    other_id = int(started.other_pc.removeprefix("pc"))
    services.battle_character_place(
        battle_id=battle.pk, by=gm, character_id=other_id, position=[2, 2]
    )
    users = {"gm": gm, str(player.pk): player, str(other_player.pk): other_player}
    secrets = {str(player.pk): "Icicle Fall", str(other_player.pk): "Secret Card"}
    seed_text = str(Battle.objects.get(pk=battle.pk).initial["rng"]["seed"])
    clients = {}
    for key, user in users.items():
        clients[key] = api_for(user)
        clients[key].force_login(user)
    checked = 0
    for step in range(36):
        battle = started.refresh()
        state = services.load_state(battle, initial=False)
        if state.phase != "active":
            break
        action = _gm_override(state, rng) if rng.random() < 0.15 else None
        actor = "gm"
        if action is None:
            actor = acting_player(state) or "gm"
            action = random_action(state, rng)
            if action is None:
                break
        action = {k: v for k, v in action.items() if k != "player"}
        try:
            with django_capture_on_commit_callbacks(execute=True):
                services.battle_action_apply(
                    battle_id=battle.pk,
                    actor=users.get(actor, gm),
                    action=action,
                    expected_version=battle.version,
                )
        except services.ValidationError:
            assert action["type"].startswith("gm_"), action  # only overrides may be refused
        if step % 6 != 5:
            continue
        battle = started.refresh()
        if battle.status != "active":
            break
        revealed = _revealed(battle)
        checked += 1
        for seat, client in clients.items():
            for name, raw in _every_payload(client, battle, campaign).items():
                text = raw.decode()
                assert seed_text not in text, (seat, name)
                assert '"initial"' not in text, (seat, name)
                if raw.startswith((b"{", b"[")):
                    assert "seed" not in _keys(json.loads(raw)), (seat, name)
                if seat == "gm":
                    continue
                assert 'draw_pile"' not in text, (seat, name)
                for owner, card in secrets.items():
                    if owner != seat and card not in revealed:
                        assert card not in text, (seat, name, card)
    assert checked, "the battle ended before any payload was checked"


# --------------------------------------------------------------------------- fog of war


def _strings(value: Any) -> set[str]:
    """Every string of a JSON value, keys included (ids and names are whole strings)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set(value) | {s for v in value.values() for s in _strings(v)}
    if isinstance(value, list):
        return {s for v in value for s in _strings(v)}
    return set()


def _fog_step(state: Any, rng: Any) -> dict[str, Any]:
    """The GM fogs or reveals a random rectangle (fogging more often than revealing)."""
    w, h = state.arena.width, state.arena.height
    a = [rng.randrange(w), rng.randrange(h)]
    b = [min(w - 1, a[0] + rng.randrange(5)), min(h - 1, a[1] + rng.randrange(4))]
    return {"type": "gm_fog" if rng.random() < 0.7 else "gm_reveal", "from": a, "to": b}


@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(0, 2**32))
def test_no_player_receives_a_fogged_combatant_in_any_payload(
    seed, started, campaign, gm, player, other_player, api_for, django_capture_on_commit_callbacks
):
    """Issue 14: random play with the GM fogging and revealing random rectangles. In every
    payload a player's browser can fetch (pages, view, poll, log, legal actions, combatants,
    the battle lists, the timeline, notifications), no combatant standing in fog out of her
    sight appears, by id or by name; the turn tracker says only that the GM is acting; the GM
    sees everyone. (One battle runs on across the examples; each adds its own steps.)"""
    import random

    from tests.engine.battle.random_play import acting_player, random_action
    from westernroses import battle as engine

    rng = random.Random(seed)
    users = {"gm": gm, str(player.pk): player, str(other_player.pk): other_player}
    for _ in range(10):
        battle = started.refresh()
        state = services.load_state(battle, initial=False)
        if state.phase != "active":
            break
        actor, action = "gm", _fog_step(state, rng)
        if rng.random() < 0.6:
            actor = acting_player(state) or "gm"
            action = random_action(state, rng) or action
        action = {k: v for k, v in action.items() if k != "player"}
        with django_capture_on_commit_callbacks(execute=True):
            services.battle_action_apply(
                battle_id=battle.pk,
                actor=users.get(actor, gm),
                action=action,
                expected_version=battle.version,
            )
    battle = started.refresh()
    state = services.load_state(battle, initial=False)
    gm_client = api_for(gm)
    shown = gm_client.get(f"/api/battles/{battle.pk}/state/").json()["view"]["combatants"]
    assert set(shown) == set(state.combatants)
    for seat, user in users.items():
        if seat == "gm":
            continue
        hidden = engine.hidden_ids(state, seat)
        names = {state.combatants[cid].name for cid in hidden}
        client = api_for(user)
        client.force_login(user)
        for name, raw in _every_payload(client, battle, campaign).items():
            text = raw.decode()
            for secret in names:
                assert secret not in text, (seat, name, secret)
            if raw.startswith((b"{", b"[")):
                leaked = _strings(json.loads(raw)) & hidden
                assert not leaked, (seat, name, leaked)
        view = client.get(f"/api/battles/{battle.pk}/state/").json()["view"]
        assert view["fog"] == [list(s) for s in sorted(state.arena.fog)]
        if state.current in hidden:
            assert view["turn"]["current"] is None and view["turn"]["current_hidden"]


def test_a_fogged_npcs_turn_shows_players_only_that_the_gm_is_acting(started, gm, player, api_for):
    """Whose turn it is must not reveal a fogged combatant: players see that the GM is
    acting, not who, in the view, the battle list and the summary."""
    npc = started.npcs[0]
    play_until(started, gm, npc)
    battle = started.refresh()
    x, y = battle.state["combatants"][npc]["position"]
    services.battle_action_apply(
        battle_id=battle.pk,
        actor=gm,
        action={"type": "gm_fog", "from": [x, y], "to": [x, y]},
        expected_version=battle.version,
    )
    client = api_for(player)
    view = client.get(f"/api/battles/{battle.pk}/state/").json()["view"]
    assert npc not in view["combatants"] and view["turn"]["current"] is None
    assert view["turn"]["current_hidden"] is True
    listed = client.get(f"/api/battles/{battle.pk}/").json()
    assert listed["current_combatant"] == ""
    assert listed["turn_summary"].endswith("the GM is acting")
    gm_view = api_for(gm).get(f"/api/battles/{battle.pk}/state/").json()["view"]
    assert gm_view["turn"]["current"] == npc
    fog = client.post(
        f"/api/battles/{battle.pk}/actions/",
        {
            "action": {"type": "gm_reveal", "from": [0, 0], "to": [7, 5]},
            "expected_version": started.version,
        },
        format="json",
    )
    assert fog.status_code == 403  # a player may not clear the fog


def test_a_turn_order_tie_in_the_fog_reaches_no_player_payload(
    setup_battle, campaign, gm, player, api_for
):
    """The tester's battle (docs/battle.md, "Fog of war", rule 1; turn order ties, RULINGS
    11): two NPCs of Cirno's speed, the whole board fogged, then Start. Cirno's player saw
    "An opposed roll (turn order: speed N tie). someone: 2, someone: 2 ..." with null ids.
    Now no payload of hers (page, view, poll, log API, notifications) has a roll with anyone
    she cannot see, nor says that one was rolled."""
    from dataclasses import replace

    from tests.battles.conftest import fairy
    from westernroses import battle as engine

    battle = setup_battle.refresh()
    gm_view = engine.view(services.load_state(battle, initial=True), "gm")
    speed = gm_view["combatants"][setup_battle.pc]["speed"]
    for name, square in (("Lurker", [4, 4]), ("Visible", [5, 5])):
        services.battle_npc_place(
            battle_id=battle.pk, by=gm, npc=replace(fairy(name), speed=speed), position=square
        )
    battle = setup_battle.refresh()
    services.battle_action_apply(
        battle_id=battle.pk,
        actor=gm,
        action={"type": "gm_fog", "from": [0, 0], "to": [7, 5]},
        expected_version=battle.version,
    )
    services.battle_action_apply(
        battle_id=battle.pk, actor=gm, action={"type": "start"}, expected_version=battle.version + 1
    )
    battle = setup_battle.refresh()
    rows = [e for row in battle.actions.all() for e in row.events]
    assert any(
        e["type"] == "versus" and len(e["result"]["participants"]) >= 3 for e in rows
    )  # the tie was rolled, Cirno included
    client = api_for(player)
    client.force_login(player)
    for name, raw in _every_payload(client, battle, campaign).items():
        text = raw.decode()
        assert "versus" not in text and f"speed {speed} tie" not in text, name
        assert "Lurker" not in text and "Visible" not in text, name
