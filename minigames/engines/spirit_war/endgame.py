"""How a Spirit War ends: the Spirit King, the rare outcome and the Mini Spirit War.

"Winning the Spirit War": the last one standing is crowned Spirit King. "The rare outcome": two
or more survivors with no Spirits left to summon (here: the Preparation deck is exhausted and no
survivor holds a Spirit, so none can ever summon again) may end the war with a shared result or
play a Mini Spirit War. Which one is a house rule (default: a vote, the Mini Spirit War unless
every survivor agrees to share). "Mini Spirit War": every Spirit card is shuffled into a deck,
each survivor draws one, all are revealed together; when exactly two elements show, the holders
of the winning element go on (alone: the final winner); otherwise everyone draws again.
"""

from __future__ import annotations

from typing import Any, Final

from minigames.engines.spirit_war.elements import BEATS
from minigames.engines.spirit_war.piles import (
    State,
    element,
    hand_words,
    is_spirit,
    label_words,
    name,
    reveal_hand,
    shuffle,
    spirits_in_hand,
    survivors,
)
from westernroses.protocol import Action, Event, event
from westernroses.words import N_, Words, listing, said

#: A Mini Spirit War that has not found a winner after this many rounds ends shared (only a
#: GM's deck with a single element could get there; our ruling, so every game ends).
MAX_MINI_ROUNDS: Final = 200

VOTES: Final = ("share", "mini_war")

#: A Mini Spirit War round's winners, by the element that won.
MINI_WINNERS: Final = {
    "fire": N_("The winning Spirits are fire: %(who)s draw again."),
    "earth": N_("The winning Spirits are earth: %(who)s draw again."),
    "water": N_("The winning Spirits are water: %(who)s draw again."),
}


def finish(state: State, winners: list[int], how: str, text: Words, events: list[Event]) -> None:
    """The war is over: the result keeps its sentence in English and as words (``said``), for
    the view and the summary to read in the reader's language."""
    state["phase"] = "over"
    state["pending"] = []
    state["result"] = {
        "winners": winners,
        "outcome": how,
        **said(text),
        "eliminated_order": list(state["eliminated_order"]),
    }
    events.append(event(text, type="game_over", winners=winners))


def spirit_king(state: State, events: list[Event]) -> None:
    king = survivors(state)[0]
    finish(
        state,
        [king],
        "spirit_king",
        Words(
            N_("%(name)s is the last one standing and is crowned Spirit King."),
            {"name": name(state, king)},
        ),
        events,
    )


def stalled(state: State) -> bool:
    """The rare outcome: the deck is exhausted and no survivor can ever summon again."""
    return (
        len(survivors(state)) >= 2
        and not state["prep_deck"]
        and not any(spirits_in_hand(state, s) for s in survivors(state))
    )


def rare_outcome(state: State, events: list[Event]) -> None:
    players = survivors(state)
    for seat in players:
        reveal_hand(state, seat)
    shown = listing(
        [
            Words(
                N_("%(name)s: %(cards)s"),
                {"name": name(state, s), "cards": hand_words(state, state["hands"][s])},
            )
            for s in players
        ],
        last="semicolon",
    )
    events.append(
        event(
            Words(
                N_(
                    "The Preparation deck is exhausted and no survivor has a Spirit left to "
                    "summon (hands shown: %(hands)s). This is the rare outcome."
                ),
                {"hands": shown},
            ),
            type="rare_outcome",
        )
    )
    rule = state["options"]["rare_outcome"]
    if rule == "share":
        share(state, events)
    elif rule == "mini_war":
        mini_war(state, events)
    else:
        state["phase"] = "rare_outcome"
        state["votes"] = [None] * state["seats"]
        events.append(
            event(
                Words(
                    N_(
                        "The survivors vote: end the war with a shared result, or settle it "
                        "with a Mini Spirit War."
                    )
                ),
                type="vote_open",
            )
        )


