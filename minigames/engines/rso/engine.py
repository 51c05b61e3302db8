"""Rumbling Spell Orchestra as a :class:`westernroses.protocol.GameEngine`.

This module only wraps the rules (``setup``, ``phases``, ``battle``, ``abilities``) in the
protocol: it copies the state before every action so a refused action leaves the input as it
was, and it turns actions into words for buttons and the move log.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from minigames.engines.rso import phases, player_view
from minigames.engines.rso.cards import upgrade_card
from minigames.engines.rso.house_rules import HOUSE_RULES, resolve_options
from minigames.engines.rso.setup import new_state
from minigames.engines.rso.shapes import ACTIONS
from minigames.engines.rso.state import (
    State,
    card_of,
    clone,
    leader_stats,
    named,
    player_name,
    reason_words,
)
from minigames.engines.rso.words import cost_phrase
from westernroses.action_shapes import ActionShape
from westernroses.json_copy import json_copy
from westernroses.listed_moves import ListedMoves
from westernroses.protocol import Action, Event, HouseRule, IllegalAction, Json, Seat, Text
from westernroses.undo_policy import nothing_drawn_or_revealed
from westernroses.words import N_, Words, listing, said


class RsoEngine:
    slug = "rso"
    title = "Rumbling Spell Orchestra"
    #: View keys that are reference text for the page (each visible card in words), not game
    #: state: the bots' information states leave them out (minigames/bots/adapter.py).
    reference_view_keys = ("cards",)
    min_seats = 2
    max_seats = 2

    def __init__(self) -> None:
        self._listed = ListedMoves()

    def house_rules(self) -> Sequence[HouseRule]:
        return HOUSE_RULES

    def action_shapes(self) -> Mapping[str, ActionShape]:
        return ACTIONS

    def new_game(
        self,
        *,
        seats: int,
        seed: int,
        options: Mapping[str, Any] | None = None,
        config: Mapping[str, Any] | None = None,
    ) -> State:
        if seats != 2:
            raise ValueError("Rumbling Spell Orchestra is played by exactly two players.")
        state, _ = new_state(seed, resolve_options(options), config or {})
        return state

    def waiting_on(self, state: State) -> tuple[Seat, ...]:
        return phases.waiting_on(state)

    def legal_actions(self, state: State, seat: Seat) -> list[Action]:
        if seat not in (0, 1):
            return []
        actions = phases.legal_actions(state, int(seat))
        self._listed.remember(state, seat, actions)
        return actions

    def apply(
        self, state: State, seat: Seat, action: Mapping[str, Any]
    ) -> tuple[State, list[Event]]:
        if seat not in (0, 1):
            raise IllegalAction(Words(N_("That seat is not at this table.")))
        if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
            raise IllegalAction(Words(N_("A move needs a type.")))
        listed = self._listed.listed(state, seat, action)
        new = clone(state)
        events = phases.apply_action(new, int(seat), action, listed=listed)
        return new, events

    def view(self, state: State, seat: Seat | None) -> Json:
        return player_view.view(state, None if seat is None else int(seat))

    def hidden_from(self, state: State, seat: Seat | None) -> set[str]:
        return player_view.hidden_from(state, None if seat is None else int(seat))

    def determinize(self, state: State, seat: Seat, seed: int) -> State:
        return player_view.determinize(state, int(seat), seed)

    def is_terminal(self, state: State) -> bool:
        return bool(state["phase"] == "over")

    def returns(self, state: State) -> list[float]:
        if state["phase"] != "over" or state["winner"] is None:
            return [0.0, 0.0]
        return [1.0 if s == state["winner"] else -1.0 for s in (0, 1)]

    def result(self, state: State) -> Json:
        winner = state["winner"]
        reason = reason_words(state) or Words(N_("The game is still running."))
        return {
            # ``text`` with its words reads in the reader's language; ``reason`` is the English
            **said(reason),
            "winners": [] if winner is None else [winner],
            "reason": str(reason),
            "scores": [
                {"seat": s, "name": player_name(state, s), "hp": p["hp"], "deck": len(p["deck"])}
                for s, p in enumerate(state["players"])
            ],
        }

    def summary(self, state: State) -> Text:
        if state["phase"] == "over":
            return reason_words(state) or Words(N_("The game is over."))
        phase = Words(phases.PHASE_NAMES[state["phase"]])
        if state["phase"] in ("leader", "mulligan"):
            return Words(N_("Setting up: %(phase)s."), {"phase": phase})
        seat = int(state["attacker"])
        # the seat to move, when it is not the attacker's (an interception, a window): a list
        # or a page that only said "Marisa attacks" left the other player unsure it was hers
        answer = [s for s in phases.waiting_on(state) if s != seat]
        params = {"turn": state["turn"], "phase": phase, "name": player_name(state, seat)}
        if answer:
            return Words(
                N_("Turn %(turn)s, %(phase)s: %(name)s attacks; %(other)s to answer."),
                {**params, "other": player_name(state, answer[0])},
            )
        return Words(N_("Turn %(turn)s, %(phase)s: %(name)s attacks."), params)

    def is_undoable(
        self, before: State, seat: Seat, action: Mapping[str, Any], after: State, events: list[Any]
    ) -> bool:
        """Board Game Arena's undo policy (``westernroses.undo_policy``): a move that drew
        nothing at random and revealed nothing hidden may be taken back."""
        return nothing_drawn_or_revealed(self, before, after, events)

    def timeout_action(self, state: State, seat: Seat) -> Action | None:
        actions = self.legal_actions(state, seat)
        if not actions:
            return None
        for preferred in ("keep", "pass", "no_intercept", "no_attack", "done", "take_hit"):
            for action in actions:
                if action["type"] == preferred:
                    return action
        return actions[-1] if state["step"] == "discard" else actions[0]

    def describe_action(self, state: State, seat: Seat, action: Mapping[str, Any]) -> Text:
        return describe(state, int(seat), action)

    def public_action(self, state: State, seat: Seat, action: Mapping[str, Any]) -> Json:
        """What the other player learns: a Leader choice shows only that it was made until
        both have chosen (then both are revealed); every other move is made in the open."""
        if action.get("type") == "choose_leader":
            other = state["players"][1 - int(seat)]
            if other["pending_leader"] is None:
                return {"type": "choose_leader"}
        return dict(action)

    def to_json(self, state: State) -> Json:
        data: Json = json_copy(state)
        return data

    def from_json(self, data: Mapping[str, Any]) -> State:
        state: State = json_copy(dict(data))
        if state.get("version") != 1 or "players" not in state:
            raise ValueError("This is not a saved Rumbling Spell Orchestra game.")
        cards = state.get("cards")
        if isinstance(cards, dict) and any("kind" not in c for c in cards.values()):
            # a game saved before the two card games shared one card shape
            state["cards"] = {n: upgrade_card(c) for n, c in cards.items()}
        return state


def _name(state: State, inst: object) -> Words:
    """A card instance's name as its own words ("a card" for a move naming none)."""
    if isinstance(inst, str) and inst in state["inst"]:
        return named(state, inst)
    return Words(N_("a card"))


