"""A new DBS game and its opening (rulebook 四 "Opening").

1. LP 10000 and five full SP beads each; each player picks a character from her deck and puts
   her, tapped (Support status), into her Character Area.
2. Decks are shuffled and each player draws 4 cards.
3. The opening retrieval: each player looks through her deck, shows one card and adds it to her
   hand; then decks are shuffled again.

Both choices are made by the two players at once: a choice waits face down ("pending") until
the other player has chosen too, then both are shown. Then the first player is decided (a house
rule: at random by default) and her first turn starts.

State shape (plain JSON): ``cards`` (number → definition, only those in the two decks, so a
stored game needs nothing else), ``instances`` (card id → number), ``players`` (per seat: lp,
beads, deck, hand, known hand cards, extra_sp, items, characters, chain, grave, pending, ready,
turn_statics), ``phase``, ``turn``, ``first``, ``active``, ``changed``, ``clash``, ``claims``,
``result``, ``options``, ``names``, ``rng``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from westernroses.protocol import Action, Event, IllegalAction, event
from westernroses.rng import RandomSource
from westernroses.words import N_, Words

from . import phases
from .cards import load_card_set, shared_starter_set
from .decks import deck_rule_words, preset_deck
from .rules import (
    BEADS,
    OPENING_HAND,
    START_LP,
    State,
    card_words,
    draw_cards,
    other,
    player,
    rng_draw,
    shuffle,
    who,
)
from .vocabulary import Card, sentences

DEFAULT_DECKS = ("shrine-and-stars", "scarlet-household")


def _new_player(deck: list[str]) -> dict[str, Any]:
    return {
        "lp": START_LP,
        "beads": ["full"] * BEADS,
        "deck": deck,
        "hand": [],
        "known": [],
        "extra_sp": [],
        "items": [],
        "characters": [],
        "chain": [],
        "grave": [],
        "pending": None,
        "ready": False,
        "turn_statics": [],
    }


def new_state(*, seed: int, options: Mapping[str, Any], config: Mapping[str, Any] | None) -> State:
    """A game waiting for both players' opening character choice."""
    config = dict(config or {})
    unknown = set(config) - {"decks", "cards", "names"}
    if unknown:
        raise ValueError(f"Unknown set-up settings: {', '.join(sorted(unknown))}.")
    extra = config.get("cards")
    # the bundled set is validated once per process and read, never copied, per deal
    card_set: Mapping[str, Card] = load_card_set(extra) if extra else shared_starter_set()
    decks = config.get("decks") or [preset_deck(key) for key in DEFAULT_DECKS]
    if len(decks) != 2:
        raise ValueError("Dream Battle of SpellCard needs exactly two decks, one per player.")
    for seat, deck in enumerate(decks):
        errors = deck_rule_words(list(deck), card_set)
        if errors:
            raise ValueError(
                Words(
                    N_("The deck of player %(seat)s breaks the deck rules: %(rules)s"),
                    {"seat": seat + 1, "rules": sentences(errors)},
                )
            )
    names = list(config.get("names") or ["Player 1", "Player 2"])
    if len(names) != 2 or not all(isinstance(n, str) and n.strip() for n in names):
        raise ValueError("Give two player names, or none.")
    instances: dict[str, str] = {}
    players = []
    counter = 0
    for deck in decks:
        ids = []
        for number in deck:
            iid = f"dbs-card-{counter}"
            counter += 1
            instances[iid] = number
            ids.append(iid)
        players.append(_new_player(ids))
    used = sorted(set(instances.values()))
    state: State = {
        "cards": {number: card_set[number] for number in used},
        "instances": instances,
        "players": players,
        "phase": "setup_character",
        "turn": 0,
        "first": 0,
        "active": 0,
        "changed": False,
        "clash": None,
        "claims": [],
        "result": None,
        "options": dict(options),
        "names": names,
        "rng": RandomSource(seed).to_dict(),
    }
    for seat in (0, 1):
        shuffle(state, player(state, seat)["deck"])
    return state


def deck_numbers(state: State, seat: int, kind: str | None = None) -> list[str]:
    """The distinct card numbers in ``seat``'s deck (of ``kind``), sorted: what she may pick
    when the rules let her look through her deck."""
    numbers = {state["instances"][iid] for iid in player(state, seat)["deck"]}
    return sorted(n for n in numbers if kind is None or state["cards"][n]["kind"] == kind)


def legal(state: State, seat: int) -> list[Action]:
    if player(state, seat)["ready"]:
        return []
    if state["phase"] == "setup_character":
        return [
            {"type": "choose_character", "card": n} for n in deck_numbers(state, seat, "character")
        ]
    return [{"type": "retrieve", "card": n} for n in deck_numbers(state, seat)]


def apply(state: State, seat: int, action: Mapping[str, Any], events: list[Event]) -> None:
    me = player(state, seat)
    if action not in legal(state, seat):
        if me["ready"]:
            raise IllegalAction(
                Words(
                    N_("You have already made your opening choice; the other player is choosing.")
                )
            )
        raise IllegalAction(Words(N_("That card cannot be chosen now.")))
    number = action["card"]
    iid = next(i for i in me["deck"] if state["instances"][i] == number)
    me["deck"].remove(iid)
    me["pending"] = iid
    me["ready"] = True
    chosen = (
        N_("%(name)s has chosen her opening character.")
        if state["phase"] == "setup_character"
        else N_("%(name)s has chosen her retrieval.")
    )
    events.append(
        event(Words(chosen, {"name": who(state, seat)}), type="choice", hidden_from=[seat])
    )
    events.append(
        event(
            Words(
                N_("You choose %(card)s; it is shown once both have chosen."),
                {"card": card_words(state, iid)},
            ),
            type="choice",
            visible_to=[seat],
        )
    )
    if not player(state, other(seat))["ready"]:
        return
    if state["phase"] == "setup_character":
        _reveal_characters(state, events)
    else:
        _reveal_retrievals(state, events)


def _reveal_characters(state: State, events: list[Event]) -> None:
    for seat in (0, 1):
        me = player(state, seat)
        me["characters"].append({"card": me["pending"], "status": "support"})
        events.append(
            event(
                Words(
                    N_("%(name)s puts %(card)s into her Character Area, tapped."),
                    {"name": who(state, seat), "card": card_words(state, me["pending"])},
                ),
                type="character",
            )
        )
        me["pending"] = None
        me["ready"] = False
    for seat in (0, 1):
        shuffle(state, player(state, seat)["deck"])
        draw_cards(state, seat, OPENING_HAND, events)
    state["phase"] = "setup_retrieve"


def _reveal_retrievals(state: State, events: list[Event]) -> None:
    for seat in (0, 1):
        me = player(state, seat)
        me["hand"].append(me["pending"])
        me["known"].append(me["pending"])
        events.append(
            event(
                Words(
                    N_("%(name)s shows %(card)s and adds it to her hand."),
                    {"name": who(state, seat), "card": card_words(state, me["pending"])},
                ),
                type="retrieve",
            )
        )
        me["pending"] = None
        me["ready"] = False
        shuffle(state, me["deck"])
    choice = state["options"]["first_player"]
    first = rng_draw(state, 2) if choice == "random" else (0 if choice == "first" else 1)
    state["first"] = first
    state["active"] = first
    events.append(
        event(Words(N_("%(name)s goes first."), {"name": who(state, first)}), type="first_player")
    )
    phases.start_turn(state, events)
