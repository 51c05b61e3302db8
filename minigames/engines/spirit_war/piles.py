"""Where the cards are: decks, hands, the Abyss and History, and moving cards between them.

Every card instance has an id (``"sw-card-23"``) and sits in exactly one place at any time:
the Preparation deck, the Encounter deck, a hand, the Abyss (used Preparation cards, face up),
History (resolved Encounter cards, face up), the Encounter cards being resolved, a battle's
summon or Support slot, or the Mini Spirit War's piles. :func:`locations` lists them; the
property tests check that no card is ever lost or doubled.

A card in a hand is seen by its owner; it is also public while it stays in that hand after it was
shown to everyone (a winner's Spirit going back to her hand, a hand shown as proof): those ids are
in ``state["known"]``. A known card played face down (a summon, a Support card) stays in
``known`` until the face-down card is revealed: the table saw it in her hand and cannot tell
whether it is the card she put down, so it is shown as "in her hand or face down"
(:func:`shown_cards`). Cards leave ``known`` when they are seen leaving her (discarded, revealed).
"""

from __future__ import annotations

from typing import Any, Final

from westernroses.protocol import Event, event
from westernroses.rng import RandomSource
from westernroses.words import N_, Words, listing

State = dict[str, Any]


def name(state: State, seat: int) -> str:
    """The seat's name for people."""
    return str(state["names"][seat])


def card(state: State, cid: str) -> dict[str, Any]:
    """The definition of card ``cid``."""
    return dict(state["defs"][state["cards"][cid]])


def kind(state: State, cid: str) -> str:
    return str(state["defs"][state["cards"][cid]]["kind"])


def is_spirit(state: State, cid: str) -> bool:
    return kind(state, cid) == "spirit"


def element(state: State, cid: str) -> str:
    return str(state["defs"][state["cards"][cid]]["element"])


#: A card with what it is ("Cinder Fox (a Fire Spirit)"), one sentence per element or kind
#: (:func:`label_words`).
LABEL_WORDS: Final = {
    "fire": N_("%(card)s (a Fire Spirit)"),
    "earth": N_("%(card)s (an Earth Spirit)"),
    "water": N_("%(card)s (a Water Spirit)"),
    "spell": N_("%(card)s (a Spell card)"),
    "attack": N_("%(card)s (an Attack card)"),
    "fortune": N_("%(card)s (a Fortune card)"),
    "disaster": N_("%(card)s (a Disaster card)"),
}


def label_words(state: State, cid: str) -> Words:
    """A card with what it is, as words to read in every language, the card's name as its
    own words (translated when it is one of the game's data)."""
    c = state["defs"][state["cards"][cid]]
    which = str(c["element"]) if c["kind"] == "spirit" else str(c["kind"])
    return Words(LABEL_WORDS[which], {"card": Words(str(c["name"]))})


def card_number(cid: str) -> int:
    return int(str(cid).rsplit("-", 1)[1])


def sort_ids(ids: list[str]) -> list[str]:
    return sorted(ids, key=card_number)


def spirits_in_hand(state: State, seat: int) -> list[str]:
    return [cid for cid in state["hands"][seat] if is_spirit(state, cid)]


def survivors(state: State) -> list[int]:
    """Seats still in the war, in seat order."""
    return [s for s in range(state["seats"]) if not state["out"][s]]


def next_survivor(state: State, seat: int, step: int = 1) -> int:
    """The next (``step=1``) or previous (``step=-1``) seat still in the war, clockwise."""
    n = int(state["seats"])
    other = seat
    for _ in range(n):
        other = (other + step) % n
        if not state["out"][other]:
            return other
    return seat


#: Parts of the state that never change after setting up; copies of a state share them.
FIXED_PARTS = frozenset({"defs", "cards", "names", "options", "setup_notes", "seats", "format"})


_NESTED = (list, dict)


def copy_json(value: Any) -> Any:
    """A deep copy of JSON data. Scalars are shared, not passed through a call each: the
    search bot clones a state at every move of its playouts, and most of a state is lists of
    card ids."""
    if type(value) is list:
        return [copy_json(v) if type(v) in _NESTED else v for v in value]
    if type(value) is dict:
        return {k: copy_json(v) if type(v) in _NESTED else v for k, v in value.items()}
    return value


def clone(state: State) -> State:
    """A copy of ``state`` to change (the engine's deep copy; fixed parts are shared, never
    changed). Much faster than ``copy.deepcopy``, which matters to the search bot."""
    return {
        k: v if k in FIXED_PARTS or type(v) not in _NESTED else copy_json(v)
        for k, v in state.items()
    }


# --------------------------------------------------------------------------- randomness


def randbelow(state: State, n: int) -> int:
    source = RandomSource.from_dict(state["rng"])
    value = source.randbelow(n)
    state["rng"] = source.to_dict()
    return value


def shuffle(state: State, items: list[str]) -> None:
    source = RandomSource.from_dict(state["rng"])
    source.shuffle(items)
    state["rng"] = source.to_dict()


# --------------------------------------------------------------------------- hands


def add_to_hand(state: State, seat: int, cid: str, *, public: bool) -> None:
    state["hands"][seat] = sort_ids([*state["hands"][seat], cid])
    if public and cid not in state["known"]:  # a known card comes back from face down
        state["known"] = sort_ids([*state["known"], cid])


