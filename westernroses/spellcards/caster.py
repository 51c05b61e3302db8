"""Who designs a card: the few character facts that change what a card may be and cost.

Kept deliberately small so the spellcard engine does not depend on the character engine: a
caller copies these fields from whatever character model it has.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from westernroses.elements import Element
from westernroses.words import N_, Words

#: Why a level is refused, in words the app shows in the reader's language (``level``: the
#: value given, as Python writes it).
LEVEL_MUST_BE_WHOLE = N_("level must be a whole number of at least 1, not %(level)s")

#: The shot type whose "Efficiency" makes every spellcard cheaper (ruleset "Shot-types").
MAGIC_MISSILE = "magic_missile"


class Profession(StrEnum):
    """Ruleset "Professions". Witch, Scout and Mechanic are "not yet implemented" in v0.6:
    they have no special skills, so they build attack and defensive cards only."""

    CAREFREE_SOUL = "carefree_soul"
    SHRINE_MAIDEN = "shrine_maiden"
    WITCH = "witch"
    LIBRARIAN = "librarian"
    GUARDIAN = "guardian"
    COMBAT_MAID = "combat_maid"
    SCOUT = "scout"
    DRUNKEN_MASTER = "drunken_master"
    MECHANIC = "mechanic"
    DOLL_MASTER = "doll_master"

    @property
    def label(self) -> str:
        """The rulebook's spelling ("Combat-Maid", "Drunken Master")."""
        return _PROFESSION_LABELS[self]


_PROFESSION_LABELS = {
    Profession.CAREFREE_SOUL: "Carefree Soul",
    Profession.SHRINE_MAIDEN: "Shrine Maiden",
    Profession.WITCH: "Witch",
    Profession.LIBRARIAN: "Librarian",
    Profession.GUARDIAN: "Guardian",
    Profession.COMBAT_MAID: "Combat-Maid",
    Profession.SCOUT: "Scout",
    Profession.DRUNKEN_MASTER: "Drunken Master",
    Profession.MECHANIC: "Mechanic",
    Profession.DOLL_MASTER: "Doll Master",
}


@dataclass(frozen=True, slots=True)
class CasterInfo:
    """The designer of a card.

    ``goddess_element`` is a Shrine Maiden's patron goddess's element ("When creating a Shrine
    Maiden, choose an element for your patron goddess"); Goddess's Element cards need it.
    """

    profession: Profession
    shot_type: str
    element: Element
    level: int = 1
    goddess_element: Element | None = None

    def __post_init__(self) -> None:
        # Accept plain strings from forms and stored data, but fail loudly on unknown slugs.
        object.__setattr__(self, "profession", Profession(self.profession))
        object.__setattr__(self, "element", Element(self.element))
        if self.goddess_element is not None:
            object.__setattr__(self, "goddess_element", Element(self.goddess_element))
        if isinstance(self.level, bool) or not isinstance(self.level, int) or self.level < 1:
            raise ValueError(Words(LEVEL_MUST_BE_WHOLE, {"level": repr(self.level)}))

    @property
    def has_efficiency(self) -> bool:
        """Magic Missile's Efficiency: every card costs less to activate (RULINGS 7)."""
        return self.shot_type == MAGIC_MISSILE
