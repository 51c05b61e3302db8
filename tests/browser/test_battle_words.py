"""The battle screen in words, and without a mouse (issue 10: "GM: gm adjust", "Undone:
gm_add_status.", a card-buff badge reading "ca", a critical dodge logged as "8 vs 12 ✓
(success)", negative HP without its state, Graze vs Don't graze unexplained; hover-only details;
an empty campaign told "Every character is on the board").

The page's own functions are called with events shaped as the engine emits them
(docs/battle.md, events), so each wording is checked without playing a battle to that point.
"""

from __future__ import annotations

import re

import pytest

from battles import services as battles
from campaign.models import Campaign
from campaign.permissions import access_for
from tests.factories import CharacterFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")


@pytest.fixture
def battle(campaign, gm, player):
    battle = battles.battle_create(
        campaign=campaign,
        by=access_for(gm, campaign),
        created_by=gm,
        name="Lake",
        width=6,
        height=4,
    )
    hero = CharacterFactory(owner=player, campaign=campaign, name="Reimu")
    battles.battle_character_place(
        battle_id=battle.pk, by=gm, character_id=hero.pk, position=[1, 1]
    )
    battles.battle_npc_place(
        battle_id=battle.pk,
        by=gm,
        npc=battles.NpcSpec(
            name="Sunny Milk",
            stats={"pwr": 3, "cha": 3, "int": 3, "ins": 3},
            hp=20,
            speed=2,
            range=2,
        ),
        side="enemies",
        position=[4, 1],
    )
    battle.refresh_from_db()
    return battle


def words(page, fn: str, *args):
    return page.evaluate(f"(args) => window.BattleScreen.words.{fn}(...args)", list(args))


def test_the_log_and_the_badges_speak_in_sentences(new_page, battle, gm):
    page = new_page(gm)
    page.goto(f"/battles/{battle.pk}/")
    page.wait_for_function("window.BattleScreen && window.BattleScreen.state.view")
    pc = next(c for c in battles.full_state(battle).combatants if c.startswith("pc"))
    lines = {
        "override": words(page, "describeEvent", {"type": "gm_override", "action": "gm_adjust"}),
        "undone": words(
            page, "describeEvent", {"type": "undone", "action": {"type": "gm_add_status"}}
        ),
        "meter": words(
            page, "describeEvent", {"type": "meter_cleared", "combatant": pc, "points": 3}
        ),
        "power": words(
            page, "describeEvent", {"type": "power_dissipated", "drop": "d1", "amount": 5}
        ),
        "fell": words(
            page,
            "describeEvent",
            {"type": "fell", "combatant": pc, "state": "unconscious", "hp": -4},
        ),
        "moved": words(page, "describeEvent", {"type": "moved", "combatant": pc, "to": [5, 4]}),
    }
    assert lines["override"] == "The GM adjusts HP or SP."
    assert lines["undone"] == "The GM took back the last action (adds a status)."
    assert lines["meter"] == "Reimu's meter (3 of 5) is cleared at the end of the battle."
    assert lines["power"] == "5 power left on the ground fades away."
    assert lines["fell"] == "Reimu falls: unconscious at -4 HP."
    assert lines["moved"] == "Reimu moves to square 5, 4."
    for line in lines.values():
        assert not SNAKE.search(line) and "[" not in line, line
    # the log's heading names the action in words, the fog's too (westernroses/battle/fog.py)
    assert words(page, "actionWords", "gm_add_status") == "adds a status"
    for kind in ("gm_fog", "gm_reveal", "fogged"):
        assert not SNAKE.search(words(page, "actionWords", kind)), kind
    fog = {"type": "fog_changed", "fogged": True, "frm": [4, 0], "to": [5, 2], "squares": 6}
    assert words(page, "describeEvent", fog) == "Fog covers 6 squares (square 4, 0 to square 5, 2)."
    fog.update(fogged=False, squares=1, to=[4, 0])
    assert words(page, "describeEvent", fog).startswith("The fog lifts from 1 square (")
    assert words(page, "describeEvent", {"type": "in_fog", "combatants": [pc]}) is None
    # a critical dodge says why a low total succeeded (checks.py: criticals are on the dice alone)
    dodge = words(
        page,
        "describeEvent",
        {
            "type": "roll",
            "combatant": pc,
            "purpose": "dodge (insight)",
            "result": {"total": 8, "target": 12, "success": True, "critical": "success"},
        },
    )
    assert "critical success" in dodge and "dice alone" in dodge and "succeeds" in dodge
    assert "✓" not in dodge
    # below zero HP, the state in words
    assert words(page, "conditionWords", {"condition": "mortally_wounded", "hp": -3}).startswith(
        "mortally wounded"
    )
    assert words(page, "conditionWords", {"condition": "dead", "hp": -30}) == "dead"
    # a card's effect badge has a real label, not the first letters of its key
    badge = page.evaluate(
        """() => { const [b] = window.BattleScreen.words.statusBadges({effects: [
              {kind: "card", label: "Barrier Sign “Warding Circle”"}]});
            return {text: b.textContent, label: b.getAttribute("aria-label")}; }"""
    )
    assert badge["text"] != "ca" and badge["label"] == "Barrier Sign “Warding Circle”"
    # Graze and Don't graze say what each risks (docs/rulings.md: failed graze takes half)
    graze = words(page, "choiceHelp", "graze", {"damage": 9})
    assert "5 damage (half, rounded up)" in graze and "all 9" in graze and "spell power" in graze
    assert "no damage" in words(page, "choiceHelp", "no_graze", {"damage": 9})
    # a card's duration (ruleset "Duration": rounds on a space, or homing)
    assert words(page, "durationWords", "single_space_3") == "stays on its square for 3 rounds"
    assert words(page, "durationWords", "homing_2") == "follows its target for 2 rounds"


