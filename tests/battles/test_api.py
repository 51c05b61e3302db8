"""The battle API: list/create, the view (and its cheap 204 poll), legal actions, applying
actions (201, 400 with the reason, 409 with the current version), the log, setup, the schema,
and bad input that must never be a 500."""

from __future__ import annotations

import pytest

from battles.models import Battle, BattleAction
from tests.battles.conftest import play_until

pytestmark = pytest.mark.django_db


def test_list_and_create(campaign, gm, player, api_for):
    gm_api = api_for(gm)
    response = gm_api.post(
        f"/api/campaigns/{campaign.pk}/battles/", {"name": "Gate", "width": 10}, format="json"
    )
    assert response.status_code == 201, response.content
    data = response.json()
    assert data["status"] == "setup" and data["version"] == 0
    assert data["url"] == f"/battles/{data['id']}/"
    listed = api_for(player).get(f"/api/campaigns/{campaign.pk}/battles/").json()
    assert [b["name"] for b in listed] == ["Gate"]
    assert "state" not in listed[0] and "initial" not in listed[0]


def test_create_validates(campaign, gm, api_for):
    response = api_for(gm).post(
        f"/api/campaigns/{campaign.pk}/battles/", {"name": "", "width": 100}, format="json"
    )
    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"name", "width"}


def test_retrieve_carries_the_callers_view(started, player, api_for):
    data = api_for(player).get(f"/api/battles/{started.battle.pk}/").json()
    assert data["view"]["version"] == data["version"] == 5
    assert data["view"]["you"]["player"] == str(player.pk)
    assert data["view"]["you"]["controls"] == [started.pc]


def test_the_poll_answers_204_while_nothing_changed(started, player, api_for):
    api = api_for(player)
    url = f"/api/battles/{started.battle.pk}/state/"
    first = api.get(url)
    assert first.status_code == 200 and first["X-Table-Version"] == "5"
    unchanged = api.get(url + "?since=5")
    assert unchanged.status_code == 204 and unchanged.content == b""
    older = api.get(url + "?since=4")
    assert older.status_code == 200
    assert [entry["n"] for entry in older.json()["view"]["log"]] == [5]


def test_apply_201_400_409(started, gm, api_for):
    api = api_for(gm)
    url = f"/api/battles/{started.battle.pk}/actions/"
    current = started.battle.state["current"]
    ok = api.post(
        url,
        {"action": {"type": "end_turn", "combatant": current}, "expected_version": 5},
        format="json",
    )
    assert ok.status_code == 201, ok.content
    body = ok.json()
    assert body["version"] == 6 and body["view"]["version"] == 6
    assert [entry["n"] for entry in body["view"]["log"]] == [6]
    stale = api.post(
        url,
        {"action": {"type": "end_turn", "combatant": current}, "expected_version": 5},
        format="json",
    )
    assert stale.status_code == 409
    assert stale.json() == {"detail": "Someone else moved first: reload the battle.", "version": 6}
    illegal = api.post(
        url,
        {"action": {"type": "move", "combatant": "npc1", "to": [0, 0]}, "expected_version": 6},
        format="json",
    )
    assert illegal.status_code == 400
    assert illegal.json()["errors"]["action"]
    assert BattleAction.objects.count() == 2


def test_legal_actions_for_the_caller(started, gm, player, other_player, api_for):
    play_until(started, gm, started.pc)
    url = f"/api/battles/{started.battle.pk}/legal-actions/"
    mine = api_for(player).get(url).json()
    assert mine["player"] == str(player.pk)
    assert {o["type"] for o in mine["legal_actions"]} >= {"end_turn", "move"}
    assert api_for(other_player).get(url).json()["legal_actions"] == []


def test_log_pages_and_filters(started, gm, api_for):
    for _ in range(4):
        battle = started.refresh()
        api_for(gm).post(
            f"/api/battles/{battle.pk}/actions/",
            {
                "action": {"type": "gm_adjust", "combatant": "npc1", "hp": -1},
                "expected_version": battle.version,
            },
            format="json",
        )
    url = f"/api/battles/{started.battle.pk}/log/"
    page = api_for(gm).get(url + "?limit=2").json()
    assert [e["n"] for e in page["results"]] == [5, 6]
    assert page["next_after"] == 6
    rest = api_for(gm).get(url + "?after=6&limit=10").json()
    assert [e["n"] for e in rest["results"]] == [7, 8, 9]
    assert rest["next_after"] is None


