"""Dream Battle of SpellCard: a two-player Touhou spell-card duel (rulebook in
../shared/rules/dream-battle-of-spellcard-rules.en.md; our rulings in docs/games/dbs.md).

Public API for the app. The cards and decks part is the same set of names, with the same
shapes, as Rumbling Spell Orchestra's (``minigames.engines.rso``; ``docs/decks.md``, "One card
shape"):

* ``ENGINE``: the :class:`westernroses.protocol.GameEngine`;
  ``new_game(seats=2, seed=..., config={"decks": [[numbers...], [numbers...]],
  "cards": [extra card definitions], "names": ["...", "..."]})``.
* cards: :func:`load_card_set`, :func:`starter_card_set`, :func:`validate_card`,
  :func:`upgrade_card`, :func:`card_lines` (a card in words, a line each; :func:`card_line_words`
  the same lines as message ids the app renders in the reader's language), :data:`KIND_WORDS`,
  :func:`card_characters`, :func:`card_needs`, :class:`CardSetError`; :func:`describe_card`
  (the card as one paragraph, its title first).
* decks: :func:`validate_deck` (:func:`deck_rule_words` in words), :func:`preset_decks`,
  :func:`preset_deck`, :func:`deck_to_text`, :func:`deck_from_text` (:func:`deck_text_words`
  in words), :data:`DECK_RULES`.
* bots: :mod:`.heuristic` (``heuristic_action``, ``evaluate``).
"""

from __future__ import annotations

from .cards import (
    CardSetError,
    card_characters,
    card_needs,
    load_card_set,
    starter_card_set,
    upgrade_card,
    validate_card_set,
)
from .decks import (
    DECK_RULES,
    deck_from_text,
    deck_rule_words,
    deck_text_words,
    deck_to_text,
    preset_deck,
    preset_decks,
    validate_deck,
)
from .engine import ENGINE, DBSEngine
from .player_view import card_locations
from .vocabulary import KIND_WORDS, card_line_words, card_lines, describe_card, validate_card

__all__ = [
    "DECK_RULES",
    "ENGINE",
    "KIND_WORDS",
    "CardSetError",
    "DBSEngine",
    "card_characters",
    "card_line_words",
    "card_lines",
    "card_locations",
    "card_needs",
    "deck_from_text",
    "deck_rule_words",
    "deck_text_words",
    "deck_to_text",
    "describe_card",
    "load_card_set",
    "preset_deck",
    "preset_decks",
    "starter_card_set",
    "upgrade_card",
    "validate_card",
    "validate_card_set",
    "validate_deck",
]
