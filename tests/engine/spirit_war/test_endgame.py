"""The rare outcome and the Mini Spirit War.

Rules: ../shared/rules/spirit-war-standard-rules.txt, "The rare outcome" and "Mini Spirit War";
which way the survivors go is a house rule (docs/games/spirit-war.md).
"""

from __future__ import annotations

from minigames.engines.spirit_war import ENGINE
from minigames.engines.spirit_war.elements import BEATS
from minigames.engines.spirit_war.piles import element, locations
from tests.engine.spirit_war.helpers import new, play, rig, texts

SPELLS = ["mirror_pond", "paper_doll_ward", "kindling_charm", "bedrock_charm", "wellspring_charm"]


def stalled(seats=2, **options):
    """Nobody holds a Spirit and the Preparation deck is exhausted; seat 0 then draws a
    Disaster that is no attack, and the turn ends."""
    s = rig(
        new(seats, **options),
        hands={seat: ["mirror_pond"] for seat in range(seats)},
        encounter_top=["lost_in_the_bamboo"],
        prep_empty=True,
    )
    return play(s, 0, {"type": "draw"})


def test_no_spirits_left_brings_the_rare_outcome_vote():
    """ "two or more survivors at the end with no Spirits left to summon ... may choose to end
    the war and declare everyone a winner/loser or conduct a multiplayer Mini Spirit War"."""
    s, events = stalled()
    assert s["phase"] == "rare_outcome"
    assert ENGINE.waiting_on(s) == (0, 1)
    assert "This is the rare outcome" in texts(events, None)
    # The hands are shown as proof that nobody can summon.
    assert set(s["hands"][0]) | set(s["hands"][1]) <= set(s["known"])
    assert ENGINE.legal_actions(s, 1) == [
        {"type": "vote", "choice": "share"},
        {"type": "vote", "choice": "mini_war"},
    ]


def test_everyone_agrees_to_share():
    s, _ = stalled()
    s, _ = play(s, 1, {"type": "vote", "choice": "share"})
    assert ENGINE.waiting_on(s) == (0,)
    s, events = play(s, 0, {"type": "vote", "choice": "share"})
    assert ENGINE.is_terminal(s)
    assert ENGINE.returns(s) == [0.0, 0.0]
    assert ENGINE.result(s)["outcome"] == "shared"
    assert "share it" in texts(events)


def check_mini_war(s, events, players):
    """Replay the rounds from the events: the rule decides each round as the rulebook says."""
    rounds = [e for e in events if e["type"] == "mini_round"]
    assert rounds
    alive = list(players)
    for e in rounds:
        shown = {seat: element(s, cid) for seat, cid in e["reveals"]}
        assert sorted(shown) == sorted(alive)
        present = set(shown.values())
        if len(present) != 2:
            continue  # "If there is no absolute winner, repeat from step 2"
        a, b = present
        best = a if BEATS[a] == b else b
        alive = [p for p, el in shown.items() if el == best]
    assert alive == ENGINE.result(s)["winners"]


def test_one_vote_for_the_mini_war_plays_it():
    """ "Mini Spirit War": one Spirit each, revealed together; the winning element's holders go
    on until only one is left."""
    s, _ = stalled()
    s, _ = play(s, 0, {"type": "vote", "choice": "mini_war"})
    s, events = play(s, 1, {"type": "vote", "choice": "share"})
    assert ENGINE.is_terminal(s)
    result = ENGINE.result(s)
    assert result["outcome"] == "mini_war" and len(result["winners"]) == 1
    assert sorted(ENGINE.returns(s)) == [-1.0, 1.0]
    check_mini_war(s, events, [0, 1])
    assert len(locations(s)) == len(s["cards"])


def test_house_rule_always_a_mini_war_with_five_survivors():
    for seed in range(1, 8):
        s = rig(
            new(5, seed, rare_outcome="mini_war"),
            hands={seat: [SPELLS[seat]] for seat in range(5)},
            encounter_top=["lost_in_the_bamboo"],
            prep_empty=True,
        )
        s, events = play(s, 0, {"type": "draw"})
        assert ENGINE.is_terminal(s)
        check_mini_war(s, events, [0, 1, 2, 3, 4])
        assert ENGINE.returns(s).count(1.0) == 1


def test_house_rule_always_share_eliminated_players_still_lose():
    s = rig(
        new(3, rare_outcome="share"),
        hands={0: ["mirror_pond"], 1: ["paper_doll_ward"], 2: []},
        encounter_top=["lost_in_the_bamboo"],
        prep_empty=True,
    )
    s["out"][2] = True
    s["eliminated_order"] = [2]
    s, _ = play(s, 0, {"type": "draw"})
    assert ENGINE.is_terminal(s)
    assert ENGINE.returns(s) == [0.0, 0.0, -1.0]
    assert ENGINE.result(s)["winners"] == [0, 1]


def test_a_survivor_still_holding_a_spirit_prevents_the_rare_outcome():
    s = rig(
        new(2),
        hands={0: ["mirror_pond"], 1: ["cinder_fox"]},
        encounter_top=["lost_in_the_bamboo"],
        prep_empty=True,
    )
    s, _ = play(s, 0, {"type": "draw"})
    assert s["phase"] == "turn" and s["turn"] == 1


def test_timeout_in_the_vote_chooses_the_mini_war():
    s, _ = stalled()
    assert ENGINE.timeout_action(s, 0) == {"type": "vote", "choice": "mini_war"}
