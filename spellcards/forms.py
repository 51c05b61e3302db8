"""The spellcard builder form: one select per section, offering only what the caster may take.

The choices come from the engine's ``allowed_options(caster, rules)`` (with their prices in the
labels); legality of the *combination* is the engine's ``validate``, whose violations are put
beside the field that causes them (:data:`VIOLATION_FIELDS`). No rule lives here.
"""

from __future__ import annotations

import re
from typing import Any, cast

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from apibase.engine_words import data_text, in_language
from characters.sheet_words import element_words, problem_in_language
from westernroses.house_rules import HouseRules
from westernroses.spellcards import (
    CardViolation,
    CasterInfo,
    SpellcardDraft,
    allowed_options,
    validate,
)
from westernroses.spellcards.card import CardFormatError, Duration
from westernroses.spellcards.skills import SKILLS
from westernroses.spellcards.tables import duration_words

#: Engine violation field → form field. Skills' own fields are mapped in ``field_for``.
VIOLATION_FIELDS = {
    "name": "name",
    "type": "type",
    "bomb": "bomb",
    "to_hit": "to_hit",
    "targets": "targets",
    "aoe": "aoe",
    "duration": "duration",
    "attack_power": "attack_dice",
    "attack_power.dice": "attack_dice",
    "attack_power.modifier": "attack_modifier",
    "element": "element",
    "skills": "skills",
}
_SKILL_FIELD = re.compile(r"^skills\[(\d+)\](?:\.params\.(\w+))?$")


def _signed(cost: int) -> str:
    """A section's price as the menus say it: "free", "+40 spell power", "10 spell power less"."""
    if cost > 0:
        return gettext("+%(cost)s spell power") % {"cost": cost}
    if cost < 0:
        return gettext("%(cost)s spell power less") % {"cost": -cost}
    return gettext("free")


def _priced(label: str, cost: int) -> str:
    """A menu line that reads as a sentence: "AOE 2: +60 spell power"."""
    return gettext("%(label)s: %(price)s") % {"label": label, "price": _signed(cost)}


def _targets_line(t: Any) -> str:
    """ "Two Targets: +20 spell power, or +40 with an AOE"; "included in an AOE" when free."""
    with_aoe = t["cost_with_aoe"]
    if not with_aoe:
        return gettext("%(priced)s, included in an AOE") % {
            "priced": _priced(t["label"], t["cost"])
        }
    return gettext("%(priced)s, or +%(with_aoe)s with an AOE") % {
        "priced": _priced(t["label"], t["cost"]),
        "with_aoe": with_aoe,
    }


def _tier_line(t: Any) -> str:
    """One price tier of the damage modifier: "+1 to +10, 2 each"; "+21 and up, 4 each"."""
    if t["to"]:
        return gettext("+%(low)s to +%(high)s, %(each)s each") % {
            "low": t["from"],
            "high": t["to"],
            "each": t["cost_each"],
        }
    return gettext("+%(low)s and up, %(each)s each") % {"low": t["from"], "each": t["cost_each"]}


#: How far an element is from the caster's (``westernroses.elements.Distance``), as the
#: element menu says it.
DISTANCES = {
    "own": pgettext_lazy("an element's distance", "own"),
    "same_cycle": pgettext_lazy("an element's distance", "same cycle"),
    "other_cycle": pgettext_lazy("an element's distance", "other cycle"),
}


def _duration_label(d: Any) -> str:
    """A duration as the rulebook words it ("3 Rounds – homing"), in the reader's language."""
    return in_language(duration_words(Duration(d["value"])))


def _aoe_label(radius: int) -> str:
    return gettext("AOE %(radius)s") % {"radius": radius} if radius else gettext("No AOE")


def param_field_name(slug: str, param: str) -> str:
    return f"param__{slug}__{param}"


