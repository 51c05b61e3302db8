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

from westernroses.yaml_data import load_yaml

from .vocabulary import Card, validate_card

DATA_DIR = Path(__file__).resolve().parent / "data"


class CardSetError(ValueError):
    """A card set that cannot be used; ``errors`` lists every problem in words."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__(" ".join(errors))
        self.errors = errors


def read_data(name: str, key: str) -> list[Any]:
    """The list under ``key`` in the data file ``name`` (``cards.yaml``: ``cards``,
    ``decks.yaml``: ``decks``), the layout both card games' data files share."""
    with (DATA_DIR / name).open(encoding="utf-8") as fh:
        data = load_yaml(fh)
    return list(data[key])


@cache
def _starter() -> tuple[Card, ...]:
    return tuple(read_data("cards.yaml", "cards"))


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


@cache
def _validated_starter() -> dict[str, Card]:
    return load_card_set()


def shared_starter_set() -> Mapping[str, Card]:
    """The bundled starter set, validated once per process and shared by every new game:
    read it, never change it (:func:`load_card_set` gives a copy to change)."""
    return _validated_starter()


def upgrade_card(data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` in today's card shape (a copy): DBS cards have had it from the start; RSO's
    :func:`~minigames.engines.rso.upgrade_card` renames an older card's keys."""
    return dict(data)


def card_characters(
    card: Mapping[str, Any], card_set: Mapping[str, Card] | None = None
) -> list[str]:
    """The characters ``card`` belongs to, by name: a character card's own name, or the name of
    the character card a spellcard belongs to (none for an item or a buff of nobody's)."""
    if card.get("kind") == "character":
        return [str(card.get("name", ""))]
    owner = card.get("character")
    if isinstance(owner, str):
        return [str((card_set or {}).get(owner, {}).get("name", owner))]
    return []


def card_needs(card: Mapping[str, Any]) -> list[str]:
    """Other cards (by number) ``card`` needs in its set: a spellcard's character card."""
    owner = card.get("character")
    return [owner] if card.get("kind") != "character" and isinstance(owner, str) else []


def starter_card_set() -> dict[str, Card]:
    """The shipped starter set (a fresh copy each call)."""
    return load_card_set()
