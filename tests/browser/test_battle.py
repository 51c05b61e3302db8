"""The battles feature's "done when", in headless Chromium with two browser contexts: the GM
sets up a 4-vs-4 battle on the battle screen (arena, a blocking and a difficult square, the
party, three typed-in NPCs and one from the campaign's wiki), starts it, and plays it to the
end with the player: the player runs her character (moving by clicking reachable squares,
attacking by choosing a target, casting a card after seeing its AOE preview), the GM runs the
NPCs and the other three characters.
Every move goes through the pages and their JavaScript; after each one the other browser
shows it without a reload (how fast is measured by `make bench`, not here: a loaded CI
machine must not turn a timing into a failure). One stale click shows "someone else moved first".

The NPCs are fragile (3 HP, no insight to dodge with) so the battle ends in a few dozen moves.
"""

from __future__ import annotations

from typing import Any

import pytest

from battles.models import Battle, BattleAction
from tests.factories import CharacterFactory, SpellcardFactory, attack_draft

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SYNC_SECONDS = 15.0  # a bound for a hung page, not a latency promise (see tests/bench)
PLAIN_REACTIONS = ("no_graze", "take", "pass", "accept")


def data(page) -> dict[str, str]:
    return page.eval_on_selector("#battle", "e => ({...e.dataset})")


def wait_version(page, version: int, timeout: float = SYNC_SECONDS) -> None:
    page.wait_for_function(
        f"Number(document.getElementById('battle').dataset.version) >= {version}",
        timeout=timeout * 1000,
    )


def click_and_wait(page, selector: str) -> int:
    """Click something that sends a move and wait for the page to show its result."""
    before = int(data(page)["version"])
    page.click(selector)
    wait_version(page, before + 1, timeout=10)
    return int(data(page)["version"])


def click_square(page, x: int, y: int) -> int:
    return click_and_wait(page, f".battle-square[data-x='{x}'][data-y='{y}']")


def place_npc(gm_page, name: str, x: int, y: int) -> None:
    for field, value in (("name", name), ("pwr", "1"), ("cha", "1"), ("int", "1"), ("ins", "0")):
        gm_page.fill(f"#npc-{field}", value)
    for field, value in (("hp", "3"), ("speed", "1"), ("range", "1")):
        gm_page.fill(f"#npc-{field}", value)
    gm_page.select_option("#npc-side", "enemies")
    gm_page.click("#npc-place-button")
    click_square(gm_page, x, y)


NEAREST_REACHABLE = """
() => {
  const pos = (cell) => [Number(cell.dataset.x), Number(cell.dataset.y)];
  const enemies = [...document.querySelectorAll(
      ".battle-token[data-side='enemies']:not(.cond-dead):not(.cond-unconscious):not(.cond-destroyed)")]
    .map((p) => pos(p.closest(".battle-square")));
  let best = null, bestD = 1e9;
  for (const cell of document.querySelectorAll(".battle-square.reach")) {
    const [x, y] = pos(cell);
    const d = Math.min(...enemies.map(([ex, ey]) => Math.abs(ex - x) + Math.abs(ey - y)));
    if (d < bestD) { best = [x, y]; bestD = d; }
  }
  return best;
}
"""


