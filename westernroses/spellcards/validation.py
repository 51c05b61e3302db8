"""Every rule a spellcard design breaks, all at once, each with a stable code.

A builder shows all problems together, so ``validate`` never stops at the first one. Codes are
stable identifiers (forms and API clients key on them); messages are for people and cite the
rulebook section. Where the text is silent the project's rulings decide (``docs/rulings.md``,
"Spellcards"); those checks add "(project ruling)" to their section.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

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
    TARGETS_LABEL,
)
from westernroses.words import N_, Words, data

__all__ = ["CardViolation", "allowed_options", "validate"]

RULING = " (project ruling)"
#: How a section that a project ruling decides reads: ``section`` is the section's words.
RULING_WORDS = N_("%(section)s (project ruling)")

_SECTION_FIELDS = ("to_hit", "targets", "aoe", "duration", "attack_power", "element")
_SECTION_NAMES = {
    "to_hit": (N_("a to-hit skill"), SEC_TO_HIT),
    "targets": (N_("a Targets skill"), SEC_TARGETS),
    "aoe": (N_("an AOE"), SEC_AOE_TARGETS),
    "duration": (N_("a duration"), SEC_DURATION),
    "attack_power": (N_("an attack power"), SEC_ATTACK_POWER),
    "element": (N_("an elemental affinity"), SEC_ELEMENT),
}
_BUILD_WORDING = {
    Build.ATTACK: N_("built as an attack-type card"),
    Build.DEFENSIVE: N_("built as a defensive-type card"),
    Build.STAND_ALONE: N_("a card of its own, with no other skill"),
    Build.ATTACK_POWER_ONLY: N_("combined only with an attack power"),
}


@dataclass(frozen=True, slots=True)
class CardViolation:
    """One broken rule: stable ``code``, the draft ``field``, a ``message`` and the rulebook
    ``section`` it cites (a message id, or a section name of the skills' data).

    ``words`` is the message as :class:`Words` (a message id and its parameters) so the app
    shows it in the reader's language; ``message`` is its English, which the API keeps."""

    code: str
    field: str
    message: str
    section: str
    words: Words | None = None

    def to_dict(self, *, words: bool = False) -> dict[str, Any]:
        """The violation as JSON: the message in English and, with ``words``, its words, for
        the app to render in the reader's language (the API keeps its English shape)."""
        out: dict[str, Any] = {
            "code": self.code,
            "field": self.field,
            "message": self.message,
            "section": self.section,
        }
        if words and self.words is not None:
            out["words"] = self.words.to_json()
        return out


def _violation(
    code: str, field: str, words: Words, section: str, english: str | None = None
) -> CardViolation:
    """A violation whose message the rules write as ``words``; ``english`` where the English
    the API has always given differs from the words' own (a lowercased name)."""
    return CardViolation(code, field, str(words) if english is None else english, section, words)


def _skill(skill: SkillDef) -> Words:
    return data(skill.name)


def _joined(items: list[Words], joiner: str) -> Words | str:
    """``items`` joined by ``joiner`` (an ``N_`` id with ``first`` and ``next``)."""
    if not items:
        return ""
    head: Words = items[0]
    for item in items[1:]:
        head = Words(joiner, {"first": head, "next": item})
    return head


def validate(
    card: SpellcardDraft, caster: CasterInfo, rules: HouseRules = DEFAULT_HOUSE_RULES
) -> list[CardViolation]:
    """All rules ``card`` breaks for ``caster``; an empty list means the card is legal.

    ``rules`` is accepted for symmetry with ``price``: no legality rule is a house rule yet.
    """
    out: list[CardViolation] = []
    if not card.name.strip():
        out.append(
            _violation("name_required", "name", Words(N_("Give the spellcard a name.")), SEC_NAME)
        )
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
    exclusive_seen: dict[str, SkillDef] = {}
    for index, choice in enumerate(card.skills):
        where = f"skills[{index}]"
        skill = SKILLS.get(choice.slug)
        if skill is None:
            words = Words(N_("There is no special skill %(slug)s."), {"slug": repr(choice.slug)})
            out.append(_violation("unknown_skill", where, words, SEC_SPECIAL))
            continue
        known.append((index, choice, skill))
        if skill.profession != caster.profession:
            # "Only Carefree Souls can use …": the profession's name takes an English plural s
            words = Words(
                N_("Only %(profession)ss can use %(group)s (%(skill)s)."),
                {
                    "profession": data(skill.profession.label),
                    "group": data(skill.group_name),
                    "skill": _skill(skill),
                },
            )
            out.append(_violation("skill_profession", where, words, skill.section))
        if seen[choice.slug] > 1 and card.skill_slugs().index(choice.slug) != index:
            words = Words(N_("%(skill)s is already on this card."), {"skill": _skill(skill)})
            out.append(_violation("skill_duplicate", where, words, skill.section))
        if skill.exclusive is not None:
            other = exclusive_seen.setdefault(skill.exclusive, skill)
            if other.name != skill.name:
                words = Words(
                    N_("%(skill)s and %(other)s are alternatives: choose one."),
                    {"skill": _skill(skill), "other": _skill(other)},
                )
                out.append(_violation("skill_exclusive", where, words, skill.section))
        _check_params(where, choice, skill, out)
    if card.type is not CardType.SPECIAL and card.skills:
        words = Words(
            N_(
                "Profession skills make a special spellcard: set the type to special "
                "(its skills decide whether it is built as an attack or a defensive card)."
            )
        )
        out.append(_violation("skills_need_special_type", "type", words, SEC_SPECIAL))
    return known


def _check_params(
    where: str, choice: SkillChoice, skill: SkillDef, out: list[CardViolation]
) -> None:
    given = dict(choice.params)
    for spec in skill.params:
        value = given.pop(spec.name, None)
        field = f"{where}.params.{spec.name}"
        named = {"skill": _skill(skill), "parameter": data(spec.label)}
        problem: Words | None = None
        english: str | None = None
        whole = isinstance(value, int) and not isinstance(value, bool)
        if value is None:
            problem = Words(N_("%(skill)s: choose %(parameter)s."), named)
            english = f"{skill.name}: choose {spec.label.lower()}."  # the name inside a sentence
        elif spec.kind is ParamKind.CHOICE and (not whole or value not in spec.choices):
            problem = Words(
                N_("%(skill)s: %(parameter)s must be one of %(choices)s."),
                {**named, "choices": str(list(spec.choices))},
            )
        elif spec.kind is ParamKind.INT and (
            not isinstance(value, int)
            or isinstance(value, bool)
            or (spec.minimum is not None and value < spec.minimum)
        ):
            if spec.minimum is None:
                problem = Words(N_("%(skill)s: %(parameter)s must be a whole number."), named)
            else:
                problem = Words(
                    N_("%(skill)s: %(parameter)s must be a whole number of at least %(minimum)s."),
                    {**named, "minimum": spec.minimum},
                )
        elif spec.kind is ParamKind.ELEMENT and value not in {e.value for e in Element}:
            problem = Words(
                N_("%(skill)s: %(parameter)s must be one of the eight elements."), named
            )
        if problem is not None:
            out.append(_violation("skill_parameter", field, problem, skill.section, english))
    for name in given:
        words = Words(
            N_("%(skill)s has no parameter %(name)s."),
            {"skill": _skill(skill), "name": repr(name)},
        )
        out.append(_violation("skill_parameter", f"{where}.params.{name}", words, skill.section))


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
        words = Words(
            N_("A special spellcard needs at least one special skill of your profession.")
        )
        out.append(_violation("special_needs_skill", "skills", words, SEC_SPECIAL))
        return None
    if not skills:
        return None
    lone = [(i, s) for i, _, s in skills if s.stand_alone]
    if lone and len(card.skills) > 1:
        for index, skill in lone:
            words = Words(
                N_("%(skill)s must be %(build)s."),
                {"skill": _skill(skill), "build": Words(_BUILD_WORDING[skill.build])},
            )
            out.append(_violation("stand_alone_combined", f"skills[{index}]", words, skill.section))
        return lone[0][1].build
    if lone:
        return lone[0][1].build
    builds = {s.build for _, _, s in skills}
    if len(builds) > 1:
        names = ", ".join(f"{s.name} ({s.build.value})" for _, _, s in skills)
        # the English names each build by its id, as the API always has; the words by its wording
        each = [
            Words(
                N_("%(skill)s (%(build)s)"),
                {"skill": _skill(s), "build": Words(_BUILD_WORDING[s.build])},
            )
            for _, _, s in skills
        ]
        words = Words(
            N_("These skills need different card types and cannot share a card: %(names)s."),
            {"names": _joined(each, N_("%(first)s, %(next)s"))},
        )
        english = f"These skills need different card types and cannot share a card: {names}."
        out.append(_violation("skill_build_conflict", "skills", words, SEC_SPECIAL, english))
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
            words = Words(N_("%(kind)s cannot have %(what)s."), {"kind": kind, "what": Words(what)})
            english: str | None = None
            if name == "attack_power" and build is Build.DEFENSIVE:
                words = Words(N_("Defensive-type cards cannot have attack power."))
                section = SEC_ATTACK_POWER
            elif name == "element":
                words = Words(
                    N_("Only attack-type spellcards have elemental affinity; %(kind)s cannot."),
                    {"kind": _kind_wording(card, build, skills, inside=True)},
                )
                english = (
                    "Only attack-type spellcards have elemental affinity; "
                    f"{str(kind).lower()} cannot."
                )
            elif build in (Build.STAND_ALONE, Build.ATTACK_POWER_ONLY):
                section = skills[0][2].section if skills else SEC_SPECIAL
            out.append(_violation(code, name, words, section, english))
    if "targets" in allowed and card.targets is None:
        words = Words(
            N_("%(kind)s needs a Targets skill (Self, Single Target, ...)."), {"kind": kind}
        )
        out.append(_violation("targets_required", "targets", words, SEC_TARGETS))
    if "attack_power" in allowed:
        damage_skills = [s for _, _, s in skills if s.damage]
        if build is Build.ATTACK and damage_skills and card.attack_power is not None:
            names = _joined([_skill(s) for s in damage_skills], N_("%(first)s, %(next)s"))
            words = Words(
                N_("%(skills)s already sets this card's damage: remove the attack power."),
                {"skills": names},
            )
            out.append(
                _violation(
                    "attack_power_with_damage_skill",
                    "attack_power",
                    words,
                    damage_skills[0].section,
                )
            )
        if card.attack_power is None and not damage_skills:
            words = Words(N_("%(kind)s needs an attack power."), {"kind": kind})
            out.append(_violation("attack_power_required", "attack_power", words, SEC_ATTACK_POWER))


def _kind_wording(
    card: SpellcardDraft,
    build: Build,
    skills: list[tuple[int, SkillChoice, SkillDef]],
    *,
    inside: bool = False,
) -> Words:
    """What kind of card this is ("An attack-type card"); ``inside`` a sentence, without its
    capital ("an attack-type card")."""
    if card.type is CardType.ATTACK:
        return Words(N_("an attack-type card") if inside else N_("An attack-type card"))
    if card.type is CardType.DEFENSIVE:
        return Words(N_("a defensive-type card") if inside else N_("A defensive-type card"))
    names = _joined([_skill(s) for _, _, s in skills], N_("%(first)s + %(next)s")) or Words(
        N_("special")
    )
    return Words(
        N_("a %(skills)s card (%(build)s)") if inside else N_("A %(skills)s card (%(build)s)"),
        {"skills": names, "build": Words(_BUILD_WORDING[build])},
    )


def _check_ranges(card: SpellcardDraft, out: list[CardViolation]) -> None:
    if not 0 <= card.aoe <= AOE_MAX:
        words = Words(
            N_("AOE runs from 1 to %(most)s (0 for none), not %(aoe)s."),
            {"most": AOE_MAX, "aoe": card.aoe},
        )
        out.append(_violation("aoe_out_of_range", "aoe", words, SEC_AOE_TARGETS))
    power = card.attack_power
    if power is not None:
        if not DICE_MIN <= power.dice <= DICE_MAX:
            words = Words(
                N_("Attack power runs from %(least)sd to %(most)sd, not %(dice)sd."),
                {"least": DICE_MIN, "most": DICE_MAX, "dice": power.dice},
            )
            out.append(
                _violation("attack_power_dice", "attack_power.dice", words, SEC_ATTACK_POWER)
            )
        if power.modifier < 0:
            words = Words(N_("The damage modifier is bought in +1 steps; it cannot be negative."))
            out.append(
                _violation(
                    "attack_power_modifier", "attack_power.modifier", words, SEC_ATTACK_POWER
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
            words = Words(N_("Any card that targets self cannot have a to-hit skill."))
            out.append(_violation("self_to_hit", "to_hit", words, SEC_SELF))
        if card.aoe:
            words = Words(
                N_(
                    "A Self card affects only the caster, so it cannot have an AOE "
                    "(AOE includes a Single Target)."
                )
            )
            out.append(_violation("self_aoe", "aoe", words, SEC_SELF + RULING))
        if build is Build.ATTACK:
            words = Words(
                N_("An attack card cannot target only its caster: choose Single Target or more.")
            )
            out.append(_violation("attack_targets_self", "targets", words, SEC_SELF + RULING))
    for _, _, skill in skills:
        if (
            skill.targets is not None
            and card.targets is not None
            and card.targets not in skill.targets
        ):
            allowed = " or ".join(t.value.replace("_", " ") for t in skill.targets)
            words = Words(
                N_("The target of %(skill)s is fixed by its text: it must be %(targets)s."),
                {
                    "skill": _skill(skill),
                    "targets": _joined(
                        [Words(TARGETS_LABEL[t]) for t in skill.targets],
                        N_("%(first)s or %(next)s"),
                    ),
                },
            )
            english = f"The target of {skill.name} is fixed by its text: it must be {allowed}."
            out.append(_violation("skill_targets", "targets", words, skill.section, english))
        if not skill.aoe and card.aoe:
            words = Words(
                N_("%(skill)s affects exactly who its text says: it cannot have an AOE."),
                {"skill": _skill(skill)},
            )
            out.append(_violation("skill_aoe", "aoe", words, skill.section + RULING))


def _check_bomb(
    card: SpellcardDraft,
    skills: list[tuple[int, SkillChoice, SkillDef]],
    out: list[CardViolation],
) -> None:
    by_default = [s for _, _, s in skills if s.bomb is BombRule.DEFAULT]
    if by_default and not card.bomb:
        words = Words(
            N_("%(skill)s is a bomb by default: mark the card as a bomb."),
            {"skill": _skill(by_default[0])},
        )
        out.append(_violation("bomb_by_default", "bomb", words, by_default[0].section))
    if card.bomb and card.type is CardType.SPECIAL:
        for index, _, skill in skills:
            if skill.bomb is BombRule.NEVER:
                words = Words(
                    N_(
                        "Special spellcards cannot be made into bombs unless the skill says "
                        "so; %(skill)s does not."
                    ),
                    {"skill": _skill(skill)},
                )
                out.append(_violation("bomb_not_allowed", f"skills[{index}]", words, SEC_BOMB))
    if (card.bomb or by_default) and card.targets in (Targets.TWO, Targets.THREE, Targets.FOUR):
        words = Words(N_("Bomb cards can only be single-target (they may have an AOE)."))
        out.append(_violation("bomb_single_target", "targets", words, SEC_BOMB))


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
        words = Words(
            N_("%(skill)s needs the Shrine Maiden's patron goddess's element."),
            {"skill": _skill(skill)},
        )
        out.append(_violation("goddess_element_unknown", "element", words, skill.section))
    elif card.element != caster.goddess_element:
        words = Words(
            N_("%(skill)s: the card's element must be your goddess's, %(element)s."),
            {
                "skill": _skill(skill),
                "element": Words(caster.goddess_element.value, context="element"),
            },
        )
        out.append(_violation("goddess_element_mismatch", "element", words, skill.section))
