"""Rumbling Spell Orchestra: the two-player spell-card game, as a pure engine.

Public names (for the app, the deck builder and the bots):

* :data:`ENGINE` — the :class:`westernroses.protocol.GameEngine`;
* cards: :func:`load_card_set`, :func:`starter_card_set`, :func:`validate_card`,
  :func:`card_lines` (a card in words), :class:`CardSetError`;
* decks: :func:`validate_deck`, :func:`preset_decks`, :func:`deck_to_text`,
  :func:`deck_from_text`;
* bots: :mod:`minigames.engines.rso.heuristic` (``heuristic_action``, ``evaluate``).
"""

from __future__ import annotations

from minigames.engines.rso.cards import CardSetError, load_card_set, starter_card_set
from minigames.engines.rso.decks import deck_from_text, deck_to_text, preset_decks, validate_deck
from minigames.engines.rso.engine import ENGINE, RsoEngine
from minigames.engines.rso.vocabulary import validate_card
from minigames.engines.rso.words import card_lines

__all__ = [
    "ENGINE",
    "CardSetError",
    "RsoEngine",
    "card_lines",
    "deck_from_text",
    "deck_to_text",
    "load_card_set",
    "preset_decks",
    "starter_card_set",
    "validate_card",
    "validate_deck",
]
