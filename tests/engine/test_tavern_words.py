"""Words every tavern engine owes its players, checked over random two-seat games.

A secret told to one seat comes as a pair (westernroses/protocol.py): her own line ("You draw
the Snake token") and the public one for everyone else ("Ann draws a token from Raizan"),
marked ``hidden_from`` her, so her log reads each thing once. Checked over random two-seat
games of every tavern engine, for both seats and a spectator."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from minigames.engines.registry import get_engine
from westernroses.protocol import event, event_visible

NAMES = ["Ann", "Bea"]


def test_an_event_hidden_from_a_seat_is_seen_by_everyone_else():
    ev = event("Ann draws a card.", type="draw", hidden_from=[0])
    assert not event_visible(ev, 0)
    assert event_visible(ev, 1) and event_visible(ev, None)
    mine = event("You draw the Snake.", type="draw", visible_to=[0])
    assert event_visible(mine, 0) and not event_visible(mine, 1) and not event_visible(mine, None)
    assert "hidden_from" not in event("A plain line.", type="note")


def random_moves(slug: str, games: int, moves: int) -> Iterator[tuple[Any, Any, list[Any], Any]]:
    """(state, seat, legal moves, the events of the one played) at every step of ``games``
    seeded random two-seat games of ``slug``, at most ``moves`` steps each."""
    engine = get_engine(slug)
    rng = random.Random(slug)
    for seed in range(games):
        state = engine.new_game(seats=2, seed=seed, config={"names": NAMES})
        for _ in range(moves):
            if engine.is_terminal(state):
                break
            seat = engine.waiting_on(state)[0]
            legal = engine.legal_actions(state, seat)
            before = state
            state, events = engine.apply(state, seat, rng.choice(legal))
            yield before, seat, legal, events


@pytest.mark.parametrize("slug", ["raigo", "spirit_war", "rso", "dbs"])
def test_a_seat_reads_her_own_draw_once(slug):
    pairs = 0
    for _state, _seat, _legal, events in random_moves(slug, games=3, moves=400):
        for s, name in enumerate(NAMES):
            seen = [e["text"] for e in events if event_visible(e, s)]
            if not any(t.startswith("You draw") for t in seen):
                continue
            pairs += 1
            # her own line, never the public one about her as well
            assert not any(t.startswith(f"{name} draws") for t in seen), seen
            # the other seat and a spectator read the public one, and not hers
            for viewer in (1 - s, None):
                shown = [e["text"] for e in events if event_visible(e, viewer)]
                assert any(t.startswith(f"{name} draws") for t in shown), shown
                assert not any(t.startswith("You draw") for t in shown if name in t)
    assert pairs >= 3


@pytest.mark.parametrize("slug", ["raigo", "spirit_war", "rso", "dbs"])
def test_every_move_reads_as_a_button_in_words(slug):
    """Every legal move's words, in every game alike: a command without a full stop (Spirit
    War's ended in one, the other three did not), never an identifier."""
    engine = get_engine(slug)
    seen = 0
    for state, seat, legal, _events in random_moves(slug, games=2, moves=300):
        for move in legal:
            label = str(engine.describe_action(state, seat, move))
            seen += 1
            assert label and label[0].isupper() and not label.endswith("."), label
            assert "_" not in label and "{" not in label, label
    assert seen > 100


#: What a player must never read in a log line (issue 40): a snake_case key, an engine id
#: ("c12", "t3"), braces or brackets, or a Python literal.
NOT_WORDS = re.compile(r"\b[a-z]+_[a-z_]+\b|\b[a-z]{1,3}\d+\b|[{}\[\]]|\b(None|True|False)\b")


@pytest.mark.parametrize("slug", ["raigo", "spirit_war", "rso", "dbs"])
def test_every_log_line_is_words(slug):
    """Every event's text, as the table's log shows it to a seat or a spectator, over random
    games: words only (the ids a move names are for the engine, the words for people)."""
    lines = 0
    for _state, _seat, _legal, events in random_moves(slug, games=3, moves=400):
        for e in events:
            text = e.get("text")
            if not text:
                continue
            lines += 1
            assert not NOT_WORDS.search(text), (slug, text)
    assert lines > 300, lines  # the games wrote a real log
