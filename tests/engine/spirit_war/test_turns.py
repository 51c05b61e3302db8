"""A turn, and every Fortune and Disaster step of the bundled cards.

Rules: ../shared/rules/spirit-war-standard-rules.txt, "Your turn" and "Introduction to the
Spirit War decks" (the Abyss, History and its reshuffle, the Preparation deck never
replenished). The Fortune and Disaster effects are our own (docs/games/spirit-war.md).
"""

from __future__ import annotations

from minigames.engines.spirit_war import ENGINE
from tests.engine.spirit_war.helpers import card_in_hand, ids_of, new, play, rig, texts


def test_a_turn_draws_one_preparation_card_unseen_and_one_encounter_card_revealed():
    """ "Draw 1 Preparation card without revealing it ... Draw 1 Encounter card, reveal it and
    follow its instructions ... the next player in a clockwise direction will take their turn"."""
    s = rig(new(3), prep_top=["mirror_pond"], encounter_top=["lost_in_the_bamboo"])
    pond = s["prep_deck"][0]
    bamboo = s["encounter_deck"][0]
    s, events = play(s, 0, {"type": "draw"})
    assert pond in s["hands"][0] and len(s["hands"][0]) == 6
    assert "Mirror Pond" in texts(events, 0)
    assert "Mirror Pond" not in texts(events, 1) and "Mirror Pond" not in texts(events, None)
    assert "Player 1 draws a Preparation card." in texts(events, 1)
    assert "Lost in the Bamboo" in texts(events, None)
    assert s["history"] == [bamboo]  # resolved Encounter cards go to History
    assert s["turn"] == 1 and ENGINE.waiting_on(s) == (1,)


def test_festival_offerings_draws_two_more():
    s = rig(new(2), encounter_top=["festival_offerings"])
    s, _ = play(s, 0, {"type": "draw"})
    assert len(s["hands"][0]) == 5 + 1 + 2


def test_wind_at_your_back_draws_and_resolves_another_encounter():
    s = rig(new(2), encounter_top=["wind_at_your_back", "lost_in_the_bamboo"])
    s, events = play(s, 0, {"type": "draw"})
    assert len(s["hands"][0]) == 5 + 1 + 1
    assert len(s["history"]) == 2 and s["skip_next"][0] is True
    assert "will miss the next turn" in texts(events)


def test_rummaging_the_abyss_takes_back_the_latest_spell_in_the_open():
    s = rig(
        new(2),
        hands={0: ["cinder_fox"], 1: ["mist_carp"]},
        encounter_top=["rummaging_the_abyss"],
    )
    older = ids_of(s, "kindling_charm")[0]
    latest = ids_of(s, "mirror_pond")[0]
    for cid in (older, latest):
        s["prep_deck"].remove(cid)
        s["abyss"].append(cid)
    s, events = play(s, 0, {"type": "draw"})
    assert latest in s["hands"][0] and latest in s["known"]
    assert s["abyss"] == [older]
    assert "takes Mirror Pond (a Spell card) back from the Abyss" in texts(events)


def test_rumours_spread_every_other_player_discards_at_random():
    s = rig(new(3), encounter_top=["rumours_spread"])
    s, events = play(s, 0, {"type": "draw"})
    assert [len(h) for h in s["hands"]] == [6, 4, 4]
    assert len(s["abyss"]) == 2
    assert texts(events).count("at random to the Abyss") == 2


def test_mischievous_fairy_discards_one_of_yours_at_random():
    s = rig(new(2), encounter_top=["mischievous_fairy"])
    s, _ = play(s, 0, {"type": "draw"})
    assert len(s["hands"][0]) == 5 and len(s["abyss"]) == 1


def test_sudden_downpour_you_choose_the_card_to_discard():
    s = rig(new(2), encounter_top=["sudden_downpour"])
    s, _ = play(s, 0, {"type": "draw"})
    assert s["phase"] == "discard" and ENGINE.waiting_on(s) == (0,)
    actions = ENGINE.legal_actions(s, 0)
    assert actions == [{"type": "discard", "card": c} for c in s["hands"][0]]
    chosen = s["hands"][0][2]
    s, events = play(s, 0, {"type": "discard", "card": chosen})
    assert s["abyss"] == [chosen] and s["turn"] == 1
    assert "discards" in texts(events, None)


def test_landslide_discards_two_but_never_more_than_the_hand():
    s = rig(new(2), hands={0: ["cinder_fox"]}, encounter_top=["landslide"], prep_empty=True)
    s, _ = play(s, 0, {"type": "draw"})
    assert s["discard"] == {"seat": 0, "left": 1}
    s, _ = play(s, 0, {"type": "discard", "card": s["hands"][0][0]})
    assert s["hands"][0] == [] and s["phase"] == "turn"


def test_lost_in_the_bamboo_misses_the_next_turn():
    s = rig(
        new(3), encounter_top=["lost_in_the_bamboo", "festival_offerings", "festival_offerings"]
    )
    s, _ = play(s, 0, {"type": "draw"})
    s, _ = play(s, 1, {"type": "draw"})
    s, events = play(s, 2, {"type": "draw"})
    assert "Player 1 misses this turn." in texts(events)
    assert s["turn"] == 1 and s["skip_next"] == [False, False, False]


def test_ambush_at_dusk_the_previous_player_attacks_you():
    s = rig(
        new(3),
        hands={0: ["cinder_fox"], 2: ["mist_carp"]},
        encounter_top=["ambush_at_dusk"],
    )
    s, events = play(s, 0, {"type": "draw"})
    assert "Player 3 must attack Player 1." in texts(events)
    assert ENGINE.waiting_on(s) == (2,)
    assert ENGINE.legal_actions(s, 2) == [{"type": "attack", "target": 0}]
    s, _ = play(s, 2, {"type": "attack", "target": 0})
    s, _ = play(s, 2, {"type": "summon", "card": card_in_hand(s, 2, "mist_carp")})
    s, _ = play(s, 0, {"type": "summon", "card": card_in_hand(s, 0, "cinder_fox")})
    s, _ = play(s, 0, {"type": "pass_support"})
    s, _ = play(s, 2, {"type": "pass_support"})
    # Water beat Fire: the ambusher keeps her Spirit; then the turn passes on from seat 0.
    assert any(s["cards"][c] == "mist_carp" for c in s["hands"][2])
    assert s["turn"] == 1 and s["phase"] == "turn"


def test_history_is_shuffled_into_a_new_encounter_deck_when_exhausted():
    """ "Shuffle History and replenish when the Encounter deck has been exhausted"."""
    s = new(2)
    s["history"], s["encounter_deck"] = s["encounter_deck"], []
    s, events = play(s, 0, {"type": "draw"})
    assert "History (32 cards) is shuffled into a new Encounter deck" in texts(events)
    assert len(s["encounter_deck"]) + len(s["history"]) + len(s["encounter"]) == 32


def test_an_exhausted_preparation_deck_is_never_replenished():
    """ "The Preparation Deck will not be replenished; when exhausted, the action of drawing
    Preparation cards will cease entirely"."""
    s = rig(new(2), encounter_top=["festival_offerings"], prep_empty=True)
    s, events = play(s, 0, {"type": "draw"})
    assert len(s["hands"][0]) == 5 and s["prep_deck"] == []
    assert "The Preparation deck is exhausted" in texts(events)
