"""The character as a player (or GM) wrote it: choices and state, never derived numbers.

A draft stores only what a person decides or what happens to the character in play (bonus
points, abilities, inventory, level, drunkenness, damage taken ...). Everything computed from
it (stats, HP, pools, damage) lives on the :mod:`~westernroses.characters.sheet` and is derived
fresh, so a rules fix or a house-rule change can never leave a stale number in the database.

Values are kept as plain strings and ints, even invalid ones: :func:`builder.validate` reports
what is wrong in words, which it could not do if parsing had already refused the input.
:meth:`CharacterDraft.from_dict` only refuses data of the wrong *shape* (a list where a
mapping belongs), raising :class:`DraftFormatError`; ``from_dict(to_dict(d)) == d`` always.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Final, overload

from westernroses.words import N_, Words

#: Targets a temporary effect (a spellcard buff such as "Read a book", +6 INT) may change.
EFFECT_TARGETS: Final = ("pwr", "cha", "int", "ins", "hp_max", "speed", "range")


class DraftFormatError(ValueError):
    """Stored draft data has the wrong shape; ``field`` names where, ``message`` says why.

    ``message`` is :class:`Words` and the one argument is ``field: message`` as Words, so
    ``str`` gives the English (logs, the API's old wording) while the pages show the reason in
    the reader's language (``apibase.engine_words.reason_in_language``)."""

    def __init__(self, field: str, message: Words | str) -> None:
        super().__init__(field_problem(field, message))
        self.field = field
        self.message = message


def field_problem(field: str, problem: Words | str) -> Words:
    """``field: problem``, the shape every format refusal takes (the field name stays as
    written in the file, a JSON key, so it is never translated)."""
    return Words(N_("%(field)s: %(problem)s"), {"field": field, "problem": problem})


@dataclass(slots=True)
class ItemStack:
    """How many of one item the character carries, and whether it is worn / wielded."""

    quantity: int = 1
    equipped: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"quantity": self.quantity, "equipped": self.equipped}


@dataclass(slots=True)
class ActiveEffect:
    """A temporary change to a stat or sub-stat, e.g. "Read a book": +6 INT for 3 turns."""

    target: str
    amount: int
    source: str
    rounds: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "amount": self.amount,
            "source": self.source,
            "rounds": self.rounds,
        }


#: Each draft field as a player reads it (the wizard's and the edit page's words).
FIELD_LABELS: Final[Mapping[str, str]] = {
    "name": "Name",
    "shot_type": "Shot-type",
    "race": "Race",
    "profession": "Profession",
    "element": "Element",
    "goddess_element": "Goddess's element",
    "bonus_points": "Bonus points",
    "skill_points": "Skill points",
    "abilities": "Abilities",
    "ability_choices": "Ability choices",
    "natural_weapon": "Natural weapon",
    "guardian_charge": "Guardian's charge",
    "guardian_charge_injured": "Guardian's charge injured",
    "unconnected_dolls": "Dolls without a deep connection",
    "inventory": "Equipment",
    "clothing_covered": "Clothing covered",
    "yen": "Yen",
    "level": "Level",
    "drunkenness": "Drunkenness",
    "status_effects": "Status effects",
    "effects": "Temporary effects",
    "current_hp": "Current HP",
    "spell_power": "Spell power",
    "gm_waivers": "GM waivers",
}


def field_words(field_path: str) -> str:
    """A violation's field in words: ``shot_type`` → "Shot-type", ``abilities[1]`` and
    ``inventory.sword.equipped`` → their field's label ("Abilities", "Equipment")."""
    root = field_path.split(".", 1)[0].split("[", 1)[0]
    return FIELD_LABELS.get(root, root.replace("_", " ").capitalize())


