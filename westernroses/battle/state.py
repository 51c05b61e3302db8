"""The battle state: plain data with an exact JSON round trip.

Everything a battle needs to continue (and to replay) lives here, including the random source,
so ``BattleState.from_dict(s.to_dict()) == s`` and ``to_dict`` of that is byte-for-byte the
same JSON. Records are mutable dataclasses because :func:`westernroses.battle.apply` changes a
private clone and hands it back; callers treat states as values and never mutate them.

Shape (``to_dict``)::

    {version, battle_id, phase: setup|active|ended, house_rules: {changed: value},
     arena: {width, height, blocked: [[x, y]], difficult: [[x, y]], fog?: [[x, y]]},
     combatants: {id: Combatant}, order: [id], turn_index, round, turn_number,
     current: id | null, done: [id], turn_started_at, pending: [hit], field_effects: [...],
     drops: [...], targets: {name: number}, next_id, winner: side | null, ended_reason,
     recovered: [id], rng: {algorithm, seed, sequence}, log: [{n, action, events}],
     initial: state at creation (no log) | null}

Log entries are shared between successive states (they are never changed once written), so
cloning a state costs no more as the battle grows longer.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar, cast

from westernroses.battle.arena import Arena, Square, square, squares_json
from westernroses.spellcards.deck import DeckState

Json = dict[str, Any]
_T = TypeVar("_T")

PHASES = ("setup", "active", "ended")
KINDS = ("character", "npc", "doll", "familiar")
LIFE = ("alive", "dead", "destroyed")


def _pos(value: object) -> Square | None:
    return None if value is None else square(value)


def _pos_json(value: Square | None) -> list[int] | None:
    return None if value is None else [value[0], value[1]]


@dataclass(frozen=True, slots=True)
class AttackProfile:
    """One basic attack as the battle needs it; numbers that change in play are left out.

    ``dice`` is the weapon's dice (physical and thrown; danmaku dice come from INT when it is
    rolled), ``bonus`` the flat damage bonus that never changes in battle (Training, Brute Force,
    Magic Spirit, improvised −4), ``to_hit_bonus`` the same for the physical to-hit roll.
    ``range`` is None for danmaku (the range stat plus Options, RULINGS 8 and 9).
    """

    slug: str
    name: str
    kind: str  # physical | danmaku | thrown
    range: int | None
    dice: int = 0
    bonus: int = 0
    to_hit_bonus: int = 0
    on_hit: str | None = None  # stun_1 | destroy_buffs
    recovery_dice: int | None = None
    fists: bool = False

    def to_dict(self) -> Json:
        return {
            "slug": self.slug,
            "name": self.name,
            "kind": self.kind,
            "range": self.range,
            "dice": self.dice,
            "bonus": self.bonus,
            "to_hit_bonus": self.to_hit_bonus,
            "on_hit": self.on_hit,
            "recovery_dice": self.recovery_dice,
            "fists": self.fists,
        }

    def stored(self) -> Json:
        """:meth:`to_dict` without the fields at their defaults (``from_dict`` puts them
        back), as the state stores it (:meth:`Profile.to_dict`); views show every field."""
        return _without_defaults(self.to_dict(), _ATTACK_DEFAULTS)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AttackProfile:
        return cls(**{k: data[k] for k in _ATTACK_FIELDS if k in data})


_ATTACK_FIELDS = (
    "slug",
    "name",
    "kind",
    "range",
    "dice",
    "bonus",
    "to_hit_bonus",
    "on_hit",
    "recovery_dice",
    "fists",
)


@dataclass(frozen=True, slots=True)
class Profile:
    """What a combatant is, fixed for the battle: base stats and the passives that matter.

    Stats are sober and unbuffed; drink, buffs, Options and status effects are applied when a
    roll is made (``westernroses.battle.stats``). ``traits`` are slugs of rules the engine
    implements (``lucky``, ``homing``, ``fleet_hooves`` ...); see ``combatants.TRAITS``.
    """

    stats: Mapping[str, int]
    hp_max: int
    speed: int
    range: int
    will: int
    will_bonus: int = 0
    element: str | None = None
    goddess_element: str | None = None
    race: str | None = None
    profession: str | None = None
    shot_type: str | None = None
    traits: tuple[str, ...] = ()
    sp_bonus: int = 0
    sp_multiplier: int = 1
    sp_cap: int | None = None
    damage_reduction: int = 0
    #: The part of ``damage_reduction`` that lowers every damage, not only attacks (armour,
    #: the Shrine Maiden outfit: "all damage"); Resilience is "from all attacks" only.
    any_damage_reduction: int = 0
    #: ``damage_reduction`` by its sources, for the log's words: ``(label, amount, all)``
    #: with ``all`` true for what lowers every damage (armour, the outfit), false for what
    #: lowers attacks only (Resilience). Empty for an NPC's single number.
    reduction_parts: tuple[tuple[str, int, bool], ...] = ()
    physical_dodge_bonus: int = 0
    danmaku_dodge_bonus: int = 0
    graze_bonus: int = 0
    status_resistance: int = 0
    attackers_physical_to_hit: int = 0
    opponents_graze: int = 0
    opponents_danmaku_dodge: int = 0
    spellcard_to_hit: int = 0
    attacks: tuple[AttackProfile, ...] = ()
    charge: str | None = None
    #: HP her Guardian power gives (the sheet's +20 when her charge was safe): lost while
    #: her charge is injured (house rule ``guardian_hp_needs_safe_charge``, issue 9).
    charge_hp: int = 0
    level: int = 1
    dolls: int = 0
    #: How many of her dolls a Doll Master has no deep emotional connection with (the last
    #: ones: their stats are halved, rounded up).
    unconnected_dolls: int = 0
    #: :meth:`to_dict`'s answer, worked out once: a profile is fixed for the battle and shared
    #: by every copy of its combatant, and writing it out was most of the cost of writing the
    #: state, which every move does (issue 15). Not a field of the profile's value.
    _stored: Json | None = field(default=None, init=False, repr=False, compare=False)

    def has(self, trait: str) -> bool:
        return trait in self.traits

    def attack(self, slug: str) -> AttackProfile | None:
        for attack in self.attacks:
            if attack.slug == slug:
                return attack
        return None

    def to_dict(self) -> Json:
        """The profile as JSON, without the fields at their defaults (``from_dict`` puts
        them back). Most of a combatant's thirty-odd passives are zero: written out, the
        profiles were 9 of a 4-vs-4 battle's 13 KB of state, which every move writes to the
        database and reads back.

        The same dict every time (worked out on the first call): like the profile, it is
        never changed, only written out or read."""
        stored = self._stored
        if stored is None:
            stored = _without_defaults(self._full_dict(), _PROFILE_DEFAULTS)
            object.__setattr__(self, "_stored", stored)
        return stored

    def _full_dict(self) -> Json:
        return {
            "stats": dict(self.stats),
            "hp_max": self.hp_max,
            "speed": self.speed,
            "range": self.range,
            "will": self.will,
            "will_bonus": self.will_bonus,
            "element": self.element,
            "goddess_element": self.goddess_element,
            "race": self.race,
            "profession": self.profession,
            "shot_type": self.shot_type,
            "traits": list(self.traits),
            "sp_bonus": self.sp_bonus,
            "sp_multiplier": self.sp_multiplier,
            "sp_cap": self.sp_cap,
            "damage_reduction": self.damage_reduction,
            "any_damage_reduction": self.any_damage_reduction,
            "reduction_parts": [list(p) for p in self.reduction_parts],
            "physical_dodge_bonus": self.physical_dodge_bonus,
            "danmaku_dodge_bonus": self.danmaku_dodge_bonus,
            "graze_bonus": self.graze_bonus,
            "status_resistance": self.status_resistance,
            "attackers_physical_to_hit": self.attackers_physical_to_hit,
            "opponents_graze": self.opponents_graze,
            "opponents_danmaku_dodge": self.opponents_danmaku_dodge,
            "spellcard_to_hit": self.spellcard_to_hit,
            "attacks": [a.stored() for a in self.attacks],
            "charge": self.charge,
            "charge_hp": self.charge_hp,
            "level": self.level,
            "dolls": self.dolls,
            "unconnected_dolls": self.unconnected_dolls,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Profile:
        values = dict(data)
        values["stats"] = dict(values["stats"])
        values["traits"] = tuple(values.get("traits", ()))
        values["reduction_parts"] = tuple(
            (str(label), int(amount), bool(every))
            for label, amount, every in values.get("reduction_parts", ())
        )
        values["attacks"] = tuple(AttackProfile.from_dict(a) for a in values.get("attacks", ()))
        return cls(**values)


def _defaults(cls: type) -> dict[str, Any]:
    """``cls``'s fields that have a default, with it as JSON writes it (a tuple as a list)."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.init and f.default is not dataclasses.MISSING:
            out[f.name] = list(f.default) if isinstance(f.default, tuple) else f.default
    return out


