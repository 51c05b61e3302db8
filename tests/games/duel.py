"""Secret Duel: a two-seat hidden-hand card game of a few lines, used only in tests.

Why it exists: it proves a second game plugs into the table core and the bots with no copy of
their code (issue "One game-table core"). It has everything the real games have that the core
must get right, and nothing else: hidden hands, a hidden deck order, a simultaneous face-down
choice (both seats are waited on at once), events private to one seat, and a seeded shuffle.

Rules: the nine cards 1..9 are shuffled; each seat is dealt three. In each of three rounds both
seats choose a card face down; both are revealed together and the higher card wins the round.
Whoever wins more rounds wins the game; equal rounds is a draw.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from westernroses.action_shapes import ActionShape, Int, shapes
from westernroses.protocol import HouseRule, IllegalAction, Json, Seat, event
from westernroses.rng import RandomSource

CARDS = tuple(range(1, 10))
#: A move plays one card by its value.
ACTIONS = shapes(ActionShape("play", {"card": Int(min(CARDS), max(CARDS))}))


def card_id(value: int) -> str:
    return f"duel-card-{value}"


class DuelEngine:
    slug = "duel"
    title = "Secret Duel"
    min_seats = 2
    max_seats = 2

    def house_rules(self) -> Sequence[HouseRule]:
        return (HouseRule("rounds", "Rounds to play", 3, "Cards dealt to each seat.", 1, 4),)

    def action_shapes(self) -> Mapping[str, ActionShape]:
        return ACTIONS

    def new_game(
        self,
        *,
        seats: int,
        seed: int,
        options: Mapping[str, Any] | None = None,
        config: Mapping[str, Any] | None = None,
    ) -> Json:
        if seats != 2:
            raise ValueError("Secret Duel is for two players.")
        rounds = int((options or {}).get("rounds", 3))
        rng = RandomSource(seed)
        deck = list(CARDS)
        rng.shuffle(deck)
        hands = [sorted(deck[:rounds]), sorted(deck[rounds : 2 * rounds])]
        return {
            "rng": rng.to_dict(),
            "deck": deck[2 * rounds :],
            "hands": hands,
            "chosen": [None, None],
            "won": [0, 0],
            "played": [],
            "round": 1,
            "rounds": rounds,
        }

    def is_terminal(self, state: Json) -> bool:
        return state["round"] > state["rounds"]

    def waiting_on(self, state: Json) -> tuple[Seat, ...]:
        if self.is_terminal(state):
            return ()
        return tuple(seat for seat in (0, 1) if state["chosen"][seat] is None)

    def legal_actions(self, state: Json, seat: Seat) -> list[Json]:
        if seat not in self.waiting_on(state):
            return []
        return [{"type": "play", "card": value} for value in state["hands"][int(seat)]]

    def apply(self, state: Json, seat: Seat, action: Mapping[str, Any]) -> tuple[Json, list[Json]]:
        if dict(action) not in self.legal_actions(state, seat):
            raise IllegalAction("You cannot play that card now.")
        new = copy.deepcopy(state)
        s = int(seat)
        new["hands"][s].remove(action["card"])
        new["chosen"][s] = action["card"]
        events = [
            event(f"You lay the {action['card']} face down.", type="chosen", visible_to=[s]),
            event(f"Player {s + 1} lays a card face down.", type="chosen_public"),
        ]
        if None not in new["chosen"]:
            a, b = new["chosen"]
            winner = 0 if a > b else 1
            new["won"][winner] += 1
            new["played"].append([a, b])
            new["chosen"] = [None, None]
            new["round"] += 1
            events.append(
                event(
                    f"Revealed: {a} against {b}. Player {winner + 1} wins the round.",
                    type="reveal",
                )
            )
        return new, events

    def view(self, state: Json, seat: Seat | None) -> Json:
        return {
            "round": state["round"],
            "rounds": state["rounds"],
            "won": list(state["won"]),
            "played": [list(p) for p in state["played"]],
            "hand": None if seat is None else list(state["hands"][int(seat)]),
            "hand_counts": [len(h) for h in state["hands"]],
            "chosen": [
                (c if c is not None and seat == i else (c is not None))
                for i, c in enumerate(state["chosen"])
            ],
            "deck_count": len(state["deck"]),
            "waiting_on": list(self.waiting_on(state)),
        }

    def hidden_from(self, state: Json, seat: Seat | None) -> set[str]:
        hidden = {card_id(v) for v in state["deck"]}
        for i in (0, 1):
            if seat != i:
                hidden |= {card_id(v) for v in state["hands"][i]}
                if state["chosen"][i] is not None:
                    hidden.add(card_id(state["chosen"][i]))
        return hidden

    def determinize(self, state: Json, seat: Seat, seed: int) -> Json:
        new = copy.deepcopy(state)
        other = 1 - int(seat)
        rng = RandomSource(seed)
        unseen = list(new["deck"]) + list(new["hands"][other])
        if new["chosen"][other] is not None:
            unseen.append(new["chosen"][other])
        rng.shuffle(unseen)
        size = len(new["hands"][other])
        new["hands"][other] = sorted(unseen[:size])
        rest = unseen[size:]
        if new["chosen"][other] is not None:
            new["chosen"][other] = rest.pop()
        new["deck"] = rest
        new["rng"] = rng.to_dict()
        return new

    def returns(self, state: Json) -> list[float]:
        if not self.is_terminal(state):
            return [0.0, 0.0]
        a, b = state["won"]
        return [1.0, -1.0] if a > b else [-1.0, 1.0] if b > a else [0.0, 0.0]

    def result(self, state: Json) -> Json:
        a, b = state["won"]
        winners = [0] if a > b else [1] if b > a else []
        return {"winners": winners, "scores": [a, b], "text": f"Rounds won: {a} to {b}."}

    def summary(self, state: Json) -> str:
        if self.is_terminal(state):
            return self.result(state)["text"]
        return f"Round {state['round']} of {state['rounds']}."

    def timeout_action(self, state: Json, seat: Seat) -> Json | None:
        actions = self.legal_actions(state, seat)
        return actions[0] if actions else None

    def describe_action(self, state: Json, seat: Seat, action: Mapping[str, Any]) -> str:
        return f"Play the {action['card']}"

    def public_action(self, state: Json, seat: Seat, action: Mapping[str, Any]) -> Json:
        """A card laid face down shows only that it was laid, until the other's reveals both."""
        other = state["chosen"][1 - int(seat)]
        return dict(action) if other is not None else {"type": action["type"]}

    def to_json(self, state: Json) -> Json:
        return copy.deepcopy(state)

    def from_json(self, data: Mapping[str, Any]) -> Json:
        return copy.deepcopy(dict(data))


ENGINE = DuelEngine()
