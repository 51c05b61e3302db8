"""The wiki's page forms (GMs): an entry, a section, a kind, a reveal, the search box."""

from __future__ import annotations

from typing import Any

from django import forms

from .models import MAX_BODY, MAX_TITLE, Entry, Kind, Visibility

TAGS_HELP = "Separated by commas: “mansion, vampires”."
BODY_HELP = (
    "Markdown. Mention an entry, a character, a session or a handout with @[[its name]]: the "
    "link follows it when it is renamed."
)


def _choices(field: Any, choices: list[tuple[Any, str]]) -> None:
    field.choices = choices


class _Visible(forms.Form):
    visibility = forms.ChoiceField(
        label="Who sees it", choices=Visibility.choices, initial=Visibility.GM
    )
    viewers = forms.TypedMultipleChoiceField(
        label="Chosen players",
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="Only when “Chosen players” is picked above.",
    )

    def __init__(self, *args: Any, players: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _choices(self.fields["viewers"], players)


class EntryForm(_Visible):
    title = forms.CharField(max_length=MAX_TITLE)
    kind = forms.ChoiceField()
    body = forms.CharField(
        label="Text",
        widget=forms.Textarea(attrs={"rows": 10}),
        required=False,
        max_length=MAX_BODY,
        help_text=BODY_HELP,
    )
    tags = forms.CharField(max_length=600, required=False, help_text=TAGS_HELP)
    parent = forms.TypedChoiceField(
        label="Inside the place", coerce=int, required=False, empty_value=None,
        help_text="For a place.",
    )  # fmt: skip
    members = forms.TypedMultipleChoiceField(
        label="Members",
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="For a faction.",
    )
    image = forms.FileField(
        label="Picture", required=False, help_text="PNG, JPEG, GIF or WebP, at most 3 MB."
    )
    remove_image = forms.BooleanField(label="Remove the picture", required=False)
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
        _choices(self.fields["kind"], [(k.key, k.name) for k in kinds])
        places = [(e.pk, e.title) for e in entries if e.kind.key == "place"]
        _choices(self.fields["parent"], [("", "Not inside another place"), *places])
        _choices(self.fields["members"], [(e.pk, e.title) for e in entries])

    def clean_tags(self) -> list[str]:
        return [t for t in str(self.cleaned_data.get("tags") or "").split(",") if t.strip()]


class SectionForm(_Visible):
    heading = forms.CharField(max_length=MAX_TITLE)
    body = forms.CharField(
        label="Text",
        widget=forms.Textarea(attrs={"rows": 5}),
        required=False,
        max_length=MAX_BODY,
        help_text=BODY_HELP,
    )
    field_order = ["heading", "body", "visibility", "viewers"]


class KindForm(forms.Form):
    name = forms.CharField(label="New kind", max_length=40)


class RevealForm(forms.Form):
    players = forms.TypedMultipleChoiceField(
        label="Players", coerce=int, required=False, widget=forms.CheckboxSelectMultiple
    )
    section = forms.IntegerField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, players: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _choices(self.fields["players"], players)