def share(state: State, events: list[Event]) -> None:
    players = survivors(state)
    who = listing([name(state, s) for s in players], last="comma")
    finish(
        state,
        players,
        "shared",
        Words(N_("The war ends without a single king: %(who)s share it."), {"who": who}),
        events,
    )


def vote_waiting(state: State) -> tuple[int, ...]:
    return tuple(s for s in survivors(state) if state["votes"][s] is None)


def vote_actions(state: State, seat: int) -> list[Action]:
    return [{"type": "vote", "choice": choice} for choice in VOTES]


def apply_vote(state: State, seat: int, action: Action, events: list[Event]) -> None:
    state["votes"][seat] = action["choice"]
    votes = (
        N_("%(name)s votes to share the result.")
        if action["choice"] == "share"
        else N_("%(name)s votes for a Mini Spirit War.")
    )
    events.append(event(Words(votes, {"name": name(state, seat)}), type="vote", seat=seat))
    if vote_waiting(state):
        return
    if all(state["votes"][s] == "share" for s in survivors(state)):
        share(state, events)
    else:
        mini_war(state, events)


def mini_war(state: State, events: list[Event]) -> None:
    """Play the Mini Spirit War out (it has no choices): the Abyss's Spirits form its deck."""
    spirits = [c for c in state["abyss"] if is_spirit(state, c)]
    state["abyss"] = [c for c in state["abyss"] if not is_spirit(state, c)]
    shuffle(state, spirits)
    mini: dict[str, Any] = {"deck": spirits, "table": [], "players": survivors(state), "round": 0}
    state["mini"] = mini
    events.append(
        event(
            Words(
                N_("A Mini Spirit War begins with a deck of %(count)s Spirit cards."),
                {"count": len(spirits)},
            ),
            type="mini_war",
        )
    )
    while mini["round"] < MAX_MINI_ROUNDS:
        players = mini["players"]
        if len(mini["deck"]) < len(players):
            mini["deck"].extend(mini["table"])
            mini["table"] = []
            shuffle(state, mini["deck"])
            if len(mini["deck"]) < len(players):
                break
        mini["round"] += 1
        drawn = {p: mini["deck"].pop(0) for p in players}
        mini["table"].extend(drawn.values())
        reveals = listing(
            [
                Words(
                    N_("%(name)s reveals %(card)s"),
                    {"name": name(state, p), "card": label_words(state, c)},
                )
                for p, c in drawn.items()
            ],
            last="comma",
        )
        events.append(
            event(
                Words(
                    N_("Mini Spirit War, round %(round)s: %(reveals)s."),
                    {"round": mini["round"], "reveals": reveals},
                ),
                type="mini_round",
                reveals=[[p, c] for p, c in drawn.items()],
            )
        )
        present = {element(state, c) for c in drawn.values()}
        if len(present) != 2:
            events.append(
                event(Words(N_("There is no absolute winner: everyone draws again.")), type="mini")
            )
            continue
        high, low = sorted(present)
        best = high if BEATS[high] == low else low
        winners = [p for p, c in drawn.items() if element(state, c) == best]
        if len(winners) == 1:
            king = winners[0]
            _gather(state)
            finish(
                state,
                [king],
                "mini_war",
                Words(
                    N_("%(name)s wins the Mini Spirit War and is crowned Spirit King."),
                    {"name": name(state, king)},
                ),
                events,
            )
            return
        mini["players"] = winners
        events.append(
            event(
                Words(
                    MINI_WINNERS[best],
                    {"who": listing([name(state, p) for p in winners], last="comma")},
                ),
                type="mini",
            )
        )
    _gather(state)
    share(state, events)


def _gather(state: State) -> None:
    """The Mini Spirit War is over: its Spirits go back to the Abyss, face up (so none of the
    Spirits it reshuffled stays a secret after the reveals)."""
    mini = state["mini"]
    state["abyss"].extend(mini["table"])
    state["abyss"].extend(mini["deck"])
    mini["table"] = []
    mini["deck"] = []
