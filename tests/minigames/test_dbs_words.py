"""Dream Battle of SpellCard in Japanese and Simplified Chinese (issue 42): its log lines, its
refusals, its result and the phase and status words of its view are message ids with
parameters, so each reader sees them in her language (the rulebook's terms), while ``str()``
of the words and a log's ``text`` stay the English sentence. A seat's translated log names no
card hidden from her, and a log written before the words were kept still reads."""

from __future__ import annotations

import importlib
import random
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.utils import translation

from apibase.engine_words import (
    data_in_language,
    events_in_language,
    in_language,
    json_in_language,
    reason_in_language,
)
from minigames.engines.dbs.heuristic import heuristic_action
from minigames.engines.registry import get_engine
from minigames.models import TavernAction, TavernTable
from tables.undo.services import effective_log
from tests.minigames.conftest import two_humans
from tests.minigames.playing import play
from tests.minigames.test_api import contains_id
from tests.minigames.test_i18n import english_left
from westernroses.protocol import IllegalAction, replay
from westernroses.words import Words

pytestmark = pytest.mark.django_db

LANGUAGES = ["ja", "zh-hans"]
#: Words the rulebook keeps in Latin capitals in both languages.
KEPT = ["SUPPORT", "CENTER", "HYPER"]

ENGINE: Any = get_engine("dbs")


def _english_card_names(state: dict[str, Any]) -> list[str]:
    """Every card name of the game in English, longest first: a name the data catalog does
    not translate yet is a name, not English left by the engine."""
    return sorted({str(c["name"]) for c in state["cards"].values()}, key=len, reverse=True)


def _play_to_the_end(seed: int) -> tuple[dict[str, Any], list[dict[str, Any]], list[Any]]:
    """A whole game, both seats played by the heuristic bot: the final state, every event
    and every refusal met on the way (an illegal move tried in each phase)."""
    state = ENGINE.new_game(seats=2, seed=seed)
    rng = random.Random(seed)
    events: list[dict[str, Any]] = []
    refusals: list[Any] = []
    tried: set[str] = set()
    for _ in range(2000):
        if ENGINE.is_terminal(state):
            break
        seat = ENGINE.waiting_on(state)[0]
        if state["phase"] not in tried:
            tried.add(state["phase"])
            bad: list[tuple[int, Any]] = [(seat, {"type": "discard", "card": "no such card"})]
            if state["phase"] == "battle":  # the other seat, and a move of no known shape
                bad += [(1 - seat, {"type": "end_turn"}), (seat, {"type": 3})]
            for who, action in bad:
                with pytest.raises(IllegalAction) as refused:
                    ENGINE.apply(state, who, action)
                refusals.append(refused.value)
        state, new = ENGINE.apply(state, seat, heuristic_action(state, seat, rng))
        events += new
    assert ENGINE.is_terminal(state), "the bots' game must end"
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, 0, {"type": "end_turn"})
    refusals.append(refused.value)
    return state, events, refusals


@pytest.mark.parametrize("accept", LANGUAGES)
@pytest.mark.parametrize("seed", [3, 11])
def test_a_whole_dbs_game_reads_in_her_language(accept, seed):
    """Every log line of a whole game, its refusals, its result, scores and summary, and the
    view's phase and statuses read in her language with no English word left (player and card
    names aside); in English each line is the engine's own sentence."""
    state, events, refusals = _play_to_the_end(seed)
    names = [*state["names"], *_english_card_names(state), *KEPT]
    assert {e["type"] for e in events} >= {"draw", "pay", "declare", "game_over"}, events
    for ev in events:
        assert ev["text"] == str(Words.from_json(ev["words"])), ev
    with translation.override(accept):
        lines = [ev["text"] for ev in events_in_language(events)]
        lines += [reason_in_language(r) for r in refusals]
        result = json_in_language(ENGINE.result(state))
        lines += [result["text"], *(s["text"] for s in result["scores"])]
        lines.append(in_language(ENGINE.summary(state)))
        for seat in (0, 1, None):
            view = data_in_language(json_in_language(ENGINE.view(state, seat)))
            lines.append(view["phase_text"]["text"])
            lines.append(view["result"]["text"])
            lines += [c["status_label"] for p in view["players"] for c in p["characters"]]
    for line in lines:
        assert line.strip(), lines
        assert not english_left(line, names), line