def take_from_hand(state: State, seat: int, cid: str, *, face_down: bool = False) -> None:
    """``cid`` leaves ``seat``'s hand: seen by everyone (``face_down=False``: it stops being a
    known hand card), or face down (a known card stays known until it is revealed)."""
    state["hands"][seat].remove(cid)
    if not face_down:
        forget(state, cid)


def forget(state: State, cid: str | None) -> None:
    """``cid`` is seen face up away from the hand it was known in (revealed, discarded)."""
    if cid is not None and cid in state["known"]:
        state["known"].remove(cid)


def face_down_cards(state: State, seat: int) -> list[str]:
    """``seat``'s cards lying face down in the current battle (not yet revealed)."""
    battle = state["battle"]
    if battle is None or seat not in battle["sides"]:
        return []
    side = battle["sides"].index(seat)
    out: list[str] = []
    if not battle["revealed"] and battle["summon"][side] is not None:
        out.append(str(battle["summon"][side]))
    if battle["support"][side] is not None:
        out.append(str(battle["support"][side]))
    return out


def shown_cards(state: State, seat: int) -> list[str]:
    """The cards everyone has seen ``seat`` hold and not seen leave her: in her hand, or one of
    her face-down cards in the battle (the table cannot tell which), in id order. What every
    seat and spectator is shown of her hand beside its size (views.py)."""
    known = set(state["known"])
    mine = [*state["hands"][seat], *face_down_cards(state, seat)]
    return sort_ids([cid for cid in mine if cid in known])


def reveal_hand(state: State, seat: int) -> None:
    """Everyone sees the seat's hand (shown as proof); it stays public while held."""
    state["known"] = sort_ids(list(set(state["known"]) | set(state["hands"][seat])))


def hand_words(state: State, cids: list[str]) -> Words | str:
    """A shown hand in words: each card with what it is, or "no cards"."""
    if not cids:
        return Words(N_("no cards"))
    return listing([label_words(state, c) for c in cids], last="comma")


# --------------------------------------------------------------------------- drawing


def draw_preparation(state: State, seat: int, events: list[Event], count: int = 1) -> int:
    """``seat`` draws up to ``count`` Preparation cards unseen by the others; the deck is never
    replenished ("when exhausted, the action of drawing Preparation cards will cease")."""
    drawn = 0
    for _ in range(count):
        if not state["prep_deck"]:
            events.append(
                event(
                    Words(
                        N_("The Preparation deck is exhausted: %(name)s draws nothing."),
                        {"name": name(state, seat)},
                    ),
                    type="deck_exhausted",
                )
            )
            break
        cid = state["prep_deck"].pop(0)
        add_to_hand(state, seat, cid, public=False)
        drawn += 1
        events.append(
            event(
                Words(N_("You draw %(card)s."), {"card": label_words(state, cid)}),
                type="draw_private",
                visible_to=[seat],
                seat=seat,
                card=cid,
            )
        )
    if drawn:
        who = {"name": name(state, seat)}
        events.append(
            event(
                Words(N_("%(name)s draws a Preparation card."), who)
                if drawn == 1
                else Words(
                    N_("%(name)s draws %(count)s Preparation cards."), {**who, "count": drawn}
                ),
                type="draw",
                hidden_from=[seat],
                seat=seat,
                count=drawn,
            )
        )
    return drawn


def draw_encounter(state: State, events: list[Event]) -> str | None:
    """The top Encounter card, onto the pile being resolved; History is shuffled back in when
    the deck is exhausted ("Shuffle History and replenish when the Encounter deck has been
    exhausted"). None only if both are empty."""
    if not state["encounter_deck"]:
        if not state["history"]:
            events.append(
                event(Words(N_("The Encounter deck and History are both empty.")), type="empty")
            )
            return None
        pile = list(state["history"])
        state["history"] = []
        shuffle(state, pile)
        state["encounter_deck"] = pile
        events.append(
            event(
                Words(
                    N_(
                        "The Encounter deck is exhausted: History (%(count)s cards) is shuffled "
                        "into a new Encounter deck."
                    ),
                    {"count": len(pile)},
                ),
                type="reshuffle",
            )
        )
    cid = str(state["encounter_deck"].pop(0))
    state["encounter"].append(cid)
    return cid


def to_abyss(state: State, cid: str) -> None:
    state["abyss"].append(cid)


def locations(state: State) -> dict[str, str]:
    """Card id → the place it is in now. Raises ValueError if a card is in two places."""
    places: dict[str, str] = {}

    def put(cid: str | None, where: str) -> None:
        if cid is None:
            return
        if cid in places:
            raise ValueError(f"{cid} is both in {places[cid]} and {where}")
        places[cid] = where

    for pile in ("prep_deck", "encounter_deck", "abyss", "history", "encounter"):
        for cid in state[pile]:
            put(cid, pile)
    for seat, hand in enumerate(state["hands"]):
        for cid in hand:
            put(cid, f"hand {seat}")
    battle = state["battle"]
    if battle is not None:
        for side in (0, 1):
            put(battle["summon"][side], f"summon {side}")
            put(battle["support"][side], f"support {side}")
    mini = state["mini"]
    if mini is not None:
        for cid in mini["deck"]:
            put(cid, "mini deck")
        for cid in mini["table"]:
            put(cid, "mini table")
    return places
