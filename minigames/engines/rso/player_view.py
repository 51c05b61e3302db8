"""What each seat may see, what is hidden from it, and dealing the hidden part anew.

Hidden: the other player's hand, and the order (hence the ids) of both decks; a Leader choice
until both have chosen. Everything on the field, both discard piles and the cards everyone saw
go to a deck's bottom (Doctrine) are public. Nothing else serialises state for a client.
"""

from __future__ import annotations

from minigames.engines.rso.phases import PHASE_NAMES, waiting_on
from minigames.engines.rso.state import (
    HAND_LIMIT,
    Card,
    Effects,
    State,
    card_of,
    clone,
    leader_stats,
    name_of,
    passive_effects,
    reason_words,
    spell_stats,
)
from minigames.engines.rso.words import KIND_TERMS, KIND_WORDS, TERM, card_line_words
from westernroses.protocol import Json
from westernroses.rng import RandomSource
from westernroses.words import Words, said


def card_view(state: State, inst: str) -> Json:
    card = card_of(state, inst)
    view: Json = {
        "id": inst,
        "number": state["inst"][inst],
        "name": card["name"],
        "kind": card["kind"],
    }
    return view


def spell_view(state: State, inst: str, effects: Effects) -> Json:
    """A spell with its stats now; ``effects`` are the state's passive effects (worked out
    once per view, not once per spell)."""
    view = card_view(state, inst)
    stats = spell_stats(state, inst, effects)
    view.update({k: stats[k] for k in ("av", "iv", "hv", "shot")})
    view["basic"] = {k: v for k, v in stats["basic"].items() if v}
    support = state["attached"].get(inst)
    view["support"] = None if support is None else card_view(state, support)
    return view


def _player_view(state: State, seat: int, viewer: int | None, effects: Effects) -> Json:
    player = state["players"][seat]
    lead = player["leader"]
    mine = viewer == seat
    pending = player["pending_leader"]
    view: Json = {
        "seat": seat,
        "name": state["names"][seat],
        "characters": [card_view(state, c) for c in player["characters"]],
        "leader": None if lead is None else {**card_view(state, lead), **leader_stats(state, seat)},
        "leader_chosen": lead is not None or pending is not None,
        "my_leader_choice": card_view(state, pending) if mine and pending else None,
        "hp": player["hp"],
        "max_hp": player["max_hp"],
        "sp": player["sp"],
        "hand_count": len(player["hand"]),
        "deck_count": len(player["deck"]),
        "hand": [card_view(state, c) for c in player["hand"]] if mine else None,
        "reserve": [spell_view(state, c, effects) for c in player["reserve"]],
        "active": [spell_view(state, c, effects) for c in player["active"]],
        "discard": [card_view(state, c) for c in player["discard"]],
        "supports": [card_view(state, c) for c in player["supports"]],
        "deck_bottom": [name_of(state, c) for c in _known_bottom(state, seat)],
    }
    return view


def _known_bottom(state: State, seat: int) -> list[str]:
    deck = state["players"][seat]["deck"]
    known = min(int(state["players"][seat]["known_bottom"]), len(deck))
    return list(deck[len(deck) - known :]) if known else []


def view(state: State, seat: int | None) -> Json:
    battle = state["battle"]
    battle_view = None
    effects = passive_effects(state)
    if battle:
        battle_view = {
            "attack": None
            if battle["attack"] is None
            else spell_view(state, battle["attack"], effects),
            "intercept": None
            if battle["intercept"] is None
            else spell_view(state, battle["intercept"], effects),
            "judged": battle["judged"],
            "escaped": battle["escaped"],
        }
    winner = state["winner"]
    reason = reason_words(state)
    return {
        "game": "rso",
        "you": seat,
        "phase": state["phase"],
        # {"text", "words"}: the page reads ``text``, in the reader's language
        "phase_name": said(Words(PHASE_NAMES[state["phase"]])),
        "step": state["step"],
        "turn": state["turn"],
        "attacker": state["attacker"] if state["phase"] not in ("leader", "mulligan") else None,
        "first": state["first"],
        "priority": None if state["window"] is None else state["window"]["priority"],
        "waiting_on": list(waiting_on(state)),
        "players": [_player_view(state, s, seat, effects) for s in (0, 1)],
        "scene": None if state["scene"] is None else card_view(state, state["scene"]),
        "battle": battle_view,
        "spell_reserved": state["reserved"],
        "hand_limit": HAND_LIMIT,
        "modifiers": [
            {
                "card": m["card"],
                "name": name_of(state, m["card"]),
                "stat": m.get("stat"),
                "ability": m.get("ability"),
                "amount": m["amount"],
            }
            for m in state["mods"]
        ],
        "winner": winner,
        "reason": None if reason is None else said(reason),
        "options": dict(state["options"]),
        "cards": card_texts(state, seat),
    }


