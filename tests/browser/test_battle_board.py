"""The battle board as a Foundry or Owlbear user expects it (issue 14), with two browser contexts
(the GM and a player) at 1280 px in light mode and 390 px in dark mode:

* the player drags her token to a reachable square: the reachable squares light up with the
  cost while she drags, and the move applies (the GM's board shows it);
* she drags it onto a blocking square: it snaps back and the reason is said, nothing moves;
* she moves with the keyboard: Enter on her piece, an arrow key, Enter;
* a ping and a chat line (and a GM's whisper) reach the other context within 2 s;
* screenshots of the board go to test-artifacts/.

No console errors, no sideways scroll at 390 px.
"""

from __future__ import annotations

from typing import Any

import pytest

from battles import services
from battles.models import Battle
from campaign.permissions import access_for
from tests.battles.conftest import FAIRY, play_until
from tests.browser.conftest import ARTIFACTS, watch_console
from tests.browser.live import LIVE_MS
from tests.factories import CharacterFactory, NotificationFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BLOCK = (2, 2)


class _Setup:
    def __init__(self, battle: Battle, pc: str) -> None:
        self.battle, self.pc = battle, pc

    def refresh(self) -> Battle:
        self.battle.refresh_from_db()
        return self.battle


@pytest.fixture
def board_battle(campaign, gm, player) -> _Setup:
    """Her character at (1, 2) beside a blocking square (2, 2), a fairy far off; her turn."""
    battle = services.battle_create(
        campaign=campaign,
        by=access_for(gm, campaign),
        created_by=gm,
        seed=14,
        name="Board",
        width=10,
        height=7,
    )
    hero = CharacterFactory(owner=player, campaign=campaign, name="Reimu")
    services.battle_character_place(
        battle_id=battle.pk, by=gm, character_id=hero.pk, position=[1, 2]
    )
    services.battle_npc_place(battle_id=battle.pk, by=gm, npc=FAIRY, position=[8, 5])
    services.battle_square_set(battle_id=battle.pk, by=gm, square=list(BLOCK), terrain="blocked")
    battle.refresh_from_db()
    services.battle_action_apply(
        battle_id=battle.pk, actor=gm, action={"type": "start"}, expected_version=battle.version
    )
    setup = _Setup(battle, f"pc{hero.pk}")
    play_until(setup, gm, setup.pc)  # type: ignore[arg-type]
    return setup


def _version(page) -> int:
    return int(page.eval_on_selector("#battle", "e => e.dataset.version"))


def _wait_version(page, version: int, timeout: int = 10_000) -> None:
    page.wait_for_function(
        f"Number(document.getElementById('battle').dataset.version) >= {version}", timeout=timeout
    )


def _centre(page, x: int, y: int) -> tuple[float, float]:
    box = page.locator(f".battle-square[data-x='{x}'][data-y='{y}']").bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _drag(page, start: tuple[int, int], end: tuple[int, int], *, check_midway=None) -> None:
    sx, sy = _centre(page, *start)
    ex, ey = _centre(page, *end)
    page.mouse.move(sx, sy)
    page.mouse.down()
    page.mouse.move(sx + (ex - sx) / 3, sy + (ey - sy) / 3, steps=4)
    page.mouse.move(ex, ey, steps=6)
    if check_midway:
        check_midway()
    page.mouse.up()


def _token_square(page, pc: str) -> list[int]:
    return page.eval_on_selector(
        f".battle-square .battle-token[data-combatant='{pc}']",
        "t => { const s = t.closest('.battle-square'); return [+s.dataset.x, +s.dataset.y]; }",
    )


def _reach(page, pc: str) -> list[dict[str, Any]]:
    return page.evaluate(
        f"""() => BattleScreen.state.view.you.legal_actions
             .find((o) => o.type === 'move' && o.combatant === '{pc}' && !o.free).reach"""
    )


