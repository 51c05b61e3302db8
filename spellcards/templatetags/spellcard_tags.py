"""Formatting for exact odds and costs, and the deck block a character sheet includes."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django import template
from django.utils.translation import gettext

from apibase.engine_words import data_text, in_language
from characters.sheet_words import problem_in_language, section_words, words_in_language
from westernroses.words import Words

register = template.Library()


@register.filter
def percent(value: Fraction | None) -> str:
    """An exact probability as a percentage for people ("12.5"); the exact value goes in
    ``data-exact`` beside it."""
    if value is None:
        return ""
    return f"{float(value) * 100:.2f}".rstrip("0").rstrip(".")


@register.filter
def exact(value: Fraction | None) -> str:
    if value is None:
        return ""
    return f"{value.numerator}/{value.denominator}"


@register.filter
def decimal(value: Fraction | float | None) -> str:
    if value is None:
        return ""
    return f"{float(value):.2f}".rstrip("0").rstrip(".")


@register.filter
def signed(value: int) -> str:
    return f"+{value}" if value > 0 else (f"−{-value}" if value < 0 else "0")


@register.filter
def field_label(form: Any, name: str) -> str:
    """A form field's label ("Damage modifier") for a message naming it; "the card" for
    errors about no one field."""
    field = getattr(form, "fields", {}).get(name)
    return str(field.label) if field is not None and field.label else gettext("the card")


@register.filter
def error_labels(form: Any) -> str:
    """The labels of the form's fields with errors, in one list ("Name; Damage modifier"), for
    a sentence that names them all (one translatable sentence, not fragments)."""
    names = getattr(form, "errors", {}) or {}
    return gettext("; ").join(field_label(form, name) for name in names)


@register.filter
def cost_words(line: Any) -> str:
    """A cost line's label (``CostLine.to_dict()``) in the reader's language: the rules' own
    from its words, a skill's name from the data; a label kept without words as it is."""
    words = line.get("words") if isinstance(line, dict) else None
    if isinstance(words, dict):
        return words_in_language(words)
    return data_text(str(line.get("label", "") if isinstance(line, dict) else line))


register.filter("section_words", section_words)


@register.filter
def problem_words(violation: Any) -> dict[str, Any]:
    """A broken rule (``CardViolation``) with its message and section in the reader's
    language, as the character wizard shows its own (``problem_in_language``)."""
    return problem_in_language(violation.to_dict(words=True))


@register.filter
def rule_words(problem: Any) -> dict[str, Any]:
    """A broken rule already as JSON (``SpellcardRejected.rules_words``), its message and
    section in the reader's language."""
    return problem_in_language(dict(problem))


@register.filter
def words_text(value: Any) -> str:
    """Engine words (a deck's limits, why a card cannot be priced) in the reader's language;
    plain text (user content, an old English message) as it is."""
    if isinstance(value, Words | str | dict):
        return in_language(value)
    return "" if value is None else str(value)


@register.inclusion_tag("spellcards/_deck_sheet.html", takes_context=True)
def deck_block(context: Any, character: Any) -> dict[str, Any]:
    """The deck of ``character`` for its sheet (inside the sheet's own "Deck" section), shown
    only to its owner and the GMs: decks are private (docs/spellcards.md)."""
    from spellcards import selectors, services

    request = context.get("request")
    user = getattr(request, "user", None)
    if character is None or not selectors.can_act_for_character(user, character):
        return {"visible": False}
    return {
        "visible": True,
        "character": character,
        "deck": services.deck_summary(character),
        "can_edit": True,
        "csrf_token": context.get("csrf_token"),
        "request": request,
    }
