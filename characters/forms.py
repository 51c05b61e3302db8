"""Forms for the character pages: they only parse input into an engine draft.

The wizard and the edit page post one plain form (it works without JavaScript); the live preview
posts the same form. :class:`CharacterForm` turns it into a :class:`CharacterDraft`; the engine
then says what is wrong, and :func:`error_slots` puts each message beside the input it is about.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, Final

from django import forms
from django.utils.translation import gettext_lazy

from apibase.engine_words import in_language
from westernroses.catalog import MAIN_STATS, get_catalog
from westernroses.characters import CharacterDraft, ItemStack, RuleViolation
from westernroses.characters.drunkenness import DrunkLevel

from .services import character_draft_with_kit

#: Bounds on numbers typed into the pages: wide enough for any sheet, small enough for storage.
SMALL: Final = 1000
LARGE: Final = 1_000_000_000

#: Where errors without an input of their own are shown (top of the form).
GENERAL: Final = "general"

#: The single choice the GM's waiver checkbox grants (the only rule left to the GM's discretion).
WAIVER_MANIPULATION: Final = "abilities.manipulation_element"


def _int(*, lo: int, hi: int) -> forms.IntegerField:
    return forms.IntegerField(required=False, min_value=lo, max_value=hi)


def _text(max_length: int = 200) -> forms.CharField:
    return forms.CharField(required=False, max_length=max_length, strip=True)


class CharacterForm(forms.Form):
    """The wizard (``mode="create"``) and the edit page (``mode="edit"``) as one parser.

    Create: the equipment is the profession's starting kit (choices per kit line); edit: the
    inventory is typed in (quantity and equipped per item) and play state (yen, HP, spell
    power, drunkenness, status effects) can change. GM-only inputs exist only for GMs.
    """

    name = _text(200)
    shot_type = _text(60)
    race = _text(60)
    natural_weapon = _text()
    profession = _text(60)
    goddess_element = _text(60)
    guardian_charge = _text()
    element = _text(60)
    public_notes = forms.CharField(required=False, widget=forms.Textarea, max_length=20_000)
    private_notes = forms.CharField(required=False, widget=forms.Textarea, max_length=20_000)

    def __init__(
        self, *args: Any, mode: str = "create", is_gm: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.mode = mode
        self.is_gm = is_gm
        cat = get_catalog()
        for stat in MAIN_STATS:
            self.fields[f"bonus_{stat}"] = _int(lo=-SMALL, hi=SMALL)
        for slug in cat.skills:
            self.fields[f"skill_{slug}"] = _int(lo=-SMALL, hi=SMALL)
        self.fields["abilities"] = forms.MultipleChoiceField(
            required=False, choices=[(a.slug, a.name) for a in cat.abilities.values()]
        )
        for ability in cat.abilities.values():
            if ability.choice:
                self.fields[f"choice_{ability.slug}"] = _text(60)
        if mode == "create":
            for prof in cat.professions.values():
                for i, entry in enumerate(prof.starting_equipment):
                    if entry.is_choice:
                        self.fields[f"kit_{prof.slug}_{i}"] = _text(60)
            if is_gm:
                self.fields["is_npc"] = forms.BooleanField(required=False)
        else:
            for item in carried_items():
                self.fields[f"qty_{item}"] = _int(lo=0, hi=LARGE)
                self.fields[f"eq_{item}"] = forms.BooleanField(required=False)
            self.fields["yen"] = _int(lo=-LARGE, hi=LARGE)
            self.fields["current_hp"] = _int(lo=-LARGE, hi=LARGE)
            self.fields["spell_power"] = _int(lo=-LARGE, hi=LARGE)
            self.fields["drunkenness"] = _text(40)
            self.fields["status_effects"] = forms.MultipleChoiceField(
                required=False, choices=[(s, s) for s in get_catalog().status_effects]
            )
            self.fields["clothing_covered"] = forms.BooleanField(required=False)
            self.fields["guardian_charge_injured"] = forms.BooleanField(required=False)
            if is_gm:
                self.fields["waive_manipulation"] = forms.BooleanField(required=False)

    def draft(
        self, base: CharacterDraft | None = None
    ) -> tuple[CharacterDraft, list[RuleViolation]]:
        """The draft the form describes (on top of ``base``, the stored draft when editing),
        and problems only the form can see (a kit choice that is not offered).

        Inputs that failed to parse are left out; their errors are in ``form.errors``.
        """
        data: Mapping[str, Any] = self.cleaned_data if self.is_valid() or self.is_bound else {}
        draft = CharacterDraft.from_dict(base.to_dict()) if base is not None else CharacterDraft()
        cat = get_catalog()

        def text(key: str) -> str | None:
            return data.get(key) or None

        draft.name = data.get("name") or ""
        draft.shot_type = text("shot_type")
        draft.race = text("race")
        draft.profession = text("profession")
        draft.element = text("element")
        prof = cat.professions.get(draft.profession or "")
        race = cat.races.get(draft.race or "")
        # Inputs for another race or profession may still hold text from an earlier choice
        # (hidden by the page's script); only the ones the current choice asks for count.
        draft.natural_weapon = (
            text("natural_weapon") if race and race.natural_weapon_choice else None
        )
        draft.goddess_element = (
            text("goddess_element") if prof and prof.needs_goddess_element else None
        )
        draft.guardian_charge = text("guardian_charge") if prof and prof.needs_charge else None
        draft.bonus_points = {
            s: data[f"bonus_{s}"] for s in MAIN_STATS if data.get(f"bonus_{s}") not in (None, 0)
        }
        draft.skill_points = {
            s: data[f"skill_{s}"] for s in cat.skills if data.get(f"skill_{s}") not in (None, 0)
        }
        draft.abilities = list(data.get("abilities") or [])
        draft.ability_choices = {
            slug: data[f"choice_{slug}"] for slug in draft.abilities if data.get(f"choice_{slug}")
        }
        problems: list[RuleViolation] = []
        if self.mode == "create":
            choices = {}
            if prof is not None:
                for i, entry in enumerate(prof.starting_equipment):
                    picked = data.get(f"kit_{prof.slug}_{i}")
                    if entry.is_choice and picked:
                        choices[i] = picked
            result = character_draft_with_kit(draft=draft, choices=choices)
            draft, problems = result.draft, list(result.problems)
        else:
            draft.inventory = {
                slug: ItemStack(quantity=data[f"qty_{slug}"], equipped=bool(data.get(f"eq_{slug}")))
                for slug in carried_items()
                if data.get(f"qty_{slug}")
            }
            if data.get("yen") is not None:
                draft.yen = data["yen"]
            draft.current_hp = data.get("current_hp")
            draft.spell_power = data.get("spell_power")
            draft.drunkenness = data.get("drunkenness") or DrunkLevel.SOBER.value
            draft.status_effects = list(data.get("status_effects") or [])
            draft.clothing_covered = bool(data.get("clothing_covered"))
            draft.guardian_charge_injured = bool(data.get("guardian_charge_injured")) and bool(
                prof and prof.needs_charge
            )
            if self.is_gm:
                waivers = [w for w in draft.gm_waivers if w != WAIVER_MANIPULATION]
                if data.get("waive_manipulation"):
                    waivers.append(WAIVER_MANIPULATION)
                draft.gm_waivers = waivers
        return draft, problems


def carried_items() -> list[str]:
    """Items a character can carry (natural weapons are part of the body, never carried)."""
    return [slug for slug, item in get_catalog().items.items() if item.category != "natural_weapon"]


class PortraitForm(forms.Form):
    portrait = forms.FileField(
        label=gettext_lazy("Portrait"),
        help_text=gettext_lazy("PNG, JPEG, WebP or GIF, at most 2 MB, 16 to 4096 pixels a side."),
    )


class ImportForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("File"),
        help_text=gettext_lazy("A character exported from Western Roses (.json)."),
    )
    campaign = forms.TypedChoiceField(
        label=gettext_lazy("Campaign"), required=False, coerce=int, empty_value=None
    )

    def __init__(self, *args: Any, campaigns: Iterable[Any] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["campaign"]
        assert isinstance(field, forms.TypedChoiceField)  # noqa: S101 - declared above
        field.choices = [("", gettext_lazy("No campaign")), *((c.pk, c.name) for c in campaigns)]


# --------------------------------------------------------------------------- error placement

_FORM_FIELD_SLOT = re.compile(r"^(bonus|skill|choice|qty|eq|kit)_(.+)$")
_LAST_PART = re.compile(r"(\.[^.\[\]]*|\[\d+\])$")


def slots() -> frozenset[str]:
    """Every place the pages show errors (``data-error-for`` in the templates)."""
    cat = get_catalog()
    names = {
        GENERAL,
        "name",
        "shot_type",
        "race",
        "natural_weapon",
        "profession",
        "goddess_element",
        "guardian_charge",
        "element",
        "bonus_points",
        "skill_points",
        "abilities",
        "ability_choices",
        "inventory",
        "kit",
        "yen",
        "level",
        "current_hp",
        "spell_power",
        "drunkenness",
        "status_effects",
        "effects",
        "gm_waivers",
        "public_notes",
        "private_notes",
    }
    names.update(f"bonus_points.{s}" for s in MAIN_STATS)
    names.update(f"skill_points.{s}" for s in cat.skills)
    names.update(f"ability_choices.{a}" for a in cat.abilities)
    names.update(f"inventory.{i}" for i in cat.items)
    return frozenset(names)


def _form_field_slot(name: str) -> str:
    match = _FORM_FIELD_SLOT.match(name)
    if match is None:
        return "status_effects" if name == "waive_manipulation" else name
    kind, rest = match.groups()
    return {
        "bonus": f"bonus_points.{rest}",
        "skill": f"skill_points.{rest}",
        "choice": f"ability_choices.{rest}",
        "qty": f"inventory.{rest}",
        "eq": f"inventory.{rest}",
        "kit": "kit",
    }[kind]


def slot_for(field: str, known: frozenset[str]) -> str:
    """The nearest place to show an error about ``field``: ``inventory.sword.equipped`` goes
    beside the sword, ``abilities[1]`` beside the abilities, anything else at the top."""
    while field:
        if field in known:
            return field
        shorter = _LAST_PART.sub("", field)
        if shorter == field:
            break
        field = shorter
    return GENERAL


def error_slots(
    problems: Iterable[RuleViolation | Mapping[str, str]],
    form_errors: Mapping[str, Iterable[Any]] | None = None,
) -> dict[str, list[str]]:
    """Messages by the place they are shown: the engine's violations and the form's own."""
    known = slots()
    out: dict[str, list[str]] = {}
    for name, messages in (form_errors or {}).items():
        slot = slot_for(_form_field_slot(name) if name != "__all__" else GENERAL, known)
        out.setdefault(slot, []).extend(str(m) for m in messages)
    for problem in problems:
        field, message = (
            (problem.field, in_language(problem.words or problem.message))
            if isinstance(problem, RuleViolation)
            else (problem["field"], problem["message"])
        )
        out.setdefault(slot_for(field, known), []).append(message)
    return out
