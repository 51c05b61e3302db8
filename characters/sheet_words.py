"""The sheet's fixed words in the reader's language.

The engine (``westernroses.characters``) writes a sheet in English: the stats' names and
abbreviations, the kinds of skills and attacks, the elements, where a contribution comes from
and the rules' own parts ("Base deck", "Level 2 (5 per level)"). :func:`sheet_in_language`
returns a copy of a sheet's dict with those in the active language; the data's names and texts
(races, professions, items, abilities) and what people wrote stay as they are.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from django.utils.translation import gettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from apibase.engine_words import data_text, in_language
from westernroses.characters.builder import RULE_SECTIONS

#: The four main stats (westernroses.catalog.STAT_NAMES) and their abbreviations.
STAT_NAMES = {
    "Power": _("Power"),
    "Charisma": _("Charisma"),
    "Intelligence": _("Intelligence"),
    "Insight": _("Insight"),
}
STAT_ABBREVIATIONS = {
    "PWR": pgettext_lazy("a stat", "PWR"),
    "CHA": pgettext_lazy("a stat", "CHA"),
    "INT": pgettext_lazy("a stat", "INT"),
    "INS": pgettext_lazy("a stat", "INS"),
}
SKILL_KINDS = {
    "mental": pgettext_lazy("a skill's kind", "mental"),
    "physical": pgettext_lazy("a skill's kind", "physical"),
}
ATTACK_KINDS = {
    "danmaku": pgettext_lazy("an attack's kind", "danmaku"),
    "physical": pgettext_lazy("an attack's kind", "physical"),
    "thrown": pgettext_lazy("an attack's kind", "thrown"),
}
ELEMENTS = {
    "fire": pgettext_lazy("element", "fire"),
    "water": pgettext_lazy("element", "water"),
    "wood": pgettext_lazy("element", "wood"),
    "metal": pgettext_lazy("element", "metal"),
    "wind": pgettext_lazy("element", "wind"),
    "light": pgettext_lazy("element", "light"),
    "darkness": pgettext_lazy("element", "darkness"),
    "spirit": pgettext_lazy("element", "spirit"),
}
#: Where her HP leaves her (westernroses/characters/sheet.py, ``Hp.state``).
HP_STATES = {
    "healthy": pgettext_lazy("a character's HP", "healthy"),
    "mortally_wounded": pgettext_lazy("a character's HP", "mortally wounded"),
    "dead": pgettext_lazy("a character's HP", "dead"),
    "destroyed": pgettext_lazy("a character's HP", "destroyed"),
}
#: How drunk she is (westernroses/characters/drunkenness.py), the level's name.
DRUNK_NAMES = {
    "Sober": pgettext_lazy("drunkenness", "Sober"),
    "Buzzed": pgettext_lazy("drunkenness", "Buzzed"),
    "Tipsy": pgettext_lazy("drunkenness", "Tipsy"),
    "Drunk": pgettext_lazy("drunkenness", "Drunk"),
    "Heavily Drunk": pgettext_lazy("drunkenness", "Heavily Drunk"),
    "Plastered": pgettext_lazy("drunkenness", "Plastered"),
}
#: A spellcard's type (westernroses/spellcards/card.py).
CARD_TYPES = {
    "attack": pgettext_lazy("a spellcard's type", "attack"),
    "defensive": pgettext_lazy("a spellcard's type", "defensive"),
    "special": pgettext_lazy("a spellcard's type", "special"),
}
#: Where a passive comes from (``{{ p.source|words }}``).
SOURCES = {
    "shot_type": _("Shot type"),
    "race": _("Race"),
    "profession": _("Profession"),
    "ability": _("Ability"),
}
#: An item's category (westernroses/data/items.yaml), shown beside it.
CATEGORIES = {
    "armor": pgettext_lazy("an item's category", "armor"),
    "clothing": pgettext_lazy("an item's category", "clothing"),
    "improvised_weapon": pgettext_lazy("an item's category", "improvised weapon"),
    "misc": pgettext_lazy("an item's category", "misc"),
    "natural_weapon": pgettext_lazy("an item's category", "natural weapon"),
    "throwing_weapon": pgettext_lazy("an item's category", "throwing weapon"),
    "weapon": pgettext_lazy("an item's category", "weapon"),
}
#: A contribution's label the rules write themselves.
LABELS = {
    "Base deck": _("Base deck"),
    "Improvised weapon": _("Improvised weapon"),
    "Bonus points": _("Bonus points"),
    "Options": pgettext_lazy("a shot's options", "Options"),
    **STAT_NAMES,
}
_ABBREVIATION = re.compile(r"\b(PWR|CHA|INT|INS)\b")
_PER_LEVEL = re.compile(r"^Level (?P<level>\d+) \((?P<per>\d+) per level\)$")
_DODGE_NOTE = re.compile(
    r"^Danmaku: an insight roll against (?P<dodge>\d+) dodges; "
    r"then an insight roll against (?P<graze>\d+) to graze\.$"
)
_TARGETS_DODGE = re.compile(r"^Targets dodge with an insight roll against (?P<target>\d+)\.$")
_ATTACK_NOTES = {
    "Shrine Maiden: may declare a basic attack to be of her goddess's element.": _(
        "Shrine Maiden: may declare a basic attack to be of her goddess's element."
    ),
    "Shrine Maiden: may declare this attack to be of her goddess's element.": _(
        "Shrine Maiden: may declare this attack to be of her goddess's element."
    ),
}
_PHYSICAL_NOTE = "Physical attacks: the attacker's power against your charisma (versus check)."


def abbreviations(text: str) -> str:
    """``text`` with the stats' abbreviations ("(CHA + INS) / 2") in the active language."""
    return _ABBREVIATION.sub(lambda m: str(STAT_ABBREVIATIONS[m[1]]), text)


