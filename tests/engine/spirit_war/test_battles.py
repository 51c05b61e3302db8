"""Attacks and battles, through the engine.

Rules: ../shared/rules/spirit-war-standard-rules.txt, "Attack Encounter", "Getting attacked",
"Your turn" (the last bullet) and "Winning the Spirit War"; RULINGS.md "Spirit War" 2 (face-down
choices revealed together).
"""

from __future__ import annotations

import pytest

from minigames.engines.spirit_war import ENGINE
from minigames.engines.spirit_war.battles import attack_candidates
from tests.engine.spirit_war.helpers import (
    battle_at_support,
    card_in_hand,
    new,
    play,
    rig,
    texts,
)
from westernroses.protocol import IllegalAction


def four_seats(hand_sizes):
    s = new(4)
    for seat, size in enumerate(hand_sizes):
        while len(s["hands"][seat]) > size:
            s["prep_deck"].append(s["hands"][seat].pop())
    return s


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("next", [1]),
        ("previous", [3]),
        ("any", [1, 2, 3]),
        ("most_cards", [2, 3]),
        ("fewest_cards", [1]),
    ],
)
def test_attack_targets(target, expected):
    """ "Target the player indicated by the Attack card ... where more than 1 player can be
    targeted, you may choose" (our Attack cards' targets, docs/games/spirit-war.md)."""
    s = four_seats([5, 2, 4, 4])
    assert attack_candidates(s, 0, target) == expected


def test_eliminated_players_are_never_targeted():
    s = four_seats([5, 2, 4, 4])
    s["out"][1] = True
    assert attack_candidates(s, 0, "next") == [2]
    assert attack_candidates(s, 2, "previous") == [0]
    assert attack_candidates(s, 0, "fewest_cards") == [2, 3]


def test_a_choice_of_target_is_the_attackers():
    s = rig(new(4), encounter_top=["open_duel"])
    s, _ = play(s, 0, {"type": "draw"})
    assert ENGINE.waiting_on(s) == (0,)
    assert ENGINE.legal_actions(s, 0) == [{"type": "attack", "target": t} for t in (1, 2, 3)]
    s, events = play(s, 0, {"type": "attack", "target": 2})
    assert s["battle"]["sides"] == [0, 2]
    assert "Player 1 attacks Player 3" in texts(events)


def no_spirit_attacker(**options):
    """Seat 0 draws an Attack holding two Spells and draws a third: no Spirit to summon."""
    s = rig(
        new(2, **options),
        hands={0: ["mirror_pond", "paper_doll_ward"]},
        prep_top=["unmaking_lantern"],
        encounter_top=["challenge_down_the_road"],
    )
    s, _ = play(s, 0, {"type": "draw"})
    return s


def test_no_spirit_to_summon_skips_the_attack_without_showing_the_hand():
    """ "Skip the Attack Encounter if you do not have a Spirit card to summon": the rulebook asks
    for no proof, so by default the others learn only that she skipped; her hand stays hidden
    (no card of it in any other seat's view, in the log, or among the known cards)."""
    s = no_spirit_attacker()
    assert ENGINE.legal_actions(s, 0) == [{"type": "skip_attack"}]
    with pytest.raises(IllegalAction, match="no Spirit to summon, so you cannot attack"):
        play(s, 0, {"type": "attack", "target": 1})
    hand = list(s["hands"][0])
    s, events = play(s, 0, {"type": "skip_attack"})
    assert s["known"] == []
    public = texts(events, None)
    assert "Player 1 has no Spirit to summon: the attack is skipped." in public
    for word in ("Mirror Pond", "Paper Doll Ward", "Unmaking Lantern", "shows"):
        assert word not in public
    for seat in (1, None):
        assert ENGINE.view(s, seat)["players"][0]["shown_cards"] == []
        assert set(hand) <= ENGINE.hidden_from(s, seat)
    assert s["turn"] == 1


def test_house_rule_the_attacker_shows_her_hand_as_proof():
    """The "show the hand" house rule: she shows it, and it stays known while she holds it."""
    s = no_spirit_attacker(skip_proof="show_hand")
    s, events = play(s, 0, {"type": "skip_attack"})
    assert set(s["hands"][0]) <= set(s["known"])
    assert "shows her hand as proof (" in texts(events, None)
    assert "Unmaking Lantern (a Spell card)" in texts(events, None)
    assert len(ENGINE.view(s, 1)["players"][0]["shown_cards"]) == 3


