"""The thread pages' forms: bounded fields, a service's refusal shown beside them."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from campaign.models import MAX_PROSE

from .models import REACTIONS
from .services import MAX_CATEGORY, MAX_EXCERPT, MAX_POSITION, MAX_TITLE


def _speaker_field(characters: list[Any]) -> forms.TypedChoiceField:
    return forms.TypedChoiceField(
        label=_("Post as"),
        coerce=int,
        required=False,
        empty_value=None,
        choices=[("", gettext("Yourself")), *((c.pk, c.name) for c in characters)],
    )


class PostForm(forms.Form):
    body = forms.CharField(
        label=_("Your post"),
        widget=forms.Textarea(attrs={"rows": 5}),
        max_length=MAX_PROSE,
        help_text=_(
            "Markdown. @name mentions a member or a character. A line “/roll 4d > 12” "
            "rolls; “/roll secret 3d > 9” shows the result only to you and the GMs."
        ),
    )

    def __init__(self, *args: Any, characters: list[Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["character"] = _speaker_field(characters)
        self.order_fields(["character", "body"])


class ThreadForm(PostForm):
    title = forms.CharField(label=_("Title"), max_length=MAX_TITLE)
    category = forms.CharField(label=_("Scene or topic"), max_length=MAX_CATEGORY, required=False)

    def __init__(self, *args: Any, characters: list[Any], **kwargs: Any) -> None:
        super().__init__(*args, characters=characters, **kwargs)
        self.fields["body"].required = False
        self.fields["body"].label = gettext("First post")
        self.order_fields(["title", "category", "character", "body"])


class EditForm(forms.Form):
    body = forms.CharField(
        label=_("Your post"),
        widget=forms.Textarea(attrs={"rows": 5}),
        max_length=MAX_PROSE,
        required=False,
    )


class ManageForm(forms.Form):
    title = forms.CharField(label=_("Title"), max_length=MAX_TITLE)
    category = forms.CharField(label=_("Scene or topic"), max_length=MAX_CATEGORY, required=False)
    position = forms.IntegerField(
        label=_("Place in its scene or topic"), min_value=0, max_value=MAX_POSITION
    )
    pinned = forms.BooleanField(label=_("Pinned"), required=False)
    locked = forms.BooleanField(label=_("Locked (only GMs post)"), required=False)


class ReactionForm(forms.Form):
    kind = forms.ChoiceField(choices=[(k, k) for k in REACTIONS])


class HandoutFromPostForm(forms.Form):
    title = forms.CharField(label=_("Handout title"), max_length=120)
    excerpt = forms.CharField(
        label=_("Passage (empty: the whole post)"),
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=MAX_EXCERPT,
        required=False,
    )


class WikiEntryFromPostForm(forms.Form):
    """A post's passage made a wiki entry: its title and kind, and who sees it (the GMs only
    by default; chosen players are picked on the entry's page, with its reveal)."""

    title = forms.CharField(label=_("Entry title"), max_length=120)
    kind = forms.ChoiceField(label=_("Kind"))
    visibility = forms.ChoiceField(
        label=_("Who sees it"),
        choices=[("gm", _("Game masters only")), ("all", _("Everyone in the campaign"))],
        initial="gm",
    )
    excerpt = forms.CharField(
        label=_("Passage (empty: the whole post)"),
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=MAX_EXCERPT,
        required=False,
    )

    def __init__(self, *args: Any, kinds: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = kinds  # type: ignore[attr-defined]
