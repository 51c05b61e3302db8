"""Spirit War card definitions: loading, validating and the effect vocabulary.

Why data: the rulebook names the card kinds (Spirit, Spell, Attack, Fortune, Disaster) and the
Support effects but prints no card list, so the project ships an original set as YAML under
``data/`` (RULINGS "Spirit War, RSO, DBS"). A card is a row of fields whose effects come from a
small vocabulary this engine interprets; no card has code of its own, and a GM can add cards as
data (``new_game(config={"extra_cards": [...]})``). Every definition is validated on load and a
mistake raises :class:`CardSetError` naming the file and the field (``spells.yaml:
cards[1].element: must be one of fire, earth, water``).

A validated definition is a plain JSON dict (it is copied into each game's state, so a game
replays with the cards it was dealt even if the files change later):

* every card: ``key`` (a slug, unique), ``name``, ``kind``, ``text`` (our own words);
* ``spirit``: ``element``;
* ``spell``: ``support`` (``disintegrate``, ``imbue`` with ``element``, ``swap``, ``safeguard``);
* ``attack``: ``target`` (see :data:`ATTACK_TARGETS`);
* ``fortune`` / ``disaster``: ``effects``, a list of steps (see :data:`EFFECT_STEPS`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from importlib import resources
from typing import Any, Final

import yaml

from minigames.engines.spirit_war.elements import ELEMENTS
from westernroses.yaml_data import error_line, load_yaml

Card = dict[str, Any]

#: Card kinds in deck order: the Preparation deck's two, then the Encounter deck's three.
KINDS: Final = ("spirit", "spell", "attack", "fortune", "disaster")
PREPARATION_KINDS: Final = frozenset({"spirit", "spell"})
ENCOUNTER_KINDS: Final = frozenset({"attack", "fortune", "disaster"})

#: The bundled data file of each kind.
DATA_FILES: Final[Mapping[str, str]] = {
    "spirit": "spirits.yaml",
    "spell": "spells.yaml",
    "attack": "attacks.yaml",
    "fortune": "fortunes.yaml",
    "disaster": "disasters.yaml",
}

#: Support effects of Spell cards, in the rulebook's priority order ("Support card priority
#: order"); ``buff`` is the Element buff of a Spirit used as a Support card (not a Spell effect).
SUPPORT_EFFECTS: Final = ("disintegrate", "imbue", "swap", "safeguard")

#: Whom an Attack card names: the next / previous player still in the war, any other player, or
#: the player(s) holding the most / fewest cards (ties give the attacker the choice).
ATTACK_TARGETS: Final = ("next", "previous", "any", "most_cards", "fewest_cards")

#: Fortune and Disaster steps: ``do`` → the fields it takes, each (minimum, maximum) for a whole
#: number or a tuple of allowed words. Taking cards back from the Abyss is limited to Spell
#: cards: Spirits never come back, which is what makes every war end.
EFFECT_STEPS: Final[Mapping[str, Mapping[str, tuple[int, int] | tuple[str, ...]]]] = {
    "draw_preparation": {"count": (1, 5)},
    "take_from_abyss": {"kind": ("spell",), "count": (1, 3)},
    "discard_choice": {"count": (1, 5)},
    "discard_random": {"count": (1, 5)},
    "others_discard_random": {"count": (1, 3)},
    "skip_next_turn": {},
    "extra_encounter": {},
    "ambush": {"by": ("next", "previous")},
}

_KEY = re.compile(r"^[a-z][a-z0-9_]*$")
_COMMON_FIELDS: Final = ("key", "name", "text")
_KIND_FIELDS: Final[Mapping[str, tuple[str, ...]]] = {
    "spirit": ("element",),
    "spell": ("support", "element"),
    "attack": ("target",),
    "fortune": ("effects",),
    "disaster": ("effects",),
}


class CardSetError(ValueError):
    """A card definition is malformed; says which file (or ``config``) and which field, and why."""

    def __init__(self, source: str, field: str, message: str) -> None:
        super().__init__(f"{source}: {field}: {message}")
        self.source = source
        self.field = field
        self.message = message


def _words(values: Iterable[str]) -> str:
    return ", ".join(values)


def _text(source: str, field: str, value: Any, *, limit: int = 300) -> str:
    if not isinstance(value, str) or not value.strip():
        raise CardSetError(source, field, "must be a non-empty piece of text")
    if len(value) > limit:
        raise CardSetError(source, field, f"must be at most {limit} characters long")
    return value.strip()


def _choice(source: str, field: str, value: Any, allowed: Sequence[str]) -> str:
    if value not in allowed:
        raise CardSetError(source, field, f"must be one of {_words(allowed)}")
    return str(value)


def _whole(source: str, field: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise CardSetError(source, field, f"must be a whole number from {low} to {high}")
    return value


def _step(source: str, field: str, raw: Any) -> dict[str, Any]:
    if not isinstance(raw, Mapping):
        raise CardSetError(source, field, "must be a mapping with a 'do' field")
    do = _choice(source, f"{field}.do", raw.get("do"), tuple(EFFECT_STEPS))
    params = EFFECT_STEPS[do]
    unknown = sorted(set(raw) - {"do", *params})
    if unknown:
        raise CardSetError(source, f"{field}.{unknown[0]}", f"is not a field of '{do}'")
    step: dict[str, Any] = {"do": do}
    for name, spec in params.items():
        where = f"{field}.{name}"
        if name not in raw:
            raise CardSetError(source, where, f"is required for '{do}'")
        if isinstance(spec[0], int):
            step[name] = _whole(source, where, raw[name], int(spec[0]), int(spec[1]))
        else:
            step[name] = _choice(source, where, raw[name], [str(s) for s in spec])
    return step


def parse_card(source: str, field: str, raw: Any, kind: str | None = None) -> Card:
    """Validate one definition (``kind`` given by its file, or read from the ``kind`` field)."""
    if not isinstance(raw, Mapping):
        raise CardSetError(source, field, "must be a mapping of card fields")
    if kind is None:
        kind = _choice(source, f"{field}.kind", raw.get("kind"), KINDS)
        allowed = {"kind", *_COMMON_FIELDS, *_KIND_FIELDS[kind]}
    else:
        allowed = {*_COMMON_FIELDS, *_KIND_FIELDS[kind]}
    unknown = sorted(set(raw) - allowed)
    if unknown:
        raise CardSetError(source, f"{field}.{unknown[0]}", f"is not a field of a {kind} card")
    key = raw.get("key")
    if not isinstance(key, str) or not _KEY.match(key) or len(key) > 60:
        raise CardSetError(
            source, f"{field}.key", "must be a short slug of small letters, digits and _"
        )
    card: Card = {
        "key": key,
        "kind": kind,
        "name": _text(source, f"{field}.name", raw.get("name"), limit=60),
        "text": _text(source, f"{field}.text", raw.get("text")),
    }
    if kind == "spirit":
        card["element"] = _choice(source, f"{field}.element", raw.get("element"), ELEMENTS)
    elif kind == "spell":
        support = _choice(source, f"{field}.support", raw.get("support"), SUPPORT_EFFECTS)
        card["support"] = support
        if support == "imbue":
            card["element"] = _choice(source, f"{field}.element", raw.get("element"), ELEMENTS)
        elif "element" in raw:
            raise CardSetError(source, f"{field}.element", "only an imbue spell has an element")
    elif kind == "attack":
        card["target"] = _choice(source, f"{field}.target", raw.get("target"), ATTACK_TARGETS)
    else:
        steps = raw.get("effects")
        if not isinstance(steps, list) or not steps or len(steps) > 6:
            raise CardSetError(source, f"{field}.effects", "must be a list of 1 to 6 steps")
        card["effects"] = [_step(source, f"{field}.effects[{i}]", s) for i, s in enumerate(steps)]
    return card


def parse_file(kind: str, source: str, text: str) -> list[Card]:
    """Parse and validate one data file's text (a top-level ``cards:`` list of one kind)."""
    try:
        data = load_yaml(text)
    except yaml.YAMLError as exc:
        line = error_line(exc)
        where = "(syntax)" if line is None else f"line {line}"
        raise CardSetError(source, where, "is not valid YAML") from None
    if not isinstance(data, Mapping) or set(data) != {"cards"}:
        raise CardSetError(source, "(file)", "must hold exactly one field, 'cards'")
    rows = data["cards"]
    if not isinstance(rows, list) or not rows:
        raise CardSetError(source, "cards", "must be a non-empty list of cards")
    cards = [parse_card(source, f"cards[{i}]", row, kind) for i, row in enumerate(rows)]
    check_unique(source, cards, set())
    return cards


