"""The wiki's page forms (GMs): an entry, a section, a kind, a reveal, the search box."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .models import MAX_BODY, MAX_TITLE, Entry, Kind, Visibility

TAGS_HELP = _("Separated by commas: “mansion, vampires”.")
BODY_HELP = _(
    "Markdown. Mention an entry, a character, a session or a handout with @[[its name]]: the "
    "link follows it when it is renamed."
)


def _choices(field: Any, choices: list[tuple[Any, str]]) -> None:
    field.choices = choices


class _Visible(forms.Form):
    visibility = forms.ChoiceField(
        label=_("Who sees it"), choices=Visibility.choices, initial=Visibility.GM
    )
    viewers = forms.TypedMultipleChoiceField(
        label=_("Chosen players"),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Only when “Chosen players” is picked above."),
    )

    def __init__(self, *args: Any, players: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _choices(self.fields["viewers"], players)


class EntryForm(_Visible):
    title = forms.CharField(label=_("Title"), max_length=MAX_TITLE)
    kind = forms.ChoiceField(label=_("Kind"))
    body = forms.CharField(
        label=_("Text"),
        widget=forms.Textarea(attrs={"rows": 10}),
        required=False,
        max_length=MAX_BODY,
        help_text=BODY_HELP,
    )
    tags = forms.CharField(label=_("Tags"), max_length=600, required=False, help_text=TAGS_HELP)
    parent = forms.TypedChoiceField(
        label=_("Inside the place"), coerce=int, required=False, empty_value=None,
        help_text=_("For a place."),
    )  # fmt: skip
    members = forms.TypedMultipleChoiceField(
        label=_("Members"),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("For a faction."),
    )
    image = forms.FileField(
        label=_("Picture"), required=False, help_text=_("PNG, JPEG, GIF or WebP, at most 3 MB.")
    )
    remove_image = forms.BooleanField(label=_("Remove the picture"), required=False)
    field_order = ["title", "kind", "body", "tags", "visibility", "viewers", "parent", "members"]

    def __init__(
        self,
        *args: Any,
        kinds: list[Kind],
        entries: list[Entry],
        players: list[tuple[int, str]],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, players=players, **kwargs)
        _choices(self.fields["kind"], [(k.key, k.label) for k in kinds])
        places = [(e.pk, e.title) for e in entries if e.kind.key == "place"]
        _choices(self.fields["parent"], [("", gettext("Not inside another place")), *places])
        _choices(self.fields["members"], [(e.pk, e.title) for e in entries])

    def clean_tags(self) -> list[str]:
        return [t for t in str(self.cleaned_data.get("tags") or "").split(",") if t.strip()]


class SectionForm(_Visible):
    heading = forms.CharField(label=_("Heading"), max_length=MAX_TITLE)
    body = forms.CharField(
        label=_("Text"),
        widget=forms.Textarea(attrs={"rows": 5}),
        required=False,
        max_length=MAX_BODY,
        help_text=BODY_HELP,
    )
    field_order = ["heading", "body", "visibility", "viewers"]


class KindForm(forms.Form):
    name = forms.CharField(label=_("New kind"), max_length=40)


class RevealForm(forms.Form):
    players = forms.TypedMultipleChoiceField(
        label=_("Players"), coerce=int, required=False, widget=forms.CheckboxSelectMultiple
    )
    section = forms.IntegerField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, players: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _choices(self.fields["players"], players)