def _extra(state: State, action: Mapping[str, Any]) -> Words | str:
    """What follows a move's card in its words: its target, its Awakening, what it discards
    and what it sends to the discard pile, each a phrase of its own."""
    extra: Words | str = ""
    target = action.get("target")
    if target is not None:
        extra = Words(
            N_("%(before)s on %(target)s"), {"before": extra, "target": _name(state, target)}
        )
    if action.get("awaken"):
        extra = Words(N_("%(before)s with its Awakening"), {"before": extra})
    discard, sacrifice = action.get("discard"), action.get("sacrifice")
    if discard and isinstance(discard, list):
        cards = listing([_name(state, c) for c in discard], last="comma")
        extra = Words(N_("%(before)s, discarding %(cards)s"), {"before": extra, "cards": cards})
    if sacrifice and isinstance(sacrifice, list):
        cards = listing([_name(state, c) for c in sacrifice], last="comma")
        extra = Words(
            N_("%(before)s, sending %(cards)s to the discard pile"),
            {"before": extra, "cards": cards},
        )
    return extra


#: Moves whose words name nothing but the move.
BARE_WORDS: Final = {
    "keep": N_("Keep this hand"),
    "mulligan": N_("Mulligan: show the hand, shuffle it back and draw six new cards"),
    "pass": N_("Pass"),
    "no_attack": N_("Do not attack this turn"),
    "no_intercept": N_("Do not intercept"),
    "take_hit": N_("Do not pay the Border Value: take the hit"),
    "done": N_("End the Preparation phase"),
}


