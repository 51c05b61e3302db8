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
from minigames.engines.rso.vocabulary import name_key
from westernroses.words import N_, Words, data, listing

CHARACTER_COUNT: Final = 4
DECK_SIZE: Final = 40
MAX_COPIES: Final = 3
#: The most copies one line of a deck text may ask for: a deck holds 40 cards besides its
#: characters (rulebook line 15), so no larger count can be a deck. Checked before any list is
#: built, so ``999999999 RSO-001`` costs nothing.
MAX_LINE_COPIES: Final = DECK_SIZE
#: The deck rules in words, for the deck builder (:data:`DECK_RULES` its English).
DECK_RULE_WORDS: Final = Words(
    N_(
        "Exactly %(characters)s character cards (kept aside) and exactly %(size)s Spell, "
        "Support and Event cards; at most %(copies)s copies of a card by name; each card's "
        "character and level requirements met by the character cards (General cards need "
        "nobody, Team cards need every named character)."
    ),
    {"characters": CHARACTER_COUNT, "size": DECK_SIZE, "copies": MAX_COPIES},
)
DECK_RULES: Final = str(DECK_RULE_WORDS)


def character_levels(numbers: Sequence[str], card_set: Mapping[str, Card]) -> Counter[str]:
    """Each character's level: how many of the character cards name her (rulebook line 11)."""
    return Counter(
        str(card_set[n]["character"])
        for n in numbers
        if n in card_set and card_set[n]["kind"] == "character"
    )


def requirement_met(card: Mapping[str, Any], levels: Mapping[str, int]) -> bool:
    """General cards need nobody; others need every named character at the named level."""
    return all(levels.get(name, 0) >= level for name, level in (card.get("requires") or {}).items())


def sentences(parts: Sequence[Words | str]) -> Words | str:
    """Sentences one after another (a space between them in English, none in Japanese)."""
    head: Words | str = ""
    for part in parts:
        head = part if not head else Words(N_("%(first)s %(next)s"), {"first": head, "next": part})
    return head


def _levels_phrase(levels: Sequence[tuple[str, int]], joined: str) -> Words | str:
    """Characters with their levels ("Reimu level 2, Marisa level 1"), joined by commas
    (``joined="comma"``) or by "and" each time."""
    parts: list[Words | str] = [
        Words(N_("%(character)s level %(level)s"), {"character": data(name), "level": level})
        for name, level in levels
    ]
    if joined == "comma":
        return listing(parts, last="comma")
    head: Words | str = parts[0] if parts else ""
    for part in parts[1:]:
        head = Words(N_("%(first)s and %(next)s"), {"first": head, "next": part})
    return head


def deck_rule_words(card_ids: Sequence[str], card_set: Mapping[str, Card]) -> list[Words]:
    """Every broken deck rule, each a sentence in words (message ids with their numbers; the
    app renders them in the reader's language); empty for a legal deck."""
    errors: list[Words] = []
    unknown = sorted({n for n in card_ids if n not in card_set})
    errors.extend(
        Words(N_("The card %(number)s is not in the card set."), {"number": n}) for n in unknown
    )
    known = [n for n in card_ids if n in card_set]
    characters = [n for n in known if card_set[n]["kind"] == "character"]
    others = [n for n in known if card_set[n]["kind"] != "character"]
    if len(characters) != CHARACTER_COUNT:
        errors.append(
            Words(
                N_("A deck needs exactly %(need)s character cards; this one has %(count)s."),
                {"need": CHARACTER_COUNT, "count": len(characters)},
            )
        )
    if len(others) != DECK_SIZE:
        errors.append(
            Words(
                N_(
                    "A deck holds exactly %(need)s Spell, Support and Event cards; "
                    "this one has %(count)s."
                ),
                {"need": DECK_SIZE, "count": len(others)},
            )
        )
    errors.extend(_copy_errors([str(card_set[n]["name"]) for n in others]))
    levels = character_levels(characters, card_set)
    described: Words | str = _levels_phrase(sorted(levels.items()), "comma") or Words(N_("nobody"))
    for number in sorted(set(others)):
        card = card_set[number]
        if requirement_met(card, levels):
            continue
        params = {
            "card": data(str(card["name"])),
            "needs": _levels_phrase(list(card["requires"].items()), "and"),
            "levels": described,
        }
        if len(card["requires"]) > 1:
            text = N_("The Team card %(card)s needs %(needs)s; the characters give %(levels)s.")
        else:
            text = N_("The card %(card)s needs %(needs)s; the characters give %(levels)s.")
        errors.append(Words(text, params))
    return errors


def validate_deck(card_ids: Sequence[str], card_set: Mapping[str, Card]) -> list[str]:
    """Every broken deck rule, each a sentence; empty for a legal deck (the English of
    :func:`deck_rule_words`)."""
    return [str(words) for words in deck_rule_words(card_ids, card_set)]


