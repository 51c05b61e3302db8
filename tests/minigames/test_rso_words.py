"""Rumbling Spell Orchestra in Japanese and Simplified Chinese (issue 42): the engine writes its
log lines, refusals, a Special's cost and why a game ended as message ids with parameters
(``westernroses.words``), card names going in as the data's words, so each seat reads the log,
her move buttons, the summary and the result in her language, with nothing hidden from her
seat in any of it; in English they read as the engine's English, and a log row stored before
(English alone) still shows."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.utils import translation

from apibase.engine_words import in_language, json_in_language
from minigames.engines.registry import get_engine
from minigames.engines.rso.words import cost_phrase, cost_words
from minigames.models import TavernAction
from tests.minigames.conftest import two_humans
from tests.minigames.playing import play
from tests.minigames.test_api import contains_id
from tests.minigames.test_i18n import english_left
from westernroses.protocol import IllegalAction, event_visible
from westernroses.words import Words, data

pytestmark = pytest.mark.django_db

#: Latin words an RSO line keeps in every language: the rulebook's abbreviations.
ABBREVIATIONS = ["SP", "HP", "AV", "IV", "HV", "EV", "BV"]
#: The moves a seat prefers, so a short game plays Specials, Events, battles and Supports.
PREFERRED = (
    "use_special", "play_event", "attack", "intercept", "pay_border", "equip", "activate",
    "reserve", "keep", "choose_leader",
)  # fmt: skip

ENGINE = get_engine("rso")


def choose(actions: list[dict[str, Any]]) -> dict[str, Any]:
    for kind in PREFERRED:
        for action in actions:
            if action["type"] == kind:
                return action
    return actions[0]


def in_language_for(language: str, words: Any) -> str:
    with translation.override(language):
        return in_language(words)


def card_names(state: dict[str, Any], language: str) -> set[str]:
    """Every card's name at the table in ``language`` (the data's words)."""
    return {in_language_for(language, data(c["name"])) for c in state["cards"].values()}


def _play(table: Any, users: dict[int, Any], moves: int, until: Any = None) -> Any:
    """``moves`` moves of ``table`` through the move service (each seat's preferred legal
    move), or fewer: the game ends, or ``until(state, legal moves)`` holds."""
    return play(table, users, moves, lambda state, seat, legal: choose(legal), until)


def card_has_cost(state: dict[str, Any], inst: str, index: int) -> bool:
    card = state["cards"][state["inst"][inst]]
    return bool(card["abilities"][index].get("cost"))


@pytest.mark.parametrize("accept", ["ja", "zh-hans"])
def test_each_seat_reads_the_rso_log_moves_and_summary_in_her_language(
    player, other_player, api_for, accept
):
    """Well into a game: each seat's log (her own draws and the other's), her move buttons,
    the summary and the view's words read in her language with no English word left (names
    and the rulebook's abbreviations aside), the log keeps no message id, and nothing hidden
    from her seat is in any of it: the other seat's draws read without a card's name."""
    table = two_humans("rso", player, other_player)
    users = {0: player, 1: other_player}
    table = _play(table, users, 70)
    state = ENGINE.from_json(table.state)
    names = [*state["names"], *ABBREVIATIONS]
    cards = card_names(state, accept)
    for seat, user in users.items():
        api = api_for(user)
        answer = api.get(
            f"/api/tavern/tables/{table.pk}/state/", headers={"accept-language": accept}
        )
        log = api.get(
            f"/api/tavern/tables/{table.pk}/log/?limit=500", headers={"accept-language": accept}
        )
        assert answer.status_code == 200 and log.status_code == 200
        events = [e for entry in log.json()["results"] for e in entry["events"]]
        assert len(events) > 40, len(events)
        payload = answer.json()
        lines = [e["text"] for e in events] + [payload["summary"]]
        lines += [m["label"] for m in payload["moves"]]
        lines.append(payload["view"]["phase_name"]["text"])
        for line in lines:
            plain = line
            for name in sorted(cards, key=len, reverse=True):
                plain = plain.replace(name, " ")
            assert not english_left(plain, names), (seat, line)
        for e in events:
            if e["type"] == "draw" and e.get("visible_to") != [seat]:
                named = [n for n in cards if n in e["text"]]
                assert not named, (seat, e["text"])
        hidden = ENGINE.hidden_from(state, seat)
        for where, text in (("state", answer.content.decode()), ("log", log.content.decode())):
            leaked = [item for item in hidden if contains_id(text, item)]
            assert not leaked, f"seat {seat}'s {where} holds hidden {leaked[:5]}"
        assert '"words"' not in log.content.decode()


@pytest.mark.parametrize("accept", ["ja", "zh-hans"])
def test_a_secret_leader_choice_names_the_leader_only_to_its_chooser(
    player, other_player, api_for, accept
):
    """The first Leader chosen is secret until both have chosen: the chooser's log names it in
    her language, the other seat's log reads only that a Leader was chosen."""
    table = two_humans("rso", player, other_player)
    users = {0: player, 1: other_player}
    table = _play(table, users, 1)
    row = TavernAction.objects.filter(table=table).order_by("seq").last()
    assert row is not None
    chooser = int(row.seat)
    state = ENGINE.from_json(table.state)
    leader = state["players"][chooser]["pending_leader"]
    name = in_language_for(accept, data(state["cards"][state["inst"][leader]]["name"]))
    texts = {}
    for seat, user in users.items():
        log = api_for(user).get(
            f"/api/tavern/tables/{table.pk}/log/", headers={"accept-language": accept}
        )
        texts[seat] = " ".join(e["text"] for r in log.json()["results"] for e in r["events"])
    assert name in texts[chooser], texts
    assert name not in texts[1 - chooser], texts
    assert texts[1 - chooser] and not english_left(texts[1 - chooser], state["names"])


