"""The Spirit War element chart and the Element buff ("Spirit Elements chart", "Element buff").

Spirit War has its own three-element cycle, separate from the RPG's eight elements: Fire wins
against Earth, Earth wins against Water, Water wins against Fire. A battle's outcome is decided
from the two main Spirits' elements (after Imbue and Swap) and which sides hold an Element buff.
"""

from __future__ import annotations

from typing import Final

from westernroses.words import N_, Words

ELEMENTS: Final = ("fire", "earth", "water")

#: element → the element it wins against ("Fire wins> Earth wins> Water wins> Fire").
BEATS: Final = {"fire": "earth", "earth": "water", "water": "fire"}

#: Outcomes from the first side's point of view.
WIN: Final = 1
DRAW: Final = 0
LOSS: Final = -1


def chart(mine: str, theirs: str) -> int:
    """The element chart alone: ``WIN`` if ``mine`` beats ``theirs``, ``DRAW`` if equal."""
    if mine == theirs:
        return DRAW
    return WIN if BEATS[mine] == theirs else LOSS


def outcome(mine: str, my_buff: bool, theirs: str, their_buff: bool) -> int:
    """The battle's outcome for the first side, with Element buffs ("Element buff" bullets):

    * no buff on either side, or a buff on both: the chart decides ("In the case where both you
      and your opponent gain the Element buff, the outcome ... will follow the Spirit Elements
      chart");
    * a buff on one side only, against the same element: a draw ("... your Spirit's element is
      the same as your opponent's spirit without Element buff, the outcome ... will be a draw");
    * a buff on one side only, against another element: the buffed side wins, including against
      the element it would normally lose to ("lets you win against an element that you would
      normally lose").
    """
    if my_buff == their_buff or mine == theirs:
        return chart(mine, theirs)
    return WIN if my_buff else LOSS


#: The elements as the rules and the table page write them (:func:`element_words`).
ELEMENT_WORDS: Final = {"fire": N_("Fire"), "earth": N_("Earth"), "water": N_("Water")}


def element_words(element: str) -> Words:
    """An element as words to read in every language (a log line's parameter): "Fire",
    "Earth", "Water" in English."""
    return Words(ELEMENT_WORDS[element])


def beaten_by(element: str) -> str:
    """The element that wins against ``element``."""
    return next(e for e, loser in BEATS.items() if loser == element)