def _turn_notice_clear_of_the_actions(page, user, battle_pk: int) -> None:
    """A "your turn" notice arriving at 390 px (the bell's poll shows it) covers none of the
    action buttons: on a phone it sits in the page under the header, not over it."""
    NotificationFactory(
        recipient=user,
        event="your_turn",
        title="Your turn: Reimu in Board",
        url=f"/battles/{battle_pk}/",
    )
    notice = page.wait_for_selector("#live-alert:not([hidden])", timeout=LIVE_MS)
    page.wait_for_selector("#actions button")
    box, actions = notice.bounding_box(), page.locator("#actions").bounding_box()
    assert box is not None and actions is not None
    apart = (
        box["y"] + box["height"] <= actions["y"]
        or actions["y"] + actions["height"] <= box["y"]
        or box["x"] + box["width"] <= actions["x"]
        or actions["x"] + actions["width"] <= box["x"]
    )
    assert apart, (box, actions)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "battle-board-390-turn-notice.png"))


@pytest.mark.parametrize(("width", "scheme"), [(1280, "light"), (390, "dark")])
def test_drag_keyboard_ping_and_chat_between_gm_and_player(
    new_page, board_battle, gm, player, width, scheme
):
    pc, pk = board_battle.pc, board_battle.battle.pk
    pages = {"gm": new_page(gm), "player": new_page(player)}
    errors: list[str] = []
    for name, page in pages.items():
        page.set_viewport_size({"width": width, "height": 844 if width == 390 else 900})
        page.emulate_media(color_scheme=scheme)
        watch_console(page, errors, name)
        page.goto(f"/battles/{pk}/")
        page.wait_for_selector(f".battle-token[data-combatant='{pc}']")
    me, gm_page = pages["player"], pages["gm"]
    me.wait_for_selector("#battle[data-my-turn='1']")
    # the turn pill: hers says "Your turn"; the GM, who may act for anyone, is told whose turn
    # it is in words, and her screen is not marked as her turn
    assert me.locator("#your-turn-flag").inner_text() == "Your turn"
    assert gm_page.locator("#your-turn-flag").inner_text() == "Reimu's turn"
    assert gm_page.get_attribute("#battle", "data-my-turn") == "0"
    ARTIFACTS.mkdir(exist_ok=True)
    for name, page in pages.items():
        page.locator(".battle-head").screenshot(
            path=str(ARTIFACTS / f"battle-head-{width}-{scheme}-{name}.png")
        )
    if width == 390:
        _turn_notice_clear_of_the_actions(me, player, pk)

    # 1. drag to a reachable square: the reach lights up and the cost shows while dragging
    reach = _reach(me, pc)
    target = max(reach, key=lambda r: (r["cost"], -r["square"][1]))
    start = _token_square(me, pc)
    version = _version(me)

    def midway() -> None:
        assert me.locator(".battle-square.reach").count() == len(reach)
        assert me.locator(".battle-square.drop-ok").count() == 1
        assert me.text_content("#drag-cost") == str(target["cost"])

    _drag(me, tuple(start), tuple(target["square"]), check_midway=midway)
    _wait_version(me, version + 1)
    assert _token_square(me, pc) == target["square"]
    gm_page.wait_for_selector(
        f".battle-square[data-x='{target['square'][0]}'][data-y='{target['square'][1]}'] "
        f".battle-token[data-combatant='{pc}']",
        timeout=LIVE_MS,
    )
    ARTIFACTS.mkdir(exist_ok=True)
    me.locator(".battle-board-wrap").screenshot(
        path=str(ARTIFACTS / f"battle-board-{width}-{scheme}-player.png")
    )

    # 2. a blocking square: the token snaps back, the reason is said, the battle is unchanged
    here = _token_square(me, pc)
    version = _version(me)
    _drag(me, tuple(here), BLOCK)
    me.wait_for_selector("#battle[data-dropped='refused']")
    status = me.text_content("#battle-status")
    assert "cannot move there" in status and "blocking terrain" in status
    me.wait_for_selector("#battle:not([data-dragging='1'])")
    assert _token_square(me, pc) == here and _version(me) == version

    # 3. the keyboard: Enter on her piece, an arrow to a reachable neighbour, Enter
    reach = {tuple(r["square"]) for r in _reach(me, pc)}
    arrows = {"ArrowRight": (1, 0), "ArrowLeft": (-1, 0), "ArrowDown": (0, 1), "ArrowUp": (0, -1)}
    key, step = next((k, s) for k, s in arrows.items() if (here[0] + s[0], here[1] + s[1]) in reach)
    me.focus(f".battle-square[data-x='{here[0]}'][data-y='{here[1]}']")
    me.keyboard.press("Enter")
    me.wait_for_selector(".battle-square.reach")
    me.keyboard.press(key)
    me.keyboard.press("Enter")
    _wait_version(me, version + 1)
    assert _token_square(me, pc) == [here[0] + step[0], here[1] + step[1]]

    # 4. the GM pings a square: the player's board shows it within 2 s
    gm_page.click("#tool-ping")
    gm_page.click(".battle-square[data-x='5'][data-y='4']")
    ping = me.wait_for_selector(".battle-board__ping[data-x='5'][data-y='4']", timeout=LIVE_MS)
    assert "gm-user" in ping.text_content()
    me.locator(".battle-board-wrap").screenshot(
        path=str(ARTIFACTS / f"battle-board-{width}-{scheme}-player-ping.png")
    )

    # 5. chat both ways, and a whisper only the player reads
    me.fill("#chat-text", "On my way to the fairy")
    me.click("#chat-send")
    gm_page.wait_for_selector(
        "#log .battle-log__chat:has-text('On my way to the fairy')", timeout=LIVE_MS
    )
    gm_page.select_option("#chat-to", str(player.pk))
    gm_page.fill("#chat-text", "She is bluffing")
    gm_page.click("#chat-send")
    line = me.wait_for_selector("#log .battle-log__chat--whisper", timeout=LIVE_MS)
    assert "She is bluffing" in line.text_content() and "whispers to you" in line.text_content()
    assert me.locator("#log-earlier").is_hidden()  # a short battle: the whole log is shown
    me.click("#chat-send")  # empty: refused in words, nothing sent
    me.wait_for_selector("#chat-error:has-text('Write something first.')")
    # the GM mutes her from her line: her next line is refused in words; then she may speak again
    gm_page.click(f"#log .battle-log__mute:has-text('Mute {player.shown_name}')")
    gm_page.wait_for_selector("#chat-muted", state="visible", timeout=LIVE_MS)
    me.fill("#chat-text", "Let me speak")
    me.click("#chat-send")
    me.wait_for_selector("#chat-error:has-text('A GM muted you at this table.')", timeout=LIVE_MS)
    # the browser reports the refused request itself (a 403) as a console error: that one only
    refused = [e for e in errors if e.startswith("player:") and "status of 403" in e]
    assert len(refused) == 1, errors
    errors.remove(refused[0])
    gm_page.click(f"#chat-muted button:has-text('Let {player.shown_name} speak again')")
    gm_page.wait_for_selector("#chat-muted", state="hidden", timeout=LIVE_MS)

    # 6. the GM's fairy next to her, its turn: pointing at her shows the engine's odds, the
    # attack's rolls reach both table logs with every die and the odds the roller faced
    here = _token_square(me, pc)
    beside = next(
        [x, y]
        for x, y in ((here[0] + 1, here[1]), (here[0] - 1, here[1]), (here[0], here[1] + 1))
        if 0 <= x < 10 and 0 <= y < 7 and (x, y) != BLOCK
    )
    battle = board_battle.refresh()
    services.battle_action_apply(
        battle_id=pk,
        actor=gm,
        action={"type": "gm_move", "combatant": "npc1", "to": beside},
        expected_version=battle.version,
    )
    play_until(board_battle, gm, "npc1")  # type: ignore[arg-type]
    _wait_version(gm_page, board_battle.refresh().version)
    _wait_version(me, board_battle.refresh().version)
    # the fairy's turn: "Your turn" for the GM, whose NPC it is; nothing on the player's pill
    assert gm_page.locator("#your-turn-flag").inner_text() == "Your turn"
    assert gm_page.get_attribute("#battle", "data-my-turn") == "1"
    assert me.locator("#your-turn-flag").is_hidden()
    gm_page.click(".action-group[data-combatant='npc1'] button[data-action='attack']")
    gm_page.hover(f".battle-square[data-x='{here[0]}'][data-y='{here[1]}']")
    odds = gm_page.wait_for_selector("#target-odds .battle-odds__head").text_content()
    assert "% chance to hit" in odds and "on average" in odds
    assert gm_page.locator("#target-odds .battle-odds__bar").count() >= 2
    version = _version(gm_page)
    gm_page.click(f".battle-square[data-x='{here[0]}'][data-y='{here[1]}']")
    _wait_version(gm_page, version + 1)
    for page in pages.values():
        page.wait_for_selector("#log .battle-log__die", timeout=LIVE_MS)
        assert "chance to" in page.text_content("#log")

    # 7. measuring counts straight steps (RULINGS 9: Manhattan); zoom and Fit
    me.click("#tool-measure")
    me.click(".battle-square[data-x='0'][data-y='6']")
    me.click(".battle-square[data-x='3'][data-y='4']")
    assert me.text_content("#measure-label") == "5 squares"
    assert "5 squares" in me.text_content("#square-info")
    me.click("#tool-measure")
    fitted = float(me.eval_on_selector("#battle", "e => e.dataset.zoom"))
    me.click("#zoom-in")
    assert float(me.eval_on_selector("#battle", "e => e.dataset.zoom")) > fitted
    box = me.locator("#board-viewport").bounding_box()
    assert box is not None
    me.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    me.mouse.wheel(0, 300)  # the wheel zooms out about the pointer
    me.wait_for_function(f"Number(document.getElementById('battle').dataset.zoom) < {fitted * 1.2}")
    me.click("#zoom-fit")
    assert float(me.eval_on_selector("#battle", "e => e.dataset.zoom")) == fitted

    for name, page in pages.items():
        page.locator(".battle-board-wrap").screenshot(
            path=str(ARTIFACTS / f"battle-board-{width}-{scheme}-{name}-end.png")
        )
        page.locator(".battle-table-log").screenshot(
            path=str(ARTIFACTS / f"battle-log-{width}-{scheme}-{name}.png")
        )
        if width == 390:
            assert page.evaluate("document.documentElement.scrollWidth") <= 390, name
            board = page.eval_on_selector("#board", "e => e.getBoundingClientRect().toJSON()")
            assert board["right"] <= 390
    assert errors == []


