"""The engines' words: an English message id with parameters, rendered in any language."""

from __future__ import annotations

from westernroses.words import N_, Words, render

CATALOG = {"%(player)s plays %(card)s.": "%(player)sが%(card)sを出す。", "Fireball": "火球"}


def test_words_render_in_english_and_in_a_catalog_with_nested_words() -> None:
    line = Words(N_("%(player)s plays %(card)s."), {"player": "Reimu", "card": Words("Fireball")})
    assert str(line) == "Reimu plays Fireball."
    assert render(line, lambda text: CATALOG.get(text, text)) == "Reimuが火球を出す。"


def test_words_survive_a_json_round_trip() -> None:
    line = Words("%(player)s plays %(card)s.", {"player": "Reimu", "card": Words("Fireball")})
    assert Words.from_json(line.to_json()) == line
    assert render("Reimu's note", lambda text: "x") == "Reimu's note"
