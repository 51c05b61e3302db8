"""The longest password anyone may set: the API's token endpoint takes no longer one
(``accounts.api.MAX_PASSWORD``), so a longer password could never get a token, and hashing
megabytes of one is work done for an attacker. A password validator, so sign-up, a password
change and the admin all refuse it in the same words."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.utils.formats import number_format
from django.utils.translation import gettext

from .api import MAX_PASSWORD

if TYPE_CHECKING:
    from .models import User


class MaximumLengthValidator:
    def __init__(self, max_length: int = MAX_PASSWORD) -> None:
        self.max_length = max_length

    def validate(self, password: str, user: User | None = None) -> None:
        if len(password) > self.max_length:
            raise ValidationError(
                gettext("This password is too long: at most %(max)s characters.")
                % {"max": self._max()},
                code="password_too_long",
            )

    def get_help_text(self) -> str:
        return gettext("Your password can't be longer than %(max)s characters.") % {
            "max": self._max()
        }

    def _max(self) -> str:
        """The limit in the reader's numerals (1,024 with the locale's grouping)."""
        return number_format(self.max_length, force_grouping=True)