@pytest.mark.parametrize(
    ("language", "cost", "special"),
    [
        ("ja", "2 SP、手札を 1 枚捨てる、教義（1）", "スペシャル"),
        ("zh-hans", "2 SP、弃掉 1 张手牌、教义（1）", "特技"),
    ],
)
def test_a_specials_cost_reads_in_her_language(
    player, other_player, api_for, language, cost, special
):
    """A Special's cost in its move's label is words of the engine's, read in her language;
    in English it is the cost as the card's text gives it."""
    costs = [{"sp": 2}, {"hand": 1}, {"doctrine": 1}]
    assert (
        str(cost_phrase(costs))
        == cost_words(costs)
        == ("2 SP, discard 1 card from your hand, Doctrine (1)")
    )
    assert in_language_for(language, cost_phrase(costs)) == cost
    # and at a table: a Special with a cost, listed among her moves, reads in her language
    table = two_humans("rso", player, other_player)
    users = {0: player, 1: other_player}

    def specials(state: dict[str, Any], legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [
            a
            for a in legal
            if a["type"] == "use_special" and card_has_cost(state, a["card"], a["ability"])
        ]

    table = _play(table, users, 300, until=lambda state, legal: bool(specials(state, legal)))
    state = ENGINE.from_json(table.state)
    seat = ENGINE.waiting_on(state)[0] if not ENGINE.is_terminal(state) else None
    listed = [] if seat is None else specials(state, ENGINE.legal_actions(state, seat))
    assert seat is not None and listed, "no Special with a cost came up"
    action = listed[0]
    card = state["cards"][state["inst"][action["card"]]]
    translated = in_language_for(
        language, cost_phrase(card["abilities"][action["ability"]]["cost"])
    )
    labels = [
        m["label"]
        for m in api_for(users[seat])
        .get(f"/api/tavern/tables/{table.pk}/state/", headers={"accept-language": language})
        .json()["moves"]
    ]
    label = in_language_for(language, ENGINE.describe_action(state, seat, action))
    assert label in labels and special in label and f"（{translated}）" in label, labels
    names = [*state["names"], *ABBREVIATIONS]
    assert not english_left(
        label.replace(in_language_for(language, data(card["name"])), " "), names
    )


def _finished(seed: int = 3) -> dict[str, Any]:
    """A whole game of the engine's own (each seat's preferred move), to its end."""
    state = ENGINE.new_game(seats=2, seed=seed, options={})
    for _ in range(3000):
        if ENGINE.is_terminal(state):
            return state
        seat = ENGINE.waiting_on(state)[0]
        state, _ = ENGINE.apply(state, seat, choose(ENGINE.legal_actions(state, seat)))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("language", ["ja", "zh-hans"])
def test_why_a_game_ended_reads_in_her_language(language):
    """The summary, the result and the view of a finished game say why it ended in her
    language; the state keeps it in English too (``reason``), as bots and old states read it."""
    state = _finished()
    reason = ENGINE.result(state)["reason"]
    assert reason and reason == state["reason"] and reason[:1].isupper()
    assert str(ENGINE.summary(state)) == reason
    with translation.override(language):
        summary = in_language(ENGINE.summary(state))
        result = json_in_language(ENGINE.result(state))
        view = json_in_language(ENGINE.view(state, 0))
    assert summary != reason
    assert result["text"] == summary == view["reason"]["text"]
    assert not english_left(summary, [*state["names"], *ABBREVIATIONS]), summary
    # a state saved before its reason was words still says it, in English
    old = {k: v for k, v in state.items() if k != "reason_words"}
    with translation.override(language):
        assert in_language(ENGINE.summary(old)) == reason
        assert json_in_language(ENGINE.result(old))["text"] == reason


@pytest.mark.parametrize("language", ["ja", "zh-hans"])
def test_a_refusal_reads_in_her_language(language):
    """A move refused by the engine says why in her language; ``str()`` is its English."""
    state = ENGINE.new_game(seats=2, seed=1, options={})
    seat = ENGINE.waiting_on(state)[0]
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, seat, {"type": "done"})
    words = refused.value.args[0]
    assert isinstance(words, Words)
    assert str(refused.value) == "That move is not allowed now."
    assert not english_left(in_language_for(language, words), [])


