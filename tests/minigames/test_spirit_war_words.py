"""Spirit War in Japanese and Simplified Chinese (issue 42): the engine writes its log lines,
refusals, summary, set-up notes and result as message ids with parameters, so each seat reads a
whole war in her language with no English sentence left, and her translated log names nothing
hidden from her: the other seat's draws, summons and Support cards read without the card. The
log keeps the words (``Words.to_json``) and renders them at read time; a line stored as plain
English before still shows, and a war that ended before its result kept its words is replayed
once to the state the engine writes now (migration 0009)."""

from __future__ import annotations

import importlib
import random
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.core.exceptions import ValidationError
from django.db import connection
from django.utils import translation

from apibase.engine_words import in_language
from minigames import services
from minigames.engines.registry import get_engine
from minigames.models import TavernAction, TavernTable
from tables.registry import game_for
from tables.services import table_replay
from tests.minigames.conftest import two_humans
from tests.minigames.playing import play
from tests.minigames.test_api import contains_id
from tests.minigames.test_i18n import english_left
from westernroses.protocol import IllegalAction
from westernroses.words import Words

pytestmark = pytest.mark.django_db

ENGINE = get_engine("spirit_war")

#: The game's name, kept in Latin letters in every language (docs/glossary).
KEPT = ["Spirit War"]

#: The events a seat reads about her own hidden card, and the line the others read instead.
PRIVATE = {"draw_private", "summon_private", "support_private", "no_support_private"}


def _play(player: Any, other_player: Any, *, moves: int, seed: int = 7) -> TavernTable:
    """A started two-seat Spirit War table after up to ``moves`` moves (:func:`_advance`)."""
    table = two_humans("spirit_war", player, other_player)
    return _advance(table, {0: player, 1: other_player}, moves, random.Random(seed))


def _advance(
    table: TavernTable, users: dict[int, Any], moves: int, pick: random.Random
) -> TavernTable:
    """``table`` after up to ``moves`` more moves, each a random legal move (drawn from
    ``pick``) of the seat waited on, or at its end."""
    return play(table, users, moves, lambda state, seat, legal: pick.choice(legal))


def _log(api: Any, table: TavernTable, accept: str) -> tuple[list[dict[str, Any]], str]:
    """Every event of the table's log as the reader sees it, and the answers' raw text."""
    events: list[dict[str, Any]] = []
    raw, after = [], 0
    while True:
        answer = api.get(
            f"/api/tavern/tables/{table.pk}/log/?after={after}&limit=200",
            headers={"accept-language": accept},
        )
        assert answer.status_code == 200
        raw.append(answer.content.decode())
        body = answer.json()
        events += [e for entry in body["results"] for e in entry["events"]]
        if body["next_after"] is None:
            return events, "\n".join(raw)
        after = body["next_after"]


def _texts(payload: dict[str, Any]) -> list[str]:
    """The engine's sentences in a seat's state answer: her move buttons, the summary, the
    situation, the set-up notes and the result."""
    view = payload["view"]
    texts = [m["label"] for m in payload["moves"]] + [payload["summary"]]
    texts.append(view["phase_text"]["text"])
    texts += [note["text"] for note in view["setup"]]
    result = payload["result"] or {}
    texts += [result.get("text") or ""]
    texts += [line["text"] for line in result.get("breakdown", [])]
    return [t for t in texts if t]


def _card_names(state: dict[str, Any], language: str) -> set[str]:
    with translation.override(language):
        return {in_language(Words(str(d["name"]))) for d in state["defs"].values()}


def _read(api: Any, table: TavernTable, accept: str) -> tuple[Any, list[dict[str, Any]], str]:
    """A seat's state answer, her log's events and the log's raw text, in ``accept``."""
    answer = api.get(f"/api/tavern/tables/{table.pk}/state/", headers={"accept-language": accept})
    assert answer.status_code == 200
    events, raw = _log(api, table, accept)
    assert events and '"words"' not in raw and '"words"' not in answer.content.decode()
    return answer, events, raw


