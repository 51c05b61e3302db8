"""A new Spirit War: house rules, building the two decks, dealing with reveal-and-redraw.

The rulebook gives no card counts, so the deck composition is a house rule (RULINGS "Spirit War,
RSO, DBS"): how many Spirit, Spell, Attack, Fortune and Disaster cards. Each kind's definitions
are taken in turn, in data order, until the count is reached (36 Spirits from 12 definitions is
three of each). Setting up follows "Setting up": five cards each; a player without a Spirit
shows her hand, discards it and draws five more, until everyone holds a Spirit; then the
discarded cards are shuffled back into the Preparation deck.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from minigames.engines.spirit_war.cards import KINDS, card_set
from minigames.engines.spirit_war.piles import (
    State,
    hand_words,
    shuffle,
    sort_ids,
    spirits_in_hand,
)
from westernroses.protocol import HouseRule
from westernroses.rng import RandomSource
from westernroses.words import N_, Words, listing, said

#: Format of the stored state; a future incompatible change gets a new number.
STATE_FORMAT: Final = 1
#: Spirit War is for two to six players.
MIN_SEATS: Final = 2
MAX_SEATS: Final = 6

#: How many redeals setting up may take before the deck is declared unable to give everyone a
#: Spirit (only a GM's odd deck with very few Spirits could get near it).
MAX_SETUP_ROUNDS: Final = 500

HOUSE_RULES: Final = (
    HouseRule(
        "spirit_cards",
        Words(N_("Spirit cards")),
        36,
        Words(N_("Spirit cards in the Preparation deck.")),
        minimum=6,
        maximum=120,
    ),
    HouseRule(
        "spell_cards",
        Words(N_("Spell cards")),
        18,
        Words(N_("Spell cards in the Preparation deck.")),
        minimum=0,
        maximum=90,
    ),
    HouseRule(
        "attack_cards",
        Words(N_("Attack cards")),
        16,
        Words(N_("Attack cards in the Encounter deck.")),
        minimum=1,
        maximum=60,
    ),
    HouseRule(
        "fortune_cards",
        Words(N_("Fortune cards")),
        8,
        Words(N_("Fortune cards in the Encounter deck.")),
        minimum=0,
        maximum=60,
    ),
    HouseRule(
        "disaster_cards",
        Words(N_("Disaster cards")),
        8,
        Words(N_("Disaster cards in the Encounter deck.")),
        minimum=0,
        maximum=60,
    ),
    HouseRule(
        "hand_size",
        Words(N_("Starting hand")),
        5,
        Words(N_("Cards dealt to each player when setting up (the rulebook says five).")),
        minimum=1,
        maximum=10,
    ),
    HouseRule(
        "support_order",
        Words(N_("Choosing Support cards")),
        "together",
        Words(
            N_(
                "Who chooses a Support card first once the Spirits are revealed. Both at once: "
                "neither "
                "side learns anything of the other's choice, not even whether a card was put down, "
                "until both are revealed. Losing side first: the table sees whether she put a card "
                "down before the other side chooses."
            )
        ),
        choices=(
            ("together", Words(N_("Both sides at once, face down"))),
            (
                "loser_first",
                Words(N_("The losing side first, then the other (both at once after a draw)")),
            ),
        ),
    ),
    HouseRule(
        "skip_proof",
        Words(N_("Skipping an attack without a Spirit")),
        "none",
        Words(N_("Whether a player who must attack but holds no Spirit shows her hand as proof.")),
        choices=(
            ("none", Words(N_("She skips the attack without showing her hand"))),
            ("show_hand", Words(N_("She shows her hand as proof"))),
        ),
    ),
    HouseRule(
        "rare_outcome",
        Words(N_("When the survivors run out of Spirits")),
        "vote",
        Words(
            N_(
                "What happens when two or more survivors have no Spirits left and the Preparation "
                "deck is exhausted."
            )
        ),
        choices=(
            ("vote", Words(N_("The survivors vote: a Mini Spirit War unless all agree to share"))),
            ("mini_war", Words(N_("Always a Mini Spirit War"))),
            ("share", Words(N_("Always end the war with a shared result"))),
        ),
    ),
)

COUNT_OPTIONS: Final = {
    "spirit": "spirit_cards",
    "spell": "spell_cards",
    "attack": "attack_cards",
    "fortune": "fortune_cards",
    "disaster": "disaster_cards",
}


def resolve_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """House-rule values with defaults filled in; ``ValueError`` in words for anything else."""
    rules = {rule.key: rule for rule in HOUSE_RULES}
    given = dict(options or {})
    unknown = sorted(set(given) - set(rules))
    if unknown:
        raise ValueError(f"Spirit War has no house rule called {unknown[0]!r}.")
    out: dict[str, Any] = {}
    for key, rule in rules.items():
        value = given.get(key, rule.default)
        if rule.choices:
            allowed = [v for v, _ in rule.choices]
            if value not in allowed:
                labels = listing([label for _, label in rule.choices], last="comma")
                raise ValueError(
                    Words(
                        N_("%(rule)s must be one of: %(choices)s."),
                        {"rule": rule.label, "choices": labels},
                    )
                )
        else:
            low = rule.minimum if rule.minimum is not None else 0
            high = rule.maximum if rule.maximum is not None else low
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(
                    Words(N_("%(rule)s must be a whole number."), {"rule": rule.label})
                )
            if not low <= value <= high:
                raise ValueError(
                    Words(
                        N_("%(rule)s must be between %(low)s and %(high)s."),
                        {"rule": rule.label, "low": low, "high": high},
                    )
                )
        out[key] = value
    return out


def _names(seats: int, config: Mapping[str, Any]) -> list[str]:
    names = config.get("names")
    if names is None:
        return [f"Player {i + 1}" for i in range(seats)]
    if (
        not isinstance(names, list)
        or len(names) != seats
        or not all(isinstance(n, str) and n.strip() and len(n) <= 60 for n in names)
    ):
        raise ValueError(f"Names must be a list of {seats} short names, one per seat.")
    return [n.strip() for n in names]


def new_state(
    *,
    seats: int,
    seed: int,
    options: Mapping[str, Any] | None,
    config: Mapping[str, Any] | None,
) -> State:
    """A dealt game, ready for the first player's turn."""
    if isinstance(seats, bool) or not isinstance(seats, int) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValueError(Words(N_("Spirit War is played by 2 to 6 players.")))
    opts = resolve_options(options)
    config = dict(config or {})
    unknown = sorted(set(config) - {"names", "first_seat", "extra_cards"})
    if unknown:
        raise ValueError(f"Spirit War has no set-up setting called {unknown[0]!r}.")
    first = config.get("first_seat", 0)
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < seats:
        raise ValueError("The first player must be one of the seats.")
    cards = card_set(config.get("extra_cards"))

    defs: dict[str, dict[str, Any]] = {}
    ids: dict[str, str] = {}
    piles: dict[str, list[str]] = {"prep": [], "encounter": []}
    number = 0
    for kind in KINDS:
        pool = cards[kind]
        for i in range(opts[COUNT_OPTIONS[kind]]):
            definition = pool[i % len(pool)]
            defs[definition["key"]] = definition
            number += 1
            cid = f"sw-card-{number}"
            ids[cid] = definition["key"]
            piles["prep" if kind in ("spirit", "spell") else "encounter"].append(cid)
    prep_size = len(piles["prep"])
    if opts["spirit_cards"] < seats:
        raise ValueError(
            Words(N_("The Preparation deck needs at least one Spirit card per player."))
        )
    if prep_size < opts["hand_size"] * (seats + 1):
        raise ValueError(
            Words(
                N_(
                    "The Preparation deck (%(count)s cards) is too small to deal %(hand)s "
                    "cards to %(seats)s players with cards to spare."
                ),
                {"count": prep_size, "hand": opts["hand_size"], "seats": seats},
            )
        )
    if len(piles["encounter"]) < 4:
        raise ValueError(Words(N_("The Encounter deck needs at least 4 cards.")))

    state: State = {
        "format": STATE_FORMAT,
        "seats": seats,
        "names": _names(seats, config),
        "options": opts,
        "defs": defs,
        "cards": ids,
        "prep_deck": piles["prep"],
        "encounter_deck": piles["encounter"],
        "abyss": [],
        "history": [],
        "encounter": [],
        "hands": [[] for _ in range(seats)],
        "known": [],
        # per seat: blind Support cards revealed that could help her, and that could not
        "support_record": [[0, 0] for _ in range(seats)],
        "out": [False] * seats,
        "eliminated_order": [],
        "skip_next": [False] * seats,
        "first_seat": first,
        "turn": first,
        "turn_number": 1,
        "phase": "turn",
        "pending": [],
        "attack": None,
        "battle": None,
        "discard": None,
        "votes": None,
        "mini": None,
        "result": None,
        "setup_notes": [],
        "rng": RandomSource(seed).to_dict(),
    }
    shuffle(state, state["prep_deck"])
    shuffle(state, state["encounter_deck"])
    _deal(state)
    return state