def test_holding_a_spirit_you_must_attack():
    s = rig(new(2), hands={0: ["cinder_fox"]}, encounter_top=["challenge_down_the_road"])
    s, _ = play(s, 0, {"type": "draw"})
    with pytest.raises(IllegalAction, match="you must summon"):
        play(s, 0, {"type": "skip_attack"})


def test_both_summon_face_down_and_reveal_together():
    """ "you and your opponent shall summon 1 Spirit card face down. When ready, reveal both"
    (RULINGS Spirit War 2: neither sees the other's before revealing her own)."""
    s = rig(
        new(2),
        hands={0: ["cinder_fox", "mist_carp"], 1: ["moss_tortoise", "rain_frog"]},
        encounter_top=["challenge_down_the_road"],
    )
    s, _ = play(s, 0, {"type": "draw"})
    s, _ = play(s, 0, {"type": "attack", "target": 1})
    assert ENGINE.waiting_on(s) == (0, 1)
    fox = card_in_hand(s, 0, "cinder_fox")
    s, events = play(s, 0, {"type": "summon", "card": fox})
    assert ENGINE.waiting_on(s) == (1,)
    assert ENGINE.view(s, 1)["battle"]["summons"][0] == {"face_down": True}
    assert ENGINE.view(s, 0)["battle"]["summons"][0]["id"] == fox
    assert fox not in str(ENGINE.view(s, 1)) and fox not in texts(events, 1)
    s, events = play(s, 1, {"type": "summon", "card": card_in_hand(s, 1, "moss_tortoise")})
    assert s["battle"]["revealed"] and s["phase"] == "support"
    assert ENGINE.view(s, None)["battle"]["summons"][0]["name"] == "Cinder Fox"
    assert "The Spirits are revealed" in texts(events, None)


def test_only_spirits_can_be_summoned():
    s = rig(
        new(2),
        hands={0: ["cinder_fox", "mirror_pond"]},
        encounter_top=["challenge_down_the_road"],
    )
    s, _ = play(s, 0, {"type": "draw"})
    s, _ = play(s, 0, {"type": "attack", "target": 1})
    with pytest.raises(IllegalAction, match="Only a Spirit card can be summoned"):
        play(s, 0, {"type": "summon", "card": card_in_hand(s, 0, "mirror_pond")})
    with pytest.raises(IllegalAction, match="not in your hand"):
        play(s, 0, {"type": "summon", "card": s["hands"][1][0]})


def test_by_default_both_sides_decide_together():
    """RULINGS Spirit War 2: Support cards are chosen face down by both sides and revealed
    together, even when one side is losing on the chart (Earth against Fire)."""
    s = battle_at_support(["moss_tortoise"], ["cinder_fox"], "moss_tortoise", "cinder_fox")
    assert ENGINE.waiting_on(s) == (0, 1)


def test_house_rule_the_losing_side_decides_first():
    """ "Typically, the losing side should decide whether to use a Support card first": the
    "loser first" house rule."""
    s = battle_at_support(
        ["moss_tortoise"],
        ["cinder_fox"],
        "moss_tortoise",
        "cinder_fox",
        support_order="loser_first",
    )
    assert ENGINE.waiting_on(s) == (0,)  # Earth loses to Fire: the attacker first
    assert ENGINE.legal_actions(s, 1) == []
    s, _ = play(s, 0, {"type": "pass_support"})
    assert ENGINE.waiting_on(s) == (1,)


def test_after_an_initial_draw_both_decide_together_under_the_house_rule_too():
    """ "In the case of an initial draw, the decision ... shall be decided mutually"."""
    s = battle_at_support(
        ["moss_tortoise"],
        ["clay_golem"],
        "moss_tortoise",
        "clay_golem",
        support_order="loser_first",
    )
    assert ENGINE.waiting_on(s) == (0, 1)


def test_a_face_down_support_stays_hidden_until_both_have_chosen():
    """Under the "loser first" house rule the card is hidden, but not that it was put down."""
    s = battle_at_support(
        ["moss_tortoise", "bedrock_charm"],
        ["cinder_fox"],
        "moss_tortoise",
        "cinder_fox",
        support_order="loser_first",
    )
    charm = card_in_hand(s, 0, "bedrock_charm")
    s, events = play(s, 0, {"type": "support", "card": charm})
    assert ENGINE.view(s, 1)["battle"]["supports"][0] == {"face_down": True}
    assert charm in ENGINE.hidden_from(s, 1) and charm not in texts(events, 1)
    assert "places a Support card face down" in texts(events, 1)