def _table_after_moves(
    player: Any, other_player: Any, moves: int, *, table: Any = None, to_the_end: bool = False
) -> Any:
    """A started DBS table after ``moves`` moves made through the services (or until its game
    is over): a card put face down whenever one may be in the first turns (so the log holds
    lines hidden from the other seat), the heuristic bot's choice otherwise."""
    table = table or two_humans("dbs", player, other_player)
    rng = random.Random(5)

    def pick(state: Any, seat: int, legal: list[Any]) -> Any:
        face_down = [a for a in legal if a["type"] in ("extra_sp", "set_trap")]
        early = state["turn"] <= 2 and not to_the_end
        return face_down[0] if face_down and early else heuristic_action(state, seat, rng)

    table = play(table, {0: player, 1: other_player}, moves, pick)
    assert not to_the_end or ENGINE.is_terminal(ENGINE.from_json(table.state))
    return table


def _log(api: Any, table: Any, accept: str) -> Any:
    answer = api.get(f"/api/tavern/tables/{table.pk}/log/", headers={"accept-language": accept})
    assert answer.status_code == 200
    return answer


@pytest.mark.parametrize("accept", LANGUAGES)
def test_each_seat_reads_the_dbs_table_in_her_language_and_nothing_hidden(
    player, other_player, api_for, accept
):
    """A DBS table some turns in: each seat's log, move buttons, summary and phase read in her
    language with no English word left; her log and state hold no id of a card hidden from
    her, and no name, in her language, of a card hidden from her (one the other seat drew or
    put face down) that no card she sees shares."""
    table = _table_after_moves(player, other_player, moves=24)
    state = ENGINE.from_json(table.state)
    names = [*state["names"], *_english_card_names(state), *KEPT]
    for seat, user in ((0, player), (1, other_player)):
        api = api_for(user)
        answer = api.get(
            f"/api/tavern/tables/{table.pk}/state/", headers={"accept-language": accept}
        )
        log = _log(api, table, accept)
        assert answer.status_code == 200
        payload = answer.json()
        events = [e for entry in log.json()["results"] for e in entry["events"]]
        assert {"draw", "set"} <= {e["type"] for e in events}, events
        lines = [e["text"] for e in events]
        lines += [m["label"] for m in payload["moves"]]
        lines += [payload["summary"], payload["view"]["phase_text"]["text"]]
        for line in lines:
            assert not english_left(line, names), (seat, line)
        hidden = ENGINE.hidden_from(state, seat)
        seen = {n for i, n in state["instances"].items() if i not in hidden}
        secret = {state["instances"][i] for i in hidden} - seen
        assert secret, "the other seat holds a card no seen card shares a name with"
        with translation.override(accept):
            secret_names = {in_language(Words(state["cards"][n]["name"])) for n in secret}
        for where, text in (("state", answer.content.decode()), ("log", log.content.decode())):
            leaked = [item for item in hidden if contains_id(text, item)]
            assert not leaked, f"seat {seat}'s {where} holds hidden {leaked[:5]}"
        named = [n for n in secret_names for line in lines if n in line]
        assert not named, f"seat {seat}'s log names hidden cards {named[:5]}"
        assert '"words"' not in log.content.decode()


def test_a_log_written_in_english_still_reads_and_a_saved_table_replays(
    player, other_player, api_for
):
    """A log row stored before the words were kept (its events hold only English ``text``)
    still reads as it was written; and a finished table saved with its result in English
    alone is replayed by migration 0007 to the state the engine writes now, the outcome and
    the English sentence unchanged."""
    table = _table_after_moves(player, other_player, moves=4)
    row = TavernAction.objects.filter(table=table).order_by("seq").last()
    assert row is not None and any("words" in e for e in row.events)
    old = [{k: v for k, v in e.items() if k != "words"} for e in row.events]
    # the log is append-only for the app: this writes the row as a previous release stored it
    TavernAction.objects.filter(pk=row.pk).update(events=old)
    english = [e["text"] for e in old if e.get("visible_to") is None and not e.get("hidden_from")]
    assert english
    log = _log(api_for(player), table, "ja").json()
    texts = [e["text"] for entry in log["results"] for e in entry["events"]]
    for line in english:
        assert line in texts, (line, texts)

    # the game played on to its end, its stored result as a previous release wrote it
    table = _table_after_moves(player, other_player, moves=3000, table=table, to_the_end=True)
    now = dict(table.state)
    assert now["result"]["words"], now["result"]
    before = {**now, "result": {k: v for k, v in now["result"].items() if k != "words"}}
    TavernTable.objects.filter(pk=table.pk).update(state=before)
    migration = importlib.import_module("minigames.migrations.0007_dbs_words")
    migration.replay_dbs_states(django_apps, None)
    table.refresh_from_db()
    rows = TavernAction.objects.filter(table=table).order_by("seq")
    log_rows = [(int(r.seat), r.action) for r in effective_log(rows)]
    assert table.state == ENGINE.to_json(replay(ENGINE, ENGINE.from_json(table.initial), log_rows))
    assert table.state == now
    assert str(Words.from_json(table.state["result"]["words"])) == before["result"]["text"]
