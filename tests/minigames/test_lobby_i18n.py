"""The tavern's lobby in Japanese and Simplified Chinese (issue 42): the new-table form's seat
and clock choices, a table's seats (a bot's name, an open seat), its stake line and the
questions Resign asks, and the invite page read in the reader's language. A bot's name is
kept in English where the table stores it (the engine's ``names``) and rendered when read,
so a table started before reads in her language too; a player's name is hers, as written.
Nothing hidden from her seat is in what she reads."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.utils import translation

from minigames import services
from minigames.engines.registry import get_engine
from minigames.game import turn_title
from minigames.invites import invite_path
from minigames.models import stored_name_in_language
from notifications import texts
from tests.minigames.test_api import contains_id

pytestmark = pytest.mark.django_db

#: Each language's words for what the lobby shows, and the English they replace.
WORDS: dict[str, dict[str, str]] = {
    "ja": {
        "Random bot": "ランダムボット",
        "Heuristic bot": "ヒューリスティックボット",
        "Search bot": "探索ボット",
        "Open seat": "空席",
        "No seat": "席なし",
        "Me": "自分",
        "No clock": "時計なし",
        "The seat is skipped": "その席を飛ばす",
        "Random bot (seat 1)": "ランダムボット（席 1）",
        "Stake: 30 yen per character.": "賭け金：キャラクター 1 人につき 30 円。",
        "Stake: 30 yen per character (held).": "賭け金：キャラクター 1 人につき 30 円（預かり中）",
        "resign": "あなたの席はランダムボットが最後まで遊びます（あなたの賭け金 30 円はその席",
        "Every seat at this table is taken.": "この卓の席はすべて埋まっています。",
    },
    "zh-hans": {
        "Random bot": "随机机器人",
        "Heuristic bot": "启发式机器人",
        "Search bot": "搜索机器人",
        "Open seat": "空位",
        "No seat": "不设座位",
        "Me": "我",
        "No clock": "不计时",
        "The seat is skipped": "跳过该座位",
        "Random bot (seat 1)": "随机机器人（座位 1）",
        "Stake: 30 yen per character.": "赌注：每个角色 30 円。",
        "Stake: 30 yen per character (held).": "赌注：每个角色 30 円（已扣押）。",
        "resign": "随机机器人将替你的座位下完这局（你的 30 円赌注留在该座位上）。",
        "Every seat at this table is taken.": "这张牌桌的座位都已坐满。",
    },
}
LANGUAGES = sorted(WORDS)


def _get(client: Any, path: str, accept: str) -> str:
    answer = client.get(path, headers={"accept-language": accept})
    assert answer.status_code == 200, (path, answer.status_code)
    return str(answer.content.decode())


@pytest.mark.parametrize("accept", LANGUAGES)
def test_the_new_table_forms_seat_and_clock_choices_read_in_her_language(
    client_for, player, campaign, accept
):
    words = WORDS[accept]
    page = _get(client_for(player), f"/campaigns/{campaign.pk}/tavern/", accept)
    for english in ("Me", "No seat", "Random bot", "Heuristic bot", "Search bot", "No clock",
                    "The seat is skipped"):  # fmt: skip
        assert f">{words[english]}</option>" in page, english
        assert f">{english}</option>" not in page, english
    assert "Turn clock: give from 1 minute" not in page  # the minutes' refusal, an attribute


@pytest.mark.parametrize("accept", LANGUAGES)
def test_a_lobby_names_its_bots_and_open_seats_and_its_stake_in_her_language(
    client_for, player, other_player, campaign, reimu, accept
):
    """A staked campaign table waiting for a player: the host reads the seats (her character
    as written, the bot and the open seat in her language) and the stake line; the player
    sent the invite link reads the same seats there."""
    words = WORDS[accept]
    table = services.tavern_create(
        by=player, game="raigo", campaign=campaign, stake=30,
        seats=[services.SeatSpec(kind="host", character=reimu.pk), services.SeatSpec(kind="open"),
               services.SeatSpec(kind="bot", strength="heuristic")],
    )  # fmt: skip
    page = _get(client_for(player), f"/tavern/tables/{table.pk}/", accept)
    seats = page[page.index('id="tavern-seats"') :]
    assert '<span class="tavern-seat-name">Reimu</span>' in seats
    assert f'<span class="tavern-seat-name">{words["Open seat"]}</span>' in seats
    assert f'<span class="tavern-seat-name">{words["Heuristic bot"]}</span>' in seats
    assert words["Stake: 30 yen per character."] in page
    for english in ("Open seat", "Heuristic bot", "Stake: 30", "Random bot"):
        assert english not in page, english
    invite = _get(client_for(other_player), invite_path(table), accept)
    assert f"{words['Open seat']}</li>" in invite and words["Heuristic bot"] in invite
    assert "Open seat" not in invite and "Heuristic bot" not in invite
    services.tavern_seat_set(table_id=table.pk, by=player, index=1, kind="bot", strength="search")
    invite = _get(client_for(other_player), invite_path(table), accept)
    assert words["Every seat at this table is taken."] in invite


@pytest.mark.parametrize("accept", LANGUAGES)
def test_a_started_tables_bots_read_in_her_language_and_hide_nothing(
    client_for, api_for, player, campaign, reimu, accept
):
    """Two random bots and the host at a staked table: the engine keeps the seats' names in
    English (told apart by their seat), the page, the state's names and the replay read them
    in her language; the stake line says it is held, Resign's question says the random bot
    plays on with her stake; and nothing hidden from her seat is in what she reads."""
    words = WORDS[accept]
    table = services.tavern_create(
        by=player, game="raigo", campaign=campaign, stake=30,
        seats=[services.SeatSpec(kind="bot", strength="random"),
               services.SeatSpec(kind="host", character=reimu.pk),
               services.SeatSpec(kind="bot", strength="random")],
    )  # fmt: skip
    services.tavern_start(table_id=table.pk, by=player)
    table.refresh_from_db()
    assert table.state["names"] == ["Random bot (seat 1)", "Reimu", "Random bot (seat 3)"]
    page = _get(client_for(player), f"/tavern/tables/{table.pk}/", accept)
    shown = [words["Random bot (seat 1)"], "Reimu", words["Random bot (seat 1)"].replace("1", "3")]
    assert f'data-seat-names="{"|".join(shown)}"' in page
    assert words["Stake: 30 yen per character (held)."] in page
    assert words["resign"] in page
    # the table's one-line summary is kept as it was stored (the lists' words, not the lobby's)
    kept = re.sub(r'<p class="tavern-summary"[^<]*</p>', "", page)
    assert "Random bot" not in kept and "Stake: " not in kept
    state = api_for(player).get(
        f"/api/tavern/tables/{table.pk}/state/", headers={"accept-language": accept}
    )
    assert state.json()["names"] == shown
    assert [s["name"] for s in state.json()["table"]["seats"]] == shown
    # the engine's own line names the bot it was given in English: read in her language
    assert words["Random bot (seat 1)"] in state.json()["summary"]
    assert "Random bot" not in state.content.decode()
    replay = _get(client_for(player), f"/tables/raigo/{table.pk}/replay/", accept)
    # the replay's names are in a json_script, which escapes what is not ASCII
    assert "Random bot" not in replay and json.dumps(shown[0])[1:-1] in replay
    engine = get_engine("raigo")
    hidden = engine.hidden_from(engine.from_json(table.state), 1)
    assert hidden
    for where, text in (("page", page), ("state", state.content.decode()), ("replay", replay)):
        leaked = [item for item in hidden if contains_id(text, item)]
        assert not leaked, f"{where} holds hidden {leaked[:5]}"
        assert str(table.initial["rng"]["seed"]) not in text, where


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_bots_name_a_table_stored_in_english_reads_in_her_language(language):
    """A table started before bots' names were words kept them in English in its engine's
    ``names``: each reads in her language, with the seat number that tells two apart; a
    player's name (even one that looks like a bot's) is hers, as written."""
    words = WORDS[language]
    with translation.override(language):
        assert stored_name_in_language("Random bot") == words["Random bot"]
        assert stored_name_in_language("Search bot") == words["Search bot"]
        assert stored_name_in_language("Random bot (seat 1)") == words["Random bot (seat 1)"]
        for name in ("Reimu", "Random bot the Great", "Random bot (seat two)", "Marisa (seat 2)"):
            assert stored_name_in_language(name) == name
    assert stored_name_in_language("Heuristic bot (seat 2)") == "Heuristic bot (seat 2)"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_turn_notice_names_the_bots_in_the_recipients_language(player, other_player, language):
    """ "Your move at RAIGO with Random bot": the notice's words keep the bot's name as a
    message id, so each recipient reads it in her language; a player's name is as written."""
    table = services.tavern_create(
        by=player, game="raigo", campaign=None,
        seats=[services.SeatSpec(kind="host"), services.SeatSpec(kind="bot", strength="random"),
               services.SeatSpec(kind="open")],
    )  # fmt: skip
    services.tavern_join(table_id=table.pk, by=other_player, index=2)
    title = turn_title(table, 0)
    assert (
        texts.english(title) == f"Your move at RAIGO with Random bot and {other_player.shown_name}"
    )
    with translation.override(language):
        read = texts.render(title)
    assert WORDS[language]["Random bot"] in read and other_player.shown_name in read
    assert "Random bot" not in read and " and " not in read