def test_setup_endpoints(setup_battle, gm, character, api_for, campaign):
    api = api_for(gm)
    pk = setup_battle.battle.pk
    square = api.post(
        f"/api/battles/{pk}/squares/",
        {"square": [4, 4], "terrain": "blocked", "expected_version": 4},
        format="json",
    )
    assert square.status_code == 200, square.content
    assert square.json()["view"]["arena"]["blocked"] == [[4, 4]]
    stale = api.post(
        f"/api/battles/{pk}/squares/",
        {"square": [4, 3], "terrain": "blocked", "expected_version": 4},
        format="json",
    )
    assert stale.status_code == 409
    npc = {
        "name": "Wriggle",
        "pwr": 5,
        "cha": 5,
        "int": 5,
        "ins": 5,
        "hp": 20,
        "speed": 3,
        "range": 2,
        "element": "wood",
        "weapons": ["spear"],
    }
    placed = api.post(
        f"/api/battles/{pk}/combatants/", {"npc": npc, "position": [5, 5]}, format="json"
    )
    assert placed.status_code == 201, placed.content
    assert "npc3" in placed.json()["view"]["combatants"]
    moved = api.patch(
        f"/api/battles/{pk}/combatants/npc3/", {"position": [5, 4], "side": "bugs"}, format="json"
    )
    assert moved.status_code == 200
    assert moved.json()["view"]["combatants"]["npc3"]["side"] == "bugs"
    assert api.delete(f"/api/battles/{pk}/combatants/npc3/").status_code == 200
    resized = api.patch(f"/api/battles/{pk}/", {"height": 7, "name": "Bigger"}, format="json")
    assert resized.status_code == 200
    assert resized.json()["view"]["arena"]["height"] == 7
    combatants = api.get(f"/api/battles/{pk}/combatants/").json()
    assert {c["engine_id"] for c in combatants} == {setup_battle.pc, setup_battle.other_pc} | {
        "npc1",
        "npc2",
    }
    assert api.delete(f"/api/battles/{pk}/").status_code == 204
    assert not Battle.objects.exists()


BAD_ACTIONS = [
    None,
    [],
    "start",
    {},
    {"type": 3},
    {"type": "move"},
    {"type": "move", "combatant": "npc1", "to": "up"},
    {"type": "move", "combatant": ["x"], "to": [1, 2, 3]},
    {"type": "attack", "combatant": "npc1", "attack": None, "target": {"a": 1}},
    {"type": "use_spellcard", "combatant": "npc1", "card": 5, "targets": "all"},
    {"type": "use_spellcard", "combatant": "npc1", "card": "x", "targets": [[1, "a"]]},
    {"type": "react", "combatant": "npc1", "hit": None, "choice": "bomb"},
    {"type": "gm_adjust", "combatant": "npc1", "hp": "lots"},
    {"type": "gm_add_status", "combatant": "npc1", "status": "doom", "turns": -1},
    {"type": "gm_move", "combatant": "npc1", "to": [999, 999]},
    {"type": "gm_add_combatant", "combatant": {"id": "z", "controller": "gm"}},
    {"type": "gm_set_target", "name": "dodge", "target": 1.5},
    {"type": "gm_end_battle", "winner": "nobody"},
    {"type": "use_ability", "combatant": "npc1", "ability": "x" * 5000, "target": [0]},
    {"type": "nonsense"},
]


@pytest.mark.parametrize("action", BAD_ACTIONS)
def test_bad_actions_are_400_never_500(started, gm, api_for, action):
    response = api_for(gm).post(
        f"/api/battles/{started.battle.pk}/actions/",
        {"action": action, "expected_version": 5},
        format="json",
    )
    assert response.status_code == 400, response.content
    assert started.version == 5


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("post", "actions/", {"action": {"type": "start"}}),
        ("post", "actions/", {"action": {"type": "start"}, "expected_version": -1}),
        ("post", "actions/", {"action": {"type": "start"}, "expected_version": "x"}),
        ("post", "squares/", {"square": [1], "terrain": "blocked"}),
        ("post", "squares/", {"square": [1, 1], "terrain": "lava"}),
        ("post", "combatants/", {}),
        ("post", "combatants/", {"character": 1, "npc": {"name": "x"}}),
        ("post", "combatants/", {"npc": {"name": "x", "pwr": 999}}),
        ("post", "combatants/", {"character": 10**30}),
        (
            "post",
            "combatants/",
            {
                "npc": {
                    "name": "F",
                    "pwr": 1,
                    "cha": 1,
                    "int": 1,
                    "ins": 1,
                    "hp": 1,
                    "speed": 1,
                    "range": 1,
                },
                "side": "BAD SIDE!",
            },
        ),
        ("patch", "combatants/nobody/", {"position": [1, 1]}),
        ("patch", "", {"width": "wide"}),
        ("get", "log/?after=x", None),
        ("get", "state/?since=-3", None),
    ],
)
def test_bad_input_is_400_never_500(setup_battle, gm, api_for, method, path, body):
    api = api_for(gm)
    url = f"/api/battles/{setup_battle.battle.pk}/{path}"
    response = getattr(api, method)(url, body, format="json") if body is not None else api.get(url)
    assert response.status_code == 400, response.content
    assert "detail" in response.json()


def test_huge_and_missing_ids_are_404(gm, api_for, client_for):
    api = api_for(gm)
    for url in ("/api/battles/99999/", f"/api/battles/{10**30}/state/", "/api/battles/0/log/"):
        assert api.get(url).status_code == 404
    assert client_for(gm).get(f"/battles/{10**30}/").status_code == 404


