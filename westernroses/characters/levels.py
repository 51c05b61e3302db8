"""Character levels (ruleset "Spellcards" deck size; professions' "Level 1" features).

The rulebook has no experience points: the GM raises a character's level. What a level
changes is the spellcard deck (15 + 5 per level cards, 4 per level kinds, at most 5 copies
of one card) and which profession features apply; every profession only defines its
"Level 1" feature so far, so higher levels add deck room and nothing else.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, Final

from westernroses.catalog import Profession, Trait
from westernroses.characters.contributions import Contribution, total
from westernroses.characters.draft import CharacterDraft

MIN_LEVEL: Final = 1
DECK_BASE_CARDS: Final = 15
DECK_CARDS_PER_LEVEL: Final = 5
DECK_KINDS_PER_LEVEL: Final = 4
DECK_COPIES_PER_CARD: Final = 5


@dataclass(frozen=True, slots=True)
class DeckLimits:
    """How many cards, different cards and copies of one card a deck may hold."""

    level: int
    cards: tuple[Contribution, ...]
    kinds: tuple[Contribution, ...]
    copies_per_card: int = DECK_COPIES_PER_CARD

    @property
    def max_cards(self) -> int:
        return total(self.cards)

    @property
    def max_kinds(self) -> int:
        return total(self.kinds)

    def to_dict(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "max_cards": self.max_cards,
            "max_kinds": self.max_kinds,
            "copies_per_card": self.copies_per_card,
            "cards": [c.to_dict() for c in self.cards],
            "kinds": [c.to_dict() for c in self.kinds],
        }


def level_problem(level: int) -> str | None:
    """Why ``level`` is not a level a character can have, or None."""
    if isinstance(level, bool) or not isinstance(level, int):
        return "level must be a whole number"
    if level < MIN_LEVEL:
        return f"level must be at least {MIN_LEVEL}"
    return None


def deck_limits(
    level: int,
    extra_cards: Iterable[Contribution] = (),
    extra_kinds: Iterable[Contribution] = (),
) -> DeckLimits:
    """Deck limits at ``level`` plus extras such as Librarian (+5, +1) and Grimoire (+5, +1)."""
    problem = level_problem(level)
    if problem:
        raise ValueError(problem)
    cards = (
        Contribution("rule", "Base deck", DECK_BASE_CARDS),
        Contribution("level", f"Level {level} (5 per level)", DECK_CARDS_PER_LEVEL * level),
        *extra_cards,
    )
    kinds = (
        Contribution("level", f"Level {level} (4 per level)", DECK_KINDS_PER_LEVEL * level),
        *extra_kinds,
    )
    return DeckLimits(level=level, cards=cards, kinds=kinds)


def profession_features(profession: Profession, level: int) -> tuple[Trait, ...]:
    """Profession features a character of ``level`` has: so far only the level-1 feature."""
    if profession.level_1 is None or level < MIN_LEVEL:
        return ()
    return (profession.level_1,)


def raise_level(draft: CharacterDraft, levels: int = 1) -> CharacterDraft:
    """A copy of ``draft`` ``levels`` higher. The GM decides when; nothing else changes."""
    if levels < 1:
        raise ValueError("a level can only be raised by 1 or more")
    problem = level_problem(draft.level)
    if problem:
        raise ValueError(problem)
    return replace(
        CharacterDraft.from_dict(draft.to_dict()),
        level=draft.level + levels,
    )