def _copy_errors(names: Sequence[str]) -> list[Words]:
    """A sentence for each card name written more than :data:`MAX_COPIES` times, names
    compared by :func:`name_key`: the spelling most copies use, and any other spelling."""
    spellings: dict[str, Counter[str]] = {}
    for name in names:
        spellings.setdefault(name_key(name), Counter())[" ".join(name.split())] += 1
    errors = []
    for _key, written in sorted(spellings.items()):
        count = sum(written.values())
        if count <= MAX_COPIES:
            continue
        shown = sorted(written, key=lambda w: (-written[w], w))
        params: dict[str, Any] = {"most": MAX_COPIES, "card": data(shown[0]), "count": count}
        if len(shown) > 1:
            params["also"] = ", ".join(f"“{w}”" for w in shown[1:])
            text = N_(
                "At most %(most)s copies of a card by name: %(card)s appears %(count)s times "
                "(also written %(also)s)."
            )
        else:
            text = N_(
                "At most %(most)s copies of a card by name: %(card)s appears %(count)s times."
            )
        errors.append(Words(text, params))
    return errors


def _deck_cards(entry: Mapping[str, Any]) -> list[str]:
    """A preset's card numbers, one per copy, from its ``cards``: ``[copies, number]`` pairs."""
    return [str(number) for count, number in entry["cards"] for _ in range(int(count))]


@functools.lru_cache(maxsize=1)
def _presets() -> tuple[tuple[str, str, str, tuple[str, ...]], ...]:
    raw = _read_yaml("decks.yaml")
    return tuple(
        (str(d["key"]), str(d["name"]), str(d.get("about", "")), tuple(_deck_cards(d)))
        for d in raw["decks"]
    )


def preset_decks() -> list[dict[str, Any]]:
    """The four shipped decks: ``{"key", "name", "about", "cards": [numbers...]}``."""
    return [
        {"key": key, "name": name, "about": about, "cards": list(cards)}
        for key, name, about, cards in _presets()
    ]


def preset_deck(key: str) -> list[str]:
    """The card numbers of the preset deck ``key``; ``KeyError`` if there is none."""
    for deck_key, _name, _about, cards in _presets():
        if deck_key == key:
            return list(cards)
    raise KeyError(key)


def deck_to_text(card_ids: Sequence[str], card_set: Mapping[str, Card], name: str = "") -> str:
    """The deck as text a person can read and paste back: characters first, then ``3 Name``."""
    counts = Counter(card_ids)
    lines = [f"# {name}"] if name else []
    for heading, is_char in (("Characters", True), ("Deck", False)):
        lines.append(f"{heading}:")
        for number in sorted(counts, key=lambda n: (card_set.get(n, {}).get("name", n), n)):
            card = card_set.get(number)
            if card is None or (card["kind"] == "character") != is_char:
                continue
            lines.append(f"{counts[number]} {card['name']} [{number}]")
    unknown = [n for n in counts if n not in card_set]
    lines.extend(f"{counts[n]} [{n}]" for n in unknown)
    return "\n".join(lines) + "\n"


def deck_from_text(text: str, card_set: Mapping[str, Card]) -> tuple[list[str], list[str]]:
    """Card numbers read from ``text`` and the lines that could not be read (in English
    words; :func:`deck_text_words` keeps them as message ids for the reader's language)."""
    numbers, errors = deck_text_words(text, card_set)
    return numbers, [str(error) for error in errors]


def deck_text_words(text: str, card_set: Mapping[str, Card]) -> tuple[list[str], list[Words]]:
    """Card numbers read from ``text`` and why each unreadable line could not be read, as
    message ids, so the deck builder refuses a pasted deck in the reader's language.

    Each line is ``count name`` or ``count name [number]`` (the number wins); headings
    (``Characters:``, ``Deck:``), blank lines and ``#`` comments are skipped.
    """
    numbers: list[str] = []
    errors: list[Words] = []
    for lineno, raw_line in enumerate(text.splitlines(), start=1):
        line = raw_line.strip()
        if not line or line.startswith("#") or line.endswith(":"):
            continue
        count_text, _, rest = line.partition(" ")
        # ASCII digits only: str.isdigit() passes "²", which int() refuses, and int() reads
        # other scripts' digits ("٣" as 3).
        if not (count_text.isascii() and count_text.isdigit()) or not rest.strip():
            errors.append(
                Words(
                    N_("Line %(line)s should read like '3 Amulet Scatter': %(text)s."),
                    {"line": lineno, "text": repr(line)},
                )
            )
            continue
        if (
            len(count_text) > len(str(MAX_LINE_COPIES))
            or not 1 <= int(count_text) <= MAX_LINE_COPIES
        ):
            errors.append(
                Words(
                    N_("Line %(line)s: the number of copies must be from 1 to %(most)s."),
                    {"line": lineno, "most": MAX_LINE_COPIES},
                )
            )
            continue
        rest = rest.strip()
        key = rest
        if rest.endswith("]") and "[" in rest:
            key = rest[rest.rindex("[") + 1 : -1].strip()
        number = find_card(card_set, key)
        if number is None and key != rest:
            number = find_card(card_set, rest[: rest.rindex("[")].strip())
        if number is None:
            errors.append(
                Words(
                    N_("Line %(line)s: no card is called %(name)s."),
                    {"line": lineno, "name": repr(rest)},
                )
            )
            continue
        numbers.extend([number] * int(count_text))
    return numbers, errors


def default_card_set() -> dict[str, Card]:
    return starter_card_set()
