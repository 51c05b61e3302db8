"""Which token a player moves between her own private places stays hers.

RAIGO rulebook (../shared/rules/raigo-rulebook-en.md), "1. Fetch": "Choose zero to two Tokens
from your Body ... and move your Token(s) to the right or left Hand". The others see a token go
from her Body to a Hand, never which: the engine shows them the Body as a count and the tokens
they have seen there, never its order (views.py). So a token someone has seen on her Body (one
she got by Switch, one taken from the Canyon) must not give itself away when she fetches it:
fetching it or an unseen token looks the same, byte for byte, to every other seat and to
spectators. The same holds for Purify's rearrangement of her Inner Tokens.
"""

from __future__ import annotations

from minigames.engines.raigo import ENGINE
from minigames.engines.raigo.board import learn, player, reveal
from minigames.engines.raigo.tokens import kind
from tests.engine.conformance import canonical
from tests.engine.raigo.helpers import bare, give, start
from westernroses.protocol import event_visible


def seen(state, events, seat):
    return canonical(
        {
            "view": ENGINE.view(state, seat),
            "events": [e for e in events if event_visible(e, seat)],
            "waiting": ENGINE.waiting_on(state),
            "legal": [] if seat is None else ENGINE.legal_actions(state, seat),
        }
    )


def fetching(*, everyone: bool = False):
    """Seat 0 to fetch, her Body holding Mist, Four and One; seat 1 has seen the Four (all
    have, with ``everyone``: a token taken from the Canyon)."""
    state = bare(3)
    give(state, 0, body=["mist", "four", "one"])
    four = next(t for t in player(state, 0)["body"] if kind(t).key == "four")
    if everyone:
        reveal(state, four)
    else:
        learn(state, four, 1)
    return start(state, 0, "fetch"), four


def test_fetching_a_token_another_seat_has_seen_looks_like_fetching_another():
    state, four = fetching()
    assert four in str(ENGINE.view(state, 1)["players"][0]["body"])
    others = [t for t in player(state, 0)["body"] if t != four]
    plays = [
        ENGINE.apply(state, 0, {"type": "fetch", "token": t, "hand": "left"})
        for t in [four, *others]
    ]
    for seat in (1, 2, None):
        assert len({seen(st, ev, seat) for st, ev in plays}) == 1, seat
    # she still sees her own tokens, wherever they went
    after, _ = plays[0]
    assert ENGINE.view(after, 0)["players"][0]["hands"]["left"]["id"] == four


def test_a_token_everyone_has_seen_is_not_given_away_either():
    state, four = fetching(everyone=True)
    others = [t for t in player(state, 0)["body"] if t != four]
    a = ENGINE.apply(state, 0, {"type": "fetch", "token": four, "hand": "right"})
    b = ENGINE.apply(state, 0, {"type": "fetch", "token": others[0], "hand": "right"})
    for seat in (1, 2, None):
        assert seen(*a, seat) == seen(*b, seat)
    assert four in ENGINE.hidden_from(a[0], 1)


def test_the_public_face_of_a_fetch_names_the_hand_not_the_token():
    state, four = fetching()
    face = ENGINE.public_action(state, 0, {"type": "fetch", "token": four, "hand": "left"})
    assert face == {"type": "fetch", "token": "hidden", "hand": "left"}
