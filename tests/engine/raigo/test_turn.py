"""The four steps, Forbiddance, towers and the end of the game ("HOW TO PLAY", "END
CONDITIONS/VICTORY CONDITIONS", "SCORING" of ../shared/rules/raigo-rulebook-en.md)."""

from __future__ import annotations

import pytest

from minigames.engines.raigo import ENGINE
from minigames.engines.raigo.board import player
from minigames.engines.raigo.resolution import Ctx, decide, finish
from tests.engine.raigo.helpers import bare, give, kinds, play, start, texts


def test_fetch_moves_up_to_two_body_tokens_to_empty_hands():
    """1. Fetch: zero to two tokens, one per empty Hand, never back to the Body."""
    state = bare(3)
    give(state, 0, body=["five", "three", "one"])
    state = start(state, 0, "fetch")
    actions = ENGINE.legal_actions(state, 0)
    assert {"type": "end_fetch"} in actions
    assert len(actions) == 3 * 2 + 1
    body = player(state, 0)["body"]
    state, _ = play(state, 0, {"type": "fetch", "token": body[0], "hand": "left"})
    # the filled hand is no longer offered, and nothing moves back
    actions = ENGINE.legal_actions(state, 0)
    assert all(a.get("hand") != "left" for a in actions)
    state, _ = play(
        state, 0, {"type": "fetch", "token": player(state, 0)["body"][0], "hand": "right"}
    )
    assert state["prompt"]["kind"] != "fetch"  # two fetched: on to Select
    assert kinds([player(state, 0)["left"], player(state, 0)["right"]]) == ["five", "three"]


def test_fetch_is_skipped_when_hands_are_full():
    state = bare(3)
    give(state, 0, body=["five"], left="one", right="two")
    state = start(state, 0, "fetch")
    assert state["prompt"]["kind"] == "select"


def test_select_cannot_exceed_empty_spaces():
    """Notes on Select: four of five spaces full means one token only (drawn at once)."""
    state = bare(3)
    give(state, 0, body=["five", "four", "three"], left="one")
    state = start(state, 0, "select")
    # one token drawn and, with one space left, placed there for her
    assert player(state, 0)["right"] is not None and state["turn"]["drawn"] == []
    assert state["prompt"]["kind"] == "act"
    state = bare(3)
    give(state, 0, body=["five"])
    state = start(state, 0, "select")
    assert ENGINE.legal_actions(state, 0) == [
        {"type": "select", "count": 1},
        {"type": "select", "count": 2},
    ]
    state, events = play(state, 0, {"type": "select", "count": 2})
    assert len(state["turn"]["drawn"]) == 2
    private = [e for e in events if e["visible_to"] == [0]]
    public = [e for e in events if e["visible_to"] is None]
    assert private and all("token" not in e and "tokens" not in e for e in public)


def test_forbiddance_pays_a_ball_discards_two_and_selects_again():
    """Forbiddance related to Select: all five full -> pay one, two to the Canyon, Select."""
    state = bare(3)
    give(state, 0, body=["five", "four", "three"], left="one", right="two")
    state = start(state, 0, "select")
    assert player(state, 0)["balls"] == 1
    assert state["prompt"]["kind"] == "discard"
    assert len(ENGINE.legal_actions(state, 0)) == 5
    canyon = len(state["canyon"])
    for _ in range(2):
        state, _ = play(state, 0, ENGINE.legal_actions(state, 0)[0])
    assert len(state["canyon"]) == canyon + 2
    assert state["prompt"]["kind"] == "select"


def test_forbiddance_with_the_last_ball_ends_the_game_and_that_player_loses():
    state = bare(2)
    give(state, 0, body=["five", "four", "three"], left="one", right="two", balls=1)
    give(state, 1, towers=[[]], balls=1)
    state = start(state, 0, "select")
    assert state["over"] and player(state, 0)["out"]
    assert state["result"]["winners"] == [1]
    assert ENGINE.returns(state) == [-1.0, 1.0]
    assert ENGINE.waiting_on(state) == ()


def test_four_player_team_is_out_together():
    state = bare(4)
    give(state, 1, body=["five", "four", "three"], left="one", right="two", balls=1)
    give(state, 3, balls=9)
    state = start(state, 1, "select")
    assert state["result"]["winners"] == [0, 2]
    assert ENGINE.returns(state) == [1.0, -1.0, 1.0, -1.0]


