"""What each player may see (``view``): no other player's hand or face-down cards, never the
seed while the battle runs; the turn tracker for the app."""

from __future__ import annotations

import json

from tests.engine.battle.helpers import act, battle, fighter, scripted
from westernroses.battle import apply, view
from westernroses.spellcards import AttackPower, CardType, SpellcardDraft

CARD = SpellcardDraft(name="Shot", type=CardType.ATTACK, attack_power=AttackPower(1))
BOMB = SpellcardDraft(name="Boom", type=CardType.ATTACK, bomb=True, attack_power=AttackPower(1))


def two_players():
    a = fighter("a", (0, 0), speed=9, controller="p1", deck=[("shot", CARD, 3)])
    b = fighter("b", (1, 0), side="b", controller="p2", deck=[("boom", BOMB, 2)])
    return battle(a, b)


def _has_key(value, key):
    if isinstance(value, dict):
        return key in value or any(_has_key(v, key) for v in value.values())
    if isinstance(value, list):
        return any(_has_key(v, key) for v in value)
    return False


def test_a_player_sees_her_hand_but_not_anyone_elses_or_any_draw_pile():
    """Pattern: "no other player's hand or face-down info"."""
    state = two_players()
    mine = view(state, "p1")["combatants"]
    assert mine["a"]["hand"] == ["shot"] and "shot" in mine["a"]["cards"]
    assert mine["b"]["hand"] is None and mine["b"]["cards"] == {}
    assert mine["b"]["hand_count"] == 1 and mine["a"]["draw_pile_count"] == 2
    assert "boom" not in json.dumps(view(state, "p1"))
    assert view(state, "gm")["combatants"]["b"]["hand"] == ["boom"]


def test_the_seed_is_never_shown_while_the_battle_runs_nor_after():
    """Pattern: "the RNG seed is never shown to players while the battle runs"; and never after
    its end either (a replay or a log copied later must not carry it)."""
    state = two_players()
    state = act(state, "attack", player="p1", combatant="a", attack="danmaku", target="b")
    for player in ("p1", "p2", "gm"):
        shown = view(state, player)
        assert not _has_key(shown, "seed") and shown["rng"] is None
    state = act(state, "gm_end_battle", winner="a")
    for player in ("p1", "p2", "gm"):
        shown = view(state, player)
        assert not _has_key(shown, "seed") and shown["rng"] is None


def test_draw_events_hide_the_cards_from_others():
    """The log explains itself without leaking hands: others see that a card was drawn."""
    state = two_players()
    draws = [
        e for entry in view(state, "p1")["log"] for e in entry["events"] if e["type"] == "draw"
    ]
    assert [("cards" in e, e["combatant"]) for e in draws] == [(True, "a"), (False, "b")]


def test_a_pending_hit_is_shown_to_all_but_its_options_only_to_the_decider():
    """Bombs: the defender chooses; everyone sees whom the battle waits for."""
    state = two_players()
    with scripted(3, 3, 3, 3, 1, 1, 1, 2):
        state = act(state, "attack", player="p1", combatant="a", attack="danmaku", target="b")
    seen = view(state, "p1")
    assert seen["pending"]["waiting_for"] == ["b"] and seen["you"]["legal_actions"] == []
    assert {o["choice"] for o in view(state, "p2")["you"]["legal_actions"]} == {"take", "bomb"}


def test_the_turn_tracker_reports_round_current_and_start_time():
    """Turn tracker: round counter, who has acted this round, the current combatant and when
    the turn started (the app passes timestamps in actions)."""
    state = two_players()
    state = act(state, "end_turn", player="p1", combatant="a", at="2024-05-01T12:00:00Z")
    turn = view(state, "p1")["turn"]
    assert turn == {
        "round": 1,
        "turn_number": 2,
        "order": ["a", "b"],
        "current": "b",
        "started_at": "2024-05-01T12:00:00Z",
        "acted_this_round": ["a"],
        "current_hidden": False,
    }


def test_the_log_can_be_fetched_incrementally():
    """``since`` returns only the newer log entries (for polling clients)."""
    state = two_players()
    state = act(state, "do_nothing", player="p1", combatant="a")
    assert [e["n"] for e in view(state, "p1", since=1)["log"]] == [2]


SECRET = SpellcardDraft(name="Hidden Moon", type=CardType.ATTACK, attack_power=AttackPower(2))


def _reinforced():
    state = two_players()
    newcomer = fighter("c", (3, 3), side="b", controller="p2", deck=[("moon", SECRET, 3)])
    newcomer.deck = type(newcomer.deck)(("moon", "moon"), ("moon",), ())
    state = act(state, "gm_add_combatant", combatant=newcomer.to_dict())
    return state


def test_a_reinforcement_is_logged_without_her_deck_for_anyone_but_the_gm():
    """Issue 9: a GM's reinforcement used to be logged verbatim, so every player's log showed
    the newcomer's hand, draw pile and card designs. Players see who joined, on which side and
    where; the GM sees the action she made. ("no seat ever receives another's hand,
    face-down tokens, deck order")"""
    state = _reinforced()
    text = json.dumps(view(state, "p1"))  # the other player: nothing of the newcomer's deck
    assert "Hidden Moon" not in text and '"moon"' not in text and '"draw_pile"' not in text
    for player in ("p1", "p2"):  # her own player sees her hand in the view, not in the log
        log = json.dumps(view(state, player)["log"])
        assert '"moon"' not in log and '"draw_pile"' not in log, player
        added = [e for e in view(state, player)["log"] if e["action"]["type"] == "gm_add_combatant"]
        assert added[0]["action"]["combatant"] == {
            "id": "c",
            "name": "C",
            "kind": "npc",
            "side": "b",
            "controller": "p2",
            "owner": added[0]["action"]["combatant"]["owner"],
            "position": [3, 3],
        }
    assert "Hidden Moon" in json.dumps(view(state, "gm")["log"])


