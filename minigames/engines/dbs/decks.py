"""DBS deck rules, the preset decks, and decks as text.

The rule (rulebook section 三 "Preparation of game"): 40 to 50 cards, at most 3 cards of the
same number, at least one character. :func:`validate_deck` reports every broken rule at once,
in words, so a deck builder can show them all.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, Final

from westernroses.words import N_, Words

from .cards import read_data
from .vocabulary import Card

MIN_DECK: Final = 40
MAX_DECK: Final = 50
MAX_COPIES: Final = 3
#: The deck rules in words, for the deck builder.
DECK_RULES: Final = (
    f"{MIN_DECK} to {MAX_DECK} cards, at most {MAX_COPIES} cards of the same number, at least "
    "one character card."
)


def deck_rule_words(card_ids: Sequence[str], card_set: Mapping[str, Card]) -> list[Words]:
    """Every deck rule ``card_ids`` (card numbers, one per copy) breaks, as sentences in words
    (message ids with their numbers; the app renders them in the reader's language)."""
    errors: list[Words] = []
    total = len(card_ids)
    if total < MIN_DECK:
        errors.append(
            Words(
                N_("A deck needs at least %(least)s cards; this one has %(total)s."),
                {"least": MIN_DECK, "total": total},
            )
        )
    if total > MAX_DECK:
        errors.append(
            Words(
                N_("A deck holds at most %(most)s cards; this one has %(total)s."),
                {"most": MAX_DECK, "total": total},
            )
        )
    counts = Counter(card_ids)
    for number in sorted(n for n in counts if n not in card_set):
        errors.append(
            Words(N_("There is no card numbered %(number)s in this card set."), {"number": number})
        )
    for number, count in sorted(counts.items()):
        if count > MAX_COPIES and number in card_set:
            errors.append(
                Words(
                    N_(
                        "At most %(most)s cards of the same number are allowed; "
                        "%(card)s (%(number)s) is in it %(count)s times."
                    ),
                    {
                        "most": MAX_COPIES,
                        "card": card_set[number]["name"],
                        "number": number,
                        "count": count,
                    },
                )
            )
    if not any(card_set.get(n, {}).get("kind") == "character" for n in counts):
        errors.append(Words(N_("A deck needs at least one character card.")))
    return errors


def validate_deck(card_ids: Sequence[str], card_set: Mapping[str, Card]) -> list[str]:
    """:func:`deck_rule_words` in English."""
    return [str(words) for words in deck_rule_words(card_ids, card_set)]


def deck_to_text(card_ids: Sequence[str], card_set: Mapping[str, Card], name: str = "") -> str:
    """The deck as text, ``# name`` (when given) then one ``<copies> <number> <name>`` line per
    card number, in number order (the names are for people; :func:`deck_from_text` reads only
    copies and number, and skips the ``#`` line)."""
    counts = Counter(card_ids)
    lines = [f"# {name}"] if name else []
    for number in sorted(counts):
        card_name = card_set.get(number, {}).get("name", "")
        lines.append(f"{counts[number]} {number} {card_name}".rstrip())
    return "\n".join(lines) + "\n"


def deck_from_text(text: str, card_set: Mapping[str, Card]) -> tuple[list[str], list[str]]:
    """Read a deck written as ``<copies> <number> [name]`` lines (``3x`` also accepted; blank
    lines and ``#`` comments ignored). Returns ``(card_ids, errors)``; the errors are the lines
    that could not be read, in English words (:func:`deck_text_words` keeps them as message
    ids). Deck rules are :func:`validate_deck`'s business."""
    card_ids, errors = deck_text_words(text, card_set)
    return card_ids, [str(error) for error in errors]


def deck_text_words(text: str, card_set: Mapping[str, Card]) -> tuple[list[str], list[Words]]:
    """:func:`deck_from_text` with each unreadable line's reason as a message id, so the deck
    builder refuses a pasted deck in the reader's language."""
    card_ids: list[str] = []
    errors: list[Words] = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        count_text = parts[0].lower().rstrip("x")
        # ASCII digits only: str.isdigit() passes "²", which int() refuses, and int() reads
        # other scripts' digits ("٣" as 3).
        if len(parts) < 2 or not (count_text.isascii() and count_text.isdigit()):
            errors.append(
                Words(
                    N_("Line %(line)s: write the number of copies, then the card number."),
                    {"line": lineno},
                )
            )
            continue
        # More digits than MAX_DECK has are out of range before int() reads them.
        count = int(count_text) if len(count_text) <= len(str(MAX_DECK)) else MAX_DECK + 1
        number = parts[1].upper()
        if not 1 <= count <= MAX_DECK:
            errors.append(
                Words(
                    N_("Line %(line)s: the number of copies must be from 1 to %(most)s."),
                    {"line": lineno, "most": MAX_DECK},
                )
            )
            continue
        if number not in card_set:
            errors.append(
                Words(
                    N_("Line %(line)s: there is no card numbered %(number)s."),
                    {"line": lineno, "number": number},
                )
            )
            continue
        card_ids += [number] * count
    return card_ids, errors


@cache
def _preset_data() -> tuple[dict[str, Any], ...]:
    return tuple(read_data("decks.yaml", "decks"))


def preset_decks() -> list[dict[str, Any]]:
    """The four shipped decks: ``{"key", "name", "about", "cards": [numbers...]}``."""
    decks = []
    for deck in _preset_data():
        cards = [number for count, number in deck["cards"] for _ in range(count)]
        about = str(deck.get("about", ""))
        decks.append({"key": deck["key"], "name": deck["name"], "about": about, "cards": cards})
    return decks


def preset_deck(key: str) -> list[str]:
    """The card numbers of the preset deck ``key``; ``KeyError`` if there is none."""
    for deck in preset_decks():
        if deck["key"] == key:
            return list(deck["cards"])
    raise KeyError(key)