@dataclass(slots=True)
class CharacterDraft:
    """Everything a character sheet is derived from.

    ``inventory`` maps item slug to its stack; bare fists (and a youkai's ``natural_weapon``,
    a free-text name such as "claws") are always there and never listed. ``ability_choices``
    holds choices abilities ask for (``{"skill_focus": "stealth"}``). ``current_hp`` None means
    unhurt; ``spell_power`` is the amount held in a battle (None outside battle).
    ``gm_waivers`` lists violation codes the GM allowed for this character (only those the
    rulebook leaves to the GM's discretion can be waived).
    """

    name: str = ""
    shot_type: str | None = None
    race: str | None = None
    profession: str | None = None
    element: str | None = None
    goddess_element: str | None = None
    bonus_points: dict[str, int] = field(default_factory=dict)
    skill_points: dict[str, int] = field(default_factory=dict)
    abilities: list[str] = field(default_factory=list)
    ability_choices: dict[str, str] = field(default_factory=dict)
    natural_weapon: str | None = None
    guardian_charge: str | None = None
    guardian_charge_injured: bool = False
    #: Doll Master: how many of her dolls she has no deep emotional connection with ("has all
    #: its stats halved"); the rest, like every doll she made herself, are connected.
    unconnected_dolls: int = 0
    inventory: dict[str, ItemStack] = field(default_factory=dict)
    clothing_covered: bool = False
    yen: int = 0
    level: int = 1
    drunkenness: str = "sober"
    status_effects: list[str] = field(default_factory=list)
    effects: list[ActiveEffect] = field(default_factory=list)
    current_hp: int | None = None
    spell_power: int | None = None
    gm_waivers: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data; every field, always, so stored drafts are self-describing."""
        return {
            "name": self.name,
            "shot_type": self.shot_type,
            "race": self.race,
            "profession": self.profession,
            "element": self.element,
            "goddess_element": self.goddess_element,
            "bonus_points": dict(self.bonus_points),
            "skill_points": dict(self.skill_points),
            "abilities": list(self.abilities),
            "ability_choices": dict(self.ability_choices),
            "natural_weapon": self.natural_weapon,
            "guardian_charge": self.guardian_charge,
            "guardian_charge_injured": self.guardian_charge_injured,
            "unconnected_dolls": self.unconnected_dolls,
            "inventory": {slug: stack.to_dict() for slug, stack in self.inventory.items()},
            "clothing_covered": self.clothing_covered,
            "yen": self.yen,
            "level": self.level,
            "drunkenness": self.drunkenness,
            "status_effects": list(self.status_effects),
            "effects": [effect.to_dict() for effect in self.effects],
            "current_hp": self.current_hp,
            "spell_power": self.spell_power,
            "gm_waivers": list(self.gm_waivers),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CharacterDraft:
        """Rebuild a draft; missing keys take defaults, unknown keys are refused."""
        if not isinstance(data, Mapping):
            raise DraftFormatError("(draft)", Words(N_("must be a mapping")))
        known = {f.name for f in fields(cls)}
        for key in data:
            if key not in known:
                raise DraftFormatError(str(key), Words(N_("unknown field")))
        r = _Reader(data)
        return cls(
            name=r.text("name", optional=False, default=""),
            shot_type=r.text("shot_type"),
            race=r.text("race"),
            profession=r.text("profession"),
            element=r.text("element"),
            goddess_element=r.text("goddess_element"),
            bonus_points=r.int_map("bonus_points"),
            skill_points=r.int_map("skill_points"),
            abilities=r.text_list("abilities"),
            ability_choices=r.text_map("ability_choices"),
            natural_weapon=r.text("natural_weapon"),
            guardian_charge=r.text("guardian_charge"),
            guardian_charge_injured=r.flag("guardian_charge_injured"),
            unconnected_dolls=r.whole("unconnected_dolls", 0),
            inventory=r.inventory("inventory"),
            clothing_covered=r.flag("clothing_covered"),
            yen=r.whole("yen", 0),
            level=r.whole("level", 1),
            drunkenness=r.text("drunkenness", optional=False, default="sober"),
            status_effects=r.text_list("status_effects"),
            effects=r.effects("effects"),
            current_hp=r.optional_whole("current_hp"),
            spell_power=r.optional_whole("spell_power"),
            gm_waivers=r.text_list("gm_waivers"),
        )


_TEXT: Final = Words(N_("must be text"))
_TEXT_OR_NULL: Final = Words(N_("must be text or null"))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Reader:
    """Type checks for :meth:`CharacterDraft.from_dict`, naming the field that is wrong."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data

    @overload
    def text(self, key: str) -> str | None: ...
    @overload
    def text(self, key: str, *, optional: bool, default: str) -> str: ...
    def text(self, key: str, *, optional: bool = True, default: str | None = None) -> str | None:
        """Text at ``key``; when absent, ``default``; null is refused unless ``optional``."""
        if key not in self.data:
            return default
        value = self.data[key]
        if value is None and optional:
            return None
        if not isinstance(value, str):
            raise DraftFormatError(key, _TEXT_OR_NULL if optional else _TEXT)
        return value

    def flag(self, key: str) -> bool:
        value = self.data.get(key, False)
        if not isinstance(value, bool):
            raise DraftFormatError(key, Words(N_("must be true or false")))
        return value

    def whole(self, key: str, default: int) -> int:
        value = self.data.get(key, default)
        if not _is_int(value):
            raise DraftFormatError(key, Words(N_("must be a whole number")))
        return int(value)

    def optional_whole(self, key: str) -> int | None:
        value = self.data.get(key)
        if value is None:
            return None
        if not _is_int(value):
            raise DraftFormatError(key, Words(N_("must be a whole number or null")))
        return int(value)

    def _mapping(self, key: str) -> Mapping[Any, Any]:
        value = self.data.get(key, {})
        if value is None:
            return {}
        if not isinstance(value, Mapping):
            raise DraftFormatError(key, Words(N_("must be a mapping")))
        for k in value:
            if not isinstance(k, str):
                raise DraftFormatError(key, Words(N_("keys must be text")))
        return value

    def int_map(self, key: str) -> dict[str, int]:
        out: dict[str, int] = {}
        for k, v in self._mapping(key).items():
            if not _is_int(v):
                raise DraftFormatError(f"{key}.{k}", Words(N_("must be a whole number")))
            out[k] = int(v)
        return out

    def text_map(self, key: str) -> dict[str, str]:
        out: dict[str, str] = {}
        for k, v in self._mapping(key).items():
            if not isinstance(v, str):
                raise DraftFormatError(f"{key}.{k}", Words(N_("must be text")))
            out[k] = v
        return out

    def text_list(self, key: str) -> list[str]:
        value = self.data.get(key, [])
        if value is None:
            return []
        if not isinstance(value, list | tuple):
            raise DraftFormatError(key, Words(N_("must be a list")))
        for i, v in enumerate(value):
            if not isinstance(v, str):
                raise DraftFormatError(f"{key}[{i}]", Words(N_("must be text")))
        return list(value)

    def inventory(self, key: str) -> dict[str, ItemStack]:
        out: dict[str, ItemStack] = {}
        for slug, stack in self._mapping(key).items():
            where = f"{key}.{slug}"
            if not isinstance(stack, Mapping) or set(stack) - {"quantity", "equipped"}:
                raise DraftFormatError(where, Words(N_("must be {quantity, equipped}")))
            quantity = stack.get("quantity", 1)
            equipped = stack.get("equipped", False)
            if not _is_int(quantity):
                raise DraftFormatError(f"{where}.quantity", Words(N_("must be a whole number")))
            if not isinstance(equipped, bool):
                raise DraftFormatError(f"{where}.equipped", Words(N_("must be true or false")))
            out[slug] = ItemStack(quantity=int(quantity), equipped=equipped)
        return out

    def effects(self, key: str) -> list[ActiveEffect]:
        value = self.data.get(key, [])
        if value is None:
            return []
        if not isinstance(value, list | tuple):
            raise DraftFormatError(key, Words(N_("must be a list")))
        out: list[ActiveEffect] = []
        allowed = {"target", "amount", "source", "rounds"}
        for i, item in enumerate(value):
            where = f"{key}[{i}]"
            if not isinstance(item, Mapping) or set(item) - allowed:
                raise DraftFormatError(where, Words(N_("must be {target, amount, source, rounds}")))
            target, amount = item.get("target"), item.get("amount")
            source, rounds = item.get("source", ""), item.get("rounds")
            if not isinstance(target, str):
                raise DraftFormatError(f"{where}.target", Words(N_("must be text")))
            if not isinstance(amount, int) or isinstance(amount, bool):
                raise DraftFormatError(f"{where}.amount", Words(N_("must be a whole number")))
            if not isinstance(source, str):
                raise DraftFormatError(f"{where}.source", Words(N_("must be text")))
            if rounds is not None and not _is_int(rounds):
                raise DraftFormatError(
                    f"{where}.rounds", Words(N_("must be a whole number or null"))
                )
            out.append(ActiveEffect(target=target, amount=amount, source=source, rounds=rounds))
        return out