def _without_defaults(full: Json, defaults: Mapping[str, Any]) -> Json:
    """``full`` without the keys whose value is their default, of the same type too (so
    ``False`` is never dropped for a default of ``0``)."""
    missing = object()
    out: Json = {}
    for key, value in full.items():
        default = defaults.get(key, missing)
        if default is missing or type(value) is not type(default) or value != default:
            out[key] = value
    return out


_ATTACK_DEFAULTS: Final = _defaults(AttackProfile)
_PROFILE_DEFAULTS: Final = _defaults(Profile)


@dataclass(slots=True)
class Timer:
    """Ends an effect at a turn boundary: after ``count`` more ``boundary`` (start | end)
    boundaries of combatant ``of``'s turns. Counting that combatant's own turns keeps the
    timing right when the turn order changes (someone falls, joins or is stunned)."""

    boundary: str
    of: str
    count: int

    def to_dict(self) -> Json:
        return {"boundary": self.boundary, "of": self.of, "count": self.count}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Timer:
        return cls(data["boundary"], data["of"], data["count"])


@dataclass(slots=True)
class Effect:
    """A status effect or a buff on one combatant.

    ``kind`` is a status slug (stun, freeze, fear, insanity, berserk, blind, knockdown,
    unconscious, taunted) or a buff (stat, shield, sturdy, card). ``data`` holds the kind's
    numbers (``{"stat": "int", "amount": 6}``, ``{"turns": 2}`` ...); ``ends`` None means it
    lasts until a roll or a GM removes it.
    """

    id: str
    kind: str
    label: str
    source: str | None = None
    data: Json = field(default_factory=dict)
    ends: Timer | None = None

    def to_dict(self) -> Json:
        return {
            "id": self.id,
            "kind": self.kind,
            "label": self.label,
            "source": self.source,
            "data": dict(self.data),
            "ends": None if self.ends is None else self.ends.to_dict(),
        }

    def clone(self) -> Effect:
        ends = (
            None if self.ends is None else Timer(self.ends.boundary, self.ends.of, self.ends.count)
        )
        return Effect(self.id, self.kind, self.label, self.source, copy_json(self.data), ends)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Effect:
        ends = data.get("ends")
        return cls(
            id=data["id"],
            kind=data["kind"],
            label=data["label"],
            source=data.get("source"),
            data=dict(data.get("data", {})),
            ends=None if ends is None else Timer.from_dict(ends),
        )


