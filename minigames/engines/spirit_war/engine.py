"""The Spirit War engine: westernroses.protocol.GameEngine over the modules of this package.

The state is a plain JSON dict (see setup.new_state) holding its card definitions, every card's
place, the phase and the seeded random source, so a game replays from its first state and its
action log alone. ``apply`` works on a deep copy and checks the action against the legal list
first, so a refused action changes nothing.

Actions (all JSON, listed in a fixed order):

* ``{"type": "draw"}``: start the turn (draw a Preparation card, then an Encounter card);
* ``{"type": "attack", "target": seat}`` / ``{"type": "skip_attack"}`` (no Spirit to summon);
* ``{"type": "summon", "card": id}`` / ``{"type": "no_spirit"}`` (an attacked player without one);
* ``{"type": "support", "card": id}`` / ``{"type": "pass_support"}``;
* ``{"type": "discard", "card": id}`` (a Disaster's discard of your choice);
* ``{"type": "vote", "choice": "share" | "mini_war"}`` (the rare outcome).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any, Final

from minigames.engines.spirit_war import battles, endgame, hidden, player_view, turns
from minigames.engines.spirit_war.piles import (
    State,
    clone,
    copy_json,
    label_words,
    name,
    spirits_in_hand,
)
from minigames.engines.spirit_war.setup import (
    HOUSE_RULES,
    MAX_SEATS,
    MIN_SEATS,
    STATE_FORMAT,
    new_state,
)
from minigames.engines.spirit_war.shapes import ACTIONS
from westernroses.action_shapes import ActionShape
from westernroses.json_copy import json_copy
from westernroses.protocol import (
    Action,
    Event,
    GameEngine,
    HouseRule,
    IllegalAction,
    Json,
    Seat,
    Text,
)
from westernroses.undo_policy import nothing_drawn_or_revealed
from westernroses.words import N_, Words, said

#: The action types each phase accepts.
PHASE_ACTIONS: Final[Mapping[str, frozenset[str]]] = {
    "turn": frozenset({"draw"}),
    "attack": frozenset({"attack", "skip_attack"}),
    "summon": frozenset({"summon", "no_spirit"}),
    "support": frozenset({"support", "pass_support"}),
    "discard": frozenset({"discard"}),
    "rare_outcome": frozenset({"vote"}),
    "over": frozenset(),
}

ALL_ACTIONS: Final = frozenset().union(*PHASE_ACTIONS.values())


class SpiritWarEngine:
    """Spirit War for 2 to 6 players (``../shared/rules/spirit-war-standard-rules.txt``)."""

    slug = "spirit_war"
    title = "Spirit War"
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS

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
        """A dealt game. ``config`` may hold ``names`` (one per seat), ``first_seat`` (the
        previous Spirit King starts the next war) and ``extra_cards`` (card definitions as data,
        each with a ``kind``; see cards.py)."""
        return new_state(seats=seats, seed=seed, options=options, config=config)

    # ----------------------------------------------------------------------- who acts

    def waiting_on(self, state: State) -> tuple[Seat, ...]:
        phase = state["phase"]
        if phase == "turn":
            return (state["turn"],)
        if phase == "attack":
            return (state["attack"]["attacker"],)
        if phase == "summon":
            return battles.summon_waiting(state)
        if phase == "support":
            return battles.support_waiting(state)
        if phase == "discard":
            return (state["discard"]["seat"],)
        if phase == "rare_outcome":
            return endgame.vote_waiting(state)
        return ()

    def legal_actions(self, state: State, seat: Seat) -> list[Action]:
        if not isinstance(seat, int) or seat not in self.waiting_on(state):
            return []
        phase = state["phase"]
        if phase == "turn":
            return [{"type": "draw"}]
        if phase == "attack":
            return battles.attack_actions(state, seat)
        if phase == "summon":
            return battles.summon_actions(state, seat)
        if phase == "support":
            return battles.support_actions(state, seat)
        if phase == "discard":
            return turns.discard_actions(state, seat)
        return endgame.vote_actions(state, seat)

    def _refusal(self, state: State, seat: Seat, action: Mapping[str, Any]) -> Words | None:
        """Why ``action`` is refused, in words (None: it is legal)."""
        kind = action.get("type") if isinstance(action, Mapping) else None
        if kind not in ALL_ACTIONS:
            return Words(N_("That is not a Spirit War move."))
        if state["phase"] == "over":
            return Words(N_("The Spirit War is over."))
        if seat not in self.waiting_on(state):
            return Words(N_("It is not your turn to act."))
        if kind not in PHASE_ACTIONS[state["phase"]]:
            return Words(N_("That move does not fit this moment of the game."))
        if dict(action) in self.legal_actions(state, seat):
            return None
        cid = action.get("card")
        if "card" in action and cid not in state["hands"][int(seat)]:
            return Words(N_("That card is not in your hand."))
        if kind == "summon":
            return Words(N_("Only a Spirit card can be summoned."))
        if kind == "attack":
            if not spirits_in_hand(state, int(seat)):
                return Words(N_("You have no Spirit to summon, so you cannot attack."))
            return Words(N_("This Attack card does not let you attack that player."))
        if kind in ("skip_attack", "no_spirit"):
            return Words(N_("You hold a Spirit card, so you must summon it."))
        return Words(N_("That move is not allowed now."))

    def apply(
        self, state: State, seat: Seat, action: Mapping[str, Any]
    ) -> tuple[State, list[Event]]:
        reason = self._refusal(state, seat, action)
        if reason is not None:
            raise IllegalAction(reason)
        seat = int(seat)
        new = clone(state)
        act: Action = copy.deepcopy(dict(action))
        events: list[Event] = []
        kind = act["type"]
        if kind == "draw":
            new["phase"] = "effects"
            turns.apply_draw(new, seat, events)
        elif kind in ("attack", "skip_attack"):
            if battles.apply_attack(new, seat, act, events):
                turns.after_battle(new, events)
        elif kind in ("summon", "no_spirit"):
            if battles.apply_summon(new, seat, act, events):
                turns.after_battle(new, events)
        elif kind in ("support", "pass_support"):
            if battles.apply_support(new, seat, act, events):
                turns.after_battle(new, events)
        elif kind == "discard":
            turns.apply_discard(new, seat, act, events)
        else:
            endgame.apply_vote(new, seat, act, events)
        return new, events

    # ----------------------------------------------------------------------- what is seen

    def view(self, state: State, seat: Seat | None) -> Json:
        return player_view.view(
            state, seat if isinstance(seat, int) else None, self._waiting(state)
        )

    def _waiting(self, state: State) -> tuple[int, ...]:
        return tuple(s for s in self.waiting_on(state) if isinstance(s, int))

    def hidden_from(self, state: State, seat: Seat | None) -> set[str]:
        return hidden.hidden_from(state, seat if isinstance(seat, int) else None)

    def determinize(self, state: State, seat: Seat, seed: int) -> State:
        if not isinstance(seat, int):
            raise ValueError(Words(N_("Spirit War seats are numbered from 0.")))
        return hidden.determinize(state, seat, seed)

    # ----------------------------------------------------------------------- the end

    def is_terminal(self, state: State) -> bool:
        return bool(state["phase"] == "over")

    def returns(self, state: State) -> list[float]:
        """+1 the Spirit King; a shared end: 0 for the survivors; -1 everyone else."""
        n = state["seats"]
        if state["phase"] != "over":
            return [0.0] * n
        result = state["result"]
        winners = set(result["winners"])
        if result["outcome"] == "shared":
            return [0.0 if s in winners else -1.0 for s in range(n)]
        return [1.0 if s in winners else -1.0 for s in range(n)]

    def result(self, state: State) -> Json:
        if state["result"] is None:
            return {}
        result: Json = copy_json(state["result"])
        out_order = result["eliminated_order"]
        result["breakdown"] = [
            said(Words(OUT_WORDS[_ordinal(i + 1)], {"name": name(state, s), "place": i + 1}))
            for i, s in enumerate(out_order)
        ]
        return result

    def summary(self, state: State) -> Text:
        return player_view.phase_words(state)

    def is_undoable(
        self, before: State, seat: Seat, action: Mapping[str, Any], after: State, events: list[Any]
    ) -> bool:
        """Board Game Arena's undo policy (``westernroses.undo_policy``): a move that drew
        nothing at random and revealed nothing hidden may be taken back."""
        return nothing_drawn_or_revealed(self, before, after, events)

    def timeout_action(self, state: State, seat: Seat) -> Action | None:
        """For a seat whose time runs out: no Support card; otherwise the first legal move
        (draw, the first target, the first Spirit, the first card, a Mini Spirit War vote)."""
        actions = self.legal_actions(state, seat)
        if not actions:
            return None
        if state["phase"] == "support":
            return {"type": "pass_support"}
        if state["phase"] == "rare_outcome":
            return {"type": "vote", "choice": "mini_war"}
        return actions[0]

    def describe_action(self, state: State, seat: Seat, action: Mapping[str, Any]) -> Text:
        """The move in words, as its button reads: a command without a full stop."""
        kind = action.get("type")
        cid = action.get("card")
        what: Words
        if cid is not None:
            visible = isinstance(seat, int) and cid in state["hands"][seat]
            if not visible or cid not in state["cards"]:
                return Words(N_("Play a card you do not hold"))
            what = label_words(state, cid)
        else:
            what = Words(N_("a card"))
        if kind == "draw":
            return Words(N_("Draw a Preparation card and an Encounter card"))
        if kind == "attack":
            target = action.get("target")
            if isinstance(target, int) and 0 <= target < state["seats"]:
                return Words(N_("Attack %(name)s"), {"name": name(state, target)})
            return Words(N_("Attack a player"))
        if kind == "skip_attack":
            if state["options"].get("skip_proof") == "show_hand":
                return Words(
                    N_("Show your hand: you have no Spirit to summon, so the attack is skipped")
                )
            return Words(N_("Skip the attack: you have no Spirit to summon"))
        if kind == "summon":
            return Words(N_("Summon %(card)s face down"), {"card": what})
        if kind == "no_spirit":
            return Words(N_("Show your hand: you have no Spirit to summon"))
        if kind == "support":
            return Words(N_("Use %(card)s face down as your Support card"), {"card": what})
        if kind == "pass_support":
            return Words(N_("Use no Support card"))
        if kind == "discard":
            return Words(N_("Discard %(card)s to the Abyss"), {"card": what})
        if kind == "vote":
            if action.get("choice") == "share":
                return Words(N_("Vote to end the war with a shared result"))
            return Words(N_("Vote for a Mini Spirit War"))
        return Words(N_("An unknown move"))

    def public_action(self, state: State, seat: Seat, action: Mapping[str, Any]) -> Json:
        """What the others learn of a move (RULINGS Spirit War 2: face-down choices are
        revealed together). A summon shows only that a Spirit went face down, unless it is the
        second and both are revealed; a Support card shows only that a card went down (the
        "loser first" house rule's first choice, made in the open), and a choice made at the
        same time as the other side's shows only that she chose, card or none, unless it is
        the second and both are revealed. Everything else is public as it is."""
        kind = action.get("type")
        battle = state["battle"]
        if battle is None or not isinstance(seat, int) or seat not in battle["sides"]:
            return dict(action)
        other = 1 - battles.side_of(state, seat)
        if kind == "summon" and not battle["summoned"][other]:
            return {"type": "summon"}
        if kind in ("support", "pass_support") and not battle["supported"][other]:
            if battles.choices_blind(state):
                return {"type": "support_choice"}
            if kind == "support":
                return {"type": "support"}
        return dict(action)

    # ----------------------------------------------------------------------- storage

    def to_json(self, state: State) -> Json:
        out: Json = json_copy(state)
        return out

    def from_json(self, data: Mapping[str, Any]) -> State:
        if data.get("format") != STATE_FORMAT:
            raise ValueError("This is not a Spirit War game this version can read.")
        out: State = json_copy(dict(data))
        return out


#: "Marisa was out 2nd.", by the English ordinal's suffix (a translation says the place its
#: own way).
OUT_WORDS: Final = {
    "st": N_("%(name)s was out %(place)sst."),
    "nd": N_("%(name)s was out %(place)snd."),
    "rd": N_("%(name)s was out %(place)srd."),
    "th": N_("%(name)s was out %(place)sth."),
}


def _ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


ENGINE: Final = SpiritWarEngine()

#: mypy checks here that the engine has every member of the protocol, with its types.
_CONFORMS: GameEngine[State] = ENGINE