def test_undoing_a_reinforcement_does_not_reveal_her_deck_either():
    """The ``undone`` event copies the action it undid: filtered like the action itself."""
    state = act(_reinforced(), "gm_undo")
    for player in ("p1", "p2"):
        assert '"moon"' not in json.dumps(view(state, player)["log"]), player
    undone = [e for x in view(state, "gm")["log"] for e in x["events"] if e["type"] == "undone"]
    assert undone[0]["action"]["combatant"]["cards"]


def _twin(card_id, card):
    """p1's a attacks p2's b, who holds one card; p3's c looks on."""
    a = fighter("a", (0, 0), speed=9, controller="p1", deck=[("shot", CARD, 3)])
    b = fighter("b", (1, 0), side="b", speed=5, controller="p2", deck=[(card_id, card, 1)])
    c = fighter("c", (5, 5), side="b", speed=2, controller="p3")
    return battle(a, b, c)


def _seen(state, player):
    return json.dumps(view(state, player), sort_keys=True)


def test_the_game_pauses_for_a_hit_the_same_way_whether_or_not_she_holds_a_bomb():
    """Issue 9: "Whether the game pauses, and for how long, may depend only on public
    information" (the brief's secrets bar). A bomb "can only be activated when the potential
    caster has been successfully hit" ("Bombs"): every hit by someone else on a defender who
    holds any card and could act waits for her. Two battles alike in everything public, one
    defender holding a bomb and one an ordinary card, look byte for byte the same to the
    other players at every step."""
    twins = [_twin("boom", BOMB), _twin("plain", SECRET)]

    def alike():
        for player in ("p1", "p3"):
            assert _seen(twins[0], player) == _seen(twins[1], player), player

    alike()
    attack = {"type": "attack", "combatant": "a", "attack": "danmaku", "target": "b"}
    for i in range(2):
        with scripted(3, 3, 3, 3, 1, 1, 1, 2):  # 12 damage; her dodge roll of 5 fails
            twins[i], _ = apply(twins[i], {**attack, "player": "p1"})
    alike()
    assert view(twins[1], "p1")["pending"]["waiting_for"] == ["b"]
    assert [o["choice"] for o in view(twins[1], "p2")["you"]["legal_actions"]] == ["take"]
    assert {o["choice"] for o in view(twins[0], "p2")["you"]["legal_actions"]} == {"take", "bomb"}
    for step in (
        {"type": "react", "player": "p2", "combatant": "b", "choice": "take"},
        {"type": "end_turn", "player": "p1", "combatant": "a"},
    ):
        twins = [apply(state, step)[0] for state in twins]
        alike()
    assert twins[1].combatants["b"].hp == 100 - 12


def test_a_guardians_body_shield_window_opens_whether_or_not_she_holds_one():
    """The same for Body-shield ("Used like a bomb, but only when the Guardian's charge would
    have taken damage"): a damaging hit on her charge waits for the Guardian while she could
    act and holds any card, so the pause does not tell the table she holds a Body-shield."""
    from dataclasses import replace

    from westernroses.spellcards import SkillChoice

    shield = SpellcardDraft(
        name="Body-shield",
        type=CardType.SPECIAL,
        bomb=True,
        skills=(SkillChoice.of("body_shield"),),
    )

    def twin(card_id, card):
        a = fighter("a", (0, 0), speed=9, controller="p1")
        b = fighter("b", (1, 0), side="b", speed=5, controller="p2")
        g = fighter("g", (3, 3), side="b", speed=1, controller="p3", deck=[(card_id, card, 1)])
        g.profile = replace(g.profile, charge="b", traits=("guardian",))
        return battle(a, b, g)

    twins = [twin("bs", shield), twin("plain", SECRET)]
    for i in range(2):
        with scripted(3, 3, 3, 3, 1, 1, 1, 2):
            twins[i], _ = apply(
                twins[i],
                {
                    "type": "attack",
                    "player": "p1",
                    "combatant": "a",
                    "attack": "danmaku",
                    "target": "b",
                },
            )
    for player in ("p1", "p2"):
        assert _seen(twins[0], player) == _seen(twins[1], player), player
    assert view(twins[1], "p1")["pending"]["waiting_for"] == ["g"]
    assert [o["choice"] for o in view(twins[1], "p3")["you"]["legal_actions"]] == ["pass"]
    assert [o["choice"] for o in view(twins[0], "p3")["you"]["legal_actions"]] == [
        "pass",
        "body_shield",
    ]
    twins = [
        apply(s, {"type": "react", "player": "p3", "combatant": "g", "choice": "pass"})[0]
        for s in twins
    ]
    for player in ("p1", "p2"):
        assert _seen(twins[0], player) == _seen(twins[1], player), player
