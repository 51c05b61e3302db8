"""What each seat may not see, and dealing it anew for the search bot (determinize).

Hidden from a seat: the order and contents of the Preparation and Encounter decks (and of the
Mini Spirit War's deck), the cards in other players' hands except those shown to everyone
(``state["known"]``), other players' face-down summons and Support cards until they are
revealed, and, for a Support choice made at the same time as the other side's
(battles.choices_blind), whether a card was put down at all. A spectator (seat None) sees only
public cards.

:func:`determinize` deals every hidden card and choice anew, keeping what the seat knows: her
own hand and choices, every public card, every count as she sees it (deck sizes, hand sizes:
player_view.hand_size), that a face-down summon is a Spirit, that a card shown to everyone is in its
owner's hand or among her face-down cards (piles.shown_cards), and that an attacker still to
summon holds a Spirit (:func:`must_hold_spirit`). A Support choice hidden from the seat is
dealt anew too: a card face down or none, one chance in two. Encounter cards only trade places
within the Encounter deck (they never reach a hand); Preparation cards trade places across the
deck, others' hands and face-down slots.
"""

from __future__ import annotations

from minigames.engines.spirit_war.battles import choice_public
from minigames.engines.spirit_war.piles import (
    State,
    clone,
    face_down_cards,
    is_spirit,
    shown_cards,
    sort_ids,
    spirits_in_hand,
)
from minigames.engines.spirit_war.player_view import hand_size
from westernroses.rng import RandomSource

#: A hidden place for a Preparation card: (place, owner seat / battle side, index,
#: must_be_spirit); place "hand" (owner seat), "summon" / "support" (battle side), "prep".
Slot = tuple[str, int, int, bool]


def hidden_from(state: State, seat: int | None) -> set[str]:
    """Ids of every card ``seat`` may not see now: others' unshown hand cards and face-down
    cards (a shown card put face down stays visible by id: where it lies is what is hidden),
    and the decks."""
    ids = set(_hidden_preparation(state, seat))
    ids.update(state["encounter_deck"])
    if state["mini"] is not None:
        ids.update(state["mini"]["deck"])
    return ids


#: Deals tried before a seat the rules say holds a Spirit is dealt one outright (rejection
#: sampling keeps the deal uniform among the consistent ones; the fallback keeps it bounded).
DEAL_TRIES = 32


def must_hold_spirit(state: State, seat: int) -> list[int]:
    """Seats other than ``seat`` that everyone knows hold a Spirit in hand, though no Spirit
    of theirs is public: the attacker of a battle who has not summoned yet (she could only
    attack holding one, rules "Attack"; she is waited on to summon it). A deal without one
    would leave her waited on with no legal move."""
    battle = state["battle"]
    if state["phase"] != "summon" or battle is None or battle["summoned"][0]:
        return []
    attacker = int(battle["sides"][0])
    if attacker == seat:
        return []
    known = set(state["known"])
    if any(cid in known for cid in spirits_in_hand(state, attacker)):
        return []
    return [attacker]


def _places(state: State, seat: int, rng: RandomSource) -> dict[int, list[Slot]]:
    """Each other player's hidden places as ``seat`` sees them, emptied in ``state``: her hand
    (of the size ``seat`` sees), an unrevealed summon (a Spirit) and a face-down Support card.
    A Support choice hidden from ``seat`` is dealt anew here (a card or none)."""
    battle = state["battle"]
    places: dict[int, list[Slot]] = {}
    for owner in range(state["seats"]):
        if owner == seat:
            continue
        size = hand_size(state, owner, seat)
        slots: list[Slot] = []
        if battle is not None and owner in battle["sides"]:
            side = battle["sides"].index(owner)
            if not battle["revealed"] and battle["summon"][side] is not None:
                slots.append(("summon", side, 0, True))
            if battle["supported"][side] and not choice_public(state, side):
                placed = size > 0 and rng.randbelow(2) == 1
                battle["support"][side] = "" if placed else None
                size -= int(placed)
            if battle["support"][side] is not None:
                slots.append(("support", side, 0, False))
        state["hands"][owner] = [""] * size
        slots[:0] = [("hand", owner, i, False) for i in range(size)]
        places[owner] = slots
    return places


def _set(state: State, slot: Slot, cid: str) -> None:
    place, who, i, _ = slot
    if place == "hand":
        state["hands"][who][i] = cid
    elif place == "prep":
        state["prep_deck"][i] = cid
    else:
        state["battle"][place][who] = cid