def test_the_winner_keeps_her_spirit_and_draws_the_loser_loses_hers():
    """ "Winner gets to keep their initial summoned Spirit card and draw 1 Preparation card.
    Losers send their Spirit to the Abyss"."""
    s = battle_at_support(["cinder_fox"], ["moss_tortoise"], "cinder_fox", "moss_tortoise")
    fox, tortoise = s["battle"]["summon"]
    deck = len(s["prep_deck"])
    hand = len(s["hands"][0])
    s, _ = play(s, 1, {"type": "pass_support"})
    s, events = play(s, 0, {"type": "pass_support"})
    assert fox in s["hands"][0] and fox in s["known"]
    assert len(s["hands"][0]) == hand + 2 and len(s["prep_deck"]) == deck - 1
    assert s["abyss"] == [tortoise]
    assert "Player 1 wins the battle and keeps Cinder Fox" in texts(events)
    assert s["phase"] == "turn" and s["turn"] == 1


def test_a_draw_sends_both_spirits_to_the_abyss():
    """ "If the battle is a draw, send all Spirits to the Abyss"; nobody draws."""
    s = battle_at_support(["mist_carp"], ["kappa_scout"], "mist_carp", "kappa_scout")
    a, d = s["battle"]["summon"]
    deck = len(s["prep_deck"])
    s, _ = play(s, 0, {"type": "pass_support"})
    s, _ = play(s, 1, {"type": "pass_support"})
    assert s["abyss"] == [a, d] and len(s["prep_deck"]) == deck


def test_attacking_a_player_without_spirits_wins_at_once_and_she_is_out():
    """ "If you Attack a player with no Spirit cards, you win the battle immediately but you will
    still need to summon a Spirit as proof"; "You are out of the game entirely if a player
    Attacks you and you do not have a Spirit to summon"."""
    s = rig(
        new(3),
        hands={0: ["cinder_fox"], 1: ["mirror_pond"]},
        encounter_top=["challenge_down_the_road"],
    )
    s, _ = play(s, 0, {"type": "draw"})
    s, _ = play(s, 0, {"type": "attack", "target": 1})
    assert ENGINE.legal_actions(s, 1) == [{"type": "no_spirit"}]
    pond = s["hands"][1][0]
    s, _ = play(s, 1, {"type": "no_spirit"})
    fox = card_in_hand(s, 0, "cinder_fox")
    s, events = play(s, 0, {"type": "summon", "card": fox})
    assert s["out"] == [False, True, False]
    assert pond in s["abyss"] and s["hands"][1] == []
    assert fox in s["hands"][0] and fox in s["known"]
    assert len(s["hands"][0]) == 3  # the turn's card, the proof Spirit back, one drawn
    assert "reveals Cinder Fox (a Fire Spirit) as proof" in texts(events)
    assert "Player 2 is out of the Spirit War." in texts(events)
    assert s["turn"] == 2  # the turn passes over the eliminated player
    assert not ENGINE.is_terminal(s)


def test_attacking_the_last_opponent_without_spirits_wins_the_war():
    """ "You win the game if you Attack the last opposing player with no Spirit cards to
    summon"; "Winning the Spirit War": crowned Spirit King."""
    s = rig(
        new(2),
        hands={0: ["cinder_fox"], 1: ["mirror_pond"]},
        encounter_top=["grudge_from_behind"],
    )
    s, _ = play(s, 0, {"type": "draw"})
    s, _ = play(s, 0, {"type": "attack", "target": 1})
    s, _ = play(s, 0, {"type": "summon", "card": card_in_hand(s, 0, "cinder_fox")})
    s, events = play(s, 1, {"type": "no_spirit"})
    assert ENGINE.is_terminal(s) and ENGINE.waiting_on(s) == ()
    assert ENGINE.returns(s) == [1.0, -1.0]
    result = ENGINE.result(s)
    assert result["winners"] == [0] and result["outcome"] == "spirit_king"
    assert [line["text"] for line in result["breakdown"]] == ["Player 2 was out 1st."]
    assert "crowned Spirit King" in texts(events) and "crowned Spirit King" in str(
        ENGINE.summary(s)
    )


def test_refusals_leave_the_state_unchanged():
    s = rig(new(2), encounter_top=["challenge_down_the_road"])
    before = ENGINE.to_json(s)
    for seat, action, words in [
        (1, {"type": "draw"}, "not your turn"),
        (0, {"type": "vote", "choice": "share"}, "does not fit"),
        (0, {"type": "fly"}, "not a Spirit War move"),
        (0, {"type": "draw", "extra": 1}, "not allowed"),
    ]:
        with pytest.raises(IllegalAction, match=words):
            play(s, seat, action)
    assert ENGINE.to_json(s) == before
