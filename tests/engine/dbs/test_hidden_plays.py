"""A card shown from the hand and then put face down does not give itself away.

The opening retrieval is shown to both players (rulebook: the card taken from the deck is
revealed, dream-battle-of-spellcard-rules.en.md), and a card put into Extra SP or set as a Trap
goes face down (the Set phase). If the shown card left the list of cards the other player knows
her to hold the moment it went face down, everyone would know which card lies face down. A
seat's knowledge of another's cards may only shrink by what is public: the shown card stays
listed ("in her hand or face down") until it is seen again, so putting it face down looks the
same, byte for byte, as putting down a card nobody has seen.
"""

from __future__ import annotations

from minigames.engines.dbs import ENGINE
from minigames.engines.dbs.rules import pay
from tests.engine.conformance import canonical
from tests.engine.dbs.helpers import act, give, number_of, opened
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


def at_set(retrieve: str) -> dict:
    """Seat 0 retrieved ``retrieve`` (shown to both) and stands in her Set phase."""
    state = opened(retrieve=(retrieve, None))
    state, _ = act(state, 0, "skip_change")
    assert state["phase"] == "set"
    return state


def shown_to_others(state, seat=1):
    return [card["id"] for card in ENGINE.view(state, seat)["players"][0]["hand"]]


def test_a_shown_card_put_into_extra_sp_looks_like_any_other():
    state = at_set("DBS-301")
    known = state["players"][0]["known"][0]
    other = next(i for i in state["players"][0]["hand"] if i != known)
    assert shown_to_others(state) == [known]
    a = ENGINE.apply(state, 0, {"type": "extra_sp", "card": known})
    b = ENGINE.apply(state, 0, {"type": "extra_sp", "card": other})
    for seat in (1, None):
        assert seen(*a, seat) == seen(*b, seat)
    # still listed as one of her cards, and its id is no secret: where it lies is
    assert shown_to_others(a[0]) == [known]
    assert known not in ENGINE.hidden_from(a[0], 1)
    assert ENGINE.view(a[0], 0)["players"][0]["extra_sp"][0]["id"] == known


def test_a_shown_trap_set_face_down_looks_like_another_trap():
    state = at_set("DBS-301")
    known = state["players"][0]["known"][0]
    assert number_of(state, known) == "DBS-301"
    other = give(state, 0, "DBS-302")
    a = ENGINE.apply(state, 0, {"type": "set_trap", "card": known})
    b = ENGINE.apply(state, 0, {"type": "set_trap", "card": other})
    for seat in (1, None):
        assert seen(*a, seat) == seen(*b, seat)
    assert shown_to_others(a[0]) == [known]


def test_the_shown_card_leaves_the_list_once_it_is_seen_again():
    """Paid as Extra SP, the card goes to the grave face up: then it is no longer hers."""
    state = at_set("DBS-301")
    known = state["players"][0]["known"][0]
    state, _ = ENGINE.apply(state, 0, {"type": "extra_sp", "card": known})
    me = state["players"][0]
    me["beads"] = ["empty"] * len(me["beads"])  # only the Extra SP card can pay
    pay(state, 0, 1, [])
    assert known in me["grave"] and shown_to_others(state) == []


def test_the_public_face_of_a_face_down_play_names_no_card():
    state = at_set("DBS-301")
    known = state["players"][0]["known"][0]
    assert ENGINE.public_action(state, 0, {"type": "extra_sp", "card": known}) == {
        "type": "extra_sp"
    }
    assert ENGINE.public_action(state, 0, {"type": "set_trap", "card": known}) == {
        "type": "set_trap"
    }


def test_determinize_deals_a_shown_card_into_her_hand_or_extra_sp():
    state = at_set("DBS-301")
    known = state["players"][0]["known"][0]
    state, _ = ENGINE.apply(state, 0, {"type": "extra_sp", "card": known})
    places = set()
    for seed in range(30):
        world = ENGINE.determinize(state, 1, seed)
        assert canonical(ENGINE.view(world, 1)) == canonical(ENGINE.view(state, 1))
        foe = world["players"][0]
        places.add("extra_sp" if known in foe["extra_sp"] else "hand")
        assert known in foe["hand"] or known in foe["extra_sp"]
    assert places == {"hand", "extra_sp"}