@dataclass(slots=True)
class FieldEffect:
    """A spellcard with a duration, on squares or following combatants (RULINGS 10).

    It triggers when cast and at the start of each of the caster's turns until
    ``triggers_left`` runs out. ``squares`` are the covered squares of a single-space card;
    a homing card ``follows`` combatants and covers ``aoe`` around each of them. ``spec`` says
    what one trigger does (damage or healing, with its numbers fixed at casting).
    """

    id: str
    caster: str
    card_id: str
    name: str
    homing: bool
    triggers_left: int
    spec: Json
    squares: tuple[Square, ...] = ()
    follows: tuple[str, ...] = ()
    aoe: int = 0

    def to_dict(self) -> Json:
        return {
            "id": self.id,
            "caster": self.caster,
            "card_id": self.card_id,
            "name": self.name,
            "homing": self.homing,
            "triggers_left": self.triggers_left,
            "spec": dict(self.spec),
            "squares": squares_json(self.squares),
            "follows": list(self.follows),
            "aoe": self.aoe,
        }

    def clone(self) -> FieldEffect:
        """A copy sharing ``spec``, which is fixed when the card is cast."""
        return FieldEffect(
            self.id,
            self.caster,
            self.card_id,
            self.name,
            self.homing,
            self.triggers_left,
            self.spec,
            self.squares,
            self.follows,
            self.aoe,
        )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> FieldEffect:
        return cls(
            id=data["id"],
            caster=data["caster"],
            card_id=data["card_id"],
            name=data["name"],
            homing=data["homing"],
            triggers_left=data["triggers_left"],
            spec=dict(data["spec"]),
            squares=tuple(square(s) for s in data.get("squares", ())),
            follows=tuple(data.get("follows", ())),
            aoe=data.get("aoe", 0),
        )