def test_pile_offers_every_tower_and_the_sixth_token_resolves():
    """3 A Pile: up to six; the sixth triggers Resolution at once (a hand scores)."""
    state = bare(3)
    give(state, 0, left="two", towers=[["seven", "six", "five", "four", "three"]])
    state = start(state, 0)
    actions = ENGINE.legal_actions(state, 0)
    assert {"type": "pile", "hand": "left", "tower": 0} in actions
    assert {"type": "pile", "hand": "left", "tower": 1} in actions
    assert {"type": "keep", "hand": "left"} in actions
    state, events = play(state, 0, {"type": "pile", "hand": "left", "tower": 0})
    assert player(state, 0)["towers"][0] == []
    # 7-6-5 / 4-3-2: Double Lotus 2 + height 3 + Silent 1 = 6
    assert player(state, 0)["balls"] == 2 + 6
    assert "Double Lotus" in texts(events)


def test_a_pile_is_told_as_on_her_own_tower():
    """A token is only ever piled on one's own tower (3 A): the log says "her", the move
    "your", not the seat's name twice ("Reimu piles ... on Reimu's first tower")."""
    state = bare(3)
    give(state, 0, left="two", towers=[["seven"]])
    state = start(state, 0)
    move = {"type": "pile", "hand": "left", "tower": 1}
    label = str(ENGINE.describe_action(state, 0, move))
    assert label == "Pile the Two in your left hand on your second tower"
    state, events = play(state, 0, move)
    name = state["names"][0]
    assert f"{name} piles her left-hand token on her second tower (1 high)." in texts(events)


def test_unsettled_tower_pays_a_ball_and_scores_nothing():
    """Forbiddance related to Tower Resolution: heavier on lighter -> -1 ball, no score."""
    state = bare(3)
    give(state, 0, left="six", towers=[["five", "roar", "five", "roar", "five"]])
    state = start(state, 0)
    state, events = play(state, 0, {"type": "pile", "hand": "left", "tower": 0})
    assert player(state, 0)["balls"] == 1
    assert "Unsettled" in texts(events)
    assert len(state["canyon"]) == 6


def test_an_unsettled_tower_in_play_shows_its_ball_in_the_breakdown():
    """The tower scores nothing and costs a ball (Forbiddance in Resolving Tower): the final
    scoring's breakdown says -1 for it, not 0, and that it was resolved during play."""
    state = bare(3)
    give(state, 0, left="six", towers=[["five", "roar", "five", "roar", "five"]])
    state = start(state, 0)
    state, _ = play(state, 0, {"type": "pile", "hand": "left", "tower": 0})
    (row,) = state["scoring_log"]
    assert (row["seat"], row["points"], row["when"]) == (0, -1, "play")
    assert row["text"].endswith("no score, -1 Yang ball.")


def test_keep_passes_the_dong_token_to_the_left():
    """3 C No Action and 4 Passing on Dong token."""
    state = bare(3)
    give(state, 0, left="one")
    state = start(state, 0)
    state, events = play(state, 0, {"type": "keep", "hand": "left"})
    assert state["turn"]["seat"] == 1 and state["turn"]["number"] == 2
    assert "Dong" in texts(events)


def test_drawing_the_last_token_gives_everyone_one_more_turn_drawer_last():
    """END CONDITIONS 1: the drawer of the last token plays once more after the others."""
    state = bare(3)
    last = state["raizan"][0].pop()
    for pile in state["raizan"]:
        state["canyon"].extend(pile)
        pile.clear()
    state["raizan"][0].append(last)
    for seat in (1, 2):
        give(state, seat, left=kinds([state["canyon"][seat]])[0])
    state = start(state, 0, "select")
    assert state["end_after_turn"] == 1 + 3
    state, _ = play(
        state, 0, {"type": "place", "token": state["turn"]["drawn"][0], "space": "body"}
    )
    assert state["turn"]["seat"] == 1  # seat 0 had nothing in her hands
    for seat in (1, 2, 0):
        assert state["turn"]["seat"] == seat and not state["over"]
        while state["prompt"] and state["prompt"].get("seat") == seat:
            keep = [
                a for a in ENGINE.legal_actions(state, seat) if a["type"] in ("keep", "end_fetch")
            ]
            state, _ = play(state, seat, keep[0])
    assert state["over"]


def test_final_resolution_scores_the_bonus_token_and_skips_unsettled_towers():
    """Resolving All Towers/Bonus Token: +1 per Bonus Token in a settled tower."""
    state = bare(3)
    bonus = state["bonus"]
    from minigames.engines.raigo.tokens import kind

    key = kind(bonus).key
    give(state, 0, towers=[[key]])
    give(state, 1, towers=[["one", "two"]])
    ctx = Ctx(state)
    finish(ctx, "a test")
    assert player(state, 0)["balls"] == 3
    assert player(state, 1)["balls"] == 1
    assert player(state, 2)["balls"] == 2
    assert "Bonus Token" in texts(ctx.events)


