"""Spellcards: owned cards, decks and the builder form (see westernroses.spellcards)."""
