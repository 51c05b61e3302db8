"""Characters: the draft a player writes, the rules it must follow, and the sheet derived from it.

* :mod:`.draft` - :class:`CharacterDraft`, choices and state only, with an exact
  ``to_dict``/``from_dict`` round-trip for storage.
* :mod:`.builder` - :func:`validate`, every broken creation rule at once, and starting kits.
* :mod:`.sheet` - :func:`derive_sheet`, every number with its contributions.
* :mod:`.drunkenness` - the drunkenness track and its race/profession exceptions.
* :mod:`.levels` - levels and spellcard deck limits.

Pure Python: nothing here imports Django, DRF or Celery.
"""

from westernroses.characters.builder import (
    RuleViolation,
    is_valid,
    starting_kit,
    validate,
    with_starting_kit,
)
from westernroses.characters.contributions import Contribution
from westernroses.characters.draft import ActiveEffect, CharacterDraft, DraftFormatError, ItemStack
from westernroses.characters.drunkenness import DrunkLevel
from westernroses.characters.levels import DeckLimits, deck_limits, raise_level
from westernroses.characters.sheet import Sheet, SheetError, derive_sheet

__all__ = [
    "ActiveEffect",
    "CharacterDraft",
    "Contribution",
    "DeckLimits",
    "DraftFormatError",
    "DrunkLevel",
    "ItemStack",
    "RuleViolation",
    "Sheet",
    "SheetError",
    "deck_limits",
    "derive_sheet",
    "is_valid",
    "raise_level",
    "starting_kit",
    "validate",
    "with_starting_kit",
]
