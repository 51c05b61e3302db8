"""Loading the card set: the bundled starter set (``data/cards.yaml``) plus any GM-added cards.

A card set is a plain mapping ``number -> card data`` so a game state can carry the cards it
uses (a replay years later must not depend on today's card files). Every card is validated with
:func:`~minigames.engines.rso.vocabulary.validate_card`; a bad card raises
:class:`CardSetError` whose message names the card and the field.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Final, TypeAlias

from minigames.engines.rso.vocabulary import name_key, validate_card
from westernroses.yaml_data import load_yaml

DATA_DIR: Final = Path(__file__).resolve().parent / "data"

Card: TypeAlias = dict[str, Any]
CardSet: TypeAlias = dict[str, Card]


class CardSetError(ValueError):
    """A card set that cannot be used; ``errors`` lists every problem in words (a card that
    breaks the vocabulary, or two cards with one number), each naming the card."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__(" ".join(errors))
        self.errors = errors


def upgrade_card(data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` in today's card shape: cards written before the two card games shared one shape
    named their kind ``type`` (stored cards, saved games and backups may still hold them)."""
    card = dict(data)
    if "type" in card and "kind" not in card:
        card = {("kind" if key == "type" else key): value for key, value in card.items()}
    return card


def _read_yaml(name: str) -> Any:
    return load_yaml((DATA_DIR / name).read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=1)
def _starter() -> CardSet:
    raw = _read_yaml("cards.yaml")
    return build_card_set(raw["cards"])


def build_card_set(
    cards: Iterable[Mapping[str, Any]], base: Mapping[str, Card] | None = None
) -> CardSet:
    """``base`` (if any) plus ``cards``, each validated; a repeated number is an error."""
    result: CardSet = dict((base or {}).items())
    for i, given in enumerate(cards):
        data = upgrade_card(given) if isinstance(given, Mapping) else given
        errors = validate_card(data)
        label = (
            data.get("number", f"card {i + 1}") if isinstance(data, Mapping) else f"card {i + 1}"
        )
        if errors:
            raise CardSetError([f"{label}: " + "; ".join(errors)])
        number = str(data["number"])
        if number in result:
            raise CardSetError([f"{number}: number: another card already has this number"])
        result[number] = copy.deepcopy(dict(data))
    return result


def shared_starter_set() -> Mapping[str, Card]:
    """The bundled starter set, validated once per process and shared by every new game:
    read it, never change it (:func:`starter_card_set` gives a copy to change)."""
    return _starter()


def starter_card_set() -> CardSet:
    """A fresh copy of the bundled starter set (callers may add to it)."""
    return copy.deepcopy(_starter())


def load_card_set(extra: Iterable[Mapping[str, Any]] | None = None) -> CardSet:
    """The starter set plus ``extra`` cards (a GM's additions), all validated."""
    return build_card_set(extra or (), base=starter_card_set())


def card_characters(
    card: Mapping[str, Any], card_set: Mapping[str, Card] | None = None
) -> list[str]:
    """The characters ``card`` belongs to, by name: a character card's own character, or the
    characters a card requires (none for a General card)."""
    if card.get("kind") == "character":
        return [str(card.get("character", ""))]
    return [str(k) for k in (card.get("requires") or {})]


def card_needs(card: Mapping[str, Any]) -> list[str]:
    """Other cards (by number) ``card`` needs in its set: none in this game (a requirement
    names characters, which any character card of that name meets)."""
    return []


def find_card(card_set: Mapping[str, Card], key: str) -> str | None:
    """The number of the card ``key`` names: a number, or a name (compared as the copy rule
    compares names: :func:`~minigames.engines.rso.vocabulary.name_key`)."""
    if key in card_set:
        return key
    wanted = name_key(key)
    for number, card in card_set.items():
        if name_key(number) == wanted or name_key(card["name"]) == wanted:
            return number
    return None
