"""Prize Bids: a two-seat hidden-hand bidding game (Goofspiel with dealt hands), test-only.

Why a second test game: Secret Duel (tests/games/duel.py) has no skill against a uniformly
random opponent. Both seats choose face down and each round's pairing of cards is then uniform
whatever order one plays in, so any bot, however clever, wins half its games against the random
bot. The bots' tests need a game where playing well shows: here, spending high cards on high
prizes. It still has everything the tavern games have: hidden hands, a hidden deck order, a
simultaneous face-down choice, private events and a seeded shuffle.

Rules: the twelve cards 1..12 are shuffled and each seat is dealt five (two stay face down,
unseen by anyone). The five prizes 1..5 are shuffled face down. Each round the top prize is
turned up; both seats bid a card face down; both bids are revealed together and the higher bid
takes the prize's points (equal bids: nobody does). After five rounds the seat with more points
wins; equal points is a draw.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from westernroses.action_shapes import ActionShape, Int, shapes
from westernroses.protocol import HouseRule, IllegalAction, Json, Seat, event
from westernroses.rng import RandomSource

CARDS = tuple(range(1, 13))
PRIZES = tuple(range(1, 6))
HAND = 5
#: A move bids one card by its value.
ACTIONS = shapes(ActionShape("bid", {"card": Int(min(CARDS), max(CARDS))}))


def card_id(value: int) -> str:
    return f"bids-card-{value}"


def prize_id(value: int) -> str:
    return f"bids-prize-{value}"


class BidsEngine:
    slug = "bids"
    title = "Prize Bids"
    min_seats = 2
    max_seats = 2
    max_game_length = 2 * len(PRIZES)

    def house_rules(self) -> Sequence[HouseRule]:
        return ()

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
            raise ValueError("Prize Bids is for two players.")
        if options:
            raise ValueError("Prize Bids has no house rules.")
        rng = RandomSource(seed)
        cards = list(CARDS)
        rng.shuffle(cards)
        prizes = list(PRIZES)
        rng.shuffle(prizes)
        return {
            "rng": rng.to_dict(),
            "hands": [sorted(cards[:HAND]), sorted(cards[HAND : 2 * HAND])],
            "undealt": sorted(cards[2 * HAND :]),
            "prizes": prizes[1:],
            "prize": prizes[0],
            "bids": [None, None],
            "points": [0, 0],
            "played": [],
        }

    def is_terminal(self, state: Json) -> bool:
        return state["prize"] is None

    def waiting_on(self, state: Json) -> tuple[Seat, ...]:
        if self.is_terminal(state):
            return ()
        return tuple(seat for seat in (0, 1) if state["bids"][seat] is None)

    def legal_actions(self, state: Json, seat: Seat) -> list[Json]:
        if seat not in self.waiting_on(state):
            return []
        return [{"type": "bid", "card": value} for value in state["hands"][int(seat)]]

    def apply(self, state: Json, seat: Seat, action: Mapping[str, Any]) -> tuple[Json, list[Json]]:
        if dict(action) not in self.legal_actions(state, seat):
            raise IllegalAction("You cannot bid that card now.")
        new = copy.deepcopy(state)
        s = int(seat)
        new["hands"][s].remove(action["card"])
        new["bids"][s] = action["card"]
        events = [
            event(f"You bid the {action['card']} face down.", type="bid", visible_to=[s]),
            event(f"Player {s + 1} bids face down.", type="bid_public"),
        ]
        if None not in new["bids"]:
            a, b = new["bids"]
            prize = new["prize"]
            if a != b:
                new["points"][0 if a > b else 1] += prize
            new["played"].append([prize, a, b])
            new["bids"] = [None, None]
            new["prize"] = new["prizes"].pop(0) if new["prizes"] else None
            taker = "nobody" if a == b else f"Player {1 if a > b else 2}"
            events.append(
                event(f"Bids {a} and {b} for the {prize}: {taker} takes it.", type="reveal")
            )
        return new, events

    def view(self, state: Json, seat: Seat | None) -> Json:
        return {
            "prize": state["prize"],
            "prizes_left": len(state["prizes"]),
            "points": list(state["points"]),
            "played": [list(p) for p in state["played"]],
            "hand": None if seat is None else list(state["hands"][int(seat)]),
            "hand_counts": [len(h) for h in state["hands"]],
            "bids": [
                (b if b is not None and seat == i else (b is not None))
                for i, b in enumerate(state["bids"])
            ],
            "waiting_on": list(self.waiting_on(state)),
        }

    def hidden_from(self, state: Json, seat: Seat | None) -> set[str]:
        hidden = {card_id(v) for v in state["undealt"]} | {prize_id(v) for v in state["prizes"]}
        for i in (0, 1):
            if seat != i:
                hidden |= {card_id(v) for v in state["hands"][i]}
                if state["bids"][i] is not None:
                    hidden.add(card_id(state["bids"][i]))
        return hidden

    def determinize(self, state: Json, seat: Seat, seed: int) -> Json:
        new = copy.deepcopy(state)
        other = 1 - int(seat)
        rng = RandomSource(seed)
        unseen = list(new["undealt"]) + list(new["hands"][other])
        if new["bids"][other] is not None:
            unseen.append(new["bids"][other])
        rng.shuffle(unseen)
        size = len(new["hands"][other])
        new["hands"][other] = sorted(unseen[:size])
        rest = unseen[size:]
        if new["bids"][other] is not None:
            new["bids"][other] = rest.pop()
        new["undealt"] = sorted(rest)
        rng.shuffle(new["prizes"])
        new["rng"] = rng.to_dict()
        return new

    def returns(self, state: Json) -> list[float]:
        if not self.is_terminal(state):
            return [0.0, 0.0]
        a, b = state["points"]
        return [1.0, -1.0] if a > b else [-1.0, 1.0] if b > a else [0.0, 0.0]

    def result(self, state: Json) -> Json:
        a, b = state["points"]
        winners = [0] if a > b else [1] if b > a else []
        return {"winners": winners, "scores": [a, b], "text": f"Points: {a} to {b}."}

    def summary(self, state: Json) -> str:
        if self.is_terminal(state):
            return str(self.result(state)["text"])
        return f"Bidding for the {state['prize']}."

    def timeout_action(self, state: Json, seat: Seat) -> Json | None:
        actions = self.legal_actions(state, seat)
        return actions[0] if actions else None

    def describe_action(self, state: Json, seat: Seat, action: Mapping[str, Any]) -> str:
        return f"Bid the {action['card']}"

    def public_action(self, state: Json, seat: Seat, action: Mapping[str, Any]) -> Json:
        """A card laid face down shows only that it was laid, until the other's reveals both."""
        other = state["bids"][1 - int(seat)]
        return dict(action) if other is not None else {"type": action["type"]}

    def to_json(self, state: Json) -> Json:
        return copy.deepcopy(state)

    def from_json(self, data: Mapping[str, Any]) -> Json:
        return copy.deepcopy(dict(data))


ENGINE = BidsEngine()


# The game's heuristic module, in the shape docs/bots.md asks of an engine package
# (``minigames/engines/<slug>/heuristic.py``), for the tests that exercise that path.


def heuristic_action(state: Json, seat: Seat, rng: Any) -> Json:
    """Greedy: bid the card whose rank in the hand matches the prize's rank among the prizes
    still to come (the biggest prize gets the biggest card)."""
    hand = sorted(state["hands"][int(seat)])
    prizes = sorted([state["prize"], *state["prizes"]])
    rank = prizes.index(state["prize"])
    return {"type": "bid", "card": hand[min(rank, len(hand) - 1)]}


def evaluate(state: Json, seat: Seat) -> float:
    """Points lead so far, scaled by the points there are (+1 won outright, -1 lost)."""
    if BidsEngine().is_terminal(state):
        return BidsEngine().returns(state)[int(seat)]
    mine, theirs = state["points"][int(seat)], state["points"][1 - int(seat)]
    return (mine - theirs) / sum(PRIZES)