def check_unique(
    source: str, cards: Sequence[Card], taken: set[str], prefix: str = "cards"
) -> None:
    """Keys must be unique across the whole card set (``taken`` holds keys seen elsewhere)."""
    for i, card in enumerate(cards):
        if card["key"] in taken:
            raise CardSetError(source, f"{prefix}[{i}].key", f"'{card['key']}' is used twice")
        taken.add(card["key"])


@functools.cache
def _bundled() -> tuple[tuple[str, tuple[Card, ...]], ...]:
    folder = resources.files("minigames.engines.spirit_war").joinpath("data")
    out = []
    taken: set[str] = set()
    for kind in KINDS:
        file = DATA_FILES[kind]
        cards = parse_file(kind, file, folder.joinpath(file).read_text(encoding="utf-8"))
        check_unique(file, cards, taken)
        out.append((kind, tuple(cards)))
    return tuple(out)


def bundled_cards() -> dict[str, list[Card]]:
    """The project's own card set by kind, validated (a fresh copy each call)."""
    return {kind: [dict(c) for c in cards] for kind, cards in _bundled()}


def card_set(extra: Any = None) -> dict[str, list[Card]]:
    """The bundled set plus a GM's ``extra`` definitions (a list, each with a ``kind``),
    validated with errors naming ``config`` and the field (``extra_cards[0].element``)."""
    cards = bundled_cards()
    if extra is None:
        return cards
    if not isinstance(extra, list):
        raise CardSetError("config", "extra_cards", "must be a list of card definitions")
    parsed = [parse_card("config", f"extra_cards[{i}]", raw) for i, raw in enumerate(extra)]
    taken = {c["key"] for kind_cards in cards.values() for c in kind_cards}
    check_unique("config", parsed, taken, prefix="extra_cards")
    for card in parsed:
        cards[card["kind"]].append(card)
    return cards
