"""What each seat may see, what is hidden from her, and re-dealing the hidden for the bots.

Hidden from a seat: her own deck's order (so her own deck's card ids), and of her opponent the
deck, the hand except cards shown publicly (the opening retrieval, a Hyper character returning),
the face-down Extra SP cards and Item Area Traps, and a pending opening choice. Everything else
(characters, Spell Chains, graves, face-up Constants, the Duel Zone) is public.

A card shown publicly stays listed among her cards (``hand`` in the others' view: "in her hand
or face down") after she puts it face down into Extra SP or her Item Area, until it is seen
again: otherwise the table would learn which card went face down. Its id is public; where it
lies is what is hidden.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from westernroses.protocol import Json, Seat
from westernroses.rng import RandomSource
from westernroses.words import N_, Words, said

from .phases import PHASE_WORDS
from .rules import State, attack_of, available_sp, card, chain_level, hand_limit, other, player, who
from .setup import deck_numbers
from .vocabulary import KIND_WORDS, card_line_words

#: A character's status in words: fixed words of the engine's, which the app translates on a
#: card's ``status_label`` (``apibase.engine_words.data_in_language``).
STATUS_WORDS = {
    "support": N_("Support (tapped)"),
    "center": N_("Center (upright)"),
    "hyper": N_("Hyper (Duel Zone)"),
}


def _card_view(state: State, iid: str) -> Json:
    definition = card(state, iid)
    return {
        "id": iid,
        "number": definition["number"],
        "name": definition["name"],
        "kind": definition["kind"],
    }


def hidden_ids(state: State, owner: int, viewer: Seat | None) -> list[str]:
    """The card ids of ``owner``'s cards hidden from ``viewer``."""
    me = player(state, owner)
    hidden = list(me["deck"])  # the deck's order is hidden even from its owner
    if viewer == owner:
        return hidden
    hidden += [iid for iid in _held(me) if iid not in me["known"]]
    if me["pending"] is not None:
        hidden.append(me["pending"])
    return hidden


def _held(me: Json) -> list[str]:
    """A player's cards the others cannot see: her hand and her face-down cards."""
    face_down = [item["card"] for item in me["items"] if item["face_down"]]
    return [*me["hand"], *me["extra_sp"], *face_down]


def shown(me: Json) -> list[str]:
    """The cards everyone has seen her hold and not seen leave her (in her hand, or put face
    down since), in the order they were shown."""
    held = set(_held(me))
    return [iid for iid in me["known"] if iid in held]


def hidden_from(state: State, seat: Seat | None) -> set[str]:
    return {iid for owner in (0, 1) for iid in hidden_ids(state, owner, seat)}


def _player_view(state: State, owner: int, viewer: Seat | None) -> Json:
    me = player(state, owner)
    mine = viewer == owner
    hand = [_card_view(state, iid) for iid in (me["hand"] if mine else shown(me))]
    items = []
    for item in me["items"]:
        if item["face_down"] and not mine:
            items.append({"face_down": True})
        else:
            items.append({**_card_view(state, item["card"]), "face_down": item["face_down"]})
    view: Json = {
        "name": who(state, owner),
        "lp": me["lp"],
        "beads": list(me["beads"]),
        "available_sp": available_sp(state, owner),
        "deck_count": len(me["deck"]),
        "hand_count": len(me["hand"]),
        "hand": hand,
        "hand_limit": hand_limit(state, owner),
        "extra_sp_count": len(me["extra_sp"]),
        "extra_sp": [_card_view(state, iid) for iid in me["extra_sp"]] if mine else [],
        "items": items,
        "characters": [
            {
                **_card_view(state, slot["card"]),
                "status": slot["status"],
                "status_label": STATUS_WORDS[slot["status"]],
            }
            for slot in me["characters"]
        ],
        "chain": [_card_view(state, iid) for iid in me["chain"]],
        "chain_level": chain_level(state, owner),
        "grave": [_card_view(state, iid) for iid in me["grave"]],
        "ready": me["ready"],
    }
    if mine and state["phase"].startswith("setup"):
        view["deck_list"] = deck_numbers(state, owner)
    if mine and me["pending"] is not None:
        view["pending"] = _card_view(state, me["pending"])
    return view


def view(state: State, seat: Seat | None) -> Json:
    clash = state["clash"]
    clash_view = None
    if clash is not None:
        attacker = clash["attacker"]
        clash_view = {
            "attacker": attacker,
            "attack": _card_view(state, clash["attack"]),
            "attack_value": attack_of(
                state, attacker, clash["attack"], "attacking", clash["boost"]["attack"]
            ),
            "counter": _card_view(state, clash["counter"]) if clash["counter"] else None,
            "reacted": clash["reacted"],
        }
    return {
        "game": "Dream Battle of SpellCard",
        "seat": seat,
        "phase": state["phase"],
        "phase_label": PHASE_WORDS[state["phase"]],
        # the phase in the reader's language: ``text`` rendered from its words by the app
        "phase_text": said(Words(PHASE_WORDS[state["phase"]])),
        "turn": state["turn"],
        "active": state["active"],
        "first": state["first"],
        "changed": state["changed"],
        "players": [_player_view(state, owner, seat) for owner in (0, 1)],
        "clash": clash_view,
        "result": state["result"],
        "options": dict(state["options"]),
        "cards": card_texts(state, seat),
    }


