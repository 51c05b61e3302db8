"""Rumbling Spell Orchestra: the two-player spell-card game, as a pure engine.

Public names (for the app, the deck builder and the bots). The cards and decks part is the
same set of names, with the same shapes, as Dream Battle of SpellCard's
(``minigames.engines.dbs``; ``docs/decks.md``, "One card shape"):

* :data:`ENGINE` — the :class:`westernroses.protocol.GameEngine`;
* cards: :func:`load_card_set`, :func:`starter_card_set`, :func:`validate_card`,
  :func:`upgrade_card`, :func:`card_lines` (a card in words, a line each;
  :func:`card_line_words` the same lines as message ids the app renders in the reader's
  language), :data:`KIND_WORDS`, :func:`card_characters`, :func:`card_needs`, :class:`CardSetError`;
* decks: :func:`validate_deck` (:func:`deck_rule_words` in words), :func:`preset_decks`,
  :func:`preset_deck`,
  :func:`deck_to_text`, :func:`deck_from_text` (:func:`deck_text_words` in words),
  :data:`DECK_RULES` (:data:`DECK_RULE_WORDS`);
* bots: :mod:`minigames.engines.rso.heuristic` (``heuristic_action``, ``evaluate``).
"""

from __future__ import annotations

from minigames.engines.rso.cards import (
    CardSetError,
    card_characters,
    card_needs,
    load_card_set,
    starter_card_set,
    upgrade_card,
)
from minigames.engines.rso.decks import (
    DECK_RULE_WORDS,
    DECK_RULES,
    deck_from_text,
    deck_rule_words,
    deck_text_words,
    deck_to_text,
    preset_deck,
    preset_decks,
    validate_deck,
)
from minigames.engines.rso.engine import ENGINE, RsoEngine
from minigames.engines.rso.vocabulary import validate_card
from minigames.engines.rso.words import KIND_WORDS, card_line_words, card_lines

__all__ = [
    "DECK_RULES",
    "DECK_RULE_WORDS",
    "ENGINE",
    "KIND_WORDS",
    "CardSetError",
    "RsoEngine",
    "card_characters",
    "card_line_words",
    "card_lines",
    "card_needs",
    "deck_from_text",
    "deck_rule_words",
    "deck_text_words",
    "deck_to_text",
    "load_card_set",
    "preset_deck",
    "preset_decks",
    "starter_card_set",
    "upgrade_card",
    "validate_card",
    "validate_deck",
]
