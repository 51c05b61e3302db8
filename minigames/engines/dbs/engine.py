"""The Dream Battle of SpellCard engine: :class:`DBSEngine` answers the game protocol
(westernroses/protocol.py) by dispatching to the phase modules.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any, Final

from westernroses.action_shapes import ActionShape
from westernroses.json_copy import json_copy
from westernroses.protocol import Action, Event, HouseRule, IllegalAction, Json, Seat, Text
from westernroses.undo_policy import nothing_drawn_or_revealed
from westernroses.words import N_, Words, said

from . import battle, phases, player_view, setup
from .rules import State, attack_of, card, chain_level, cost_of, name, other, player, who
from .shapes import ACTIONS

HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule(
        key="first_player",
        label=Words(N_("Who goes first")),
        default="random",
        help=Words(
            N_("The rulebook leaves it to the players; the first player skips her first draw.")
        ),
        choices=(
            ("random", Words(N_("Decided at random"))),
            ("first", Words(N_("The first seat"))),
            ("second", Words(N_("The second seat"))),
        ),
    ),
    HouseRule(
        key="pay_order",
        label=Words(N_("How SP is paid")),
        default="beads",
        help=Words(
            N_("Which is spent first when a card costs SP: full SP beads or Extra SP cards.")
        ),
        choices=(
            ("beads", Words(N_("SP beads first, then Extra SP"))),
            ("extra", Words(N_("Extra SP first, then SP beads"))),
        ),
    ),
    HouseRule(
        key="level_rule",
        label=Words(N_("Level rule for the attacker")),
        default="at_least",
        help=(
            Words(
                N_(
                    "The Chinese rulebook asks a declared Spellcard's Level to be at least the "
                    "Level on "
                    "top of the attacker's Spell Chain; the English footnote says at most."
                )
            )
        ),
        choices=(
            ("at_least", Words(N_("At least the top of her Spell Chain (Chinese text)"))),
            ("at_most", Words(N_("At most the top of her Spell Chain (English footnote)"))),
        ),
    ),
    HouseRule(
        key="defence",
        label=Words(N_("The defender's answer")),
        default="either",
        help=Words(
            N_("Whether a defender who springs Traps or uses Instants may still counter-attack.")
        ),
        choices=(
            ("either", Words(N_("Counter-attack, or Traps and Instants, not both"))),
            ("both", Words(N_("Traps and Instants first, then a counter-attack too"))),
        ),
    ),
    HouseRule(
        key="smack_down_tie",
        label=Words(N_("Smack Down with equal Levels")),
        default="draw",
        help=(
            Words(
                N_(
                    "The rulebook does not say who wins a Smack Down when both Spell Chains hold "
                    "the same total Level."
                )
            )
        ),
        choices=(
            ("draw", Words(N_("The game is a draw"))),
            ("drawer_loses", Words(N_("The player who could not draw loses"))),
        ),
    ),
)


def _options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    values = {rule.key: rule.default for rule in HOUSE_RULES}
    for key, value in (options or {}).items():
        rule = next((r for r in HOUSE_RULES if r.key == key), None)
        if rule is None:
            raise ValueError(f"Dream Battle of SpellCard has no house rule called {key!r}.")
        if value not in [choice for choice, _ in rule.choices]:
            raise ValueError(
                Words(
                    N_("%(rule)s: %(value)s is not one of the choices."),
                    {"rule": rule.label, "value": repr(value)},
                )
            )
        values[key] = value
    return values


def _result_words(result: Mapping[str, Any]) -> Words | str:
    """The result's sentence as its words (kept beside its English ``text``), or the English
    alone for a result a game saved before its words were kept."""
    words = result.get("words")
    return Words.from_json(words) if isinstance(words, Mapping) else str(result["text"])


def _seat(seat: Seat) -> int:
    """DBS seats are 0 and 1; anything else is refused in words."""
    if seat not in (0, 1) or not isinstance(seat, int):
        raise IllegalAction(Words(N_("Dream Battle of SpellCard has only the seats 0 and 1.")))
    return seat


#: Keys set once at set-up and never changed by a move (the card definitions, which number
#: each card id is, the names and house rules): copies of a state share them. The bots clone
#: states thousands of times a move, and these were two thirds of the copied text.
SHARED_KEYS = frozenset({"cards", "instances", "names", "options"})


class _NotPlain(Exception):
    """Raised by :func:`_plain_copy` on anything a JSON round trip would change."""


_SCALARS: Final = (str, int, float, bool, type(None))


def _plain_copy(value: Any) -> Any:
    """A fresh copy of plain JSON data (dicts with string keys, lists, scalars), equal to
    ``json.loads(json.dumps(value))``; :class:`_NotPlain` for anything else (a tuple, a key
    that is not a string, an object), which the round trip would turn into something else."""
    kind = type(value)
    if kind is dict:
        copied = {}
        for key, item in value.items():
            if type(key) is not str:
                raise _NotPlain
            copied[key] = item if type(item) in _SCALARS else _plain_copy(item)
        return copied
    if kind is list:
        return [item if type(item) in _SCALARS else _plain_copy(item) for item in value]
    if kind in _SCALARS:
        return value
    raise _NotPlain


def _own_copy(action: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of ``action`` the move may keep (plain JSON, as every listed move is, is
    copied by :func:`_plain_copy`, which is what ``copy.deepcopy`` gives for it, faster)."""
    try:
        copied: dict[str, Any] = _plain_copy(action)
    except _NotPlain:
        copied = copy.deepcopy(action)
    return copied


