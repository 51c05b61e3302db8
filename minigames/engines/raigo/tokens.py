"""The 69 RAIGO tokens (RULINGS RAIGO 1) and what each one is.

Every token has a fixed id (``"raigo-token-17"``) and the id alone says which token it is, so an
id is as secret as the token: a view shows the id of a token only when that seat may see the
token. The catalogue order never changes, so a saved game always means the same tokens.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from westernroses.words import N_, NP_, Words


@dataclass(frozen=True)
class Kind:
    """One kind of token: its key, its name for people, its weight and whether it is a Spell;
    ``context``: the name's message context where the word means something else elsewhere."""

    key: str
    name: str
    weight: int
    spell: bool
    copies: int
    context: str = ""


#: The message context of a token's name that means something else elsewhere on the site and
#: must not share its translation: "Switch" (the language switcher's button), "Shield" (the
#: spellcard skill). The glossary's 瞬 and 陣 are the tokens' own characters.
NAME_CONTEXT: Final = "RAIGO token"


#: Rulebook "Weight of tokens"; counts from RULINGS RAIGO 1 (Thunder 5, every other kind 4).
KINDS: Final[tuple[Kind, ...]] = (
    Kind("thunder", N_("Thunder"), 1, True, 5),
    Kind("snake", N_("Snake"), 2, True, 4),
    Kind("katana", N_("Katana"), 3, True, 4),
    Kind("shield", NP_("RAIGO token", "Shield"), 4, True, 4, NAME_CONTEXT),
    Kind("roar", N_("Roar"), 5, True, 4),
    Kind("mist", N_("Mist"), 6, True, 4),
    Kind("switch", NP_("RAIGO token", "Switch"), 7, True, 4, NAME_CONTEXT),
    Kind("purify", N_("Purify"), 8, True, 4),
    Kind("destroy", N_("Destroy"), 9, True, 4),
    Kind("one", N_("One"), 1, False, 4),
    Kind("two", N_("Two"), 2, False, 4),
    Kind("three", N_("Three"), 3, False, 4),
    Kind("four", N_("Four"), 4, False, 4),
    Kind("five", N_("Five"), 5, False, 4),
    Kind("six", N_("Six"), 6, False, 4),
    Kind("seven", N_("Seven"), 7, False, 4),
    Kind("eight", N_("Eight"), 8, False, 4),
)

KIND_BY_KEY: Final[dict[str, Kind]] = {kind.key: kind for kind in KINDS}


def _catalogue() -> dict[str, Kind]:
    tokens: dict[str, Kind] = {}
    for kind in KINDS:
        for _ in range(kind.copies):
            tokens[f"raigo-token-{len(tokens)}"] = kind
    return tokens


#: token id -> its kind, for all 69 tokens.
TOKENS: Final[dict[str, Kind]] = _catalogue()


def all_token_ids(*, two_players: bool) -> list[str]:
    """The tokens in play: all 69, or without the Eights for two players (2 PLAYER RULES 1)."""
    return [tid for tid, kind in TOKENS.items() if not (two_players and kind.key == "eight")]


def kind(token: str) -> Kind:
    return TOKENS[token]


def weight(token: str) -> int:
    return TOKENS[token].weight


def name(token: str) -> str:
    return TOKENS[token].name


def words(token: str) -> Words:
    """A token's name as words, for sentences read in every language."""
    k = TOKENS[token]
    return Words(k.name, context=k.context)


def is_spell(token: str) -> bool:
    return TOKENS[token].spell


def token_json(token: str) -> dict[str, Any]:
    """A visible token as the views and events show it."""
    k = TOKENS[token]
    return {"id": token, "name": k.name, "weight": k.weight, "spell": k.spell}


def sort_body(body: list[str]) -> None:
    """Inner tokens on the Body sit heaviest at the bottom (index 0), ties by catalogue order."""
    body.sort(key=lambda t: (-weight(t), int(t.rsplit("-", 1)[1])))


def ids_for(*keys: str) -> list[str]:
    """Distinct token ids of the given kinds, in order (for building towers in tests and docs)."""
    used: set[str] = set()
    out: list[str] = []
    for key in keys:
        tid = next(t for t, k in TOKENS.items() if k.key == key and t not in used)
        used.add(tid)
        out.append(tid)
    return out


#: A count of tokens in words ("two tokens"), one sentence each.
TOKEN_COUNT_WORDS: Final = (
    N_("no tokens"),
    N_("one token"),
    N_("two tokens"),
    N_("three tokens"),
    N_("four tokens"),
)


def tokens_words(count: int) -> Words:
    """ "one token", "two tokens", … for event texts."""
    if count < len(TOKEN_COUNT_WORDS):
        return Words(TOKEN_COUNT_WORDS[count])
    return Words(N_("%(count)s tokens"), {"count": count})
