"""Spellcard decks: how big a deck may be, and where each card is during play.

Deck rules (ruleset "Spellcards"): "15 plus an additional 5 cards per character level", "up
to a character's level×4 different cards" and "up to 5 of the same card". Librarians (level 1
ability) and the Grimoire ability each add 5 cards and 1 kind; nothing in the text stops the
two from stacking, so they do.

Battle-time state is plain data (three lists of card ids, the same id once per copy) so it can
be stored as JSON between requests. Every operation returns a new state and moves ids between
the lists, so no card is ever lost or duplicated; the tests check that over random sequences.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from westernroses.house_rules import DEFAULT_HOUSE_RULES, HouseRules
from westernroses.spellcards.caster import LEVEL_MUST_BE_WHOLE, Profession
from westernroses.words import N_, Words, data

BASE_CARDS = 15
CARDS_PER_LEVEL = 5
KINDS_PER_LEVEL = 4
MAX_COPIES = 5
#: Librarian level 1: "hold an additional 5 cards and 1 spell card kind".
LIBRARIAN_EXTRA_CARDS = 5
LIBRARIAN_EXTRA_KINDS = 1
#: Grimoire ability: "carry an additional 5 cards and one card type", while you hold it.
GRIMOIRE_EXTRA_CARDS = 5
GRIMOIRE_EXTRA_KINDS = 1

SECTION = N_("Spellcards (deck size)")
#: How the reasons for a deck's limits join: ``first`` the reasons so far, ``next`` one more.
REASONS_JOINED = N_("%(first)s; %(next)s")


class Shuffler(Protocol):
    """Anything that shuffles a list in place: ``westernroses.rng.RandomSource``,
    ``random.Random``, or a test double."""

    def shuffle(self, x: list[str], /) -> None: ...


class DeckError(ValueError):
    """An impossible deck operation (drawing a negative number, discarding a card not held)."""


@dataclass(frozen=True, slots=True)
class DeckLimits:
    max_cards: int
    max_kinds: int
    max_copies: int
    reasons: tuple[str, ...]
    #: ``reasons`` as :class:`Words`, for the app to show in the reader's language
    reason_words: tuple[Words, ...] = ()

    @property
    def reasons_words(self) -> Words | str:
        """Every reason, joined as the English ``"; ".join(reasons)`` is, as words."""
        if not self.reason_words:
            return "; ".join(self.reasons)
        head: Words = self.reason_words[0]
        for item in self.reason_words[1:]:
            head = Words(REASONS_JOINED, {"first": head, "next": item})
        return head

    def to_dict(self) -> dict[str, Any]:
        return {
            "max_cards": self.max_cards,
            "max_kinds": self.max_kinds,
            "max_copies": self.max_copies,
            "reasons": list(self.reasons),
        }


def deck_limits(
    level: int,
    profession: Profession | str,
    has_grimoire: bool,
    rules: HouseRules = DEFAULT_HOUSE_RULES,
) -> DeckLimits:
    """The deck limits of a character.

    ``has_grimoire`` means the character has the Grimoire ability *and* holds the grimoire
    now ("If you lost your grimoire you lose the ability to use your additional 5 spell cards
    and additional spell card type"). A Librarian's and a Grimoire's extras stack unless the
    house rule ``librarian_grimoire_stack`` is off (then only the Librarian's count).
    """
    if isinstance(level, bool) or not isinstance(level, int) or level < 1:
        raise ValueError(Words(LEVEL_MUST_BE_WHOLE, {"level": repr(level)}))
    cards = BASE_CARDS + CARDS_PER_LEVEL * level
    kinds = KINDS_PER_LEVEL * level
    reasons = [
        Words(
            N_("Level %(level)s: %(cards)s cards, %(kinds)s kinds, %(copies)s copies of a card"),
            {"level": level, "cards": cards, "kinds": kinds, "copies": MAX_COPIES},
        )
    ]
    librarian = Profession(profession) is Profession.LIBRARIAN
    if librarian:
        cards += LIBRARIAN_EXTRA_CARDS
        kinds += LIBRARIAN_EXTRA_KINDS
        librarian_words = N_("Librarian: +%(cards)s cards, +%(kinds)s kind")
        extra = {"cards": LIBRARIAN_EXTRA_CARDS, "kinds": LIBRARIAN_EXTRA_KINDS}
        reasons.append(Words(librarian_words, extra))
    if has_grimoire and (not librarian or rules.librarian_grimoire_stack):
        cards += GRIMOIRE_EXTRA_CARDS
        kinds += GRIMOIRE_EXTRA_KINDS
        grimoire_words = N_("Grimoire: +%(cards)s cards, +%(kinds)s kind")
        extra = {"cards": GRIMOIRE_EXTRA_CARDS, "kinds": GRIMOIRE_EXTRA_KINDS}
        reasons.append(Words(grimoire_words, extra))
    english = tuple(str(reason) for reason in reasons)
    return DeckLimits(cards, kinds, MAX_COPIES, english, tuple(reasons))


@dataclass(frozen=True, slots=True)
class DeckEntry:
    """``copies`` of one designed card in a deck; ``name`` only makes messages readable."""

    card_id: str
    copies: int
    name: str = ""


@dataclass(frozen=True, slots=True)
class DeckViolation:
    """One broken deck rule: stable ``code``, a ``message`` in English (the API's), the card it
    is about, and ``words``, the message as :class:`Words` for the app to show in the reader's
    language."""

    code: str
    message: str
    card_id: str | None = None
    section: str = SECTION
    words: Words | None = None

    @classmethod
    def of(cls, code: str, words: Words, card_id: str | None = None) -> DeckViolation:
        """A violation whose message is ``words`` (its English is the ``message``)."""
        return cls(code, str(words), card_id, SECTION, words)

    def to_dict(self, *, words: bool = False) -> dict[str, Any]:
        """The violation as JSON: the message in English and, with ``words``, its words (the
        API keeps its English shape)."""
        out: dict[str, Any] = {
            "code": self.code,
            "message": self.message,
            "card_id": self.card_id,
            "section": self.section,
        }
        if words and self.words is not None:
            out["words"] = self.words.to_json()
        return out


def validate_deck(entries: Iterable[DeckEntry], limits: DeckLimits) -> list[DeckViolation]:
    """Every deck rule broken. Entries for the same card id are added together.

    The size and kind counts are maxima: a deck may hold fewer cards (project ruling; the
    Librarian and Grimoire texts speak of what a deck "can hold").
    """
    copies: Counter[str] = Counter()
    names: dict[str, str] = {}
    out: list[DeckViolation] = []
    for entry in entries:
        names.setdefault(entry.card_id, entry.name or entry.card_id)
        if isinstance(entry.copies, bool) or not isinstance(entry.copies, int) or entry.copies < 1:
            words = Words(
                N_("%(card)s: a deck holds at least 1 copy of a card it lists."),
                {"card": data(names[entry.card_id])},
            )
            out.append(DeckViolation.of("invalid_copies", words, entry.card_id))
            continue
        copies[entry.card_id] += entry.copies
    for card_id, count in copies.items():
        if count > limits.max_copies:
            words = Words(
                N_(
                    "%(card)s: %(count)s copies, but a deck can only contain up to "
                    "%(max)s of the same card."
                ),
                {"card": data(names[card_id]), "count": count, "max": limits.max_copies},
            )
            out.append(DeckViolation.of("too_many_copies", words, card_id))
    if len(copies) > limits.max_kinds:
        words = Words(
            N_("%(count)s different cards, but this deck can contain only %(max)s (%(reasons)s)."),
            {"count": len(copies), "max": limits.max_kinds, "reasons": limits.reasons_words},
        )
        out.append(DeckViolation.of("too_many_kinds", words))
    total = sum(copies.values())
    if total > limits.max_cards:
        words = Words(
            N_("%(count)s cards, but this deck can hold only %(max)s (%(reasons)s)."),
            {"count": total, "max": limits.max_cards, "reasons": limits.reasons_words},
        )
        out.append(DeckViolation.of("too_many_cards", words))
    return out


@dataclass(frozen=True, slots=True)
class DeckState:
    """Where every copy is: the draw pile (index 0 is the top), the hand, the discard pile."""

    draw_pile: tuple[str, ...] = ()
    hand: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()

    def cards(self) -> Counter[str]:
        """Every copy the character owns, wherever it is (the invariant operations keep)."""
        return Counter(self.draw_pile) + Counter(self.hand) + Counter(self.discard)

    def to_dict(self) -> dict[str, list[str]]:
        return {
            "draw_pile": list(self.draw_pile),
            "hand": list(self.hand),
            "discard": list(self.discard),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DeckState:
        piles: dict[str, tuple[str, ...]] = {}
        for key in ("draw_pile", "hand", "discard"):
            value = data.get(key, [])
            if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
                raise DeckError(f"{key} must be a list of card ids")
            piles[key] = tuple(value)
        return cls(**piles)


@dataclass(frozen=True, slots=True)
class DrawResult:
    state: DeckState
    drawn: tuple[str, ...]
    short: int  # cards asked for that the draw pile could not supply


def new_deck_state(entries: Iterable[DeckEntry], rng: Shuffler) -> DeckState:
    """A fresh, shuffled draw pile holding every copy of every entry."""
    pile = [entry.card_id for entry in entries for _ in range(max(entry.copies, 0))]
    rng.shuffle(pile)
    return DeckState(draw_pile=tuple(pile))


def draw(state: DeckState, n: int, rng: Shuffler | None = None) -> DrawResult:
    """Take ``n`` cards from the top of the draw pile into the hand.

    When the pile runs out, the draw stops short (project ruling): used cards go back only
    when "shuffled back into your spelldeck" after a won battle (:func:`shuffle_back`).
    ``rng`` is accepted so callers can pass their random source uniformly; the pile is already
    in shuffled order, so drawing needs no randomness.
    """
    del rng
    if n < 0:
        raise DeckError("cannot draw a negative number of cards")
    drawn = state.draw_pile[:n]
    new = DeckState(state.draw_pile[n:], state.hand + drawn, state.discard)
    return DrawResult(new, drawn, n - len(drawn))


def discard(state: DeckState, card_id: str) -> DeckState:
    """Move one copy of ``card_id`` from the hand to the discard pile (the card was used)."""
    if card_id not in state.hand:
        raise DeckError(f"card {card_id!r} is not in the hand")
    hand = list(state.hand)
    hand.remove(card_id)
    return DeckState(state.draw_pile, tuple(hand), (*state.discard, card_id))


def shuffle_back(state: DeckState, rng: Shuffler) -> DeckState:
    """Shuffle the used cards back into the draw pile; the hand is kept ("all drawn (and
    unused) cards remain in your hoof until you choose to use them")."""
    pile = list(state.draw_pile) + list(state.discard)
    rng.shuffle(pile)
    return DeckState(tuple(pile), state.hand, ())
