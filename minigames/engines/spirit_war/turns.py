"""A player's turn: draw a Preparation card unseen, then draw and resolve an Encounter card.

Follows "Your turn" of the rulebook.

Fortune and Disaster cards are lists of steps (cards.EFFECT_STEPS) kept in ``state["pending"]``
and run in order for the player whose turn it is; a step that needs a choice (discarding cards of
her choice) or a battle (an ambush) pauses the list until it is done. When nothing is pending the
turn ends: the resolved Encounter cards go to History and the next player still in the war, in
seat order ("clockwise"), takes her turn, unless a Disaster made her miss it.
"""

from __future__ import annotations

from typing import Any, Final

from minigames.engines.spirit_war import battles, endgame
from minigames.engines.spirit_war.piles import (
    State,
    add_to_hand,
    draw_encounter,
    draw_preparation,
    kind,
    label_words,
    name,
    next_survivor,
    randbelow,
    survivors,
    take_from_hand,
    to_abyss,
)
from westernroses.protocol import Action, Event, event
from westernroses.words import N_, Words

#: What a Fortune card that takes a card back from the Abyss says when there is none, by the
#: kind it takes (cards.EFFECT_STEPS: only Spells).
NOTHING_TO_TAKE: Final = {"spell": N_("There is no Spell card in the Abyss to take.")}

#: Phases in which somebody must act before the pending steps go on.
PAUSED = frozenset({"attack", "summon", "support", "discard", "rare_outcome", "over"})


def apply_draw(state: State, seat: int, events: list[Event]) -> None:
    """Start the turn: one Preparation card unseen, then one Encounter card, revealed."""
    events.append(
        event(
            Words(
                N_("Turn %(turn)s: %(name)s begins a turn."),
                {"turn": state["turn_number"], "name": name(state, seat)},
            ),
            type="turn",
        )
    )
    draw_preparation(state, seat, events)
    _encounter(state, seat, events)
    resume(state, events)


def _encounter(state: State, seat: int, events: list[Event]) -> None:
    cid = draw_encounter(state, events)
    if cid is None:
        return
    c = state["defs"][state["cards"][cid]]
    events.append(
        event(
            Words(
                N_("%(name)s reveals the Encounter card %(card)s: %(text)s"),
                {
                    "name": name(state, seat),
                    "card": label_words(state, cid),
                    "text": Words(str(c["text"])),
                },
            ),
            type="encounter",
            card=cid,
        )
    )
    if c["kind"] == "attack":
        if not survivors_except(state, seat):
            return
        candidates = battles.attack_candidates(state, seat, c["target"])
        battles.start_attack(state, seat, candidates, "attack", events)
    else:
        state["pending"] = [dict(step) for step in c["effects"]] + state["pending"]


def survivors_except(state: State, seat: int) -> list[int]:
    return [s for s in survivors(state) if s != seat]


def resume(state: State, events: list[Event]) -> None:
    """Run pending steps until one needs somebody's choice; then end the turn."""
    while True:
        if state["phase"] == "over":
            return
        if len(survivors(state)) <= 1:
            state["pending"] = []
            break
        if state["phase"] in PAUSED:
            return
        if not state["pending"]:
            break
        step = state["pending"].pop(0)
        _run_step(state, step, events)
    end_turn(state, events)


def _run_step(state: State, step: dict[str, Any], events: list[Event]) -> None:
    seat = state["turn"]
    do = step["do"]
    if state["out"][seat]:  # ambushed out of the war: the rest of her card does nothing
        return
    if do == "draw_preparation":
        draw_preparation(state, seat, events, step["count"])
    elif do == "take_from_abyss":
        taken = 0
        for cid in reversed(list(state["abyss"])):
            if taken == step["count"]:
                break
            if kind(state, cid) == step["kind"]:
                state["abyss"].remove(cid)
                add_to_hand(state, seat, cid, public=True)
                taken += 1
                events.append(
                    event(
                        Words(
                            N_("%(name)s takes %(card)s back from the Abyss."),
                            {"name": name(state, seat), "card": label_words(state, cid)},
                        ),
                        type="take",
                        card=cid,
                    )
                )
        if not taken:
            events.append(event(Words(NOTHING_TO_TAKE[step["kind"]]), type="take"))
    elif do == "discard_choice":
        left = min(step["count"], len(state["hands"][seat]))
        if left:
            state["phase"] = "discard"
            state["discard"] = {"seat": seat, "left": left}
    elif do == "discard_random":
        for _ in range(step["count"]):
            _discard_random(state, seat, events)
    elif do == "others_discard_random":
        for other in survivors_except(state, seat):
            for _ in range(step["count"]):
                _discard_random(state, other, events)
    elif do == "skip_next_turn":
        state["skip_next"][seat] = True
        events.append(
            event(
                Words(N_("%(name)s will miss the next turn."), {"name": name(state, seat)}),
                type="skip",
            )
        )
    elif do == "extra_encounter":
        _encounter(state, seat, events)
    elif do == "ambush":
        ambusher = next_survivor(state, seat, 1 if step["by"] == "next" else -1)
        if ambusher != seat:
            events.append(
                event(
                    Words(
                        N_("%(ambusher)s must attack %(name)s."),
                        {"ambusher": name(state, ambusher), "name": name(state, seat)},
                    ),
                    type="ambush",
                )
            )
            battles.start_attack(state, ambusher, [seat], "ambush", events)
    else:  # pragma: no cover - cards.py validates every step
        raise ValueError(f"unknown step {do!r}")


def _discard_random(state: State, seat: int, events: list[Event]) -> None:
    hand = state["hands"][seat]
    if not hand:
        return
    cid = hand[randbelow(state, len(hand))]
    take_from_hand(state, seat, cid)
    to_abyss(state, cid)
    events.append(
        event(
            Words(
                N_("%(name)s discards %(card)s at random to the Abyss."),
                {"name": name(state, seat), "card": label_words(state, cid)},
            ),
            type="discard",
            card=cid,
        )
    )


def discard_actions(state: State, seat: int) -> list[Action]:
    return [{"type": "discard", "card": cid} for cid in state["hands"][seat]]


def apply_discard(state: State, seat: int, action: Action, events: list[Event]) -> None:
    cid = action["card"]
    take_from_hand(state, seat, cid)
    to_abyss(state, cid)
    events.append(
        event(
            Words(
                N_("%(name)s discards %(card)s to the Abyss."),
                {"name": name(state, seat), "card": label_words(state, cid)},
            ),
            type="discard",
            card=cid,
        )
    )
    state["discard"]["left"] -= 1
    if state["discard"]["left"] <= 0 or not state["hands"][seat]:
        state["discard"] = None
        state["phase"] = "effects"
    resume(state, events)


def after_battle(state: State, events: list[Event]) -> None:
    """A battle (or a skipped attack) is over: go on with the turn."""
    state["phase"] = "effects"
    resume(state, events)


def end_turn(state: State, events: list[Event]) -> None:
    state["history"].extend(state["encounter"])
    state["encounter"] = []
    state["pending"] = []
    if len(survivors(state)) == 1:
        endgame.spirit_king(state, events)
        return
    if endgame.stalled(state):
        endgame.rare_outcome(state, events)
        return
    seat = state["turn"]
    for _ in range(2 * state["seats"]):
        seat = next_survivor(state, seat, 1)
        if not state["skip_next"][seat]:
            break
        state["skip_next"][seat] = False
        events.append(
            event(
                Words(N_("%(name)s misses this turn."), {"name": name(state, seat)}),
                type="skipped",
            )
        )
    state["turn"] = seat
    state["turn_number"] += 1
    state["phase"] = "turn"