def card_texts(state: State, seat: Seat | None) -> Json:
    """Each card ``seat`` may see, by number, in words: what a table page shows on a card face
    (cost, attack, Level, whose Spellcard) and the whole card as a sentence for its details.

    Only numbers of cards she can see now (and, in the opening, of her own deck list) are
    listed, so the map says nothing about a hand, a face-down card or a deck."""
    hidden = hidden_from(state, seat)
    numbers = {state["instances"][iid] for iid in state["instances"] if iid not in hidden}
    if seat in (0, 1) and state["phase"].startswith("setup"):
        numbers.update(deck_numbers(state, int(seat)))
    return {number: _card_text(state, number) for number in sorted(numbers)}


#: number -> (the definition it was made from, its words): a game's clones share one card map,
#: so a view (which bots build many times a move) describes each card once per game.
_TEXTS: dict[str, tuple[Mapping[str, Any], Json]] = {}


def _card_text(state: State, number: str) -> Json:
    definition = state["cards"][number]
    cached = _TEXTS.get(number)
    if cached is not None and cached[0] is definition:
        return dict(cached[1])
    owner = definition.get("character")
    lines = card_line_words(definition, state["cards"])
    text: Json = {
        "name": definition["name"],
        "kind": definition["kind"],
        "kind_label": KIND_WORDS[definition["kind"]],
        "cost": definition.get("cost"),
        "attack": definition.get("attack"),
        "level": definition.get("level"),
        "limit": definition.get("limit", "none"),
        "character": state["cards"][owner]["name"] if owner and owner in state["cards"] else None,
        "lines": [str(line) for line in lines],
        # the same lines as message ids: the app renders ``lines`` from them in the reader's
        # language (``apibase.engine_words.json_in_language``)
        "line_words": [line.to_json() for line in lines],
    }
    _TEXTS[number] = (definition, text)
    return dict(text)


def card_locations(state: State) -> list[tuple[int, str, str]]:
    """Every card instance as ``(owner, zone, id)``: deck, hand, extra_sp, items, characters,
    chain, grave, pending and the Duel Zone's clash. Each id must appear exactly once."""
    found: list[tuple[int, str, str]] = []
    for owner in (0, 1):
        me = player(state, owner)
        for zone in ("deck", "hand", "extra_sp", "chain", "grave"):
            found += [(owner, zone, iid) for iid in me[zone]]
        found += [(owner, "items", item["card"]) for item in me["items"]]
        found += [(owner, "characters", slot["card"]) for slot in me["characters"]]
        if me["pending"] is not None:
            found.append((owner, "pending", me["pending"]))
    clash = state["clash"]
    if clash is not None:
        found.append((clash["attacker"], "duel_zone", clash["attack"]))
        if clash["counter"] is not None:
            found.append((other(clash["attacker"]), "duel_zone", clash["counter"]))
    return found


def determinize(state: State, seat: int, seed: int) -> State:
    """Deal anew what ``seat`` cannot see: her own deck's order, and her opponent's hidden
    cards (deck, unshown hand cards, Extra SP, face-down Traps, a pending choice) from the pool
    of those same cards, keeping what she knows: face-down items are Traps, a pending opening
    character is a character, and every zone keeps its size.

    The pool is the opponent's real hidden cards, so the re-deal assumes her deck list is
    known (true of preset decks; a simplification for custom ones)."""
    from .engine import clone

    result = clone(state)
    rng = RandomSource(seed)
    mine = player(result, seat)
    rng.shuffle(mine["deck"])
    foe = player(result, other(seat))
    known = shown(foe)  # in her hand or face down: dealt back among those places
    trap_slots = [i for i, item in enumerate(foe["items"]) if item["face_down"]]
    pool = [iid for iid in _held(foe) if iid not in known] + list(foe["deck"])
    if foe["pending"] is not None:
        pool.append(foe["pending"])
    pool.sort()  # what she sees decides the deal, not where the cards lie
    rng.shuffle(pool)

    def take(kind: str | None) -> str:
        for index, iid in enumerate(pool):
            if kind is None or card(result, iid)["kind"] == kind:
                return str(pool.pop(index))
        raise AssertionError("the hidden pool lost a card it must hold")  # pragma: no cover

    # a face-down item is a Trap: a shown Trap or a hidden one, each alike, but enough shown
    # ones face down that the others fit in her hand and Extra SP
    traps = [iid for iid in known if card(result, iid)["kind"] == "trap"]
    need = len(known) - len(foe["hand"]) - len(foe["extra_sp"])
    for n, i in enumerate(trap_slots):
        hidden_traps = sum(1 for iid in pool if card(result, iid)["kind"] == "trap")
        pick = rng.randbelow(len(traps) + hidden_traps)
        if need >= len(trap_slots) - n or pick < len(traps):
            need -= 1
            pick = min(pick, len(traps) - 1)
            foe["items"][i]["card"] = traps.pop(pick)
        else:
            foe["items"][i]["card"] = take("trap")
    placed = {item["card"] for item in foe["items"]}
    free = [("hand", i) for i in range(len(foe["hand"]))]
    free += [("extra_sp", i) for i in range(len(foe["extra_sp"]))]
    for iid in known:
        if iid not in placed:
            zone, i = free.pop(rng.randbelow(len(free)))
            foe[zone][i] = iid
            placed.add(iid)
    if foe["pending"] is not None:
        foe["pending"] = take("character" if result["phase"] == "setup_character" else None)
    for zone, i in free:
        foe[zone][i] = take(None)
    foe["deck"] = [take(None) for _ in foe["deck"]]
    result["rng"] = rng.to_dict()
    return result