def test_english_readers_and_old_rows_read_the_engines_english(player, other_player, api_for):
    """In English each log line is the engine's English (``str()`` of its words); a row stored
    before the engine spoke in message ids (English alone) still shows, in any language."""
    table = two_humans("rso", player, other_player)
    users = {0: player, 1: other_player}
    table = _play(table, users, 12)
    rows = list(TavernAction.objects.filter(table=table).order_by("seq"))
    stored = [e for r in rows for e in r.events if event_visible(e, 0)]
    assert stored and all("words" in e for e in stored)
    assert all(str(Words.from_json(e["words"])) == e["text"] for e in stored)
    old = rows[-1]
    old.events = [{k: v for k, v in e.items() if k != "words"} for e in old.events]
    # as a row written before (the log is append-only, so the row is rewritten beneath it)
    TavernAction.objects.filter(pk=old.pk).update(events=old.events)
    english = {e["text"] for e in old.events if event_visible(e, 0)}
    assert english
    for accept in ("en", "ja"):
        log = api_for(player).get(
            f"/api/tavern/tables/{table.pk}/log/?limit=500", headers={"accept-language": accept}
        )
        last = [e["text"] for e in log.json()["results"][-1]["events"]]
        assert english <= set(last), (accept, last)
    log = api_for(player).get(
        f"/api/tavern/tables/{table.pk}/log/?limit=500", headers={"accept-language": "en"}
    )
    shown = {e["text"] for r in log.json()["results"] for e in r["events"]}
    assert {e["text"] for e in stored} <= shown


def test_the_migration_replays_an_rso_table_saved_in_the_old_form(player, other_player):
    """``0008_rso_words`` saves each RSO table's state as its log replays to now: a state in
    an older form (here without a key the engine writes) comes back as the engine writes it,
    and a table already in today's form is left as it is."""
    from django.apps import apps

    migration = importlib.import_module("minigames.migrations.0008_rso_words")
    table = _play(two_humans("rso", player, other_player), {0: player, 1: other_player}, 8)
    today = dict(table.state)
    older = {k: v for k, v in today.items() if k != "used"}
    type(table).objects.filter(pk=table.pk).update(state=older)
    migration.replay_rso_states(apps, None)
    table.refresh_from_db()
    assert table.state == today
    version = table.version
    migration.replay_rso_states(apps, None)
    table.refresh_from_db()
    assert table.state == today and table.version == version
