"""The effect vocabulary every Rumbling Spell Orchestra card is written in, and its validator.

Why a vocabulary: the rulebook gives rules but no cards, and a GM must be able to add cards as
data later. A card is a mapping of plain fields; its abilities are built from a handful of
words (kinds, triggers, phases, roles, costs, targets, conditions, effects) that the engine
interprets. There is no code per card. :func:`validate_card` refuses anything outside the
vocabulary with errors that name the field (``abilities[0].effects[1].amount: ...``), so a
mistake in data never surfaces later as a wrong game.

The words are documented for GMs in ``docs/games/rso.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

CARD_KINDS: Final = ("character", "spell", "support", "event")
SHOT_TYPES: Final = ("spread", "concentration", "normal")
SUPPORT_TYPES: Final = ("leader", "spell", "scene")
SUPPORT_CLASSES: Final = (
    "Doll",
    "Shikigami",
    "Instrument",
    "Ghost",
    "Incident",
    "Divine Spirit",
    "Mask",
)
#: Phases in which cards may be played or specials used (the End phase only discards).
PHASES: Final = ("replenish", "battle", "preparation")
ROLES: Final = ("attack", "intercept", "any")
ABILITY_KINDS: Final = ("passive", "special", "trigger")
#: Triggered abilities fire at the start or end of a phase, or when their spell hits a leader.
TRIGGERS: Final = (
    "replenish_start",
    "replenish_end",
    "battle_start",
    "battle_end",
    "preparation_start",
    "preparation_end",
    "hit",
)

#: Who may play or use something in each phase (the End phase only discards): in the
#: Preparation phase only the attacker acts ("Preparation Phase", lines 206-216).
ROLES_ACTING: Final[Mapping[str, tuple[str, ...]]] = {
    "replenish": ("attack", "intercept"),
    "battle": ("attack", "intercept"),
    "preparation": ("attack",),
}
#: Targets and conditions that need a battle under way: there is one only between an attack
#: and its judging, in the Battle phase's plays and at a spell's hit (not at the start or the
#: end of the Battle phase).
BATTLE_TARGETS: Final = frozenset({"own_battle_spell", "opposing_battle_spell"})
ROLE_WORDS: Final = {"attack": "attacking", "intercept": "intercepting"}
PHASE_WORDS: Final = {
    "replenish": "Replenish",
    "battle": "Battle",
    "preparation": "Preparation",
}

#: Basic abilities with a power (X) and those without.
POWERED_BASICS: Final = ("focused", "unfocused", "protection", "faith")
FLAG_BASICS: Final = ("guided", "penetration")
BASICS: Final = POWERED_BASICS + FLAG_BASICS

#: Cost words: SP, discard cards of your choice from hand, the top of your deck to your discard
#: pile, Doctrine(X), and Supports of yours sent from the field to your discard pile.
COST_KINDS: Final = ("sp", "hand", "deck", "doctrine", "field")

#: Targets a player picks when playing (the action names the card).
CHOSEN_TARGETS: Final = ("any_leader", "own_spell", "opposing_spell", "any_spell", "any_support")
#: Targets fixed by the situation (no choice, but still targeted: untargetable cards refuse).
FIXED_TARGETS: Final = (
    "own_leader",
    "opponent_leader",
    "own_battle_spell",
    "opposing_battle_spell",
    "this",
)
#: An Event has no "this".
EVENT_FIXED_TARGETS: Final = tuple(t for t in FIXED_TARGETS if t != "this")
#: What a passive ability covers (never targeting).
PASSIVE_SCOPES: Final = (
    "this",
    "own_leader",
    "opponent_leader",
    "both_leaders",
    "own_spells",
    "opposing_spells",
    "all_spells",
)
LEADER_TARGETS: Final = frozenset({"any_leader", "own_leader", "opponent_leader", "both_leaders"})
SPELL_TARGETS: Final = frozenset(
    {
        "own_spell",
        "opposing_spell",
        "any_spell",
        "own_battle_spell",
        "opposing_battle_spell",
        "own_spells",
        "opposing_spells",
        "all_spells",
    }
)

SPELL_STATS: Final = ("av", "iv", "hv")
LEADER_STATS: Final = ("ev", "bv")
#: Effect word -> what its target must be: "spell", "leader", "support", "stat" (the stat
#: decides) or None (acts on a player: you, or your opponent for drain_sp).
EFFECTS: Final[Mapping[str, str | None]] = {
    "modify": "stat",
    "grant": "spell",
    "gain_sp": None,
    "drain_sp": None,
    "draw": None,
    "heal": "leader",
    "damage": "leader",
    "remove_support": "support",
    "to_reserve": "spell",
}
PASSIVE_EFFECTS: Final = frozenset({"modify", "grant"})
KEYWORDS: Final = ("untargetable", "unaffected")
CONDITIONS: Final = ("your_leader", "opponent_leader", "your_hp_at_most", "opposing_shot")
MAX_AMOUNT: Final = 9
MAX_HAND_COST: Final = 2
#: The most abilities one card may have: a Special is named by its index, and an action
#: naming one is bounded by this (``shapes``). The printed cards have one at most.
MAX_ABILITIES: Final = 20

_CHARACTER_FIELDS: Final = {"character", "title", "hp", "ev", "bv"}
_PLAYABLE_FIELDS: Final = {"requires", "cost", "extra_cost"}
_FIELDS: Final[Mapping[str, frozenset[str]]] = {
    "character": frozenset({"number", "name", "kind", "abilities", *_CHARACTER_FIELDS}),
    "spell": frozenset(
        {
            "number",
            "name",
            "kind",
            "abilities",
            *_PLAYABLE_FIELDS,
            "shot",
            "av",
            "iv",
            "hv",
            "basic",
            "activate_cost",
            "battle_cost",
        }
    ),
    "support": frozenset(
        {"number", "name", "kind", "abilities", *_PLAYABLE_FIELDS, "support", "class"}
    ),
    "event": frozenset(
        {
            "number",
            "name",
            "kind",
            *_PLAYABLE_FIELDS,
            "phases",
            "role",
            "target",
            "condition",
            "effects",
            "awakening",
        }
    ),
}


def name_key(name: object) -> str:
    """A card's name as the copy rules compare it: "'Copies' are determined by the name of
    the card" (rulebook line 15), so letter case and spaces around or between words make no
    other card ("Fairy Spark" and " fairy  spark " are copies of one card)."""
    return " ".join(str(name).split()).casefold()


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(errors: list[str], data: Mapping[str, Any], key: str, *, required: bool = True) -> None:
    value = data.get(key)
    if value is None:
        if required:
            errors.append(f"{key}: is required")
        return
    if not isinstance(value, str) or not value.strip():
        errors.append(f"{key}: must be a non-empty text")


def _number(
    errors: list[str], path: str, value: object, low: int, high: int, *, required: bool = True
) -> None:
    if value is None:
        if required:
            errors.append(f"{path}: is required")
        return
    if not _is_int(value):
        errors.append(f"{path}: must be a whole number")
    elif not low <= value <= high:  # type: ignore[operator]
        errors.append(f"{path}: must be between {low} and {high}")


def _choice(errors: list[str], path: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        errors.append(f"{path}: must be one of {', '.join(allowed)} (got {value!r})")


def _costs(errors: list[str], path: str, costs: object) -> None:
    if costs is None:
        return
    if not isinstance(costs, list):
        errors.append(f"{path}: must be a list of costs")
        return
    for i, item in enumerate(costs):
        here = f"{path}[{i}]"
        if not isinstance(item, Mapping) or len(item) != 1:
            errors.append(f"{here}: must be one cost such as {{sp: 1}}")
            continue
        ((kind, amount),) = item.items()
        if kind not in COST_KINDS:
            errors.append(f"{here}: unknown cost {kind!r}; costs are {', '.join(COST_KINDS)}")
            continue
        high = MAX_HAND_COST if kind in ("hand", "field") else MAX_AMOUNT
        _number(errors, f"{here}.{kind}", amount, 1, high)


def _target_kind(target: str) -> str:
    if target in LEADER_TARGETS:
        return "leader"
    if target in SPELL_TARGETS:
        return "spell"
    if target == "any_support":
        return "support"
    return "this"


def _effects(
    errors: list[str],
    path: str,
    effects: object,
    target: str | None,
    this_kind: str | None,
    *,
    passive: bool = False,
) -> None:
    """Check each effect and that the target suits it (``this`` means ``this_kind``)."""
    if not isinstance(effects, list) or not effects:
        errors.append(f"{path}: must be a non-empty list of effects")
        return
    kind_of_target = None if target is None else _target_kind(target)
    if kind_of_target == "this":
        kind_of_target = this_kind
    for i, effect in enumerate(effects):
        here = f"{path}[{i}]"
        if not isinstance(effect, Mapping):
            errors.append(f"{here}: must be a mapping with a 'do' field")
            continue
        word = effect.get("do")
        if word not in EFFECTS:
            errors.append(f"{here}.do: unknown effect {word!r}; effects are {', '.join(EFFECTS)}")
            continue
        if passive and word not in PASSIVE_EFFECTS:
            errors.append(f"{here}.do: a passive ability may only modify or grant")
            continue
        unknown = set(effect) - {"do", "stat", "ability", "amount"}
        if unknown:
            errors.append(f"{here}: unknown field {sorted(unknown)[0]!r}")
        needs = EFFECTS[str(word)]
        if word == "modify":
            stat = effect.get("stat")
            if stat not in SPELL_STATS + LEADER_STATS:
                errors.append(f"{here}.stat: must be one of av, iv, hv, ev, bv (got {stat!r})")
                continue
            needs = "spell" if stat in SPELL_STATS else "leader"
            amount = effect.get("amount")
            _number(errors, f"{here}.amount", amount, -MAX_AMOUNT, MAX_AMOUNT)
            if amount == 0:
                errors.append(f"{here}.amount: must not be 0")
        elif word == "grant":
            ability = effect.get("ability")
            if ability not in BASICS:
                errors.append(f"{here}.ability: must be one of {', '.join(BASICS)}")
                continue
            if ability in POWERED_BASICS:
                _number(errors, f"{here}.amount", effect.get("amount"), 1, MAX_AMOUNT)
            elif "amount" in effect:
                errors.append(f"{here}.amount: {ability} has no power")
        elif word in ("remove_support", "to_reserve"):
            if "amount" in effect:
                errors.append(f"{here}.amount: {word} takes no amount")
        else:
            _number(errors, f"{here}.amount", effect.get("amount"), 1, MAX_AMOUNT)
        if needs is not None:
            if target is None:
                errors.append(f"{here}: {word} needs a target")
            elif kind_of_target != needs:
                errors.append(f"{here}: {word} needs a {needs} target, not {target}")


def _condition(errors: list[str], path: str, condition: object) -> None:
    if condition is None:
        return
    if not isinstance(condition, Mapping):
        errors.append(f"{path}: must be a mapping of conditions")
        return
    for key, value in condition.items():
        here = f"{path}.{key}"
        if key not in CONDITIONS:
            errors.append(f"{here}: unknown condition; conditions are {', '.join(CONDITIONS)}")
        elif key == "your_hp_at_most":
            _number(errors, here, value, 1, 99)
        elif key == "opposing_shot":
            _choice(errors, here, value, SHOT_TYPES)
        elif not isinstance(value, str) or not value:
            errors.append(f"{here}: must name a character")


def _awakening(
    errors: list[str], path: str, awakening: object, target: str | None, this: str | None
) -> None:
    if awakening is None:
        return
    if not isinstance(awakening, Mapping):
        errors.append(f"{path}: must be a mapping with cost and effects")
        return
    unknown = set(awakening) - {"cost", "effects"}
    if unknown:
        errors.append(f"{path}: unknown field {sorted(unknown)[0]!r}")
    if not awakening.get("cost"):
        errors.append(f"{path}.cost: an Awakening needs a cost")
    _costs(errors, f"{path}.cost", awakening.get("cost"))
    _effects(errors, f"{path}.effects", awakening.get("effects"), target, this)


def _this_kind(card: Mapping[str, Any]) -> str | None:
    """What ``this`` means on ``card``: its leader, the spell, or the card a support is on."""
    kind = card.get("kind")
    if kind == "character":
        return "leader"
    if kind == "spell":
        return "spell"
    if kind == "support":
        return {"leader": "leader", "spell": "spell"}.get(str(card.get("support")))
    return None


def _never_playable(
    errors: list[str],
    path: str,
    phases: list[str],
    role: object,
    target: object,
    condition: object,
) -> None:
    """Refuse an Event or a Special that can never be played: its role never acts in any of its
    phases, or it needs a battle (a battle spell as its target, the opposing spell's shot as a
    condition) in phases that never have one. ``path`` is the card's or the ability's."""
    here = f"{path}." if path else ""
    listed = [p for p in phases if p in ROLES_ACTING]
    if not listed:
        return
    where = " or ".join(f"the {PHASE_WORDS[p]} phase" for p in listed)
    if role in ROLE_WORDS and not any(role in ROLES_ACTING[p] for p in listed):
        errors.append(
            f"{here}role: only the attacking player acts in {where}, so this, for the "
            f"{ROLE_WORDS[str(role)]} player, could never be played"
        )
    if "battle" in listed:
        return
    if target in BATTLE_TARGETS:
        errors.append(
            f"{here}target: {target} is a spell in battle, and there is no battle in {where}, "
            "so this could never be played"
        )
    if isinstance(condition, Mapping) and "opposing_shot" in condition:
        errors.append(
            f"{here}condition.opposing_shot: the opposing spell's shot needs a battle, and there "
            f"is none in {where}, so this could never be played"
        )


def _trigger_never_fires(errors: list[str], path: str, ability: Mapping[str, Any]) -> None:
    """A trigger needing a battle that fires when there is none (every phase start or end;
    only a spell's hit comes during a battle) never does anything."""
    when = ability.get("when")
    if when not in TRIGGERS or when == "hit":
        return
    phase, _, edge = str(when).partition("_")
    moment = f"the {edge} of the {PHASE_WORDS[phase]} phase"
    if ability.get("target") in BATTLE_TARGETS:
        errors.append(
            f"{path}.target: {ability['target']} is a spell in battle, and there is none at "
            f"{moment}, so this would never fire"
        )
    condition = ability.get("condition")
    if isinstance(condition, Mapping) and "opposing_shot" in condition:
        errors.append(
            f"{path}.condition.opposing_shot: the opposing spell's shot needs a battle, and "
            f"there is none at {moment}, so this would never fire"
        )


def _abilities(errors: list[str], card: Mapping[str, Any]) -> None:
    abilities = card.get("abilities")
    if abilities is None:
        return
    if not isinstance(abilities, list):
        errors.append("abilities: must be a list")
        return
    if len(abilities) > MAX_ABILITIES:
        errors.append(f"abilities: at most {MAX_ABILITIES} abilities (got {len(abilities)})")
        return
    this = _this_kind(card)
    for i, ability in enumerate(abilities):
        path = f"abilities[{i}]"
        if not isinstance(ability, Mapping):
            errors.append(f"{path}: must be a mapping with a 'kind' field")
            continue
        kind = ability.get("kind")
        if kind not in ABILITY_KINDS:
            _choice(errors, f"{path}.kind", kind, ABILITY_KINDS)
            continue
        allowed = {
            "passive": {"kind", "target", "condition", "effects", "keyword"},
            "special": {
                "kind",
                "phase",
                "role",
                "cost",
                "target",
                "condition",
                "effects",
                "awakening",
            },
            "trigger": {"kind", "when", "role", "target", "condition", "effects"},
        }[kind]
        unknown = set(ability) - allowed
        if unknown:
            errors.append(f"{path}: unknown field {sorted(unknown)[0]!r} for a {kind} ability")
        target = ability.get("target")
        if kind == "passive":
            if target not in PASSIVE_SCOPES:
                _choice(errors, f"{path}.target", target, PASSIVE_SCOPES)
                continue
            if target == "this" and this is None:
                errors.append(f"{path}.target: this card has nothing that 'this' could mean")
                continue
            _condition(errors, f"{path}.condition", ability.get("condition"))
            if "keyword" in ability:
                _choice(errors, f"{path}.keyword", ability["keyword"], KEYWORDS)
                kind_of = this if target == "this" else _target_kind(str(target))
                if kind_of not in ("leader", "spell") or target not in ("this", "own_leader"):
                    errors.append(f"{path}.target: a keyword covers this card or your leader")
                if "effects" in ability:
                    errors.append(f"{path}.effects: a keyword ability has no effects")
            else:
                _effects(
                    errors, f"{path}.effects", ability.get("effects"), target, this, passive=True
                )
            continue
        allowed_targets = CHOSEN_TARGETS + FIXED_TARGETS if kind == "special" else FIXED_TARGETS
        if target is not None:
            _choice(errors, f"{path}.target", target, allowed_targets)
            if target not in allowed_targets:
                continue
            if target == "this" and this is None:
                errors.append(f"{path}.target: this card has nothing that 'this' could mean")
                continue
        if kind == "special":
            _choice(errors, f"{path}.phase", ability.get("phase"), PHASES)
            _costs(errors, f"{path}.cost", ability.get("cost"))
            _awakening(errors, f"{path}.awakening", ability.get("awakening"), target, this)
            phase = ability.get("phase")
            _never_playable(
                errors,
                path,
                [phase] if isinstance(phase, str) else [],
                ability.get("role", "any"),
                target,
                ability.get("condition"),
            )
        else:
            _choice(errors, f"{path}.when", ability.get("when"), TRIGGERS)
            if ability.get("when") == "hit" and card.get("kind") != "spell":
                errors.append(f"{path}.when: only a spell can trigger when it hits")
            _trigger_never_fires(errors, path, ability)
        _choice(errors, f"{path}.role", ability.get("role", "any"), ROLES)
        _condition(errors, f"{path}.condition", ability.get("condition"))
        _effects(errors, f"{path}.effects", ability.get("effects"), target, this)


def validate_card(data: object) -> list[str]:
    """Every way ``data`` breaks the vocabulary, each naming its field; empty when it is sound."""
    if not isinstance(data, Mapping):
        return ["card: must be a mapping of fields"]
    errors: list[str] = []
    _text(errors, data, "number")
    _text(errors, data, "name")
    kind = data.get("kind")
    if kind not in CARD_KINDS:
        _choice(errors, "kind", kind, CARD_KINDS)
        return errors
    unknown = sorted(set(data) - _FIELDS[kind])
    errors.extend(f"{key}: is not a field of a {kind} card" for key in unknown)
    if kind == "character":
        _text(errors, data, "character")
        _text(errors, data, "title", required=False)
        _number(errors, "hp", data.get("hp"), 1, 99)
        _number(errors, "ev", data.get("ev"), 0, 20)
        _number(errors, "bv", data.get("bv"), 0, 20)
        _abilities(errors, data)
        return errors
    requires = data.get("requires", {})
    if not isinstance(requires, Mapping):
        errors.append("requires: must map character names to levels (empty for a General card)")
    else:
        for name, level in requires.items():
            if not isinstance(name, str) or not name:
                errors.append("requires: character names must be texts")
            _number(errors, f"requires.{name}", level, 1, 4)
        if sum(v for v in requires.values() if _is_int(v)) > 4:
            errors.append("requires: needs more than the four character cards a deck has")
    _number(errors, "cost", data.get("cost"), 0, 20)
    _costs(errors, "extra_cost", data.get("extra_cost"))
    if kind == "spell":
        _choice(errors, "shot", data.get("shot"), SHOT_TYPES)
        for stat in SPELL_STATS:
            _number(errors, stat, data.get(stat), 0, 20)
        basic = data.get("basic", {})
        if not isinstance(basic, Mapping):
            errors.append("basic: must map basic abilities to their power")
        else:
            for name, power in basic.items():
                if name in POWERED_BASICS:
                    _number(errors, f"basic.{name}", power, 1, MAX_AMOUNT)
                elif name in FLAG_BASICS:
                    if power is not True:
                        errors.append(f"basic.{name}: must be true (it has no power)")
                else:
                    errors.append(
                        f"basic.{name}: unknown basic ability; they are {', '.join(BASICS)}"
                    )
        _costs(errors, "activate_cost", data.get("activate_cost"))
        _costs(errors, "battle_cost", data.get("battle_cost"))
        _abilities(errors, data)
    elif kind == "support":
        _choice(errors, "support", data.get("support"), SUPPORT_TYPES)
        if "class" in data:
            _choice(errors, "class", data.get("class"), SUPPORT_CLASSES)
        _abilities(errors, data)
    else:
        phases = data.get("phases")
        if not isinstance(phases, list) or not phases:
            errors.append("phases: must list the phases the event is played in")
        else:
            for i, phase in enumerate(phases):
                _choice(errors, f"phases[{i}]", phase, PHASES)
        _choice(errors, "role", data.get("role", "any"), ROLES)
        target = data.get("target")
        if target is not None:
            allowed = CHOSEN_TARGETS + EVENT_FIXED_TARGETS
            _choice(errors, "target", target, allowed)
            if target not in allowed:
                return errors
        _condition(errors, "condition", data.get("condition"))
        _effects(errors, "effects", data.get("effects"), target, None)
        _awakening(errors, "awakening", data.get("awakening"), target, None)
        if isinstance(phases, list):
            phase_words = [p for p in phases if isinstance(p, str)]
            role = data.get("role", "any")
            _never_playable(errors, "", phase_words, role, target, data.get("condition"))
    return errors
