"""Dream Battle of SpellCard: a two-player Touhou spell-card duel (rulebook in
../shared/rules/dream-battle-of-spellcard-rules.en.md; our rulings in docs/games/dbs.md).

Public API for the app:

* ``ENGINE``: the :class:`westernroses.protocol.GameEngine`;
  ``new_game(seats=2, seed=..., config={"decks": [[numbers...], [numbers...]],
  "cards": [extra card definitions], "names": ["...", "..."]})``.
* cards: :func:`load_card_set`, :func:`starter_card_set`, :func:`validate_card`,
  :func:`describe_card`, :class:`CardSetError`.
* decks: :func:`validate_deck`, :func:`deck_to_text`, :func:`deck_from_text`,
  :func:`preset_decks`, :func:`preset_deck`.
* bots: :mod:`.heuristic` (``heuristic_action``, ``evaluate``).
"""

from __future__ import annotations

from .cards import CardSetError, load_card_set, starter_card_set, validate_card_set
from .decks import deck_from_text, deck_to_text, preset_deck, preset_decks, validate_deck
from .engine import ENGINE, DBSEngine
from .views import card_locations
from .vocabulary import describe_card, validate_card

__all__ = [
    "ENGINE",
    "CardSetError",
    "DBSEngine",
    "card_locations",
    "deck_from_text",
    "deck_to_text",
    "describe_card",
    "load_card_set",
    "preset_deck",
    "preset_decks",
    "starter_card_set",
    "validate_card",
    "validate_card_set",
    "validate_deck",
]
