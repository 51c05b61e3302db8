"""What each seat may not see, and dealing it anew for the search bot (determinize).

Hidden from a seat: the order and contents of the Preparation and Encounter decks (and of the
Mini Spirit War's deck), the cards in other players' hands except those shown to everyone
(``state["known"]``), and other players' face-down summons and Support cards until they are
revealed. A spectator (seat None) sees only public cards.

:func:`determinize` deals every hidden card anew, keeping what the seat knows: her own hand and
choices, every public card, every count (deck sizes, hand sizes), that a face-down summon is a
Spirit, and that an attacker still to summon holds one (:func:`must_hold_spirit`). Encounter
cards only trade places within the Encounter deck (they never reach a hand); Preparation
cards trade places across the deck, others' unknown hand cards and face-down slots.
"""

from __future__ import annotations

from minigames.engines.spirit_war.piles import State, clone, is_spirit, sort_ids, spirits_in_hand
from westernroses.rng import RandomSource


def _hidden_slots(state: State, seat: int | None) -> list[tuple[str, int, int, bool]]:
    """Hidden Preparation-card slots as (place, owner/side, index, must_be_spirit).
    place: "hand" (owner seat), "summon" / "support" (battle side), "prep" (deck)."""
    slots: list[tuple[str, int, int, bool]] = []
    known = set(state["known"])
    for owner, hand in enumerate(state["hands"]):
        if owner == seat:
            continue
        for i, cid in enumerate(hand):
            if cid not in known:
                slots.append(("hand", owner, i, False))
    battle = state["battle"]
    if battle is not None:
        for side, who in enumerate(battle["sides"]):
            if who == seat:
                continue
            if battle["summon"][side] is not None and not battle["revealed"]:
                slots.append(("summon", side, 0, True))
            if battle["support"][side] is not None:
                slots.append(("support", side, 0, False))
    for i in range(len(state["prep_deck"])):
        slots.append(("prep", 0, i, False))
    return slots


def _get(state: State, slot: tuple[str, int, int, bool]) -> str:
    place, who, i, _ = slot
    if place == "hand":
        return str(state["hands"][who][i])
    if place == "prep":
        return str(state["prep_deck"][i])
    return str(state["battle"][place][who])


def _set(state: State, slot: tuple[str, int, int, bool], cid: str) -> None:
    place, who, i, _ = slot
    if place == "hand":
        state["hands"][who][i] = cid
    elif place == "prep":
        state["prep_deck"][i] = cid
    else:
        state["battle"][place][who] = cid


def hidden_from(state: State, seat: int | None) -> set[str]:
    """Ids of every card ``seat`` may not see now."""
    ids = {_get(state, slot) for slot in _hidden_slots(state, seat)}
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


def _deal(
    out: State,
    slots: list[tuple[str, int, int, bool]],
    pool: list[str],
    rng: RandomSource,
) -> None:
    """Deal ``pool`` into ``slots``: a random Spirit into each slot that must hold one, the
    rest in shuffled order into the others."""
    pool = list(pool)
    rng.shuffle(pool)
    spirits = [cid for cid in pool if is_spirit(out, cid)]
    chosen: list[str] = []
    for slot in slots:
        if slot[3]:
            cid = spirits.pop(rng.randbelow(len(spirits)))
            chosen.append(cid)
            _set(out, slot, cid)
    rest = [cid for cid in pool if cid not in chosen]
    for slot in slots:
        if not slot[3]:
            _set(out, slot, rest.pop(0))


def determinize(state: State, seat: int, seed: int) -> State:
    """A copy of ``state`` with what is hidden from ``seat`` dealt anew, and a fresh random
    source seeded by ``seed``.

    Every world dealt is one the rules allow: each seat waited on keeps a legal move (the
    protocol's promise). The one public fact about hidden hands that matters is
    :func:`must_hold_spirit`; a deal that breaks it is dealt again (uniform among the deals
    that keep it), and after :data:`DEAL_TRIES` one of that seat's hidden hand cards is dealt
    a Spirit outright.
    """
    out = clone(state)
    rng = RandomSource(seed)
    slots = _hidden_slots(out, seat)
    # The pool starts in a fixed order (sorted ids), not the order the cards lie in: two
    # states that look the same to the seat then deal the same world for one seed, so the
    # search can compare its moves on common deals (docs/bots.md, paired worlds).
    pool = sort_ids([_get(out, slot) for slot in slots])
    needy = must_hold_spirit(state, seat)
    for _ in range(DEAL_TRIES):
        _deal(out, slots, pool, rng)
        if all(spirits_in_hand(out, s) for s in needy):
            break
    else:
        for owner in needy:
            own = [i for i, slot in enumerate(slots) if slot[:2] == ("hand", owner)]
            pick = own[rng.randbelow(len(own))]
            slots[pick] = (*slots[pick][:3], True)
        _deal(out, slots, pool, rng)
    out["hands"] = [sort_ids(hand) for hand in out["hands"]]
    out["encounter_deck"] = sorted(out["encounter_deck"])
    rng.shuffle(out["encounter_deck"])
    if out["mini"] is not None:
        out["mini"]["deck"] = sorted(out["mini"]["deck"])
        rng.shuffle(out["mini"]["deck"])
    out["rng"] = rng.to_dict()
    return out
