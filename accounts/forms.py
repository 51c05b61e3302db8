"""Sign-up form: Django's UserCreationForm plus an optional display name and email."""

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm

from .models import User
from .time_zones import known_zones


class SignUpForm(UserCreationForm[User]):
    class Meta:
        model = User
        fields = ("username", "display_name", "email")


class ProfileForm(forms.ModelForm[User]):
    """Her name as others see it and the zone her pages show times in."""

    time_zone = forms.ChoiceField(
        required=False,
        label="Time zone",
        help_text="Session times and logs show in this zone. Empty: your browser's zone.",
    )

    class Meta:
        model = User
        fields = ("display_name", "time_zone")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["time_zone"]
        assert isinstance(field, forms.ChoiceField)  # noqa: S101 - declared above
        field.choices = [("", "My browser's zone")] + [
            (z, z.replace("_", " ")) for z in sorted(known_zones())
        ]