def _deal(state: State) -> None:
    """Deal, then redeal to everyone without a Spirit until each holds one ("Setting up")."""
    size = state["options"]["hand_size"]
    discarded: list[str] = []
    for seat in range(state["seats"]):
        _draw_n(state, seat, size, discarded)
    for _ in range(MAX_SETUP_ROUNDS):
        empty = [s for s in range(state["seats"]) if not spirits_in_hand(state, s)]
        if not empty:
            break
        for seat in empty:
            hand = state["hands"][seat]
            note = Words(
                N_(
                    "%(name)s has no Spirit and shows her hand as proof (%(cards)s), discards "
                    "it and draws %(count)s new cards."
                ),
                {"name": state["names"][seat], "cards": hand_words(state, hand), "count": size},
            )
            state["setup_notes"].append(said(note))
            discarded.extend(hand)
            state["hands"][seat] = []
            _draw_n(state, seat, size, discarded)
    else:
        raise ValueError(Words(N_("This deck has too few Spirit cards to give every player one.")))
    if discarded:
        state["prep_deck"].extend(discarded)
        shuffle(state, state["prep_deck"])
        note = Words(
            N_("The %(count)s discarded cards are shuffled back into the Preparation deck."),
            {"count": len(discarded)},
        )
        state["setup_notes"].append(said(note))


def _draw_n(state: State, seat: int, count: int, discarded: list[str]) -> None:
    if len(state["prep_deck"]) < count:
        # Redeals can outrun a small deck: the discards go back in first (our ruling).
        state["prep_deck"].extend(discarded)
        discarded.clear()
        shuffle(state, state["prep_deck"])
    drawn = state["prep_deck"][:count]
    del state["prep_deck"][:count]
    state["hands"][seat] = sort_ids([*state["hands"][seat], *drawn])
