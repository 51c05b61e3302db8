"""The battle screen explains itself (issue 40, "The battle screen"): each hit's damage in steps
from the engine's own events (the roll, the element, Shield, each reduction by name, the minimum
of 1), in the log and in the hit's prompt; the board's coordinates as the log names squares;
the map selector showing the map in use; a GM choosing a placed character's side herself; and
"React", not "Your turn", for a player who must only react to a hit.

The battles are played through the services with the engine's own legal actions (its seeded
dice), so every event the page puts in words is one the engine emitted."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from battles import services as battles
from battles.models import Battle
from campaign.permissions import access_for
from tests.browser.conftest import ARTIFACTS
from tests.factories import CharacterFactory
from westernroses.battle import legal_actions
from westernroses.battle.game import waiting

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAIN_REACTIONS = ("take", "no_graze", "pass", "accept")
SHOTS = ARTIFACTS / "battle-explains"
SHOTS.mkdir(parents=True, exist_ok=True)


@pytest.fixture
def battle(campaign, gm, player) -> Battle:
    """Reimu (the player's) beside a tough fairy whose damage reduction is 4, started."""
    made = battles.battle_create(
        campaign=campaign,
        by=access_for(gm, campaign),
        created_by=gm,
        name="Lake",
        width=6,
        height=4,
    )
    hero = CharacterFactory(owner=player, campaign=campaign, name="Reimu")
    battles.battle_character_place(
        battle_id=made.pk, by=gm, character_id=hero.pk, side="heroes", position=[1, 1]
    )
    fairy = battles.NpcSpec(
        name="Daiyousei",
        stats={"pwr": 6, "cha": 6, "int": 6, "ins": 6},
        hp=400,
        speed=3,
        range=4,
        damage_reduction=4,
    )
    battles.battle_npc_place(battle_id=made.pk, by=gm, npc=fairy, side="enemies", position=[3, 1])
    act(made, gm, {"type": "start"})
    return made


def state_of(battle: Battle):
    battle.refresh_from_db()
    return battles.full_state(battle)


def act(battle: Battle, user, action: dict) -> None:
    battle.refresh_from_db()
    battles.battle_action_apply(
        battle_id=battle.pk, actor=user, action=action, expected_version=battle.version
    )


def play_until(battle: Battle, gm, player, done: Callable, steps: int = 300) -> None:
    """Play the battle with the engine's legal moves (react plainly, else attack, else end the
    turn) until ``done(state)``; the player plays her own character, the GM the fairy."""
    for _ in range(steps):
        state = state_of(battle)
        if done(state):
            return
        seats = {w.seat for w in waiting(state)}
        user = player if str(player.pk) in seats else gm
        options = legal_actions(state, "gm" if user == gm else str(player.pk))
        reactions = [o for o in options if o["type"] == "react"]
        plain = [o for o in reactions if o.get("choice") in PLAIN_REACTIONS]
        pick = (plain or reactions or [None])[0]
        if pick is None:
            attack = next((o for o in options if o["type"] == "attack" and o["targets"]), None)
            if attack is not None:
                pick = {**attack, "target": attack["targets"][0]}
            else:
                ends = [o for o in options if o["type"] == "end_turn"]
                assert ends, (state.phase, state.current, [o["type"] for o in options], seats)
                pick = ends[0]
        act(battle, user, {k: v for k, v in pick.items() if k in ACTION_KEYS})
    raise AssertionError("the battle never got there")


ACTION_KEYS = {"type", "combatant", "attack", "target", "hit", "choice", "card"}


def hit_events(state) -> list[dict]:
    return [e for entry in state.log for e in entry["events"] if e["type"] == "hit"]


def test_a_hits_damage_is_explained_step_by_step_in_the_log(new_page, battle, gm, player):
    """The fairy's damage reduction of 4 (the GM's one number) is a step of every hit on her:
    "Reimu's roll ... damage reduction −4 → ..." (docs/battle.md, damage order)."""
    fairy = next(c.id for c in state_of(battle).combatants.values() if c.kind == "npc")
    play_until(battle, gm, player, lambda s: any(e["defender"] == fairy for e in hit_events(s)))
    hit = next(e for e in hit_events(state_of(battle)) if e["defender"] == fairy)
    page = new_page(player)
    page.goto(f"/battles/{battle.pk}/")
    page.wait_for_selector("#log li")
    log = page.inner_text("#log")
    expected = f"rolled {hit['raw']}; damage reduction −4 → {max(hit['raw'] - 4, 0)}"
    assert expected in log, log
    page.screenshot(path=str(SHOTS / "hit-steps-1280.png"), full_page=True)


def test_a_player_who_must_only_react_sees_react_not_your_turn(new_page, battle, gm, player):
    """A hit waits on Reimu's decision while it is the fairy's turn: her flag says "React"."""
    pc = next(c.id for c in state_of(battle).combatants.values() if c.kind != "npc")
    play_until(
        battle,
        gm,
        player,
        lambda s: s.pending and s.current != pc and any(w.combatant == pc for w in waiting(s)),
    )
    page = new_page(player)
    page.goto(f"/battles/{battle.pk}/")
    page.wait_for_selector("#pending-panel:not([hidden])")
    assert page.inner_text("#your-turn-flag") == "React"
    # the prompt shows the hit's steps too when it carries damage
    page.screenshot(path=str(SHOTS / "react-1280.png"), full_page=True)


def test_the_board_shows_the_coordinates_the_log_names(new_page, battle, player):
    """ "square 3, 0" in the log is column 3 of the top row; row 2 is marked down the left."""
    page = new_page(player)
    page.goto(f"/battles/{battle.pk}/")
    page.wait_for_selector(".battle-square .battle-token")
    marks = page.evaluate(
        """() => [["3", "0"], ["0", "2"], ["0", "0"], ["2", "2"]].map(([x, y]) =>
            getComputedStyle(document.querySelector(
                `.battle-square[data-x='${x}'][data-y='${y}']`), "::before").content)"""
    )
    assert marks == ['"3"', '"2"', '"0, 0"', "none"]
    label = page.get_attribute(".battle-square[data-x='1'][data-y='1']", "aria-label")
    assert label == "square 1, 1: RE, Reimu"
    page.screenshot(path=str(SHOTS / "coordinates-1280.png"))


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")


def test_the_map_selector_shows_the_map_in_use(new_page, campaign, gm, media):
    """With a map under the grid, the GM's selector names it once the page has loaded, so
    "Use it" keeps it (it read "none: a drawn grid", and "Use it" removed the map)."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from battles import maps
    from tests.browser.test_battle_map import png

    made = battles.battle_create(
        campaign=campaign,
        by=access_for(gm, campaign),
        created_by=gm,
        name="Lake",
        width=8,
        height=6,
    )
    lake = maps.battle_map_create(
        campaign_id=campaign.pk,
        by=gm,
        name="Misty Lake",
        image=SimpleUploadedFile("lake.png", png((640, 480)), content_type="image/png"),
        alignment={"cols": 8, "rows": 6, "offset_x": 0, "offset_y": 0, "square_px": 80},
    )
    maps.battle_map_set(battle_id=made.pk, by=gm, map_id=lake.pk)
    page = new_page(gm)
    page.goto(f"/battles/{made.pk}/")
    page.wait_for_selector(f"#map-choice option[value='{lake.pk}']", state="attached")
    page.wait_for_function(f"document.getElementById('map-choice').value === '{lake.pk}'")
    assert page.eval_on_selector("#map-choice", "s => s.selectedOptions[0].textContent") == (
        "Misty Lake (8×6)"
    )
    page.click("#map-use")
    page.wait_for_selector("#battle-status:has-text('The map is under the grid.')")
    made.refresh_from_db()
    assert made.map_id == lake.pk


def test_a_gm_placing_a_character_chooses_her_side(new_page, campaign, gm, player):
    """No silent "heroes": the side starts unchosen, placing without one says so, and the
    side she picks is the one the piece gets."""
    made = battles.battle_create(
        campaign=campaign,
        by=access_for(gm, campaign),
        created_by=gm,
        name="Lake",
        width=6,
        height=4,
    )
    CharacterFactory(owner=player, campaign=campaign, name="Marisa")
    page = new_page(gm)
    page.goto(f"/battles/{made.pk}/")
    page.wait_for_selector("#place-character option:not([value=''])", state="attached")
    assert page.input_value("#place-character-side") == ""
    page.click("#place-character-button")
    assert page.inner_text("#battle-status") == "Choose her side first: heroes, enemies or neutral."
    assert page.evaluate("document.activeElement.id") == "place-character-side"
    page.select_option("#place-character-side", "enemies")
    page.click("#place-character-button")
    page.click(".battle-square[data-x='2'][data-y='1']")
    page.wait_for_selector(
        ".battle-square[data-x='2'][data-y='1'] .battle-token[data-side='enemies']"
    )
