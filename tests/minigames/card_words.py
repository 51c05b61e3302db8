"""The check every card game's line words pass: a card's lines read in the language, as the
engine's English says them, with the same numbers; shared by tests/minigames/test_dbs_card_words.py
and test_rso_card_words.py."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from django.utils import translation

from apibase.engine_words import in_language
from tests.minigames.test_i18n import english_left

NUMBER = re.compile(r"\d+")


def assert_lines_read_in(
    language: str, words: list[Any], english: list[str], names: list[str], card: str
) -> None:
    """``words`` (a card's line words) say ``english`` in English and read wholly in
    ``language``, from their JSON too, each line keeping its English line's numbers; ``names``
    may stay as they are, ``card`` names the card in a failure."""
    assert [str(w) for w in words] == english and english, card
    with translation.override(language):
        lines = [in_language(w) for w in words]
        # as a log or a view keeps them: their JSON reads the same
        assert [in_language(w.to_json()) for w in words] == lines
    for line, english_line in zip(lines, english, strict=True):
        assert line != english_line
        assert english_left(line, names) == [], (card, line)
        assert Counter(NUMBER.findall(line)) == Counter(NUMBER.findall(english_line)), (
            line,
            english_line,
        )
        assert "%(" not in line and "<capitalized>" not in line, line
