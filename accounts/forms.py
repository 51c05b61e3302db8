"""Sign-up form: Django's UserCreationForm plus an optional display name and email."""

from django.contrib.auth.forms import UserCreationForm

from .models import User


class SignUpForm(UserCreationForm):
    class Meta:
        model = User
        fields = ("username", "display_name", "email")
