"""One shape over the two card-game engines, so the app is written once for both.

Rumbling Spell Orchestra (``minigames.engines.rso``) and Dream Battle of SpellCard
(``minigames.engines.dbs``) keep their cards as plain mappings but name things differently
(``type`` against ``kind``; a card in words is a list of lines in one, a paragraph in the other;
presets a dict against a list). :class:`CardGame` maps each engine's *public* names onto one
interface. Nothing here decides a rule: validity, deck legality and the words are the engines'.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from minigames.engines import dbs, rso

Card = dict[str, Any]

#: Our rule for GM card numbers in both games (the DBS engine's own pattern): capitals, a dash,
#: three digits. RSO's engine accepts any text; one pattern keeps deck texts readable.
NUMBER_PATTERN: Final = re.compile(r"^[A-Z]{2,6}-[0-9]{3}$")


@dataclass(frozen=True, slots=True)
class Preset:
    key: str
    name: str
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CardGame:
    """The parts of one engine the decks app uses."""

    slug: str
    title: str
    type_field: str
    type_words: Mapping[str, str]
    validate_card: Callable[[object], list[str]]
    _load: Callable[[Sequence[Mapping[str, Any]]], dict[str, Card]]
    _lines: Callable[[Mapping[str, Any], Mapping[str, Card]], list[str]]
    _validate_deck: Callable[[Sequence[str], Mapping[str, Card]], list[str]]
    _to_text: Callable[[Sequence[str], Mapping[str, Card], str], str]
    _from_text: Callable[[str, Mapping[str, Card]], tuple[list[str], list[str]]]
    _presets: Callable[[], list[Preset]]
    deck_rules: str

    # ---------------------------------------------------------------- cards

    def starter(self) -> dict[str, Card]:
        return self._load(())

    def load(self, extra: Sequence[Mapping[str, Any]]) -> dict[str, Card]:
        """The starter set plus ``extra``; raises the engine's ``CardSetError``."""
        return self._load(extra)

    def card_type(self, card: Mapping[str, Any]) -> str:
        return str(card.get(self.type_field, ""))

    def type_label(self, card: Mapping[str, Any]) -> str:
        return self.type_words.get(self.card_type(card), self.card_type(card))

    def lines(self, card: Mapping[str, Any], card_set: Mapping[str, Card]) -> list[str]:
        """The card in words, a line each (the engine's own renderer)."""
        return self._lines(card, card_set)

    def characters(self, card: Mapping[str, Any], card_set: Mapping[str, Card]) -> list[str]:
        """The characters a card belongs to, by name (for the character filter)."""
        if self.slug == "rso":
            if card.get("type") == "character":
                return [str(card.get("character", ""))]
            return [str(k) for k in (card.get("requires") or {})]
        if card.get("kind") == "character":
            return [str(card.get("name", ""))]
        owner = card.get("character")
        if isinstance(owner, str):
            return [str(card_set.get(owner, {}).get("name", owner))]
        return []

    def cost(self, card: Mapping[str, Any]) -> int | None:
        value = card.get("cost")
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def referenced_numbers(self, card: Mapping[str, Any]) -> list[str]:
        """Other cards this card needs in the set (a DBS spellcard's character)."""
        owner = card.get("character")
        if self.slug == "dbs" and isinstance(owner, str):
            return [owner]
        return []

    # ---------------------------------------------------------------- decks

    def validate_deck(self, numbers: Sequence[str], card_set: Mapping[str, Card]) -> list[str]:
        return self._validate_deck(numbers, card_set)

    def to_text(self, numbers: Sequence[str], card_set: Mapping[str, Card], name: str) -> str:
        return self._to_text(numbers, card_set, name)

    def from_text(self, text: str, card_set: Mapping[str, Card]) -> tuple[list[str], list[str]]:
        return self._from_text(text, card_set)

    def presets(self) -> list[Preset]:
        return self._presets()


def _rso_presets() -> list[Preset]:
    return [Preset(key, str(d["name"]), tuple(d["cards"])) for key, d in rso.preset_decks().items()]


def _dbs_presets() -> list[Preset]:
    return [Preset(d["key"], d["name"], tuple(d["cards"])) for d in dbs.preset_decks()]


def _dbs_lines(card: Mapping[str, Any], card_set: Mapping[str, Card]) -> list[str]:
    """DBS words come as one paragraph; its first sentence (name, number, kind) is the title
    on our pages, so the rest is split into its sentences, a line each."""
    text = dbs.describe_card(card, card_set)
    head = f"{card['name']} ({card['number']}), "
    body = text.split(". ", 1)[1] if text.startswith(head) and ". " in text else text
    parts = [p.strip() for p in re.split(r"(?<=\.) (?=[A-Z])", body) if p.strip()]
    return parts


def _dbs_to_text(numbers: Sequence[str], card_set: Mapping[str, Card], name: str) -> str:
    text = dbs.deck_to_text(numbers, card_set)
    return (f"# {name}\n" if name else "") + text


RSO: Final = CardGame(
    slug="rso",
    title="Rumbling Spell Orchestra",
    type_field="type",
    type_words={"character": "Character", "spell": "Spell", "support": "Support", "event": "Event"},
    validate_card=rso.validate_card,
    _load=lambda extra: rso.load_card_set(list(extra)),
    _lines=lambda card, _set: rso.card_lines(card),
    _validate_deck=rso.validate_deck,
    _to_text=lambda numbers, card_set, name: rso.deck_to_text(numbers, card_set, name),
    _from_text=rso.deck_from_text,
    _presets=_rso_presets,
    deck_rules=(
        "Exactly 4 character cards (kept aside) and exactly 40 Spell, Support and Event cards; "
        "at most 3 copies of a card by name; each card's character and level requirements met "
        "by the character cards (General cards need nobody, Team cards need every named "
        "character)."
    ),
)

DBS: Final = CardGame(
    slug="dbs",
    title="Dream Battle of SpellCard",
    type_field="kind",
    type_words={
        "character": "Character",
        "battle": "Battle Spellcard",
        "buff": "Buff",
        "trap": "Trap",
        "instant": "Instant item",
        "constant": "Constant item",
    },
    validate_card=dbs.validate_card,
    _load=lambda extra: dbs.load_card_set(list(extra)),
    _lines=_dbs_lines,
    _validate_deck=dbs.validate_deck,
    _to_text=_dbs_to_text,
    _from_text=dbs.deck_from_text,
    _presets=_dbs_presets,
    deck_rules=("40 to 50 cards, at most 3 cards of the same number, at least one character card."),
)

GAMES: Final[dict[str, CardGame]] = {"rso": RSO, "dbs": DBS}
GAME_CHOICES: Final = [(g.slug, g.title) for g in GAMES.values()]
CARD_SET_ERRORS: Final = (rso.CardSetError, dbs.CardSetError)


def game_for(slug: str) -> CardGame | None:
    return GAMES.get(slug)