def play_one(page, *, try_card: bool = False, hold_back: bool = False) -> str:
    """One move on ``page`` (whose turn it is): react, attack an enemy, cast, move closer, or
    end the turn (at once with ``hold_back``). Returns what it did."""
    if data(page)["pending"] == "1":
        for choice in PLAIN_REACTIONS:
            button = page.query_selector(f"#pending-choices button[data-choice='{choice}']")
            if button:
                click_and_wait(page, f"#pending-choices button[data-choice='{choice}']")
                return f"react {choice}"
        click_and_wait(page, "#pending-choices button")
        return "react"
    if data(page)["currentSide"] == "enemies" or hold_back:
        click_and_wait(page, "button[data-action='end_turn']")
        return "ends turn"
    if try_card and page.query_selector("button[data-action='use_spellcard']"):
        page.click("button[data-action='use_spellcard']")
        target = page.query_selector(
            ".battle-square.in-range:has(.battle-token[data-side='enemies'])"
        ) or (page.query_selector(".battle-square.in-range"))
        if target:
            target.hover()
            # the range preview and the AOE around the hovered square, before committing
            assert page.locator(".battle-square.aoe").count() >= 2
            before = int(data(page)["version"])
            target.click()
            wait_version(page, before + 1, timeout=10)
            return "card"
        page.click("button[data-cancel]")
    attacks = page.locator("button[data-action='attack']")
    for i in range(attacks.count()):
        attacks.nth(i).click()
        enemy = page.query_selector(".target-list button[data-side='enemies']")
        if enemy:
            assert page.locator(".battle-square.target").count() >= 1  # targets marked on the board
            click_and_wait(page, ".target-list button[data-side='enemies']")
            return "attack"
        page.click("button[data-cancel]")
    if page.query_selector("button[data-action='move'][data-free='0']"):
        page.click("button[data-action='move'][data-free='0']")
        square = page.evaluate(NEAREST_REACHABLE)
        if square:
            click_square(page, *square)
            return "move"
        page.click("button[data-cancel]")
    click_and_wait(page, "button[data-action='end_turn']")
    return "end turn"