#: A player's lists that only ever hold card ids or bead names: copied one level deep.
_FLAT_PLAYER_LISTS: Final = frozenset(
    {"beads", "deck", "hand", "known", "extra_sp", "chain", "grave"}
)


def _player_copy(player: Mapping[str, Any]) -> dict[str, Any]:
    copied: dict[str, Any] = {}
    for key, value in player.items():
        if type(value) in _SCALARS:
            copied[key] = value
        elif key in _FLAT_PLAYER_LISTS and type(value) is list:
            copied[key] = value[:]
        else:
            copied[key] = _plain_copy(value)
    return copied


def clone(state: State) -> State:
    """A copy to change for one ``apply``: :data:`SHARED_KEYS` are shared, everything else is
    copied. The copy is what a JSON round trip gives (the state is plain JSON), walked in
    Python instead, and the players' flat lists of card ids (most of the state) copied with one
    slice each: the bots pay for this thousands of times a move. Anything not plain JSON still
    takes the round trip (tests/engine/dbs/test_clone.py: nothing that moves is shared)."""
    try:
        copied: State = {
            key: (
                value
                if key in SHARED_KEYS or type(value) in _SCALARS
                else _plain_copy(value)
                if key != "players"
                else [_player_copy(p) for p in value]
            )
            for key, value in state.items()
        }
    except _NotPlain:
        rest = {key: value for key, value in state.items() if key not in SHARED_KEYS}
        copied = json_copy(rest)
        copied.update({key: state[key] for key in SHARED_KEYS if key in state})
    return copied