def test_the_schema_documents_the_battle_endpoints(api_for, player):
    schema = api_for(player).get("/api/schema/?format=json").json()
    paths = schema["paths"]
    for path in (
        "/api/campaigns/{id}/battles/",
        "/api/battles/{id}/",
        "/api/battles/{id}/state/",
        "/api/battles/{id}/legal-actions/",
        "/api/battles/{id}/actions/",
        "/api/battles/{id}/log/",
        "/api/battles/{id}/squares/",
        "/api/battles/{id}/combatants/",
        "/api/battles/{id}/combatants/{combatant}/",
    ):
        assert path in paths, path
    apply = paths["/api/battles/{id}/actions/"]["post"]
    assert {"201", "409"} <= set(apply["responses"])
    assert "BattleView" in schema["components"]["schemas"]


def test_fear_without_a_source_is_refused_with_a_reason(started, gm, api_for):
    """Issue 9, rule 4: fear always has a source ("run as far as she can from the source of
    her fear"); the API refuses a GM's fear without one (400, nothing saved)."""
    api = api_for(gm)
    url = f"/api/battles/{started.battle.pk}/actions/"
    version = started.version
    action = {"type": "gm_add_status", "combatant": started.pc, "status": "fear", "turns": 1}
    refused = api.post(url, {"action": action, "expected_version": version}, format="json")
    assert refused.status_code == 400
    assert "afraid of" in refused.json()["errors"]["action"][0]
    assert started.version == version
    sourced = {**action, "source": "npc1"}
    ok = api.post(url, {"action": sourced, "expected_version": version}, format="json")
    assert ok.status_code == 201, ok.content


def test_a_gm_hp_typo_is_a_400_in_words_and_an_end_by_mistake_is_undone(
    started, gm, player, campaign, api_for
):
    """The tester typed -99999999999 in "HP ±": the last hero was destroyed and the battle
    ended, with no way back. The engine refuses an HP change below utter destruction (-100,
    "Utter Destruction") in words; and when an override does end the battle, the GM's undo
    takes it back: the battle runs again, its end gone from the timeline."""
    client = api_for(gm)
    client.force_login(gm)
    pk = started.battle.pk

    def act(action):
        return client.post(
            f"/api/battles/{pk}/actions/",
            {"action": action, "expected_version": started.version},
            format="json",
        )

    typo = act({"type": "gm_adjust", "combatant": started.pc, "hp": -99999999999})
    assert typo.status_code == 400
    assert "take at most" in typo.json()["errors"]["action"][0]
    assert started.refresh().state["combatants"][started.pc]["life"] == "alive"
    for cid in (started.pc, started.other_pc):
        hp = started.refresh().state["combatants"][cid]["hp"]
        assert act({"type": "gm_adjust", "combatant": cid, "hp": -(hp + 100)}).status_code == 201
    battle = started.refresh()
    assert battle.status == "ended" and battle.ended_at is not None
    timeline = client.get(f"/api/campaigns/{campaign.pk}/timeline/").content.decode()
    assert "Battle ended" in timeline
    assert 'id="gm-undo-box"' in client.get(f"/battles/{pk}/").content.decode()
    assert act({"type": "gm_undo"}).status_code == 201
    battle = started.refresh()
    assert (battle.status, battle.ended_at) == ("active", None)
    assert battle.state["combatants"][started.other_pc]["life"] == "alive"
    timeline = client.get(f"/api/campaigns/{campaign.pk}/timeline/").content.decode()
    assert "Battle ended" not in timeline
    assert api_for(player).get(f"/api/battles/{pk}/legal-actions/").status_code == 200


def test_a_piece_placed_without_a_side_takes_the_documented_default(
    setup_battle, campaign, gm, player, api_for
):
    """The battle screen asks for a side; a script that sends none gets the default its schema
    documents: a character joins heroes, an NPC enemies (issue 40)."""
    from tests.factories import CharacterFactory

    api = api_for(gm)
    pk = setup_battle.battle.pk
    hero = CharacterFactory(owner=player, campaign=campaign, name="Sanae")
    placed = api.post(
        f"/api/battles/{pk}/combatants/",
        {"character": hero.pk, "position": [0, 0]},
        format="json",
    )
    assert placed.status_code == 201, placed.content
    assert placed.json()["view"]["combatants"][f"pc{hero.pk}"]["side"] == "heroes"
    npc = {"name": "Mystia", "pwr": 4, "cha": 4, "int": 3, "ins": 4, "hp": 20, "speed": 3,
           "range": 1, "element": "water", "weapons": []}  # fmt: skip
    placed = api.post(
        f"/api/battles/{pk}/combatants/", {"npc": npc, "position": [0, 1]}, format="json"
    )
    assert placed.status_code == 201, placed.content
    mystia = [c for c in placed.json()["view"]["combatants"].values() if c["name"] == "Mystia"]
    assert [c["side"] for c in mystia] == ["enemies"]
    schema = api.get("/api/schema/?format=json").json()
    side = schema["components"]["schemas"]["PlaceInputRequest"]["properties"]["side"]
    assert "joins heroes" in side["description"] and "enemies" in side["description"]
