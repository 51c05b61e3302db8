"""Deck rules, the preset decks, and decks as text (rulebook: "Game Preparation").

A deck is a list of card numbers: exactly four character cards (kept aside, not part of the
deck) and exactly 40 Spells, Supports and Events. :func:`validate_deck` reports every broken
rule at once, in words, so the deck builder can show them all together.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Final

from minigames.engines.rso.cards import Card, _read_yaml, find_card, starter_card_set

CHARACTER_COUNT: Final = 4
DECK_SIZE: Final = 40
MAX_COPIES: Final = 3


def character_levels(numbers: Sequence[str], card_set: Mapping[str, Card]) -> Counter[str]:
    """Each character's level: how many of the character cards name her (rulebook line 11)."""
    return Counter(
        str(card_set[n]["character"])
        for n in numbers
        if n in card_set and card_set[n]["type"] == "character"
    )


def requirement_met(card: Mapping[str, Any], levels: Mapping[str, int]) -> bool:
    """General cards need nobody; others need every named character at the named level."""
    return all(levels.get(name, 0) >= level for name, level in (card.get("requires") or {}).items())


def validate_deck(card_ids: Sequence[str], card_set: Mapping[str, Card]) -> list[str]:
    """Every broken deck rule, each a sentence; empty for a legal deck."""
    errors: list[str] = []
    unknown = sorted({n for n in card_ids if n not in card_set})
    errors.extend(f"The card {n} is not in the card set." for n in unknown)
    known = [n for n in card_ids if n in card_set]
    characters = [n for n in known if card_set[n]["type"] == "character"]
    others = [n for n in known if card_set[n]["type"] != "character"]
    if len(characters) != CHARACTER_COUNT:
        errors.append(
            f"A deck needs exactly {CHARACTER_COUNT} character cards; this one has "
            f"{len(characters)}."
        )
    if len(others) != DECK_SIZE:
        errors.append(
            f"A deck holds exactly {DECK_SIZE} Spell, Support and Event cards; this one has "
            f"{len(others)}."
        )
    by_name = Counter(str(card_set[n]["name"]) for n in others)
    for name, count in sorted(by_name.items()):
        if count > MAX_COPIES:
            errors.append(
                f"At most {MAX_COPIES} copies of a card by name: {name} appears {count} times."
            )
    levels = character_levels(characters, card_set)
    described = ", ".join(f"{name} level {lvl}" for name, lvl in sorted(levels.items()))
    for number in sorted(set(others)):
        card = card_set[number]
        if requirement_met(card, levels):
            continue
        needs = " and ".join(f"{k} level {v}" for k, v in card["requires"].items())
        kind = "Team card" if len(card["requires"]) > 1 else "card"
        errors.append(
            f"The {kind} {card['name']} needs {needs}; the characters give {described or 'nobody'}."
        )
    return errors


def deck_from_counts(characters: Mapping[str, int], cards: Mapping[str, int]) -> list[str]:
    result: list[str] = []
    for counts in (characters, cards):
        for number, count in counts.items():
            result.extend([str(number)] * int(count))
    return result


@functools.lru_cache(maxsize=1)
def _presets() -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    raw = _read_yaml("decks.yaml")
    return tuple(
        (str(d["key"]), str(d["name"]), tuple(deck_from_counts(d["characters"], d["cards"])))
        for d in raw["decks"]
    )


def preset_decks() -> dict[str, dict[str, Any]]:
    """The four shipped decks: key -> {"name": words, "cards": list of card numbers}."""
    return {key: {"name": name, "cards": list(cards)} for key, name, cards in _presets()}


def preset_deck(key: str) -> list[str]:
    return list(preset_decks()[key]["cards"])


def deck_to_text(card_ids: Sequence[str], card_set: Mapping[str, Card], name: str = "") -> str:
    """The deck as text a person can read and paste back: characters first, then ``3 Name``."""
    counts = Counter(card_ids)
    lines = [f"# {name}"] if name else []
    for heading, is_char in (("Characters", True), ("Deck", False)):
        lines.append(f"{heading}:")
        for number in sorted(counts, key=lambda n: (card_set.get(n, {}).get("name", n), n)):
            card = card_set.get(number)
            if card is None or (card["type"] == "character") != is_char:
                continue
            lines.append(f"{counts[number]} {card['name']} [{number}]")
    unknown = [n for n in counts if n not in card_set]
    lines.extend(f"{counts[n]} [{n}]" for n in unknown)
    return "\n".join(lines) + "\n"


def deck_from_text(text: str, card_set: Mapping[str, Card]) -> tuple[list[str], list[str]]:
    """Card numbers read from ``text`` and the lines that could not be read (in words).

    Each line is ``count name`` or ``count name [number]`` (the number wins); headings
    (``Characters:``, ``Deck:``), blank lines and ``#`` comments are skipped.
    """
    numbers: list[str] = []
    errors: list[str] = []
    for lineno, raw_line in enumerate(text.splitlines(), start=1):
        line = raw_line.strip()
        if not line or line.startswith("#") or line.endswith(":"):
            continue
        count_text, _, rest = line.partition(" ")
        if not count_text.isdigit() or not rest.strip():
            errors.append(f"Line {lineno} should read like '3 Amulet Scatter': {line!r}.")
            continue
        rest = rest.strip()
        key = rest
        if rest.endswith("]") and "[" in rest:
            key = rest[rest.rindex("[") + 1 : -1].strip()
        number = find_card(card_set, key)
        if number is None and key != rest:
            number = find_card(card_set, rest[: rest.rindex("[")].strip())
        if number is None:
            errors.append(f"Line {lineno}: no card is called {rest!r}.")
            continue
        count = int(count_text)
        if count < 1:
            errors.append(f"Line {lineno}: the count must be at least 1.")
            continue
        numbers.extend([number] * count)
    return numbers, errors


def default_card_set() -> dict[str, Card]:
    return starter_card_set()