def _visible_cards(state: State, seat: int | None) -> set[str]:
    visible: set[str] = set(state["attached"].values())
    if state["scene"] is not None:
        visible.add(state["scene"])
    for s in (0, 1):
        player = state["players"][s]
        for zone in ("characters", "reserve", "active", "discard", "supports"):
            visible.update(player[zone])
        if s == seat:
            visible.update(player["hand"])
    return visible


def card_texts(state: State, seat: int | None) -> Json:
    """Each card ``seat`` can see, by number: its name, kind (and its word) and its lines."""
    numbers = sorted({state["inst"][c] for c in _visible_cards(state, seat)})
    return {n: _card_text(state["cards"][n]) for n in numbers}


#: number -> (the definition it was made from, its words). A game's states share one card
#: map (``SHARED_KEYS``), so each card is put into words once per game, not once per view (the
#: bots build thousands of views a move).
_TEXTS: dict[str, tuple[Card, Json]] = {}


def _card_text(definition: Card) -> Json:
    number = str(definition["number"])
    cached = _TEXTS.get(number)
    if cached is not None and cached[0] is definition:
        return _copied(cached[1])
    lines = card_line_words(definition)
    text: Json = {
        "name": definition["name"],
        "kind": definition["kind"],
        "kind_label": KIND_WORDS[definition["kind"]],
        # the kind as RSO's own term: the app renders ``kind_label`` from it
        "kind_words": Words(KIND_TERMS[definition["kind"]], context=TERM).to_json(),
        "lines": [str(line) for line in lines],
        # the same lines as message ids: the app renders ``lines`` from them in the reader's
        # language (``apibase.engine_words.json_in_language``)
        "line_words": [line.to_json() for line in lines],
    }
    _TEXTS[number] = (definition, text)
    return _copied(text)


def _copied(text: Json) -> Json:
    """A cached card text with its own lists (a view may be changed by whoever reads it)."""
    return {**text, "lines": list(text["lines"]), "line_words": list(text["line_words"])}


def hidden_from(state: State, seat: int | None) -> set[str]:
    hidden: set[str] = set()
    for s in (0, 1):
        player = state["players"][s]
        hidden.update(player["deck"])
        if seat != s:
            hidden.update(player["hand"])
    return hidden


def determinize(state: State, seat: int, seed: int) -> State:
    """Deal anew what ``seat`` cannot see: the other hand and unknown part of her deck (as one
    pool), the unknown part of ``seat``'s own deck, and an unrevealed Leader choice."""
    result = clone(state)
    rng = RandomSource(seed)
    for s in (0, 1):
        player = result["players"][s]
        deck = player["deck"]
        known = min(int(player["known_bottom"]), len(deck))
        top, bottom = deck[: len(deck) - known], deck[len(deck) - known :]
        if s == seat:
            rng.shuffle(top)
            player["deck"] = top + bottom
            continue
        pool = list(player["hand"]) + top
        rng.shuffle(pool)
        count = len(player["hand"])
        player["hand"] = pool[:count]
        player["deck"] = pool[count:] + bottom
        if player["pending_leader"] is not None:
            choices = player["characters"]
            player["pending_leader"] = choices[rng.randbelow(len(choices))]
    result["rng"] = rng.to_dict()
    return result
