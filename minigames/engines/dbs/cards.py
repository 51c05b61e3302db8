"""Loading and checking DBS card sets: the starter set shipped as YAML, plus GM-added cards.

A card set is a plain ``{number: card}`` mapping (the number is the card's id in decks and
actions). :func:`load_card_set` merges extra card definitions over the starter set and refuses
the whole set, with every error in words, if any card breaks the vocabulary or refers to a
character that does not exist.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from .vocabulary import Card, validate_card

DATA_DIR = Path(__file__).resolve().parent / "data"


class CardSetError(ValueError):
    """A card set that cannot be used; ``errors`` lists every problem in words."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__(" ".join(errors))
        self.errors = errors


@cache
def _starter() -> tuple[Card, ...]:
    with (DATA_DIR / "starter.yaml").open(encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    return tuple(data)


def validate_card_set(cards: Iterable[Mapping[str, Any]]) -> list[str]:
    """Every problem of a whole set: each card's own errors (prefixed with its number or
    position), repeated numbers, and spellcards whose character is not in the set."""
    errors: list[str] = []
    seen: dict[str, Mapping[str, Any]] = {}
    listed = list(cards)
    for i, card in enumerate(listed):
        own = validate_card(card)
        label = card.get("number") if isinstance(card, Mapping) else None
        label = label if isinstance(label, str) else f"card {i + 1}"
        errors += [f"{label}: {e}" for e in own]
        if isinstance(card, Mapping) and isinstance(card.get("number"), str):
            if card["number"] in seen:
                errors.append(f"{label}: number: is used by two cards.")
            seen[card["number"]] = card
    for number, card in seen.items():
        owner = card.get("character")
        if isinstance(owner, str) and (owner not in seen or seen[owner].get("kind") != "character"):
            errors.append(f"{number}: character: {owner} is not a character card in this set.")
    return errors


def load_card_set(extra: Iterable[Mapping[str, Any]] | None = None) -> dict[str, Card]:
    """The starter set with ``extra`` cards added (an extra card with a starter number replaces
    it). Raises :class:`CardSetError` listing every problem."""
    merged: dict[str, Card] = {c["number"]: copy.deepcopy(c) for c in _starter()}
    additions = list(extra or [])
    errors: list[str] = []
    numbers: set[str] = set()
    for i, card in enumerate(additions):
        number = card.get("number") if isinstance(card, Mapping) else None
        label = number if isinstance(number, str) else f"card {i + 1}"
        errors += [f"{label}: {e}" for e in validate_card(card)]
        if isinstance(number, str):
            if number in numbers:
                errors.append(f"{label}: number: is used by two cards.")
            numbers.add(number)
    if errors:
        raise CardSetError(errors)
    for card in additions:
        merged[card["number"]] = copy.deepcopy(dict(card))
    errors = validate_card_set(merged.values())
    if errors:
        raise CardSetError(errors)
    return merged


def starter_card_set() -> dict[str, Card]:
    """The shipped starter set (a fresh copy each call)."""
    return load_card_set()