class DBSEngine:
    slug = "dbs"
    title = "Dream Battle of SpellCard"
    #: View keys that are reference text for the page (each visible card in words), not game
    #: state: the bots' information states leave them out (minigames/bots/adapter.py).
    reference_view_keys = ("cards",)
    min_seats = 2
    max_seats = 2

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
            raise ValueError("Dream Battle of SpellCard is played by exactly two players.")
        return setup.new_state(seed=seed, options=_options(options), config=config)

    def waiting_on(self, state: State) -> tuple[Seat, ...]:
        phase = state["phase"]
        if phase == "over":
            return ()
        if phase.startswith("setup"):
            return tuple(s for s in (0, 1) if not player(state, s)["ready"])
        if phase == "reaction":
            return (other(state["active"]),)
        return (state["active"],)

    def legal_actions(self, state: State, seat: Seat) -> list[Action]:
        if seat not in self.waiting_on(state):
            return []
        seat = _seat(seat)
        phase = state["phase"]
        if phase.startswith("setup"):
            return setup.legal(state, seat)
        if phase == "change":
            return phases.change_legal(state, seat)
        if phase == "set":
            return phases.set_legal(state, seat)
        if phase == "battle":
            return battle.battle_legal(state, seat)
        if phase == "reaction":
            return battle.reaction_legal(state, seat)
        return phases.discard_legal(state, seat)

    def apply(
        self, state: State, seat: Seat, action: Mapping[str, Any]
    ) -> tuple[State, list[Event]]:
        if state["phase"] == "over":
            raise IllegalAction(Words(N_("The game is over.")))
        if seat not in self.waiting_on(state):
            raise IllegalAction(Words(N_("It is not your turn to act.")))
        if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
            raise IllegalAction(Words(N_("That is not an action of this game.")))
        seat = _seat(seat)
        new = clone(state)
        action = _own_copy(dict(action))
        events: list[Event] = []
        phase = new["phase"]
        if phase.startswith("setup"):
            setup.apply(new, seat, action, events)
        elif phase == "change":
            phases.change_apply(new, seat, action, events)
        elif phase == "set":
            phases.set_apply(new, seat, action, events)
        elif phase == "battle":
            battle.battle_apply(new, seat, action, events)
        elif phase == "reaction":
            battle.reaction_apply(new, seat, action, events)
        else:
            phases.discard_apply(new, seat, action, events)
        return new, events

    def view(self, state: State, seat: Seat | None) -> Json:
        result = player_view.view(state, seat)
        result["waiting_on"] = list(self.waiting_on(state))
        return result

    def hidden_from(self, state: State, seat: Seat | None) -> set[str]:
        return player_view.hidden_from(state, seat)

    def determinize(self, state: State, seat: Seat, seed: int) -> State:
        seat = _seat(seat)
        return player_view.determinize(state, seat, seed)

    def is_terminal(self, state: State) -> bool:
        return bool(state["phase"] == "over")

    def returns(self, state: State) -> list[float]:
        result = state["result"]
        if result is None or result["winner"] is None:
            return [0.0, 0.0]
        return [1.0 if s == result["winner"] else -1.0 for s in (0, 1)]

    def result(self, state: State) -> Json:
        result = state["result"] or {
            "winner": None,
            "victory": None,
            **said(Words(N_("The game is not over."))),
        }
        return {
            "winners": [] if result["winner"] is None else [result["winner"]],
            "victory": result["victory"],
            **said(_result_words(result)),
            "scores": [
                {
                    "seat": s,
                    "name": who(state, s),
                    "lp": player(state, s)["lp"],
                    "chain_level": chain_level(state, s),
                    **said(
                        Words(
                            N_("%(name)s: %(lp)s LP, Spell Chain Level %(level)s."),
                            {
                                "name": who(state, s),
                                "lp": player(state, s)["lp"],
                                "level": chain_level(state, s),
                            },
                        )
                    ),
                }
                for s in (0, 1)
            ],
        }

    def summary(self, state: State) -> Text:
        if state["result"] is not None:
            return _result_words(state["result"])
        if state["phase"].startswith("setup"):
            return Words(N_("Opening: the players are choosing."))
        lp = f"{who(state, 0)} {player(state, 0)['lp']}, {who(state, 1)} {player(state, 1)['lp']}"
        # the seat to move when it is not the attacker's (the defender asked to counter is
        # named: "Reimu attacks" alone read as Reimu's move)
        answer = [s for s in self.waiting_on(state) if s != state["active"]]
        params = {
            "turn": state["turn"],
            "phase": Words(phases.PHASE_WORDS[state["phase"]]),
            "name": who(state, state["active"]),
            "lp": lp,
        }
        if answer:
            return Words(
                N_("Turn %(turn)s, %(phase)s: %(name)s attacks; %(other)s to answer (LP: %(lp)s)."),
                {**params, "other": who(state, int(answer[0]))},
            )
        return Words(N_("Turn %(turn)s, %(phase)s: %(name)s attacks (LP: %(lp)s)."), params)

    def is_undoable(
        self, before: State, seat: Seat, action: Mapping[str, Any], after: State, events: list[Any]
    ) -> bool:
        """Board Game Arena's undo policy (``westernroses.undo_policy``): a move that drew
        nothing at random and revealed nothing hidden may be taken back."""
        return nothing_drawn_or_revealed(self, before, after, events)

    def timeout_action(self, state: State, seat: Seat) -> Action | None:
        """A defender who lets her time run out declines to answer the attack."""
        if state["phase"] == "reaction" and seat == other(state["active"]):
            return {"type": "no_counter"}
        return None

    def describe_action(self, state: State, seat: Seat, action: Mapping[str, Any]) -> Text:
        """The move in words for its button and the move log; card names as their own words
        (translated by the catalog of card names)."""
        seat = _seat(seat)
        kind = action.get("type")
        iid = action.get("card")
        number = iid if kind in ("choose_character", "retrieve") else None
        label: Words | str = ""
        if number is not None and number in state["cards"]:
            label = Words(state["cards"][number]["name"])
        elif isinstance(iid, str) and iid in state["instances"]:
            label = Words(name(state, iid))
        replace = action.get("replace")
        replaced = (
            Words(name(state, replace))
            if isinstance(replace, str) and replace in state["instances"]
            else None
        )
        card_only = {
            "choose_character": N_("Start with %(card)s in your Character Area"),
            "retrieve": N_("Take %(card)s from your deck into your hand"),
            "call_character": N_("Call %(card)s into your Character Area (Support)"),
            "center": N_("Stand %(card)s up as your Center"),
            "hyper": N_("Send %(card)s into the Duel Zone as Hyper"),
            "extra_sp": N_("Put %(card)s face down into Extra SP"),
            "instant": N_("Use the Instant %(card)s"),
            "trap": N_("Spring the Trap %(card)s"),
            "discard": N_("Discard %(card)s"),
        }
        bare = {
            "skip_change": N_("Change nothing this turn"),
            "end_set": N_("Go to the Battle phase"),
            "no_counter": N_("Do not counter-attack; let the attack resolve"),
            "end_turn": N_("End your turn"),
        }
        if kind in card_only:
            return Words(card_only[str(kind)], {"card": label})
        if kind in bare:
            return Words(bare[str(kind)])
        if kind == "set_trap":
            if replaced is None:
                return Words(N_("Set the Trap %(card)s face down"), {"card": label})
            return Words(
                N_("Set the Trap %(card)s face down, replacing %(replaced)s"),
                {"card": label, "replaced": replaced},
            )
        if kind == "constant":
            if replaced is None:
                return Words(N_("Set the Constant %(card)s"), {"card": label})
            return Words(
                N_("Set the Constant %(card)s, replacing %(replaced)s"),
                {"card": label, "replaced": replaced},
            )
        if kind in ("declare", "counter") and isinstance(iid, str) and iid in state["instances"]:
            definition = card(state, iid)
            role = "attacking" if kind == "declare" else "defending"
            sentence = (
                N_("Declare %(card)s (Level %(level)s, attack %(attack)s, %(cost)s SP)")
                if kind == "declare"
                else N_(
                    "Counter-attack with %(card)s (Level %(level)s, attack %(attack)s, %(cost)s SP)"
                )
            )
            return Words(
                sentence,
                {
                    "card": label,
                    "level": definition["level"],
                    "attack": attack_of(state, seat, iid, role, 0),
                    "cost": cost_of(state, seat, iid),
                },
            )
        if kind == "buff":
            cost = cost_of(state, seat, iid) if isinstance(iid, str) else 0
            return Words(N_("Play the Buff %(card)s (%(cost)s SP)"), {"card": label, "cost": cost})
        return Words(N_("An action this game does not know"))

    def public_action(self, state: State, seat: Seat, action: Mapping[str, Any]) -> Json:
        """What the other player learns: an opening choice shows only that it was made until
        both have chosen (then both are shown); a card put into Extra SP or a Trap set face
        down shows only that a card went face down (and which item it replaced, which goes to
        the public grave), whichever card it was, one shown before included. Everything else
        is played face up."""
        kind = action.get("type")
        opening = kind in ("choose_character", "retrieve")
        if opening and not player(state, other(_seat(seat)))["ready"]:
            return {"type": str(kind)}
        if kind == "extra_sp":
            return {"type": kind}
        if kind == "set_trap":
            face: Json = {"type": kind}
            if action.get("replace") is not None:
                face["replace"] = action["replace"]
            return face
        return dict(action)

    def to_json(self, state: State) -> Json:
        result: Json = json_copy(state)
        return result

    def from_json(self, data: Mapping[str, Any]) -> State:
        state: State = json_copy(dict(data))
        missing = {"cards", "instances", "players", "phase", "rng"} - set(state)
        if missing:
            raise ValueError("This is not a saved Dream Battle of SpellCard game.")
        return state


ENGINE = DBSEngine()
