"""What differs between games' chat: who moderates, who reads every whisper, and whom a
member may whisper to. Each game registers its :class:`ChatRules` in its app's ``ready()``
(``register_chat``); a game that registers none gets chat for everyone who may see the table,
no whispers and no moderator.

Private talk follows each game's rules: a battle's players whisper to the GMs and a GM to one
player (a GM runs the table and hears everything said at it); RAIGO's four-player game pairs
partners who may share plans ("share secret codes or hand signs", RAIGO rulebook, p. 1, and
rule 10 of the setup); the two-player card games and RAIGO with two or three players allow
none.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from westernroses.protocol import Seat

#: The reactions a line may receive: (key the API takes, emoji shown, words for screen readers).
REACTIONS: Final[tuple[tuple[str, str, str], ...]] = (
    ("thumbs_up", "👍", "thumbs up"),
    ("clap", "👏", "well played"),
    ("laugh", "😄", "laughing"),
    ("wow", "😮", "surprised"),
    ("sad", "😢", "sad"),
)
REACTION_KEYS: Final = frozenset(key for key, _emoji, _words in REACTIONS)


@dataclass(frozen=True, slots=True)
class Whisper:
    """Someone a member may whisper to: ``key`` is what the API takes (``"gm"`` for the GMs,
    else the person's user id in digits), ``name`` the words the page shows."""

    key: str
    name: str
    user_id: int | None = None  # None: the GMs


def _never(user: Any, table: Any) -> bool:
    return False


@dataclass(frozen=True)
class ChatRules:
    """A game's chat hooks (defaults in brackets).

    * ``moderates(user, table)`` - may mute members and choose whether spectators may chat
      (the tavern's host, a battle's GMs) [nobody].
    * ``moderator_words`` - who that is, in words, for the messages a muted member reads: a
      text, or a function of the table ["the host"].
    * ``is_gm(user, table)`` - reads every line said at the table, whispers included, and is
      whom "the GMs" whispers reach [nobody].
    * ``whispers(user, table, seat)`` - whom ``user`` (at ``seat``, None watching) may
      whisper to [nobody: the game allows no private talk].
    * ``spectators_by_default`` - whether spectators may chat at a new table [no].
    """

    moderates: Callable[[Any, Any], bool] = _never
    moderator_words: str | Callable[[Any], str] = "the host"
    is_gm: Callable[[Any, Any], bool] = _never
    whispers: Callable[[Any, Any, Seat | None], list[Whisper]] | None = None
    spectators_by_default: bool = False


_RULES: dict[str, ChatRules] = {}
_DEFAULT: Final = ChatRules()


def register_chat(slug: str, rules: ChatRules) -> ChatRules:
    """Give game ``slug`` its chat rules (its app's ``ready()``); again replaces."""
    _RULES[slug] = rules
    return rules


def chat_rules(slug: str) -> ChatRules:
    return _RULES.get(slug, _DEFAULT)