def _place_shown(
    out: State,
    places: dict[int, list[Slot]],
    shown: dict[int, list[str]],
    pool: list[str],
    rng: RandomSource,
) -> list[Slot]:
    """Put each owner's shown cards into her places at random; the places left free.

    A face-down summon is a Spirit: one of her shown Spirits, or one of the hidden Spirits
    expected among her other cards (her hidden places times the pool's share of Spirits),
    weighed by their numbers, keeping a hidden Spirit for every summon that has no shown
    Spirit to take (the deal must stay possible). Her other shown cards go to her other places.
    """
    spirits = sum(1 for cid in pool if is_spirit(out, cid))
    share = (spirits, max(len(pool), 1))
    summons = {o: [s for s in slots if s[3]] for o, slots in places.items()}
    mine = {o: [c for c in shown[o] if is_spirit(out, c)] for o in places}
    spirits -= sum(1 for o in places if summons[o] and not mine[o])
    free: list[Slot] = []
    for owner, slots in places.items():
        left = list(shown[owner])
        rest = [s for s in slots if not s[3]]
        hidden = len(slots) - len(left)
        for slot in summons[owner]:
            k = len(mine[owner])
            must = len(left) > len(rest) or spirits <= 0
            weight = k * share[1] + hidden * share[0]  # k against hidden * spirits / pool
            if k and (must or rng.randbelow(weight) < k * share[1]):
                cid = mine[owner].pop(rng.randbelow(k))
                left.remove(cid)
                _set(out, slot, cid)
            else:
                spirits -= 1 if k else 0
                free.append(slot)
        for cid in left:
            _set(out, rest.pop(rng.randbelow(len(rest))), cid)
        free += rest
    return free


def _deal(out: State, slots: list[Slot], pool: list[str], rng: RandomSource) -> None:
    """Deal ``pool`` into ``slots``: a random Spirit into each slot that must hold one, the
    rest in shuffled order into the others."""
    pool = list(pool)
    rng.shuffle(pool)
    spirits = [cid for cid in pool if is_spirit(out, cid)]
    chosen: list[str] = []
    placed: set[tuple[str, int, int]] = set()
    for slot in slots:
        if slot[3] and spirits:  # a Spirit is always left for it but in the fallback's worst
            cid = spirits.pop(rng.randbelow(len(spirits)))
            chosen.append(cid)
            placed.add(slot[:3])
            _set(out, slot, cid)
    rest = [cid for cid in pool if cid not in chosen]
    for slot in slots:
        if slot[:3] not in placed:
            _set(out, slot, rest.pop(0))


def determinize(state: State, seat: int, seed: int) -> State:
    """A copy of ``state`` with what is hidden from ``seat`` dealt anew, and a fresh random
    source seeded by ``seed``.

    Every world dealt is one the rules allow: each seat waited on keeps a legal move (the
    protocol's promise). The one public fact about hidden hands that matters is
    :func:`must_hold_spirit`; a deal that breaks it is dealt again (uniform among the deals
    that keep it), and after :data:`DEAL_TRIES` one of that seat's hidden hand cards is dealt
    a Spirit outright.

    The deal reads only what ``seat`` sees (counts, shown cards, the hidden cards as a sorted
    pool), so two states that look the same to her deal the same world for one seed: the
    search compares its moves on common deals (docs/bots.md, paired worlds).
    """
    out = clone(state)
    rng = RandomSource(seed)
    shown = {o: shown_cards(state, o) for o in range(state["seats"]) if o != seat}
    pool = sort_ids(_hidden_preparation(state, seat))
    places = _places(out, seat, rng)
    needy = must_hold_spirit(state, seat)
    prep = [("prep", 0, i, False) for i in range(len(out["prep_deck"]))]
    for attempt in range(DEAL_TRIES + 1):
        free = _place_shown(out, places, shown, pool, rng)
        if attempt == DEAL_TRIES:  # the fallback: a hidden hand card of each needy seat
            for owner in needy:
                own = [i for i, slot in enumerate(free) if slot[:2] == ("hand", owner)]
                pick = own[rng.randbelow(len(own))]
                free[pick] = (*free[pick][:3], True)
        _deal(out, free + prep, pool, rng)
        if all(spirits_in_hand(out, s) for s in needy):
            break
    out["hands"] = [sort_ids(hand) for hand in out["hands"]]
    out["encounter_deck"] = sorted(out["encounter_deck"])
    rng.shuffle(out["encounter_deck"])
    if out["mini"] is not None:
        out["mini"]["deck"] = sorted(out["mini"]["deck"])
        rng.shuffle(out["mini"]["deck"])
    out["rng"] = rng.to_dict()
    return out


def _hidden_preparation(state: State, seat: int | None) -> list[str]:
    """The Preparation cards hidden from ``seat``: the deck, others' unshown hand cards and
    face-down cards."""
    known = set(state["known"])
    cards = list(state["prep_deck"])
    for owner, hand in enumerate(state["hands"]):
        if owner != seat:
            cards += [c for c in [*hand, *face_down_cards(state, owner)] if c not in known]
    return cards