def element_words(element: str) -> str:
    return str(ELEMENTS.get(element.lower(), element))


def label_words(label: str) -> str:
    """A contribution's label: the rules' own in the active language, a data name as it is."""
    if label in LABELS:
        return str(LABELS[label])
    found = _PER_LEVEL.match(label)
    if found:
        return gettext("Level %(level)s (%(per)s per level)") % {
            "level": found["level"],
            "per": found["per"],
        }
    return abbreviations(label)


def range_words(rule: str) -> str:
    """How an attack's range is found: "RANGE", "RANGE + 2 (Options)", "1 (weapon)",
    "0.5 x RANGE"."""
    text = rule.replace(" (weapon)", " " + pgettext("an attack's range", "(weapon)"))
    text = text.replace(" (Options)", " " + pgettext("an attack's range", "(Options)"))
    return text.replace("RANGE", pgettext("an attack's range", "RANGE"))


def note_words(note: str) -> str:
    if note == _PHYSICAL_NOTE:
        return gettext(
            "Physical attacks: the attacker's power against your charisma (versus check)."
        )
    found = _DODGE_NOTE.match(note)
    if found:
        return gettext(
            "Danmaku: an insight roll against %(dodge)s dodges; then an insight roll against "
            "%(graze)s to graze."
        ) % {"dodge": found["dodge"], "graze": found["graze"]}
    return note


def attack_note_words(note: str) -> str:
    """An attack's note the rules write ("Targets dodge with an insight roll against 12.")."""
    if note in _ATTACK_NOTES:
        return str(_ATTACK_NOTES[note])
    found = _TARGETS_DODGE.match(note)
    if found:
        return gettext("Targets dodge with an insight roll against %(target)s.") % {
            "target": found["target"]
        }
    return note


def drunk_words(name: str) -> str:
    return str(DRUNK_NAMES.get(name, name))


def _parts(value: Any) -> Any:
    """Every contribution (``{"source", "label", "amount"}``) below ``value``, relabelled."""
    if isinstance(value, list):
        return [_parts(item) for item in value]
    if not isinstance(value, dict):
        return value
    out = {key: _parts(item) for key, item in value.items()}
    if "label" in out and "amount" in out and isinstance(out["label"], str):
        out["label"] = label_words(out["label"])
    return out


def options_in_language(options: dict[str, Any]) -> dict[str, Any]:
    """A copy of the wizard's choices (``characters.selectors.creation_options``) with the
    rules' words in the active language: the stats' names, the elements, a skill's formula, an
    ability's element, an item's category and the drunkenness levels (the data's names go
    through ``data_text`` in the template)."""
    out = copy.deepcopy(options)
    for stat in out.get("stats") or []:
        stat["name"] = str(STAT_NAMES.get(stat["name"], stat["name"]))
    for element in out.get("elements") or []:
        element["name"] = element_words(str(element["name"]))
    for skill in out.get("skills") or []:
        skill["formula"] = abbreviations(str(skill.get("formula", "")))
        skill["kind"] = str(SKILL_KINDS.get(skill.get("kind", ""), skill.get("kind", "")))
    for ability in out.get("abilities") or []:
        if isinstance(ability.get("element"), str):
            ability["element"] = element_words(ability["element"])
    for item in out.get("items") or []:
        category = str(item.get("category", "")).replace(" ", "_")
        item["category"] = str(CATEGORIES.get(category, item.get("category", "")))
    for level in out.get("drunkenness") or []:
        level["name"] = drunk_words(str(level["name"]))
    return out