@pytest.mark.parametrize("accept", ["ja", "zh-hans"])
def test_a_whole_war_reads_in_her_language_with_nothing_hidden(
    player, other_player, api_for, accept
):
    """A two-seat war a few turns in, then played to its end: each seat's log, move buttons,
    summary, situation, set-up notes and result read in her language with no English word
    left (names and the game's name aside), and the log keeps no message id. A few turns in,
    her translated state and log hold no id of a card hidden from her; all along, her own
    draws, summons and Support cards name the card and the other seat's read without it."""
    users = {0: player, 1: other_player}
    pick = random.Random(7)
    # a few turns in: a deal is random, and thirty random moves have ended a war before
    table = _advance(two_humans("spirit_war", player, other_player), users, 10, pick)
    state = ENGINE.from_json(table.state)
    assert not ENGINE.is_terminal(state)
    for seat, user in users.items():
        answer, _, raw = _read(api_for(user), table, accept)
        hidden = ENGINE.hidden_from(state, seat)
        assert hidden, "the other seat holds something hidden (the test needs it)"
        for where, payload in (("state", answer.content.decode()), ("log", raw)):
            leaked = [item for item in hidden if contains_id(payload, item)]
            assert not leaked, f"seat {seat}'s {where} holds hidden {leaked[:5]}"

    table = _advance(table, users, 400, pick)
    state = ENGINE.from_json(table.state)
    assert ENGINE.is_terminal(state)
    names = [*state["names"], *KEPT]
    cards = _card_names(state, accept)
    kinds: set[str] = set()
    for seat, user in users.items():
        answer, events, _ = _read(api_for(user), table, accept)
        kinds |= {e["type"] for e in events}
        for line in [*_texts(answer.json()), *(e["text"] for e in events)]:
            assert not english_left(line, names), (seat, line)
        for e in events:
            if e["type"] in PRIVATE:
                assert e.get("visible_to") == [seat], e
            if e["type"] in {"draw", "summon", "support", "support_chosen"}:
                assert e["seat"] != seat, e
                named = [name for name in cards if name in e["text"]]
                assert not named, e["text"]
    # the war really went through turns, battles and their Support cards, and ended
    assert {"turn", "draw", "draw_private", "attack", "reveal", "support_reveal"} <= kinds
    assert "game_over" in kinds


@pytest.mark.parametrize("accept", ["ja", "zh-hans"])
def test_a_refusal_reads_in_her_language(player, other_player, accept):
    """A move the rules refuse says why in her language; ``str()`` of it stays English."""
    table = _play(player, other_player, moves=0)
    state = ENGINE.from_json(table.state)
    seat = ENGINE.waiting_on(state)[0]
    vote = {"type": "vote", "choice": "share"}
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, seat, vote)
    assert str(refused.value) == "That move does not fit this moment of the game."
    with translation.override(accept):
        detail = in_language(refused.value.args[0])
        with pytest.raises(ValidationError) as answered:
            services.tavern_action_apply(
                table_id=table.pk,
                by={0: player, 1: other_player}[seat],
                action=vote,
                expected_version=table.version,
            )
    assert detail != str(refused.value) and not english_left(detail, []), detail
    assert answered.value.message_dict == {"action": [detail]}


def test_english_readers_read_the_engines_english(player, other_player, api_for):
    """In English every line is the engine's English, ``str()`` of its words, as before."""
    table = _play(player, other_player, moves=12)
    events, _ = _log(api_for(player), table, "en")
    stored = [e for a in TavernAction.objects.filter(table=table) for e in a.events]
    assert all("words" in e for e in stored)
    english = {str(Words.from_json(e["words"])) for e in stored}
    assert {e["text"] for e in events} <= english
    assert any(e["text"].startswith("Turn 1: ") for e in events)


def test_a_line_stored_in_english_still_shows(player, other_player, api_for):
    """A log row written before the engine spoke in message ids (its text alone) reads as it
    was, in every language."""
    table = _play(player, other_player, moves=1)
    row = TavernAction.objects.filter(table=table).order_by("seq").first()
    assert row is not None
    row.events = [{k: v for k, v in e.items() if k != "words"} for e in row.events]
    TavernAction.objects.filter(pk=row.pk).update(events=row.events)
    events, _ = _log(api_for(player), table, "ja")
    turn = next(e for e in events if e["type"] == "turn")
    assert turn["text"].startswith("Turn 1: ")


def _migration() -> Any:
    return importlib.import_module("minigames.migrations.0009_spirit_war_words")


def test_a_war_ended_before_its_result_kept_words_replays_once(player, other_player, api_for):
    """A finished war whose stored result has its English alone (as saved before) no longer
    replays to its state byte for byte; the migration replays it once, and then it does, its
    result read in Japanese. A table whose state already matches is left as it is."""
    table = _play(player, other_player, moves=400)
    assert table.status == "ended"
    game = game_for("spirit_war")
    assert game.engine.to_json(table_replay(game, table)) == table.state
    english = table.state["result"]["text"]
    old = {
        **table.state,
        "result": {k: v for k, v in table.state["result"].items() if k != "words"},
    }
    TavernTable.objects.filter(pk=table.pk).update(state=old)
    table.refresh_from_db()
    assert game.engine.to_json(table_replay(game, table)) != table.state
    with translation.override("ja"):
        assert ENGINE.summary(ENGINE.from_json(table.state)) == english  # still shows
    untouched = _play(player, other_player, moves=3)
    before = TavernTable.objects.filter(pk=untouched.pk).values_list("state", flat=True).get()

    with connection.schema_editor() as editor:
        _migration().replay_spirit_war_states(django_apps, editor)

    table.refresh_from_db()
    assert game.engine.to_json(table_replay(game, table)) == table.state
    assert table.state["result"]["text"] == english and "words" in table.state["result"]
    assert TavernTable.objects.filter(pk=untouched.pk).values_list("state", flat=True).get() == (
        before
    )
    answer = api_for(player).get(
        f"/api/tavern/tables/{table.pk}/state/", headers={"accept-language": "ja"}
    )
    assert not english_left(answer.json()["summary"], [*table.state["names"], *KEPT])
