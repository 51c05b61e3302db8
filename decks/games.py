"""The card games the decks app serves, registered by slug.

Rumbling Spell Orchestra (``minigames.engines.rso``) and Dream Battle of SpellCard
(``minigames.engines.dbs``) share one card shape (``number``, ``name``, ``kind``; a card in
words as lines; presets as a list) and one set of public names (:class:`CardEngine`), so the app
calls either engine the same way. Nothing here decides a rule: validity, deck legality and the
words are the engines'; an engine that gives its card lines and deck-rule refusals as message ids
(``card_line_words``, ``deck_rule_words``) has them rendered here in the reader's language.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

from apibase.engine_words import in_language
from minigames.engines import dbs, rso

Card = dict[str, Any]

#: Our rule for GM card numbers in both games (the DBS engine's own pattern): capitals, a dash,
#: three digits. RSO's engine accepts any text; one pattern keeps deck texts readable.
NUMBER_PATTERN: Final = re.compile(r"^[A-Z]{2,6}-[0-9]{3}$")


class CardEngine(Protocol):
    """What a card game's engine package gives the app: the same names in both games."""

    @property
    def KIND_WORDS(self) -> Mapping[str, str]: ...
    @property
    def DECK_RULES(self) -> str: ...

    def load_card_set(self, extra: Iterable[Mapping[str, Any]] | None = ...) -> dict[str, Card]:
        """The starter set plus ``extra``; raises the engine's ``CardSetError`` (``errors``)."""

    def starter_card_set(self) -> dict[str, Card]: ...
    def validate_card(self, data: object) -> list[str]: ...
    def upgrade_card(self, data: Mapping[str, Any]) -> dict[str, Any]: ...
    def card_lines(
        self, card: Mapping[str, Any], card_set: Mapping[str, Any] | None = ...
    ) -> list[str]: ...
    def card_characters(
        self, card: Mapping[str, Any], card_set: Mapping[str, Card] | None = ...
    ) -> list[str]: ...
    def card_needs(self, card: Mapping[str, Any]) -> list[str]: ...
    def validate_deck(self, card_ids: Sequence[str], card_set: Mapping[str, Card]) -> list[str]: ...
    def deck_to_text(
        self, card_ids: Sequence[str], card_set: Mapping[str, Card], name: str = ...
    ) -> str: ...
    def deck_from_text(
        self, text: str, card_set: Mapping[str, Card]
    ) -> tuple[list[str], list[str]]: ...
    def preset_decks(self) -> list[dict[str, Any]]: ...


@dataclass(frozen=True, slots=True)
class CardGame:
    """One registered card game: its slug, its title and its engine package."""

    slug: str
    title: str
    engine: CardEngine

    @property
    def deck_rules(self) -> str:
        """The deck rules in a sentence, in the reader's language when the engine gives them
        as a message id (``DECK_RULE_WORDS``), else as it writes them."""
        words = getattr(self.engine, "DECK_RULE_WORDS", None)
        return self.engine.DECK_RULES if words is None else in_language(words)

    @property
    def kind_words(self) -> Mapping[str, str]:
        return self.engine.KIND_WORDS

    def lines(self, card: Mapping[str, Any], card_set: Mapping[str, Card]) -> list[str]:
        """The card in words, a line each, in the reader's language when the engine gives
        its lines as message ids, else as it writes them."""
        words = getattr(self.engine, "card_line_words", None)
        if words is None:
            return list(self.engine.card_lines(card, card_set))
        return [in_language(line) for line in words(card, card_set)]

    def read_text(self, text: str, card_set: Mapping[str, Card]) -> tuple[list[str], list[str]]:
        """The card numbers read from a pasted deck and why each unreadable line could not be
        read, in the reader's language when the engine gives message ids, else as it writes
        them."""
        words = getattr(self.engine, "deck_text_words", None)
        if words is None:
            return self.engine.deck_from_text(text, card_set)
        numbers, errors = words(text, card_set)
        return list(numbers), [in_language(error) for error in errors]

    def deck_errors(self, card_ids: Sequence[str], card_set: Mapping[str, Card]) -> list[str]:
        """Every deck rule ``card_ids`` breaks, in the reader's language when the engine
        gives them as message ids, else as it writes them."""
        words = getattr(self.engine, "deck_rule_words", None)
        if words is None:
            return list(self.engine.validate_deck(card_ids, card_set))
        return [in_language(rule) for rule in words(card_ids, card_set)]


RSO: Final = CardGame(slug=rso.ENGINE.slug, title=rso.ENGINE.title, engine=rso)
DBS: Final = CardGame(slug=dbs.ENGINE.slug, title=dbs.ENGINE.title, engine=dbs)

GAMES: Final[dict[str, CardGame]] = {g.slug: g for g in (RSO, DBS)}
GAME_CHOICES: Final = [(g.slug, g.title) for g in GAMES.values()]
CARD_SET_ERRORS: Final = (rso.CardSetError, dbs.CardSetError)


def game_for(slug: str) -> CardGame | None:
    return GAMES.get(slug)


def card_cost(card: Mapping[str, Any]) -> int | None:
    """A card's cost in SP, when it has one (characters have none)."""
    value = card.get("cost")
    return value if isinstance(value, int) and not isinstance(value, bool) else None