def words_in_language(words: dict[str, Any]) -> str:
    """The rules' words (``Words.to_json()``) in the active language, an element they name
    ("a water affinity", "Element: Water") by this table's word for it."""

    def element(value: Any) -> Any:
        text = value.get("text") if isinstance(value, dict) and not value.get("params") else value
        if isinstance(text, str) and text.lower() in ELEMENTS:
            return element_words(text)
        return value

    params = {key: element(value) for key, value in dict(words.get("params") or {}).items()}
    return in_language({**words, "params": params})


def section_words(section: Any) -> str:
    """A rulebook section a cost line or a broken rule cites, in the reader's language: the
    rules' own, a special skill's from the data, either decided by a project ruling."""
    from westernroses.spellcards.tables import SECTIONS
    from westernroses.spellcards.validation import RULING, RULING_WORDS

    text = str(section or "")
    if text.endswith(RULING):
        return gettext(RULING_WORDS) % {"section": section_words(text.removesuffix(RULING))}
    return gettext(text) if text in SECTIONS else data_text(text)


def problem_in_language(problem: dict[str, Any]) -> dict[str, Any]:
    """A rule problem (``RuleViolation.to_dict()`` or a spellcard's ``CardViolation.to_dict()``,
    with its ``words``) with its message and its rulebook section in the active language; a
    problem kept as plain English (an old row, a check that writes no words) as it is."""
    out = {key: value for key, value in problem.items() if key != "words"}
    words = problem.get("words")
    if isinstance(words, dict):
        out["message"] = words_in_language(words)
    from characters.services import R_LEVELS, R_STORAGE

    rule = problem.get("rule")
    if isinstance(rule, str) and rule in RULE_SECTIONS | {R_LEVELS, R_STORAGE}:
        out["rule"] = gettext(rule)
    section = problem.get("section")  # a spellcard's broken rule cites a ``section``
    if isinstance(section, str):
        out["section"] = section_words(section)
    return out


def sheet_in_language(sheet: dict[str, Any] | None) -> dict[str, Any] | None:
    """A copy of ``sheet`` (``Sheet.to_dict()``) with the rules' words in the active language."""
    if not sheet:
        return sheet
    out: dict[str, Any] = _parts(copy.deepcopy(sheet))
    for stat in (out.get("stats") or {}).values():
        stat["name"] = str(STAT_NAMES.get(stat.get("name", ""), stat.get("name", "")))
    for skill in (out.get("skills") or {}).values():
        skill["kind"] = str(SKILL_KINDS.get(skill.get("kind", ""), skill.get("kind", "")))
        skill["formula"] = abbreviations(str(skill.get("formula", "")))
    for attack in out.get("attacks") or []:
        attack["kind"] = str(ATTACK_KINDS.get(attack.get("kind", ""), attack.get("kind", "")))
        attack["elements"] = [element_words(str(e)) for e in attack.get("elements") or []]
        attack["notes"] = [attack_note_words(str(n)) for n in attack.get("notes") or []]
        if isinstance(attack.get("on_hit"), str):
            attack["on_hit"] = data_text(attack["on_hit"])
        if attack.get("slug") == "danmaku" and attack.get("name") == "Danmaku":
            attack["name"] = pgettext("an attack", "Danmaku")
        if isinstance(attack.get("range_rule"), str):
            attack["range_rule"] = range_words(attack["range_rule"])
    hp = out.get("hp")
    if isinstance(hp, dict) and hp.get("state") in HP_STATES:
        hp["state"] = str(HP_STATES[hp["state"]])
    for key in ("element", "goddess_element"):
        if isinstance(out.get(key), str):
            out[key] = element_words(out[key])
    defence = out.get("defence")
    if isinstance(defence, dict):
        defence["notes"] = [note_words(str(n)) for n in defence.get("notes") or []]
    drunkenness = out.get("drunkenness")
    if isinstance(drunkenness, dict) and isinstance(drunkenness.get("name"), str):
        drunkenness["name"] = drunk_words(drunkenness["name"])
    for passive in out.get("passives") or []:
        passive["source"] = str(SOURCES.get(passive.get("source", ""), passive.get("source", "")))
    for item in out.get("inventory") or []:
        category = item.get("category", "")
        item["category"] = str(CATEGORIES.get(category, category))
    return out