class SpellcardForm(forms.Form):
    """Builds a :class:`SpellcardDraft` from the builder's fields and validates it for a caster.

    After ``is_valid()`` (whatever its answer) ``draft`` is the card as entered (None only when
    a field could not even be read) and ``violations`` every rule it breaks.
    """

    name = forms.CharField(label=gettext_lazy("Name"), max_length=120, required=False)
    description = forms.CharField(
        label=gettext_lazy("Description"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=gettext_lazy(
            "What the card does, in your words (the GM adjudicates buffs and effects)."
        ),
    )
    type = forms.ChoiceField(label=gettext_lazy("Type"))
    bomb = forms.BooleanField(
        label=gettext_lazy("Bomb"),
        required=False,
        help_text=gettext_lazy("Cast only when you are hit; costs double, single target."),
    )
    to_hit = forms.ChoiceField(label=gettext_lazy("To-hit"))
    targets = forms.ChoiceField(label=gettext_lazy("Targets"), required=False)
    aoe = forms.TypedChoiceField(coerce=int, label=gettext_lazy("AOE"))
    duration = forms.ChoiceField(label=gettext_lazy("Duration"))
    attack_dice = forms.TypedChoiceField(
        coerce=int, empty_value=None, required=False, label=gettext_lazy("Attack power")
    )
    attack_modifier = forms.IntegerField(
        required=False,
        min_value=-1000,
        max_value=1000,
        initial=0,
        label=gettext_lazy("Damage modifier"),
    )
    element = forms.ChoiceField(required=False, label=gettext_lazy("Elemental affinity"))
    skills = forms.MultipleChoiceField(
        required=False, widget=forms.CheckboxSelectMultiple, label=gettext_lazy("Special skills")
    )

    def __init__(self, *args: Any, caster: CasterInfo, rules: HouseRules, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.caster = caster
        self.rules = rules
        self.options = allowed_options(caster, rules)
        self.draft: SpellcardDraft | None = None
        self.violations: list[CardViolation] = []
        self.skill_index: list[str] = []
        opts = self.options
        f: Any = self.fields  # typed per field: ChoiceFields get choices
        # the engine's labels are message ids (``N_``), read here in the reader's language
        f["type"].choices = [(t["value"], gettext(t["label"])) for t in opts["type"]]
        f["to_hit"].choices = [
            (t["value"], _priced(gettext(t["label"]), t["cost"])) for t in opts["to_hit"]
        ]
        f["targets"].choices = [
            ("", gettext("No targets: the special skill says whom it affects"))
        ] + [
            (t["value"], _targets_line({**t, "label": gettext(t["label"])}))
            for t in opts["targets"]
        ]
        f["aoe"].choices = [
            (a["value"], _priced(_aoe_label(a["value"]), a["cost"])) for a in opts["aoe"]
        ]
        f["duration"].choices = [
            (d["value"], _priced(_duration_label(d), d["cost"])) for d in opts["duration"]
        ]
        f["attack_dice"].choices = [("", gettext("No attack power"))] + [
            (d["value"], _priced(d["label"], d["cost"])) for d in opts["attack_power"]["dice"]
        ]
        tiers = opts["attack_power"]["modifier"]["tiers"]
        f["attack_modifier"].help_text = gettext("Each point costs spell power: %(tiers)s.") % {
            "tiers": gettext("; ").join(_tier_line(t) for t in tiers)
        }
        f["element"].choices = [("", gettext("No element: non-elemental, free"))] + [
            (
                e["value"],
                gettext("%(element)s: %(distance)s, %(price)s")
                % {
                    "element": capfirst(element_words(e["label"])),
                    "distance": str(DISTANCES.get(e["distance"], e["distance"].replace("_", " "))),
                    "price": _signed(e["cost"]),
                },
            )
            for e in opts["element"]
        ]
        f["skills"].choices = [
            (
                s["slug"],
                gettext("%(skill)s (%(group)s): costs %(cost)s")
                % {
                    "skill": data_text(s["name"]),
                    "group": data_text(s["group_name"]).replace(" – ", ", "),
                    "cost": in_language(s["cost"]["words"]),
                },
            )
            for s in opts["skills"]
        ]
        if not opts["skills"]:
            f["skills"].help_text = gettext("Your profession has no special skills (yet).")
        # A copied template may carry another profession's skill. Keep it selectable so the
        # engine can say why it does not fit, beside this field, instead of a bare "invalid
        # choice"; the lists never offer such a skill otherwise.
        offered = {s["slug"] for s in opts["skills"]}
        carried = self.data.getlist("skills") if hasattr(self.data, "getlist") else []
        for slug in carried:
            skill = SKILLS.get(slug)
            if skill is not None and slug not in offered:
                offered.add(slug)
                f["skills"].choices = [
                    *f["skills"].choices,
                    (
                        slug,
                        gettext("%(skill)s — not available to a %(profession)s")
                        % {
                            "skill": data_text(skill.name),
                            "profession": data_text(caster.profession.label),
                        },
                    ),
                ]
        for skill in opts["skills"]:
            for param in skill["params"]:
                name = param_field_name(skill["slug"], param["name"])
                label = gettext("%(skill)s: %(parameter)s") % {
                    "skill": data_text(skill["name"]),
                    "parameter": data_text(param["label"]),
                }
                if param["kind"] == "choice":
                    f[name] = forms.TypedChoiceField(
                        coerce=int,
                        empty_value=None,
                        required=False,
                        label=label,
                        choices=[("", gettext("not chosen"))]
                        + [(c, str(c)) for c in param["choices"]],
                    )
                elif param["kind"] == "element":
                    f[name] = forms.ChoiceField(
                        required=False,
                        label=label,
                        choices=[("", gettext("not chosen"))]
                        + [
                            (e["value"], capfirst(element_words(e["label"])))
                            for e in opts["element"]
                        ],
                    )
                else:
                    f[name] = forms.IntegerField(
                        required=False,
                        label=label,
                        min_value=-1000,
                        max_value=1000,
                    )
                f[name].widget.attrs["data-skill"] = skill["slug"]

    # -- reading ---------------------------------------------------------------------------

    def param_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith("param__")]

    def main_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if not name.startswith("param__")]

    def draft_data(self, data: dict[str, Any]) -> dict[str, Any]:
        """The engine's ``SpellcardDraft.to_dict`` shape from cleaned form data."""
        dice = data.get("attack_dice")
        skills = []
        self.skill_index = []
        for slug in data.get("skills") or []:
            params = {}
            for skill in self.options["skills"]:
                if skill["slug"] != slug:
                    continue
                for param in skill["params"]:
                    value = data.get(param_field_name(slug, param["name"]))
                    if value not in (None, ""):
                        params[param["name"]] = value
            skills.append({"slug": slug, "params": params})
            self.skill_index.append(slug)
        return {
            "name": data.get("name") or "",
            "type": data.get("type"),
            "bomb": bool(data.get("bomb")),
            "to_hit": data.get("to_hit"),
            "targets": data.get("targets") or None,
            "aoe": data.get("aoe") or 0,
            "duration": data.get("duration"),
            "attack_power": None
            if dice is None
            else {"dice": dice, "modifier": data.get("attack_modifier") or 0},
            "element": data.get("element") or None,
            "skills": skills,
        }

    def field_for(self, violation_field: str) -> str | None:
        """The form field a violation belongs beside (None: shown with the card's rules)."""
        if violation_field in VIOLATION_FIELDS:
            return VIOLATION_FIELDS[violation_field]
        match = _SKILL_FIELD.match(violation_field)
        if match:
            index, param = int(match.group(1)), match.group(2)
            if index < len(self.skill_index):
                slug = self.skill_index[index]
                if param and param_field_name(slug, param) in self.fields:
                    return param_field_name(slug, param)
            return "skills"
        return None

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        try:
            self.draft = SpellcardDraft.from_dict(self.draft_data(data))
        except CardFormatError as exc:  # pragma: no cover - the choices keep the shape right
            raise forms.ValidationError(str(exc)) from None
        self.violations = validate(self.draft, self.caster, self.rules)
        for violation in self.violations:
            name = self.field_for(violation.field)
            self.add_error(name, problem_in_language(violation.to_dict(words=True))["message"])
        return data

    # -- writing ---------------------------------------------------------------------------

    @staticmethod
    def initial_from(draft_data: dict[str, Any], description: str = "") -> dict[str, Any]:
        """Form initial values from a stored draft (editing a card, copying a template)."""
        power = draft_data.get("attack_power") or None
        initial: dict[str, Any] = {
            "name": draft_data.get("name", ""),
            "description": description,
            "type": draft_data.get("type"),
            "bomb": draft_data.get("bomb", False),
            "to_hit": draft_data.get("to_hit", "none"),
            "targets": draft_data.get("targets") or "",
            "aoe": draft_data.get("aoe", 0),
            "duration": draft_data.get("duration", "instantaneous"),
            "attack_dice": power.get("dice") if isinstance(power, dict) else "",
            "attack_modifier": power.get("modifier", 0) if isinstance(power, dict) else 0,
            "element": draft_data.get("element") or "",
            "skills": [s.get("slug") for s in draft_data.get("skills", []) if isinstance(s, dict)],
        }
        for skill in draft_data.get("skills", []):
            if isinstance(skill, dict):
                for key, value in (skill.get("params") or {}).items():
                    initial[param_field_name(str(skill.get("slug")), str(key))] = value
        return initial


DEFAULT_INITIAL = {
    "type": "attack",
    "to_hit": "none",
    "targets": "single",
    "aoe": 0,
    "duration": "instantaneous",
    "attack_dice": 2,
    "attack_modifier": 0,
}


class CopiesForm(forms.Form):
    """How many copies of a card the deck holds (0 takes it out)."""

    spellcard = forms.IntegerField(widget=forms.HiddenInput)
    copies = forms.IntegerField(label=gettext_lazy("Copies"), min_value=0, max_value=99)


class CopyTemplateForm(forms.Form):
    """Which of my characters in the campaign receives a copy of a template card."""

    character = forms.TypedChoiceField(label=gettext_lazy("Character"), coerce=int)
    add_to_deck = forms.BooleanField(
        required=False, initial=True, label=gettext_lazy("Put one in the deck")
    )

    def __init__(self, *args: Any, characters: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["character"]).choices = [
            (c.pk, c.name) for c in characters
        ]


__all__ = [
    "DEFAULT_INITIAL",
    "CopiesForm",
    "CopyTemplateForm",
    "SpellcardForm",
]