@dataclass(slots=True)
class Drop:
    """Spell power dropped by a fallen combatant ("Spell Power"), waiting to be collected.

    ``eligible`` are the combatants whose "next turn" has not ended yet; each loses the chance
    when that turn ends, and the drop vanishes when nobody is left (ruling, docs/battle.md).
    """

    id: str
    square: Square
    amount: int
    by: str
    eligible: tuple[str, ...]

    def to_dict(self) -> Json:
        return {
            "id": self.id,
            "square": [self.square[0], self.square[1]],
            "amount": self.amount,
            "by": self.by,
            "eligible": list(self.eligible),
        }

    def clone(self) -> Drop:
        return Drop(self.id, self.square, self.amount, self.by, self.eligible)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Drop:
        return cls(
            data["id"], square(data["square"]), data["amount"], data["by"], tuple(data["eligible"])
        )


@dataclass(slots=True)
class Combatant:
    """One piece on the board: a player character, a GM's NPC, a doll or a familiar.

    ``cards`` maps card id to the designed card (``SpellcardDraft.to_dict()``); ``deck`` holds
    the ids, once per copy. ``turn_used`` / ``battle_used`` count once-per-turn and
    once-per-battle things (free move, Quick Strike, Lucky, the Shrine Maiden's heals).
    ``memory`` is a fairy's damage taken since her last turn, not yet applied. ``shown``: the
    GM shows her to the players while she is off the board (``gm_show``); off the board and
    not shown she is hidden from them like a piece in fog (``fog``).
    """

    id: str
    name: str
    kind: str
    controller: str
    side: str
    profile: Profile
    position: Square | None
    hp: int
    spell_power: int = 0
    meter: int = 0
    deck: DeckState = field(default_factory=DeckState)
    cards: dict[str, Json] = field(default_factory=dict)
    drunkenness: str = "sober"
    effects: list[Effect] = field(default_factory=list)
    life: str = "alive"
    actions_left: int = 0
    sp_gained: int = 0
    memory: int = 0
    ammo: dict[str, int] = field(default_factory=dict)
    thrown_used: dict[str, int] = field(default_factory=dict)
    turn_used: dict[str, int] = field(default_factory=dict)
    battle_used: dict[str, int] = field(default_factory=dict)
    owner: str | None = None
    shown: bool = False

    def effect(self, kind: str) -> Effect | None:
        for effect in self.effects:
            if effect.kind == kind:
                return effect
        return None

    def has(self, kind: str) -> bool:
        # Loops rather than any(): asked tens of thousands of times per benchmark run.
        for effect in self.effects:  # noqa: SIM110
            if effect.kind == kind:
                return True
        return False

    @property
    def alive(self) -> bool:
        return self.life == "alive"

    @property
    def conscious(self) -> bool:
        if self.life != "alive":
            return False
        for effect in self.effects:  # noqa: SIM110
            if effect.kind == "unconscious":
                return False
        return True

    def to_dict(self) -> Json:
        return {
            "id": self.id,
            "name": self.name,
            "kind": self.kind,
            "controller": self.controller,
            "side": self.side,
            "profile": self.profile.to_dict(),
            "position": _pos_json(self.position),
            "hp": self.hp,
            "spell_power": self.spell_power,
            "meter": self.meter,
            "deck": self.deck.to_dict(),
            "cards": {k: copy_json(v) for k, v in self.cards.items()},
            "drunkenness": self.drunkenness,
            "effects": [e.to_dict() for e in self.effects],
            "life": self.life,
            "actions_left": self.actions_left,
            "sp_gained": self.sp_gained,
            "memory": self.memory,
            "ammo": dict(self.ammo),
            "thrown_used": dict(self.thrown_used),
            "turn_used": dict(self.turn_used),
            "battle_used": dict(self.battle_used),
            "owner": self.owner,
            # absent unless set, so older states and logs read the same
            **({"shown": True} if self.shown else {}),
        }

    def clone(self) -> Combatant:
        """A working copy. The profile, the deck piles and the card designs are immutable
        during a battle and are shared; everything that changes is copied.

        Built slot by slot rather than through ``__init__``: every ``apply`` clones every
        combatant, and this is about twice as fast (``tests/engine/battle/test_fast_paths.py``
        checks it equals the straightforward copy)."""
        new = Combatant.__new__(Combatant)
        new.id = self.id
        new.name = self.name
        new.kind = self.kind
        new.controller = self.controller
        new.side = self.side
        new.profile = self.profile
        new.position = self.position
        new.hp = self.hp
        new.spell_power = self.spell_power
        new.meter = self.meter
        new.deck = self.deck
        new.cards = self.cards  # the designs in play never change: shared, like the deck
        new.drunkenness = self.drunkenness
        new.effects = [e.clone() for e in self.effects] if self.effects else []
        new.life = self.life
        new.actions_left = self.actions_left
        new.sp_gained = self.sp_gained
        new.memory = self.memory
        new.ammo = self.ammo.copy()
        new.thrown_used = self.thrown_used.copy()
        new.turn_used = self.turn_used.copy()
        new.battle_used = self.battle_used.copy()
        new.owner = self.owner
        new.shown = self.shown
        return new

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Combatant:
        return cls(
            id=data["id"],
            name=data["name"],
            kind=data["kind"],
            controller=data["controller"],
            side=data["side"],
            profile=Profile.from_dict(data["profile"]),
            position=_pos(data.get("position")),
            hp=data["hp"],
            spell_power=data.get("spell_power", 0),
            meter=data.get("meter", 0),
            deck=DeckState.from_dict(data.get("deck", {})),
            cards={k: copy_json(v) for k, v in data.get("cards", {}).items()},
            drunkenness=data.get("drunkenness", "sober"),
            effects=[Effect.from_dict(e) for e in data.get("effects", ())],
            life=data.get("life", "alive"),
            actions_left=data.get("actions_left", 0),
            sp_gained=data.get("sp_gained", 0),
            memory=data.get("memory", 0),
            ammo=dict(data.get("ammo", {})),
            thrown_used=dict(data.get("thrown_used", {})),
            turn_used=dict(data.get("turn_used", {})),
            battle_used=dict(data.get("battle_used", {})),
            owner=data.get("owner"),
            shown=bool(data.get("shown", False)),
        )


