"""Sign-up form: Django's UserCreationForm plus an optional display name and email."""

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from .languages import language_choices
from .models import User
from .time_zones import known_zones


class SignUpForm(UserCreationForm[User]):
    class Meta:
        model = User
        fields = ("username", "display_name", "email")
        labels = {"display_name": _("Display name"), "email": _("Email address")}


class ProfileForm(forms.ModelForm[User]):
    """Her name as others see it, the language her pages speak and the zone they show times
    in."""

    language = forms.ChoiceField(
        required=False,
        label=_("Language"),
        help_text=_(
            "The language the site's pages speak to you in. Empty: your browser's language."
        ),
    )
    time_zone = forms.ChoiceField(
        required=False,
        label=_("Time zone"),
        help_text=_("Session times and logs show in this zone. Empty: your browser's zone."),
    )

    class Meta:
        model = User
        fields = ("display_name", "language", "time_zone")
        labels = {"display_name": _("Display name")}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        language = self.fields["language"]
        assert isinstance(language, forms.ChoiceField)  # noqa: S101 - declared above
        language.choices = language_choices()
        field = self.fields["time_zone"]
        assert isinstance(field, forms.ChoiceField)  # noqa: S101 - declared above
        field.choices = [("", _("My browser's zone"))] + [
            (z, z.replace("_", " ")) for z in sorted(known_zones())
        ]
