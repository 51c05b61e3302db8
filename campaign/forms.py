"""Forms for the campaign pages: campaigns, members and the dice roller. They only parse
input; the services decide and refuse, and their ``ValidationError``s come back onto these forms'
fields (:func:`add_service_errors`). Validation of dice input is the engine's (parse errors name
the position); forms only translate it into field errors. The GM tools' forms (invitations,
sessions, notes, handouts, the dashboard's quick actions) are in ``gmtools/forms.py``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from django import forms
from django.contrib.auth import get_user_model
from django.utils.safestring import mark_safe
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from apibase.engine_words import in_language
from westernroses.house_rules import DEFAULT_HOUSE_RULES, HOUSE_RULES_META, HouseRules

# re-exported: the pages import it from here
from .form_errors import add_service_errors as add_service_errors
from .models import MAX_PROSE, Campaign, Role
from .services import DiceRequest, DiceRequestError, dice_request_from


class CampaignForm(forms.ModelForm[Campaign]):
    description = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}), required=False, max_length=MAX_PROSE
    )

    class Meta:
        model = Campaign
        fields = ("name", "description")
        labels = {"name": _("Name"), "description": _("Description")}
        widgets = {"description": forms.Textarea(attrs={"rows": 4})}


class CampaignSettingsForm(forms.Form):
    """Name, description and every house rule (one whole-number field each, with its range)."""

    name = forms.CharField(label=_("Name"), max_length=120)
    description = forms.CharField(
        label=_("Description"),
        widget=forms.Textarea(attrs={"rows": 4}),
        required=False,
        max_length=MAX_PROSE,
    )

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        rules = campaign.rules()
        initial: dict[str, Any] = {"name": campaign.name, "description": campaign.description}
        initial.update(rules.to_dict())
        kwargs["initial"] = initial
        super().__init__(*args, **kwargs)
        defaults = DEFAULT_HOUSE_RULES.to_dict()
        for key, meta in HOUSE_RULES_META.items():
            # the engine's words in the reader's language (westernroses/words.py)
            default = {"help": gettext(meta.help) if meta.help else "", "default": defaults[key]}
            help_text = (
                gettext("%(help)s Default %(default)s.") % default
                if meta.help
                else gettext("Default %(default)s.") % default
            )
            self.fields[key] = forms.IntegerField(
                label=gettext(meta.label),
                min_value=meta.minimum,
                max_value=meta.maximum,
                help_text=help_text,
            )

    def clean(self) -> dict[str, Any]:
        """The engine's ordered pairs (a starting spell power above the cap ...), each error
        beside its field."""
        cleaned = super().clean() or {}
        if all(key in cleaned for key in HOUSE_RULES_META):
            rules = HouseRules.from_dict({key: cleaned[key] for key in HOUSE_RULES_META})
            for key, words in rules.order_problem_words().items():
                self.add_error(key, in_language(words))
        return cleaned

    def house_rules(self) -> dict[str, int]:
        return {key: self.cleaned_data[key] for key in HOUSE_RULES_META}

    def rule_fields(self) -> list[forms.BoundField]:
        return [self[key] for key in HOUSE_RULES_META]


class AddMemberForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices, initial=Role.PLAYER)

    def clean_username(self) -> Any:
        username = self.cleaned_data["username"]
        try:
            return get_user_model().objects.get(username=username)
        except get_user_model().DoesNotExist:
            raise forms.ValidationError(
                _("No user called “%(username)s”.") % {"username": username}
            ) from None


#: Dice notation as a reader types it, in every language (the form's help text).
NOTATION_EXAMPLES = mark_safe('<code translate="no">4d+2, 3d6, 2x(3d+1), 3dX2</code>')


class DiceForm(forms.Form):
    """A character's check, dice notation, or a stat value whose pool the rules give, plus a
    modifier. ``checks`` are the character checks this user may roll (from the characters app)."""

    check = forms.ChoiceField(
        label=_("Character check"),
        required=False,
        help_text=_("A stat or skill of your character, with its sheet's modifiers."),
    )
    notation = forms.CharField(
        label=_("Notation"),
        max_length=60,
        required=False,
        # the examples are notation, not words: translate="no" keeps them out of translation
        help_text=format_lazy("{} {}", _("e.g."), NOTATION_EXAMPLES),
    )
    stat = forms.IntegerField(
        label=_("Stat"),
        required=False,
        min_value=0,
        max_value=300,
        help_text=_("A stat value: rolls stat ÷ 3 dice."),
    )
    modifier = forms.IntegerField(
        label=_("Modifier"), required=False, min_value=-1000, max_value=1000, initial=0
    )
    target = forms.IntegerField(
        label=_("Target"),
        required=False,
        min_value=-1000,
        max_value=2000,
        help_text=_("Beat this number to succeed."),
    )
    label = forms.CharField(label=_("Label"), max_length=120, required=False)
    secret = forms.BooleanField(
        label=_("Secret"), required=False, help_text=_("Only you and the GMs see it.")
    )

    def __init__(
        self, *args: Any, rules: Any = None, checks: Sequence[Any] = (), **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.rules = rules
        self.dice_request: DiceRequest | None = None
        self.checks = {c.value: c for c in checks}
        cast(forms.ChoiceField, self.fields["check"]).choices = [
            ("", _("— type notation or a stat instead —"))
        ] + [(c.value, c.label) for c in checks]
        if not checks:
            # Nothing to pick: hidden, but still validated (a forged value is a field error).
            self.fields["check"].widget = forms.HiddenInput()

    @property
    def chosen_check(self) -> Any:
        """The character check picked, if any (its label names the roll in the log)."""
        return self.checks.get(self.cleaned_data.get("check") or "")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        chosen = self.chosen_check
        try:
            self.dice_request = dice_request_from(
                notation=data.get("notation") or "",
                stat=data.get("stat"),
                modifier=(data.get("modifier") or 0) + (chosen.modifier if chosen else 0),
                target=data.get("target"),
                rules=self.rules,
                pool=chosen.dice if chosen else None,
            )
        except DiceRequestError as exc:
            self.add_error(exc.field, str(exc))
        return data