def test_nothing_needs_hover_tap_a_square_for_its_details(new_page, battle, player):
    page = new_page(player)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/battles/{battle.pk}/")
    page.wait_for_selector(".battle-square .battle-token")
    page.click(".battle-square:has(.battle-token[data-side='enemies'])")  # a tap: no hover
    info = page.text_content("#square-info")
    assert "Sunny Milk" in info and "HP 20 of 20" in info
    page.click(".battle-square[data-x='0'][data-y='0']")
    assert page.text_content("#square-info") == "Square 0, 0: open ground."
    # on a phone the board and the actions panel are on the first screen together
    board = page.eval_on_selector("#board", "e => e.getBoundingClientRect().toJSON()")
    actions = page.eval_on_selector("#actions-h", "e => e.getBoundingClientRect().toJSON()")
    page.evaluate("window.scrollTo(0, 0)")
    assert board["right"] <= 390
    assert actions["top"] - board["top"] < 844


def test_an_empty_campaign_says_so_and_links_to_creating_a_character(new_page, gm):
    campaign = Campaign.objects.create(name="Empty", created_by=gm)
    campaign.memberships.create(user=gm, role="gm")
    battle = battles.battle_create(
        campaign=campaign,
        by=access_for(gm, campaign),
        created_by=gm,
        name="Nobody",
        width=4,
        height=4,
    )
    page = new_page(gm)
    page.goto(f"/battles/{battle.pk}/")
    page.wait_for_function("window.BattleScreen && window.BattleScreen.state.view")
    none = page.locator("#place-character-none")
    assert none.is_visible()
    assert "no characters yet" in none.text_content()
    assert page.get_attribute("#place-character-none a", "href") == (
        f"/characters/new/?campaign={campaign.pk}"
    )
    assert not page.locator("#place-character-all").is_visible()
    assert not page.locator("#place-character-button").is_visible()


PHONE = {"width": 390, "height": 844}


def _start(battle, gm) -> None:
    battles.battle_action_apply(
        battle_id=battle.pk, actor=gm, action={"type": "start"}, expected_version=battle.version
    )
    battle.refresh_from_db()


