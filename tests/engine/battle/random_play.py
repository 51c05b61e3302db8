"""Random legal-action battles: the property tests' driver and the ``make bench`` benchmark.

:func:`random_action` picks uniformly among the legal actions of whoever must act (ending the
turn less often, so battles get somewhere) and fills in the choices the option leaves open.
:func:`bench` plays N battles and reports actions per second.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any, Final

from tests.engine.battle.samples import demo_battle
from westernroses.battle.actions import GM, apply, legal_actions
from westernroses.battle.errors import IllegalAction
from westernroses.battle.shapes import ACTIONS, SERVER_KEYS
from westernroses.battle.state import BattleState, Json

#: Ending the turn is offered in every turn; picking it this much less often than the others
#: keeps random battles from being all skipped turns.
END_TURN_WEIGHT: Final = 0.15


def acting_player(state: BattleState) -> str | None:
    """Who must act now: the controller of the first pending decider or current combatant."""
    from westernroses.battle import reactions
    from westernroses.battle.actions import read_context

    if state.phase == "setup":
        return GM
    if state.pending:
        options = reactions.open_choices(read_context(state))
        return state.combatants[options[0]["combatant"]].controller if options else None
    if state.phase == "ended":
        for c in state.combatants.values():
            if legal_actions(state, c.controller):
                return c.controller
        return None
    if state.current is None:
        return None
    return state.combatants[state.current].controller


#: What a legal-action template names that its action carries as it is (where the action's
#: shape takes it: an ability's ``free`` only tells that it costs no action).
NAMED: Final = ("combatant", "attack", "free", "card", "hit", "choice", "drop", "ability")


def concrete(option: Json, rng: random.Random, player: str) -> Json:
    """A concrete action from a legal-action template (choices filled in at random)."""
    kind = option["type"]
    takes = ACTIONS[kind].fields
    action: Json = {"type": kind, **{k: v for k, v in option.items() if k in NAMED and k in takes}}
    action["player"] = player
    if kind == "move":
        action["to"] = rng.choice(option["reach"])["square"]
    elif kind == "attack":
        action["target"] = rng.choice(option["targets"])
        action["goddess"] = rng.choice(option["goddess"])
    elif kind == "use_spellcard":
        count = option["targeting"]["count"]
        action["targets"] = rng.sample(option["target_squares"], count) if count else []
        if option.get("amount"):
            action["amount"] = rng.randint(option["amount"]["min"], option["amount"]["max"])
    elif kind == "use_ability":
        squares = option.get("target_squares")
        action["target"] = rng.choice(squares) if squares else None
    return action


#: The benchmark's battle (issue 15: "4 v 4"): four player characters against four GM
#: youkai and fairies.
BENCH_PARTY: Final = ("reimu", "marisa", "sakuya", "meiling")
BENCH_MONSTERS: Final = 4
#: How often a Librarian tries a second card on the same action.
SECOND_CARD_CHANCE: Final = 0.3


def as_sent(action: Json) -> Json:
    """``action`` as a client sends it: without the keys the server adds (``player``, ``at``,
    ``expected_version``), which is what the action shapes describe."""
    return {k: v for k, v in action.items() if k not in SERVER_KEYS}


def random_action(state: BattleState, rng: random.Random) -> Json | None:
    player = acting_player(state)
    if player is None:
        return None
    options = legal_actions(state, player)
    if not options:
        return None
    weights = [END_TURN_WEIGHT if o["type"] == "end_turn" else 1.0 for o in options]
    option = rng.choices(options, weights)[0]
    action = concrete(option, rng, player)
    if option.get("second_card") and rng.random() < SECOND_CARD_CHANCE:
        cards = [o for o in options if o["type"] == "use_spellcard" and not o["free"]]
        other = concrete(rng.choice(cards), rng, player)
        action["second"] = {k: other[k] for k in ("card", "targets", "amount") if k in other}
    return action


def apply_random(state: BattleState, action: Json) -> tuple[BattleState, list[Json], Json]:
    """Apply a random action. A Librarian's optional second card is a guess (it may not be
    affordable or aimed well once the first resolved): if it is refused, the first card is
    cast alone. Returns the action actually applied."""
    try:
        new, events = apply(state, action)
    except IllegalAction:
        if "second" not in action:
            raise
        action = {k: v for k, v in action.items() if k != "second"}
        new, events = apply(state, action)
    return new, events, action


def play(
    state: BattleState,
    rng: random.Random,
    max_steps: int,
    *,
    on_step: Callable[[BattleState, Json, BattleState, list[Json]], None] | None = None,
) -> tuple[BattleState, list[Json]]:
    """Play random legal actions until the battle ends (and winners recover) or ``max_steps``."""
    actions: list[Json] = []
    for _ in range(max_steps):
        action = random_action(state, rng)
        if action is None:
            break
        try:
            new, events, action = apply_random(state, action)
        except IllegalAction as exc:  # pragma: no cover - a legal action must apply
            raise AssertionError(f"legal action refused: {action}: {exc.reason}") from exc
        if on_step is not None:
            on_step(state, action, new, events)
        actions.append(action)
        state = new
    return state, actions


def bench(battles: int = 20, *, seed: int = 1, max_steps: int = 400) -> float:
    """Play ``battles`` random 4-vs-4 battles; returns applied actions per second of CPU time
    (``time.process_time``: the machine is shared, and the issue's target is CPU time), the
    battles' setup left out."""
    rng = random.Random(seed)
    # Built before the clock starts: making the sample characters (the creation wizard's
    # rules, their decks) is not a battle action, and was a twentieth of the measured time.
    starts = [
        demo_battle(seed + i, heroes=BENCH_PARTY, monsters=BENCH_MONSTERS) for i in range(battles)
    ]
    count = 0
    started = time.process_time()
    for state in starts:
        _, actions = play(state, rng, max_steps)
        count += len(actions)
    elapsed = time.process_time() - started
    return count / elapsed if elapsed else 0.0


def main(argv: Any = None) -> None:  # pragma: no cover - a command-line convenience
    del argv
    print(f"{bench():.0f} battle actions/second")


if __name__ == "__main__":  # pragma: no cover
    main()