def test_english_readers_read_the_lobby_as_before(client_for, player, campaign, reimu):
    table = services.tavern_create(
        by=player, game="raigo", campaign=campaign, stake=30,
        seats=[services.SeatSpec(kind="host", character=reimu.pk), services.SeatSpec(kind="open"),
               services.SeatSpec(kind="bot", strength="random")],
    )  # fmt: skip
    page = _get(client_for(player), f"/tavern/tables/{table.pk}/", "en")
    for english in ("Open seat", "Random bot", "Stake: 30 yen per character."):
        assert english in page, english


@pytest.mark.parametrize(
    ("language", "won", "second"),
    [
        ("en", "Won", "2nd of 4"),
        ("ja", "勝ち", "2 位（4 組中）"),
        ("zh-hans", "胜", "第 2 名（共 4 方）"),
    ],
)
def test_a_rated_tables_outcomes_read_in_her_language(language, won, second):
    """What a finished rated table did to each player ("Search bot: Won, 1500 → 1520") names
    the outcome in her language; English keeps its ordinals."""
    from tables.ratings.selectors import outcome_text

    with translation.override(language):
        assert outcome_text("won", 1, 2) == won
        assert outcome_text("placed", 2, 4) == second
    assert [outcome_text("placed", n, 30) for n in (1, 3, 11, 12, 21, 23)] == [
        "1st of 30", "3rd of 30", "11th of 30", "12th of 30", "21st of 30", "23rd of 30",
    ]  # fmt: skip
