"""The longest password anyone may set: the API's token endpoint takes no longer one
(``accounts.api.MAX_PASSWORD``), so a longer password could never get a token, and hashing
megabytes of one is work done for an attacker. A password validator, so sign-up, a password
change and the admin all refuse it in the same words."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError

from .api import MAX_PASSWORD

if TYPE_CHECKING:
    from .models import User


class MaximumLengthValidator:
    def __init__(self, max_length: int = MAX_PASSWORD) -> None:
        self.max_length = max_length

    def validate(self, password: str, user: User | None = None) -> None:
        if len(password) > self.max_length:
            raise ValidationError(
                f"This password is too long: at most {self.max_length:,} characters.",
                code="password_too_long",
            )

    def get_help_text(self) -> str:
        return f"Your password can't be longer than {self.max_length:,} characters."