class WorkingCombatants(dict[str, Combatant]):
    """The combatants of a state ``apply`` is working on, copied on first touch.

    Why: every ``apply`` used to clone all combatants (with their effects and counters) while
    most actions change one or two of them. Here the working state starts with the sealed
    state's own objects, and a combatant is cloned the first time anything takes her out of
    the dict (``[cid]``, ``get``, ``values``, ``items``, ``pop``): every reference rule code
    can hold is to a private copy, so nothing it does can write through to the state it
    came from. Only :func:`scan` reads the shared objects, for loops that read and keep no
    reference. ``record`` seals the result as a plain dict, which shares every combatant
    nobody touched with the state before (states are values: nobody changes them).
    """

    __slots__ = ("_own",)

    def __init__(self, shared: Mapping[str, Combatant]) -> None:
        super().__init__(shared)
        self._own: set[str] = set()

    def __getitem__(self, cid: str) -> Combatant:
        found = dict.__getitem__(self, cid)
        if cid in self._own:
            return found
        mine = found.clone()
        dict.__setitem__(self, cid, mine)
        self._own.add(cid)
        return mine

    def __setitem__(self, cid: str, c: Combatant) -> None:
        dict.__setitem__(self, cid, c)
        self._own.add(cid)

    def __delitem__(self, cid: str) -> None:
        dict.__delitem__(self, cid)
        self._own.discard(cid)

    def _take_all(self) -> None:
        if len(self._own) < len(self):
            for cid in list(dict.keys(self)):
                self[cid]

    def get(self, cid: str, default: Any = None) -> Any:
        return self[cid] if cid in self else default  # noqa: SIM401 - copies her first

    def values(self) -> Any:
        self._take_all()
        return dict.values(self)

    def items(self) -> Any:
        self._take_all()
        return dict.items(self)

    def pop(self, cid: str, *default: Any) -> Any:
        if cid in self:
            found = self[cid]
            del self[cid]
            return found
        return dict.pop(self, cid, *default)

    def copy(self) -> dict[str, Combatant]:
        self._take_all()
        return dict(dict.items(self))

    def update(self, *args: Any, **kwargs: Any) -> None:
        new = dict(*args, **kwargs)
        dict.update(self, new)
        self._own.update(new)

    def setdefault(self, cid: str, default: Any = None) -> Any:
        if cid not in self:
            self[cid] = default
        return self[cid]

    def popitem(self) -> tuple[str, Combatant]:
        raise TypeError("working combatants are not popped in bulk")

    def sealed(self) -> dict[str, Combatant]:
        """A plain dict of the same objects (touched ones private, the rest shared)."""
        return dict(dict.items(self))