def test_an_unsettled_tower_at_the_end_that_takes_the_last_ball_puts_her_out():
    """Resolving All Towers refers its Unsettled Towers to Forbiddance in Resolving Tower: a
    player left with no Yang ball is out and loses, so nobody wins "with 0 Yang balls"
    (docs/games/raigo.md). Seat 1 would otherwise win on Yang balls (2 against 1)."""
    state = bare(2)
    give(state, 0, balls=1)
    give(state, 1, balls=1, towers=[["one", "two"]])
    ctx = Ctx(state)
    finish(ctx, "a test")
    assert player(state, 1)["balls"] == 0 and player(state, 1)["out"]
    assert "has no Yang ball left after her Unsettled Tower and is out" in texts(ctx.events)
    assert state["result"]["winners"] == [0]
    assert [row["when"] for row in state["scoring_log"]] == ["end"]
    assert ENGINE.returns(state) == [1.0, -1.0]


def test_when_the_end_puts_every_side_out_nobody_wins():
    """Both players' last Yang ball goes on an Unsettled Tower at the end: both are out, a side
    out of Yang balls never wins, so nobody does (docs/games/raigo.md), and the game is a draw
    for both, not a loss."""
    state = bare(2)
    give(state, 0, balls=1, towers=[["one", "two"]])
    give(state, 1, balls=1, towers=[["one", "two"]])
    finish(Ctx(state), "a test")
    assert player(state, 0)["out"] and player(state, 1)["out"]
    assert state["result"]["winners"] == []
    assert state["result"]["text"] == "The game is over (a test): nobody wins."
    assert ENGINE.returns(state) == [0.0, 0.0]


def test_at_the_end_settled_towers_score_before_unsettled_ones_cost():
    """Her towers' gains come first, then one ball per Unsettled Tower, whatever the order of
    her Sakura Circles: one ball, an Unsettled first tower and a second tower of three Ones
    (Sakura, 2 + Silent bonus 1 = 3) leave her 1 + 3 - 1 = 3, still in the game."""
    state = bare(3)
    give(state, 0, balls=1, towers=[["one", "two"], ["one", "one", "one"]])
    ctx = Ctx(state)
    finish(ctx, "a test")
    assert not player(state, 0)["out"]
    gains = [row["points"] for row in state["scoring_log"] if row["seat"] == 0]
    assert gains == [-1, 3]
    assert player(state, 0)["balls"] == 3


@pytest.mark.parametrize(
    ("balls", "inner", "winners"),
    [
        ([5, 3, 3], [2, 0, 0], [0]),  # most Yang balls wins
        ([4, 4, 1], [3, 1, 0], [1]),  # tie: fewer Inner Tokens wins
        ([4, 4, 1], [2, 2, 0], [0, 1]),  # still tied: shared
    ],
)
def test_victory_and_tie_breaks(balls, inner, winners):
    """END CONDITIONS: most Yang balls; a tie goes to the fewest tokens on the five spaces."""
    state = bare(3)
    for seat, (b, n) in enumerate(zip(balls, inner, strict=True)):
        give(state, seat, body=["one"] * n, balls=b)
    assert decide(state, "a test")["winners"] == winners


def test_a_tie_broken_by_inner_tokens_says_so():
    """END CONDITIONS: a tie on Yang balls goes to the fewer Inner Tokens; the result says so,
    or two equal scores in the final table read like an error."""
    state = bare(3)
    for seat, (b, n) in enumerate([(4, 3), (4, 1), (1, 0)]):
        give(state, seat, body=["one"] * n, balls=b)
    names = state["names"]
    assert decide(state, "a test")["text"] == (
        f"The game is over (a test): tied on 4 Yang balls with {names[0]}, {names[1]} wins "
        "with fewer Inner Tokens (1 against 3)."
    )


def test_team_scores_add_up():
    state = bare(4)
    for seat, b in enumerate([1, 3, 2, 1]):
        give(state, seat, balls=b)
    result = decide(state, "a test")
    assert result["winners"] == [1, 3]
    assert [row["balls"] for row in result["sides"]] == [3, 4]


def test_result_is_public_words_with_each_tower_breakdown():
    state = bare(3)
    give(state, 0, towers=[["three", "three", "three"]], balls=3)
    give(state, 1, towers=[["six", "five", "four"]], balls=4)
    ctx = Ctx(state)
    finish(ctx, "a test")
    result = ENGINE.result(state)
    assert result["winners"] == [0, 1]
    assert result["text"] == (
        "The game is over (a test): Player 1 and Player 2 share the win with 6 Yang balls each."
    )
    assert [row["text"] for row in result["breakdown"]] == [
        "Player 1's first tower (bottom to top: Three, Three, Three): Sakura 2 + Spell/Silent "
        "bonus 1 = 3 points.",
        "Player 2's first tower (bottom to top: Six, Five, Four): Lotus 1 + Spell/Silent bonus 1 "
        "= 2 points.",
    ]
    assert ENGINE.returns(state) == [0.0, 0.0, -1.0]