def test_a_four_versus_four_battle_to_the_end(new_page, campaign, gm, player, live_server):
    cirno = CharacterFactory(owner=player, campaign=campaign, name="Cirno")
    card = SpellcardFactory(
        character=cirno, name="Icicle Fall", draft=attack_draft("Icicle Fall", aoe=1)
    )
    from spellcards.models import DeckEntry

    DeckEntry.objects.create(character=cirno, spellcard=card, copies=3)
    allies = [
        CharacterFactory(owner=gm, campaign=campaign, name=name, is_npc=True)
        for name in ("Daiyousei", "Wakasagihime", "Kagerou")
    ]
    pc = f"pc{cirno.pk}"
    # A GM-only NPC of the wiki with the fairies' numbers: the fourth enemy (issue 43)
    from campaign.permissions import access_for
    from wiki.services import entry_create
    from wiki.stat_blocks import stat_block_set

    rumia = entry_create(
        campaign_id=campaign.pk, by=access_for(gm, campaign), author=gm, title="Rumia",
        kind="character", body="A youkai of the sealed darkness.",
    )  # fmt: skip
    fragile = {"pwr": 1, "cha": 1, "int": 1, "ins": 0, "hp": 3, "speed": 1, "range": 1}
    stat_block_set(entry=rumia, by=access_for(gm, campaign), author=gm, data=fragile)

    # The GM creates the battle from the campaign's battle list ...
    gm_page = new_page(gm)
    gm_page.goto(f"/campaigns/{campaign.pk}/battles/")
    gm_page.fill("#id_name", "Fairy ambush")
    gm_page.fill("#id_width", "7")
    gm_page.fill("#id_height", "4")
    gm_page.click("#create-battle")
    gm_page.wait_for_url("**/battles/*/")
    battle = Battle.objects.get(name="Fairy ambush")
    wait_version(gm_page, 0, timeout=10)

    # ... the player opens it too and sees the arena being set up.
    player_page = new_page(player)
    player_page.goto(f"/battles/{battle.pk}/")
    wait_version(player_page, 0, timeout=10)
    assert "setting up" in player_page.text_content("#turn-label")
    assert player_page.query_selector("#gm-panel") is None

    # Terrain: one blocking and one difficult square, painted by clicking.
    gm_page.check("#tool-blocked")
    click_square(gm_page, 6, 0)
    gm_page.check("#tool-difficult")
    click_square(gm_page, 6, 3)
    gm_page.check("#terrain-tools input[value='']")
    assert gm_page.locator(".battle-square.blocked").count() == 1
    assert gm_page.locator(".battle-square.difficult").count() == 1

    # The party on the left (Cirno played by her owner), four fragile NPCs on the right.
    for row, character in enumerate([cirno, *allies]):
        gm_page.select_option("#place-character", str(character.pk))
        gm_page.select_option("#place-character-side", "heroes")
        gm_page.select_option("#place-character-controller", "owner")
        gm_page.click("#place-character-button")
        click_square(gm_page, 1, row)
    for row in range(3):
        place_npc(gm_page, f"Fairy {row + 1}", 3, row)
    # the wiki's NPC: its side is asked for, then it stands where the GM clicks
    gm_page.select_option("#wiki-npc", str(rumia.pk))
    assert "HP 3" in gm_page.text_content("#wiki-npc-numbers")
    gm_page.click("#wiki-npc-place-button")
    assert "Choose its side first" in gm_page.text_content("#battle-status")
    gm_page.select_option("#wiki-npc-side", "enemies")
    gm_page.click("#wiki-npc-place-button")
    click_square(gm_page, 3, 3)
    battle.refresh_from_db()
    placed = battle.state["combatants"]["npc4"]
    assert (placed["name"], placed["hp"], placed["side"], placed["position"]) == (
        "Rumia", 3, "enemies", [3, 3],
    )  # fmt: skip
    version = int(data(gm_page)["version"])
    wait_version(player_page, version)  # the player's board followed, without a reload
    assert player_page.locator(".battle-token").count() == 8
    assert player_page.locator(f".battle-token[data-combatant='{pc}'].mine").count() == 1
    assert "sealed darkness" not in player_page.content()

    # Start.
    version = click_and_wait(gm_page, "button[data-action='start']")
    wait_version(player_page, version)
    assert data(player_page)["phase"] == "active"

    stale_checked = False
    card_tried = False
    moves: list[str] = []
    for _ in range(200):
        state = data(gm_page)
        if state["phase"] == "ended":
            break
        players_move = (
            pc in state["waiting"].split(",") if state["pending"] == "1" else state["current"] == pc
        )
        page, other = (player_page, gm_page) if players_move else (gm_page, player_page)
        wait_version(page, int(state["version"]))
        if players_move and not stale_checked and state["pending"] == "0":
            stale_checked = check_stale_click(gm_page, player_page, pc)
            continue
        # The GM's characters let Cirno strike first (so the player surely plays).
        did = play_one(
            page,
            try_card=players_move and not card_tried,
            hold_back=not players_move and not any(m.startswith("player ") for m in moves),
        )
        card_tried = card_tried or did == "card"
        moves.append(("player " if players_move else "gm ") + did)
        wait_version(other, int(data(page)["version"]))  # the other browser, without a reload
    else:
        pytest.fail(f"the battle did not end: {moves[-20:]}")

    battle.refresh_from_db()
    assert battle.status == "ended" and battle.state["winner"] == "heroes"
    wait_version(player_page, battle.version)
    assert data(player_page)["winner"] == "heroes"
    assert "heroes won" in player_page.text_content("#turn-label")
    assert any(m.startswith("player ") for m in moves)
    assert BattleAction.objects.filter(battle=battle, actor=player).exists()
    assert player_page.locator("#log > li").count() > 5


def check_stale_click(gm_page, player_page, pc: str) -> bool:
    """The GM adjusts Cirno's spell power while the player's page has not yet heard of it (its
    polls are held back); her click is refused with "someone else moved first" and the page
    refreshes itself."""
    held = {"on": True}

    def hold(route: Any) -> None:
        if held["on"]:
            route.abort()
        else:
            route.continue_()

    def release(request: Any) -> None:
        if request.method == "POST" and "/actions/" in request.url:
            held["on"] = False

    player_page.route("**/state/?since=*", hold)
    player_page.on("request", release)
    try:
        gm_page.select_option("#ov-combatant", pc)
        gm_page.fill("#ov-hp", "0")
        gm_page.fill("#ov-sp", "1")
        version = click_and_wait(gm_page, "#ov-adjust")
        assert int(data(player_page)["version"]) == version - 1  # not heard of it yet
        player_page.click("button[data-action='concentrate'], button[data-action='end_turn']")
        player_page.wait_for_function(
            "document.getElementById('battle-status').textContent.includes('moved first')"
        )
        wait_version(player_page, version, timeout=15)  # refetched by itself
    finally:
        player_page.unroute("**/state/?since=*")
        player_page.remove_listener("request", release)
    return True
