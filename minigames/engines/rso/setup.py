"""Starting a game (rulebook "Starting the Game", lines 21-33): decks, Leader choice, the
6-card opening hand, both mulligan rules, and who goes first (a house rule).

State keys (all JSON):

* ``cards`` number -> card data (only the cards of the two decks, so the state is
  self-contained for replay); ``inst`` card id -> number; ``owner`` card id -> seat;
* ``players``: per seat ``characters``, ``leader`` (a character's card id once revealed),
  ``pending_leader`` (a secret choice until both have chosen), ``hp``, ``max_hp``, ``sp``,
  ``deck`` (top first), ``hand``, ``reserve``, ``active``, ``discard``, ``supports`` (Leader
  Supports on this leader), ``known_bottom`` (cards at the deck bottom everyone saw arrive),
  ``one_spell_mulligan_used``;
* ``attached`` spell id -> its Spell Support; ``scene``: the Scene on the Boundary;
* ``phase``/``step``, ``turn``, ``attacker``, ``first``, ``window`` (whose turn it is to play
  or pass, and the passes in a row), ``battle``, ``reserved`` (a spell went to the Reserve this
  Preparation), ``used`` (Specials used this turn), ``mods`` (this turn's modifiers);
* ``winner``/``reason`` once over (``reason`` in English, ``reason_words`` the same as the
  engine's words, :func:`westernroses.words.Words.to_json`); ``rng``: the seeded random source.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from minigames.engines.rso.abilities import draw
from minigames.engines.rso.cards import Card, load_card_set, shared_starter_set
from minigames.engines.rso.decks import deck_rule_words, preset_deck, sentences
from minigames.engines.rso.house_rules import option
from minigames.engines.rso.state import OPENING_HAND, State, card_of, name_of, named, player_name
from westernroses.protocol import Event, IllegalAction, event
from westernroses.rng import RandomSource
from westernroses.words import N_, Words, listing

DEFAULT_DECKS = ("shrine-and-star", "scarlet-household")
DEFAULT_NAMES = ("Player A", "Player B")


def _deck_list(entry: object, seat: int) -> list[str]:
    if isinstance(entry, str):
        try:
            return preset_deck(entry)
        except KeyError:
            raise ValueError(f"Seat {seat + 1}'s deck {entry!r} is not a preset deck.") from None
    if not isinstance(entry, Sequence) or not all(isinstance(n, str) for n in entry):
        raise ValueError(f"Seat {seat + 1}'s deck must be a list of card numbers.")
    return [str(n) for n in entry]


def new_state(
    seed: int, options: Mapping[str, Any], config: Mapping[str, Any]
) -> tuple[State, list[Event]]:
    """A game waiting for both Leader choices; ``ValueError`` (in words) for a bad config."""
    extra = config.get("cards") or []
    if not isinstance(extra, Sequence):
        raise ValueError("Extra cards must be a list of card definitions.")
    # The bundled set is validated once per process and read, never copied, per deal: a
    # state's cards are shared read-only by all its clones (state.SHARED_KEYS) anyway.
    card_set: Mapping[str, Card] = load_card_set(extra) if extra else shared_starter_set()
    decks_in = config.get("decks") or list(DEFAULT_DECKS)
    if not isinstance(decks_in, Sequence) or len(decks_in) != 2:
        raise ValueError("Rumbling Spell Orchestra needs exactly two decks, one per seat.")
    decks = [_deck_list(entry, seat) for seat, entry in enumerate(decks_in)]
    for seat, deck in enumerate(decks):
        errors = deck_rule_words(deck, card_set)
        if errors:
            raise ValueError(
                Words(
                    N_("Seat %(seat)s's deck is not legal: %(rules)s"),
                    {"seat": seat + 1, "rules": sentences(errors)},
                )
            )
    names = list(config.get("names") or DEFAULT_NAMES)
    if len(names) != 2 or not all(isinstance(n, str) and n for n in names):
        raise ValueError("Give two seat names.")
    used = sorted({n for deck in decks for n in deck})
    rng = RandomSource(seed)
    state: State = {
        "version": 1,
        "cards": {n: card_set[n] for n in used},
        "inst": {},
        "owner": {},
        "names": names,
        "options": dict(options),
        "players": [],
        "attached": {},
        "scene": None,
        "phase": "leader",
        "step": "leader",
        "turn": 0,
        "attacker": 0,
        "first": None,
        "window": None,
        "battle": None,
        "reserved": False,
        "used": [],
        "mods": [],
        "mulligan_seat": None,
        "winner": None,
        "reason": "",
    }
    counter = 0
    for seat, deck in enumerate(decks):
        player: dict[str, Any] = {
            "characters": [],
            "leader": None,
            "pending_leader": None,
            "hp": 0,
            "max_hp": 0,
            "sp": 0,
            "deck": [],
            "hand": [],
            "reserve": [],
            "active": [],
            "discard": [],
            "supports": [],
            "known_bottom": 0,
            "one_spell_mulligan_used": False,
        }
        for number in deck:
            counter += 1
            inst = f"rso-card-{counter}"
            state["inst"][inst] = number
            state["owner"][inst] = seat
            zone = "characters" if card_set[number]["kind"] == "character" else "deck"
            player[zone].append(inst)
        rng.shuffle(player["deck"])
        state["players"].append(player)
    state["rng"] = rng.to_dict()
    events = [
        event(
            Words(
                N_(
                    "Both decks are shuffled. "
                    "Each player chooses a Leader from her four characters."
                )
            ),
            type="setup",
        )
    ]
    return state, events


def leader_actions(state: State, seat: int) -> list[dict[str, Any]]:
    player = state["players"][seat]
    if player["pending_leader"] is not None:
        return []
    seen: set[str] = set()
    actions = []
    for inst in player["characters"]:
        number = state["inst"][inst]
        if number in seen:
            continue  # two copies of one character card are the same choice
        seen.add(number)
        actions.append({"type": "choose_leader", "card": inst})
    return actions


def choose_leader(state: State, seat: int, inst: str, events: list[Event]) -> None:
    """Record a secret Leader choice; once both have chosen, reveal both and deal."""
    player = state["players"][seat]
    player["pending_leader"] = inst
    events.append(
        event(
            Words(N_("You choose %(card)s as your Leader."), {"card": named(state, inst)}),
            type="leader",
            visible_to=[seat],
        )
    )
    events.append(
        event(
            Words(N_("%(name)s has chosen a Leader."), {"name": player_name(state, seat)}),
            type="leader",
            hidden_from=[seat],
        )
    )
    if any(p["pending_leader"] is None for p in state["players"]):
        return
    for s, p in enumerate(state["players"]):
        p["leader"] = p["pending_leader"]
        p["pending_leader"] = None
        card = card_of(state, p["leader"])
        p["hp"] = p["max_hp"] = int(card["hp"])
        p["sp"] = 0
        events.append(
            event(
                Words(
                    N_("%(name)s reveals %(card)s as Leader (%(hp)s HP)."),
                    {
                        "name": player_name(state, s),
                        "card": named(state, p["leader"]),
                        "hp": card["hp"],
                    },
                ),
                type="leader",
            )
        )
    for s in (0, 1):
        draw(state, s, OPENING_HAND, events)
    state["phase"] = state["step"] = "mulligan"
    state["mulligan_seat"] = 0


def spells_in_hand(state: State, seat: int) -> int:
    return sum(1 for c in state["players"][seat]["hand"] if card_of(state, c)["kind"] == "spell")


def can_mulligan(state: State, seat: int) -> bool:
    """No Spell: as often as needed; exactly one Spell: once (rulebook lines 27-29)."""
    spells = spells_in_hand(state, seat)
    player = state["players"][seat]
    return spells == 0 or (spells == 1 and not player["one_spell_mulligan_used"])


def mulligan_actions(state: State, seat: int) -> list[dict[str, Any]]:
    if state["mulligan_seat"] != seat:
        return []
    actions: list[dict[str, Any]] = [{"type": "keep"}]
    if can_mulligan(state, seat):
        actions.append({"type": "mulligan"})
    return actions


def mulligan(state: State, seat: int, events: list[Event]) -> None:
    if not can_mulligan(state, seat):
        raise IllegalAction(
            Words(N_("You may mulligan only with no Spell in hand, or once with exactly one."))
        )
    player = state["players"][seat]
    spells = spells_in_hand(state, seat)
    if spells == 1:
        player["one_spell_mulligan_used"] = True
    hand = sorted(player["hand"], key=lambda c: name_of(state, c))
    names = listing([named(state, c) for c in hand], last="comma")
    if spells == 0:
        text = N_("%(name)s reveals a hand with no Spell (%(cards)s) and mulligans.")
    else:
        text = N_("%(name)s reveals a hand with one Spell (%(cards)s) and mulligans.")
    events.append(
        event(
            Words(text, {"name": player_name(state, seat), "cards": names}),
            type="mulligan",
        )
    )
    player["deck"].extend(player["hand"])
    player["hand"] = []
    rng = RandomSource.from_dict(state["rng"])
    rng.shuffle(player["deck"])
    state["rng"] = rng.to_dict()
    player["known_bottom"] = 0
    draw(state, seat, OPENING_HAND, events)


def keep(state: State, seat: int, events: list[Event]) -> bool:
    """Keep the hand; True once both have kept. The first player is then decided by the
    house rule "Who goes first" (line 33: "either randomly or by mutual consensus"; drawn at
    random by default)."""
    events.append(
        event(
            Words(N_("%(name)s keeps the opening hand."), {"name": player_name(state, seat)}),
            type="mulligan",
        )
    )
    if seat == 0:
        state["mulligan_seat"] = 1
        return False
    state["mulligan_seat"] = None
    rule = option(state, "first_player")
    if rule == "random":
        rng = RandomSource.from_dict(state["rng"])
        first = rng.randbelow(2)
        state["rng"] = rng.to_dict()
    else:
        first = 0 if rule == "first" else 1
    state["first"] = state["attacker"] = first
    events.append(
        event(
            Words(N_("%(name)s goes first and attacks."), {"name": player_name(state, first)}),
            type="setup",
        )
    )
    return True