def describe(state: State, seat: int, action: Mapping[str, Any]) -> Words:
    """An action in words, for buttons and the move log."""
    kind = action.get("type")
    card = _name(state, action.get("card") or action.get("spell"))
    extra = _extra(state, action)
    if kind in BARE_WORDS:
        return Words(BARE_WORDS[str(kind)])
    if kind == "choose_leader":
        return Words(N_("Choose %(card)s as Leader"), {"card": card})
    if kind == "play_event":
        price = _price(state, action.get("card"))
        if price is None:
            return Words(N_("Play %(card)s%(extra)s"), {"card": card, "extra": extra})
        return Words(
            N_("Play %(card)s (%(cost)s SP)%(extra)s"),
            {"card": card, "cost": price, "extra": extra},
        )
    if kind == "use_special":
        inst = action.get("card")
        cost_text: Words | str = ""
        if isinstance(inst, str) and inst in state["inst"]:
            abilities = card_of(state, inst).get("abilities") or []
            index = action.get("ability")
            if isinstance(index, int) and 0 <= index < len(abilities):
                cost_text = cost_phrase(abilities[index].get("cost"))
        if not cost_text:
            return Words(N_("Use the Special of %(card)s%(extra)s"), {"card": card, "extra": extra})
        return Words(
            N_("Use the Special of %(card)s (%(cost)s)%(extra)s"),
            {"card": card, "cost": cost_text, "extra": extra},
        )
    if kind == "attack":
        return Words(N_("Attack with %(card)s%(extra)s"), {"card": card, "extra": extra})
    if kind == "intercept":
        return Words(N_("Intercept with %(card)s%(extra)s"), {"card": card, "extra": extra})
    if kind == "pay_border":
        return Words(
            N_("Pay %(bv)s SP for the Border Value and escape"),
            {"bv": leader_stats(state, seat)["bv"]},
        )
    if kind == "reserve":
        return Words(N_("Put %(card)s into the Reserve"), {"card": card})
    if kind == "activate":
        price = _price(state, action.get("spell"))
        if price is None:
            return Words(N_("Activate %(card)s%(extra)s"), {"card": card, "extra": extra})
        return Words(
            N_("Activate %(card)s for %(cost)s SP%(extra)s"),
            {"card": card, "cost": price, "extra": extra},
        )
    if kind == "equip":
        if action.get("target") is None:
            return Words(
                N_("Equip %(card)s on the Boundary%(extra)s"), {"card": card, "extra": extra}
            )
        return Words(N_("Equip %(card)s%(extra)s"), {"card": card, "extra": extra})
    if kind == "discard":
        return Words(N_("Discard %(card)s"), {"card": card})
    return Words(N_("An unknown move"))


ENGINE: Final = RsoEngine()


def _price(state: State, inst: Any) -> int | None:
    """The SP cost of the card instance ``inst`` names, or None: a malformed move may name no
    instance, or one without a cost (a leader)."""
    if not isinstance(inst, str) or inst not in state["inst"]:
        return None
    price = card_of(state, inst).get("cost")
    return price if isinstance(price, int) else None