def peek(combatants: dict[str, Combatant], cid: str | None) -> Combatant | None:
    """The combatant ``cid`` (None if absent) without copying her: read only, like
    :func:`scan`."""
    return None if cid is None else dict.get(combatants, cid)


#: Every combatant, without copying any (see :class:`WorkingCombatants`): only for loops
#: that read and keep no reference to what they see (ids, squares and sides are fine).
#: Anything to change is then taken by id (``ctx.c(cid)``), which copies it first. The plain
#: dict method itself (read loops run several times per action; a wrapper would double them).
scan: Callable[[dict[str, Combatant]], Iterable[Combatant]] = dict.values


#: JSON leaves: copied by reference (immutable).
_ATOMS: frozenset[type] = frozenset({str, int, float, bool, type(None)})


def copy_json(value: Any) -> Any:
    """A deep copy of JSON data (faster than ``copy.deepcopy`` for plain dicts and lists).

    Leaves are recognised by their exact type first, so the common case (a flat dict of
    strings and numbers) makes no recursive call per value."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is dict:
        return {k: v if type(v) in _ATOMS else copy_json(v) for k, v in value.items()}
    if kind is list or kind is tuple:
        return [v if type(v) in _ATOMS else copy_json(v) for v in value]
    if isinstance(value, dict):
        return {k: copy_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [copy_json(v) for v in value]
    return value


@dataclass(slots=True)
class BattleState:
    """A whole battle. Build one with :func:`westernroses.battle.new_battle`."""

    arena: Arena
    rng: Json
    combatants: dict[str, Combatant] = field(default_factory=dict)
    battle_id: str = ""
    version: int = 0
    phase: str = "setup"
    house_rules: dict[str, int] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    turn_index: int = 0
    round: int = 0
    turn_number: int = 0
    current: str | None = None
    done: list[str] = field(default_factory=list)
    turn_started_at: str | None = None
    pending: list[Json] = field(default_factory=list)
    field_effects: list[FieldEffect] = field(default_factory=list)
    drops: list[Drop] = field(default_factory=list)
    targets: dict[str, int] = field(default_factory=dict)
    next_id: int = 1
    winner: str | None = None
    ended_reason: str | None = None
    recovered: list[str] = field(default_factory=list)
    log: tuple[Json, ...] = ()
    initial: Json | None = None
    #: Answers worked out from this state (legal actions per player, a hit's open choices),
    #: kept only once ``apply`` has sealed it (:meth:`remember`). Never copied, never
    #: serialised, never compared: a clone or a state read from JSON starts without.
    memo: dict[Any, Any] | None = field(default=None, compare=False, repr=False)

    def remember(self, key: Hashable, compute: Callable[[], _T]) -> _T:
        """``compute()``, worked out once per sealed state (one version) and reused.

        ``apply`` seals the states it returns (``memo = {}``): like states, their answers are
        values that nobody changes. A state being worked on, built by hand or read from JSON has
        no memo and computes afresh each time, so changing it in place can never leave a stale
        answer behind."""
        memo = self.memo
        if memo is None:
            return compute()
        if key in memo:
            return cast(_T, memo[key])
        found = memo[key] = compute()
        return found

    def combatant(self, cid: str) -> Combatant:
        try:
            return self.combatants[cid]
        except KeyError:
            raise KeyError(cid) from None

    def find(self, cid: str) -> Combatant | None:
        """The combatant ``cid``, or None. Rules code asks this, never ``combatants.get``:
        compiled (``westernroses.native``), ``dict.get`` reads a dict subclass's entries
        directly, past :class:`WorkingCombatants`' copy on first touch, and a rule could then
        write through to the state it came from (``test_native.py`` keeps it out)."""
        found = self.combatants
        return found[cid] if cid in found else None  # noqa: SIM401 - not .get: above

    def new_id(self, prefix: str) -> str:
        """A fresh id for an effect, drop or pending hit (deterministic, so replays match)."""
        value = f"{prefix}{self.next_id}"
        self.next_id += 1
        return value

    def to_dict(self, *, history: bool = True) -> Json:
        data: Json = {
            "version": self.version,
            "battle_id": self.battle_id,
            "phase": self.phase,
            "house_rules": dict(self.house_rules),
            "arena": self.arena.to_dict(),
            "combatants": {k: c.to_dict() for k, c in self.combatants.items()},
            "order": list(self.order),
            "turn_index": self.turn_index,
            "round": self.round,
            "turn_number": self.turn_number,
            "current": self.current,
            "done": list(self.done),
            "turn_started_at": self.turn_started_at,
            "pending": [copy_json(p) for p in self.pending],
            "field_effects": [f.to_dict() for f in self.field_effects],
            "drops": [d.to_dict() for d in self.drops],
            "targets": dict(self.targets),
            "next_id": self.next_id,
            "winner": self.winner,
            "ended_reason": self.ended_reason,
            "recovered": list(self.recovered),
            "rng": dict(self.rng),
        }
        if history:
            data["log"] = list(self.log)
            data["initial"] = self.initial
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BattleState:
        if data.get("phase", "setup") not in PHASES:
            raise ValueError(f"unknown battle phase {data.get('phase')!r}")
        return cls(
            arena=Arena.from_dict(data["arena"]),
            rng=dict(data["rng"]),
            combatants={k: Combatant.from_dict(c) for k, c in data["combatants"].items()},
            battle_id=data.get("battle_id", ""),
            version=data.get("version", 0),
            phase=data.get("phase", "setup"),
            house_rules=dict(data.get("house_rules", {})),
            order=list(data.get("order", ())),
            turn_index=data.get("turn_index", 0),
            round=data.get("round", 0),
            turn_number=data.get("turn_number", 0),
            current=data.get("current"),
            done=list(data.get("done", ())),
            turn_started_at=data.get("turn_started_at"),
            pending=[copy_json(p) for p in data.get("pending", ())],
            field_effects=[FieldEffect.from_dict(f) for f in data.get("field_effects", ())],
            drops=[Drop.from_dict(d) for d in data.get("drops", ())],
            targets=dict(data.get("targets", {})),
            next_id=data.get("next_id", 1),
            winner=data.get("winner"),
            ended_reason=data.get("ended_reason"),
            recovered=list(data.get("recovered", ())),
            log=tuple(data.get("log", ())),
            initial=data.get("initial"),
        )

    def working_copy(self) -> BattleState:
        """The copy ``apply`` works on: like :meth:`clone`, but the combatants are copied only
        when touched (:class:`WorkingCombatants`); ``apply`` seals them as a plain dict."""
        return self._copy(WorkingCombatants(self.combatants))

    def clone(self) -> BattleState:
        """A private copy. What never changes once written (the log, the initial snapshot,
        profiles, card designs, deck piles) is shared; the rest is copied, so changing the
        copy can never reach the original."""
        return self._copy({k: c.clone() for k, c in self.combatants.items()})

    def _copy(self, combatants: dict[str, Combatant]) -> BattleState:
        """Built slot by slot rather than through ``__init__`` (every ``apply`` makes one;
        ``tests/engine/battle/test_fast_paths.py`` checks the copies against fresh states)."""
        new = BattleState.__new__(BattleState)
        new.arena = self.arena
        new.rng = self.rng.copy()
        new.combatants = combatants
        new.battle_id = self.battle_id
        new.version = self.version
        new.phase = self.phase
        new.house_rules = self.house_rules  # fixed when the battle is created: shared
        new.order = self.order.copy()
        new.turn_index = self.turn_index
        new.round = self.round
        new.turn_number = self.turn_number
        new.current = self.current
        new.done = self.done.copy()
        new.turn_started_at = self.turn_started_at
        # A hit's values are replaced, never changed in place (its check results can be
        # long): a new dict per hit is a private copy.
        new.pending = [p.copy() for p in self.pending] if self.pending else []
        new.field_effects = [f.clone() for f in self.field_effects] if self.field_effects else []
        new.drops = [d.clone() for d in self.drops] if self.drops else []
        new.targets = self.targets.copy()
        new.next_id = self.next_id
        new.winner = self.winner
        new.ended_reason = self.ended_reason
        new.recovered = self.recovered.copy()
        new.log = self.log
        new.initial = self.initial
        new.memo = None
        return new
