"""The battles' fixtures (a started battle with a player's character), for the battle's
words in the reader's language (test_data_words.py)."""

from tests.battles.conftest import character, other_character, setup_battle, started

__all__ = ["character", "other_character", "setup_battle", "started"]
