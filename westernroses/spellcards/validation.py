"""Every rule a spellcard design breaks, all at once, each with a stable code.

A builder shows all problems together, so ``validate`` never stops at the first one. Codes are
stable identifiers (forms and API clients key on them); messages are for people and cite the
rulebook section. Where the text is silent the project's rulings decide (``docs/rulings.md``,
"Spellcards"); those checks add "(project ruling)" to their section.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from westernroses.elements import Element
from westernroses.house_rules import DEFAULT_HOUSE_RULES, HouseRules
from westernroses.spellcards.card import (
    CardType,
    Duration,
    SkillChoice,
    SpellcardDraft,
    Targets,
    ToHit,
)
from westernroses.spellcards.caster import CasterInfo
from westernroses.spellcards.options import allowed_options
from westernroses.spellcards.skills import (
    BUILD_SECTIONS,
    SKILLS,
    BombRule,
    Build,
    ParamKind,
    SkillDef,
)
from westernroses.spellcards.tables import (
    AOE_MAX,
    DICE_MAX,
    DICE_MIN,
    SEC_AOE_TARGETS,
    SEC_ATTACK_POWER,
    SEC_BOMB,
    SEC_DURATION,
    SEC_ELEMENT,
    SEC_NAME,
    SEC_SELF,
    SEC_SPECIAL,
    SEC_TARGETS,
    SEC_TO_HIT,
)

__all__ = ["CardViolation", "allowed_options", "validate"]

RULING = " (project ruling)"

_SECTION_FIELDS = ("to_hit", "targets", "aoe", "duration", "attack_power", "element")
_SECTION_NAMES = {
    "to_hit": ("a to-hit skill", SEC_TO_HIT),
    "targets": ("a Targets skill", SEC_TARGETS),
    "aoe": ("an AOE", SEC_AOE_TARGETS),
    "duration": ("a duration", SEC_DURATION),
    "attack_power": ("an attack power", SEC_ATTACK_POWER),
    "element": ("an elemental affinity", SEC_ELEMENT),
}
_BUILD_WORDING = {
    Build.ATTACK: "built as an attack-type card",
    Build.DEFENSIVE: "built as a defensive-type card",
    Build.STAND_ALONE: "a card of its own, with no other skill",
    Build.ATTACK_POWER_ONLY: "combined only with an attack power",
}


@dataclass(frozen=True, slots=True)
class CardViolation:
    code: str
    field: str
    message: str
    section: str

    def to_dict(self) -> dict[str, str]:
        return {
            "code": self.code,
            "field": self.field,
            "message": self.message,
            "section": self.section,
        }


def validate(
    card: SpellcardDraft, caster: CasterInfo, rules: HouseRules = DEFAULT_HOUSE_RULES
) -> list[CardViolation]:
    """All rules ``card`` breaks for ``caster``; an empty list means the card is legal.

    ``rules`` is accepted for symmetry with ``price``: no legality rule is a house rule yet.
    """
    out: list[CardViolation] = []
    if not card.name.strip():
        out.append(CardViolation("name_required", "name", "Give the spellcard a name.", SEC_NAME))
    skills = _check_skills(card, caster, out)
    build = _card_build(card, skills, out)
    if build is not None:
        _check_sections(card, build, skills, out)
    _check_ranges(card, out)
    _check_targets(card, build, skills, out)
    _check_bomb(card, skills, out)
    _check_element(card, caster, skills, out)
    return out


def _check_skills(
    card: SpellcardDraft, caster: CasterInfo, out: list[CardViolation]
) -> list[tuple[int, SkillChoice, SkillDef]]:
    """Known, allowed, non-duplicated skills with valid parameters (returned for later checks)."""
    known: list[tuple[int, SkillChoice, SkillDef]] = []
    seen = Counter(card.skill_slugs())
    exclusive_seen: dict[str, str] = {}
    for index, choice in enumerate(card.skills):
        where = f"skills[{index}]"
        skill = SKILLS.get(choice.slug)
        if skill is None:
            message = f"There is no special skill {choice.slug!r}."
            out.append(CardViolation("unknown_skill", where, message, SEC_SPECIAL))
            continue
        known.append((index, choice, skill))
        if skill.profession != caster.profession:
            who = skill.profession.label
            message = f"Only {who}s can use {skill.group_name} ({skill.name})."
            out.append(CardViolation("skill_profession", where, message, skill.section))
        if seen[choice.slug] > 1 and card.skill_slugs().index(choice.slug) != index:
            message = f"{skill.name} is already on this card."
            out.append(CardViolation("skill_duplicate", where, message, skill.section))
        if skill.exclusive is not None:
            other = exclusive_seen.setdefault(skill.exclusive, skill.name)
            if other != skill.name:
                message = f"{skill.name} and {other} are alternatives: choose one."
                out.append(CardViolation("skill_exclusive", where, message, skill.section))
        _check_params(where, choice, skill, out)
    if card.type is not CardType.SPECIAL and card.skills:
        message = (
            "Profession skills make a special spellcard: set the type to special "
            "(its skills decide whether it is built as an attack or a defensive card)."
        )
        out.append(CardViolation("skills_need_special_type", "type", message, SEC_SPECIAL))
    return known


def _check_params(
    where: str, choice: SkillChoice, skill: SkillDef, out: list[CardViolation]
) -> None:
    given = dict(choice.params)
    for spec in skill.params:
        value = given.pop(spec.name, None)
        field = f"{where}.params.{spec.name}"
        problem: str | None = None
        whole = isinstance(value, int) and not isinstance(value, bool)
        if value is None:
            problem = f"{skill.name}: choose {spec.label.lower()}."
        elif spec.kind is ParamKind.CHOICE and (not whole or value not in spec.choices):
            problem = f"{skill.name}: {spec.label} must be one of {list(spec.choices)}."
        elif spec.kind is ParamKind.INT and (
            not isinstance(value, int)
            or isinstance(value, bool)
            or (spec.minimum is not None and value < spec.minimum)
        ):
            least = "" if spec.minimum is None else f" of at least {spec.minimum}"
            problem = f"{skill.name}: {spec.label} must be a whole number{least}."
        elif spec.kind is ParamKind.ELEMENT and value not in {e.value for e in Element}:
            problem = f"{skill.name}: {spec.label} must be one of the eight elements."
        if problem:
            out.append(CardViolation("skill_parameter", field, problem, skill.section))
    for name in given:
        message = f"{skill.name} has no parameter {name!r}."
        out.append(
            CardViolation("skill_parameter", f"{where}.params.{name}", message, skill.section)
        )


def _card_build(
    card: SpellcardDraft,
    skills: list[tuple[int, SkillChoice, SkillDef]],
    out: list[CardViolation],
) -> Build | None:
    """How the card must be built; None when its skills disagree (reported here)."""
    if card.type is CardType.ATTACK:
        return Build.ATTACK
    if card.type is CardType.DEFENSIVE:
        return Build.DEFENSIVE
    if not card.skills:
        message = "A special spellcard needs at least one special skill of your profession."
        out.append(CardViolation("special_needs_skill", "skills", message, SEC_SPECIAL))
        return None
    if not skills:
        return None
    lone = [(i, s) for i, _, s in skills if s.stand_alone]
    if lone and len(card.skills) > 1:
        for index, skill in lone:
            message = f"{skill.name} must be {_BUILD_WORDING[skill.build]}."
            out.append(
                CardViolation("stand_alone_combined", f"skills[{index}]", message, skill.section)
            )
        return lone[0][1].build
    if lone:
        return lone[0][1].build
    builds = {s.build for _, _, s in skills}
    if len(builds) > 1:
        names = ", ".join(f"{s.name} ({s.build.value})" for _, _, s in skills)
        message = f"These skills need different card types and cannot share a card: {names}."
        out.append(CardViolation("skill_build_conflict", "skills", message, SEC_SPECIAL))
        return None
    return builds.pop()


def _check_sections(
    card: SpellcardDraft,
    build: Build,
    skills: list[tuple[int, SkillChoice, SkillDef]],
    out: list[CardViolation],
) -> None:
    """Which standard sections the build allows, requires or forbids."""
    allowed = BUILD_SECTIONS[build]
    kind = _kind_wording(card, build, skills)
    chosen = {
        "to_hit": card.to_hit is not ToHit.NONE,
        "targets": card.targets is not None,
        "aoe": card.aoe != 0,
        "duration": card.duration is not Duration.INSTANTANEOUS,
        "attack_power": card.attack_power is not None,
        "element": card.element is not None,
    }
    for name in _SECTION_FIELDS:
        what, section = _SECTION_NAMES[name]
        if chosen[name] and name not in allowed:
            code = f"{name}_not_allowed"
            message = f"{kind} cannot have {what}."
            if name == "attack_power" and build is Build.DEFENSIVE:
                message = "Defensive-type cards cannot have attack power."
                section = SEC_ATTACK_POWER
            elif name == "element":
                message = (
                    f"Only attack-type spellcards have elemental affinity; {kind.lower()} cannot."
                )
            elif build in (Build.STAND_ALONE, Build.ATTACK_POWER_ONLY):
                section = skills[0][2].section if skills else SEC_SPECIAL
            out.append(CardViolation(code, name, message, section))
    if "targets" in allowed and card.targets is None:
        message = f"{kind} needs a Targets skill (Self, Single Target, ...)."
        out.append(CardViolation("targets_required", "targets", message, SEC_TARGETS))
    if "attack_power" in allowed:
        damage_skills = [s for _, _, s in skills if s.damage]
        if build is Build.ATTACK and damage_skills and card.attack_power is not None:
            names = ", ".join(s.name for s in damage_skills)
            message = f"{names} already sets this card's damage: remove the attack power."
            out.append(
                CardViolation(
                    "attack_power_with_damage_skill",
                    "attack_power",
                    message,
                    damage_skills[0].section,
                )
            )
        if card.attack_power is None and not damage_skills:
            message = f"{kind} needs an attack power."
            out.append(
                CardViolation("attack_power_required", "attack_power", message, SEC_ATTACK_POWER)
            )


def _kind_wording(
    card: SpellcardDraft, build: Build, skills: list[tuple[int, SkillChoice, SkillDef]]
) -> str:
    if card.type is CardType.ATTACK:
        return "An attack-type card"
    if card.type is CardType.DEFENSIVE:
        return "A defensive-type card"
    names = " + ".join(s.name for _, _, s in skills) or "special"
    return f"A {names} card ({_BUILD_WORDING[build]})"


def _check_ranges(card: SpellcardDraft, out: list[CardViolation]) -> None:
    if not 0 <= card.aoe <= AOE_MAX:
        message = f"AOE runs from 1 to {AOE_MAX} (0 for none), not {card.aoe}."
        out.append(CardViolation("aoe_out_of_range", "aoe", message, SEC_AOE_TARGETS))
    power = card.attack_power
    if power is not None:
        if not DICE_MIN <= power.dice <= DICE_MAX:
            message = f"Attack power runs from {DICE_MIN}d to {DICE_MAX}d, not {power.dice}d."
            out.append(
                CardViolation("attack_power_dice", "attack_power.dice", message, SEC_ATTACK_POWER)
            )
        if power.modifier < 0:
            message = "The damage modifier is bought in +1 steps; it cannot be negative."
            out.append(
                CardViolation(
                    "attack_power_modifier", "attack_power.modifier", message, SEC_ATTACK_POWER
                )
            )


def _check_targets(
    card: SpellcardDraft,
    build: Build | None,
    skills: list[tuple[int, SkillChoice, SkillDef]],
    out: list[CardViolation],
) -> None:
    if card.targets is Targets.SELF:
        if card.to_hit is not ToHit.NONE:
            message = "Any card that targets self cannot have a to-hit skill."
            out.append(CardViolation("self_to_hit", "to_hit", message, SEC_SELF))
        if card.aoe:
            message = (
                "A Self card affects only the caster, so it cannot have an AOE "
                "(AOE includes a Single Target)."
            )
            out.append(CardViolation("self_aoe", "aoe", message, SEC_SELF + RULING))
        if build is Build.ATTACK:
            message = "An attack card cannot target only its caster: choose Single Target or more."
            out.append(CardViolation("attack_targets_self", "targets", message, SEC_SELF + RULING))
    for _, _, skill in skills:
        if (
            skill.targets is not None
            and card.targets is not None
            and card.targets not in skill.targets
        ):
            allowed = " or ".join(t.value.replace("_", " ") for t in skill.targets)
            message = f"The target of {skill.name} is fixed by its text: it must be {allowed}."
            out.append(CardViolation("skill_targets", "targets", message, skill.section))
        if not skill.aoe and card.aoe:
            message = f"{skill.name} affects exactly who its text says: it cannot have an AOE."
            out.append(CardViolation("skill_aoe", "aoe", message, skill.section + RULING))


def _check_bomb(
    card: SpellcardDraft,
    skills: list[tuple[int, SkillChoice, SkillDef]],
    out: list[CardViolation],
) -> None:
    by_default = [s for _, _, s in skills if s.bomb is BombRule.DEFAULT]
    if by_default and not card.bomb:
        message = f"{by_default[0].name} is a bomb by default: mark the card as a bomb."
        out.append(CardViolation("bomb_by_default", "bomb", message, by_default[0].section))
    if card.bomb and card.type is CardType.SPECIAL:
        for index, _, skill in skills:
            if skill.bomb is BombRule.NEVER:
                message = (
                    f"Special spellcards cannot be made into bombs unless the skill says so; "
                    f"{skill.name} does not."
                )
                out.append(CardViolation("bomb_not_allowed", f"skills[{index}]", message, SEC_BOMB))
    if (card.bomb or by_default) and card.targets in (Targets.TWO, Targets.THREE, Targets.FOUR):
        message = "Bomb cards can only be single-target (they may have an AOE)."
        out.append(CardViolation("bomb_single_target", "targets", message, SEC_BOMB))


def _check_element(
    card: SpellcardDraft,
    caster: CasterInfo,
    skills: list[tuple[int, SkillChoice, SkillDef]],
    out: list[CardViolation],
) -> None:
    goddess = [s for _, _, s in skills if s.sets_element]
    if not goddess:
        return
    skill = goddess[0]
    if caster.goddess_element is None:
        message = f"{skill.name} needs the Shrine Maiden's patron goddess's element."
        out.append(CardViolation("goddess_element_unknown", "element", message, skill.section))
    elif card.element != caster.goddess_element:
        message = (
            f"{skill.name}: the card's element must be your goddess's, "
            f"{caster.goddess_element.value}."
        )
        out.append(CardViolation("goddess_element_mismatch", "element", message, skill.section))
