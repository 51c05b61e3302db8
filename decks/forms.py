"""Forms for the card and deck pages: they only parse input; the services and the engines
decide. A GM card is typed as YAML (or JSON) in the game's vocabulary; each error the engine
names comes back beside the text box with its field path."""

from __future__ import annotations

from typing import Any

import yaml
from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from westernroses.yaml_data import error_line, load_yaml

from .games import GAME_CHOICES
from .models import MAX_CARD_JSON, MAX_NAME
from .services import MAX_DECK_TEXT

CARD_HELP = _(
    "The card in the game's vocabulary, as YAML or JSON: number, name, type (kind for Dream "
    "Battle) and the fields of that type. See the card guide in docs/decks.md and the rules of "
    "each game for every word."
)


class CardDataForm(forms.Form):
    """A GM card as text; ``game`` only when adding (a card keeps its game)."""

    game = forms.ChoiceField(choices=GAME_CHOICES)
    card = forms.CharField(
        label=_("Card"),
        widget=forms.Textarea(attrs={"rows": 16, "spellcheck": "false"}),
        max_length=MAX_CARD_JSON,
        help_text=CARD_HELP,
    )

    def __init__(self, *args: Any, with_game: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not with_game:
            del self.fields["game"]

    def clean_card(self) -> Any:
        text = self.cleaned_data["card"]
        try:
            value = load_yaml(text)
        except yaml.YAMLError as exc:
            line = error_line(exc)
            if line is not None:
                raise ValidationError(
                    _("This is not readable YAML or JSON (line %(line)s).") % {"line": line}
                ) from None
            raise ValidationError(_("This is not readable YAML or JSON.")) from None
        if not isinstance(value, dict):
            raise ValidationError(_("The card must be a mapping of fields, like 'number: GM-001'."))
        return value

    def add_card_errors(self, exc: ValidationError) -> None:
        """The service's errors, keyed ``data.<path>``, beside the text box with their path."""
        for key, messages in exc.message_dict.items():
            if key.startswith("data."):
                path = key.removeprefix("data.")
                for message in messages:
                    self.add_error("card", f"{path}: {message}")
            elif key == "data":
                self.add_error("card", messages)
            elif key in self.fields:
                self.add_error(key, messages)
            else:
                self.add_error(None, messages)

    @staticmethod
    def as_text(data: Any) -> str:
        return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


class DeckForm(forms.Form):
    """A new deck: its game, name, campaign (for GM cards) and what to start from."""

    game = forms.ChoiceField(choices=GAME_CHOICES)
    name = forms.CharField(max_length=MAX_NAME)
    campaign: forms.ModelChoiceField[Any] = forms.ModelChoiceField(
        queryset=None,
        required=False,
        empty_label=_("No campaign (starter and site-wide cards)"),
        help_text=_("A campaign's game masters may have added cards: choose it to use them."),
    )
    start = forms.ChoiceField(
        label=_("Start from"),
        required=False,
        help_text=_("An empty deck, or a copy of a preset deck."),
    )

    def __init__(self, *args: Any, campaigns: Any, presets: list[tuple[str, str]], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["campaign"].queryset = campaigns  # type: ignore[attr-defined]
        self.fields["start"].choices = [("", _("An empty deck")), *presets]  # type: ignore[attr-defined]


class DeckSettingsForm(forms.Form):
    name = forms.CharField(max_length=MAX_NAME)
    campaign: forms.ModelChoiceField[Any] = forms.ModelChoiceField(
        queryset=None,
        required=False,
        empty_label=_("No campaign (starter and site-wide cards)"),
    )

    def __init__(self, *args: Any, campaigns: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["campaign"].queryset = campaigns  # type: ignore[attr-defined]


class DeckTextForm(forms.Form):
    text = forms.CharField(
        label=_("Deck as text"),
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false"}),
        max_length=MAX_DECK_TEXT,
        help_text=_("One line per card: the number of copies, then the card (its name or number)."),
    )


class CountForm(forms.Form):
    number = forms.CharField(max_length=12)
    count = forms.IntegerField(min_value=0, max_value=9)