def test_the_table_log_pages_back_through_a_long_battle(new_page, board_battle, gm, player):
    """A long battle's first view holds its last 100 entries; "Show earlier" pages back through
    the log API until the start; a chat line said at the start sits before every later move."""
    from tables.chat.models import ChatLine, ChatRoom

    pk = board_battle.battle.pk
    room = ChatRoom.objects.create(table_label="battles.battle", table_id=pk)
    first_chat = ChatLine.objects.create(
        room=room, author=gm, author_is_gm=True, text="Long ago", version=1
    )
    for _ in range(110):
        battle = board_battle.refresh()
        services.battle_action_apply(
            battle_id=pk,
            actor=gm,
            action={"type": "gm_adjust", "combatant": "npc1", "spell_power": 1},
            expected_version=battle.version,
        )
    page = new_page(player)
    page.goto(f"/battles/{pk}/")
    page.wait_for_selector("#log > li[data-n]")
    first = lambda: int(page.eval_on_selector("#log > li[data-n]", "e => e.dataset.n"))  # noqa: E731
    shown = first()
    assert shown > 1 and page.locator("#log-earlier").is_visible()
    while page.locator("#log-earlier").is_visible():
        page.click("#log-earlier")
        page.wait_for_function(
            f"Number(document.querySelector('#log > li[data-n]').dataset.n) < {shown}"
            " || document.getElementById('log-earlier').hidden"
        )
        shown = first()
    entries = page.eval_on_selector_all("#log > li[data-n]", "els => els.map(e => +e.dataset.n)")
    assert entries == sorted(entries) and entries[-1] == board_battle.refresh().version
    first_item = page.eval_on_selector("#log > li", "e => e.dataset.chat || ''")
    assert first_item == str(first_chat.pk)