def test_ending_the_battle_asks_first_and_undo_takes_it_back(new_page, battle, gm):
    """ "End the battle" ended it in one tap. Now it opens a question saying what ending means
    (like the tavern's Resign); "Keep fighting" and Escape close it with the battle running;
    only "Yes, end it" ends it, and then Undo stays (docs/battles.md, the GM's panel)."""
    from tests.browser.conftest import ARTIFACTS, no_horizontal_overflow

    _start(battle, gm)
    page = new_page(gm)
    page.set_viewport_size(PHONE)
    page.goto(f"/battles/{battle.pk}/")
    page.wait_for_selector("#gm-overrides:not([hidden])")
    page.select_option("#end-winner", "enemies")
    page.click("#gm-end")
    question = page.locator("#gm-end-question")
    assert question.is_visible()
    assert question.inner_text().startswith(
        "End the battle now, with enemies as the winners? Nobody can act any more;"
    )
    assert no_horizontal_overflow(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#gm-overrides").screenshot(path=str(ARTIFACTS / "battle-end-confirm-390.png"))
    page.click("#gm-end-keep")
    assert not question.is_visible()
    page.wait_for_timeout(300)
    battle.refresh_from_db()
    assert battle.status == "active"
    page.focus("#gm-end")  # from the keyboard: Enter opens it, Escape closes it
    page.keyboard.press("Enter")
    assert question.is_visible()
    page.keyboard.press("Escape")
    assert not question.is_visible()
    battle.refresh_from_db()
    assert battle.status == "active"
    page.click("#gm-end")
    page.click("#gm-end-yes")
    page.wait_for_selector("#gm-undo-ended:not([hidden])")
    battle.refresh_from_db()
    assert (battle.status, battle.state["winner"]) == ("ended", "enemies")
    page.click("#gm-undo")
    page.wait_for_selector("#gm-overrides:not([hidden])")
    battle.refresh_from_db()
    assert battle.status == "active"


def test_offline_the_screen_says_so_and_throws_nothing(new_page, battle, player):
    """Offline, the table feed's poll threw an uncaught "Failed to fetch" every second (a
    try/finally without catch). Now the screen says "Offline; retrying." and nothing is thrown;
    back online it is live again."""
    page = new_page(player)
    errors: list[str] = []
    page.goto(f"/battles/{battle.pk}/")
    page.wait_for_function("window.BattleScreen && window.BattleScreen.state.view")
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.context.set_offline(True)
    page.wait_for_function(
        "document.getElementById('live-status').textContent.includes('Offline')", timeout=15_000
    )
    page.wait_for_timeout(2_500)  # two more polls of the feed
    page.context.set_offline(False)
    page.wait_for_function(
        "!document.getElementById('live-status').textContent.includes('Offline')", timeout=15_000
    )
    assert errors == []


def test_a_piece_walled_in_by_fog_is_told_why(new_page, battle, gm, player):
    """Fog everything, then Start: Reimu's only actions were Do nothing, Concentrate and End
    turn, and nothing said why (docs/battle.md, "Fog of war", rule 2: players neither walk nor
    aim into fog). Her screen now says so in words, from public things only (the fog, her
    square): in her actions and when she taps her piece."""
    from tests.battles.conftest import play_until
    from tests.browser.conftest import ARTIFACTS, no_horizontal_overflow

    battles.battle_action_apply(
        battle_id=battle.pk,
        actor=gm,
        action={"type": "gm_fog", "from": [0, 0], "to": [5, 3]},
        expected_version=battle.version,
    )
    battle.refresh_from_db()
    _start(battle, gm)
    state = battles.full_state(battle)
    pc = next(c for c in state.combatants if c.startswith("pc"))

    class _S:
        def refresh(self):
            battle.refresh_from_db()
            return battle

    play_until(_S(), gm, pc)
    page = new_page(player)
    page.set_viewport_size(PHONE)
    page.goto(f"/battles/{battle.pk}/")
    note = page.wait_for_selector("#fog-note")
    words_shown = (
        "Every square around Reimu is in the fog: she cannot move or target into it until the "
        "GM reveals it."
    )
    assert note.inner_text() == words_shown
    page.click(f".battle-square:has(.battle-token[data-combatant='{pc}'])")
    assert page.text_content("#square-info").endswith(words_shown)
    assert no_horizontal_overflow(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "battle-fogbound-390.png"), full_page=True)
    # the GM's pieces walk into fog: her screen never says it
    gm_page = new_page(gm)
    gm_page.goto(f"/battles/{battle.pk}/")
    gm_page.wait_for_function("window.BattleScreen && window.BattleScreen.state.view")
    assert gm_page.locator("#fog-note").count() == 0


def test_each_terrain_tool_keeps_its_radio_with_its_label_on_a_phone(new_page, battle, gm):
    """At 390 px the "open" radio sat at the end of one line and its word on the next. Each
    radio now stays on one line with its label."""
    from tests.browser.conftest import ARTIFACTS

    page = new_page(gm)
    page.set_viewport_size(PHONE)
    page.goto(f"/battles/{battle.pk}/")
    page.wait_for_selector("#terrain-tools label")
    lines = page.eval_on_selector_all(
        "#terrain-tools label",
        """els => els.map((l) => {
            const box = l.querySelector('input').getBoundingClientRect();
            const text = document.createRange();
            text.selectNodeContents(l);
            const rects = [...text.getClientRects()].filter((r) => r.width > 0);
            const middle = box.top + box.height / 2;
            const beside = (r) => r.top <= middle && middle <= r.bottom;
            return [l.textContent.trim(), rects.every(beside)];
        })""",
    )
    assert [word for word, _ in lines] == ["off", "blocking", "difficult", "open"]
    assert all(together for _, together in lines), lines
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#terrain-tools").screenshot(path=str(ARTIFACTS / "battle-terrain-tools-390.png"))
