"""The user model. A custom model from the first migration so fields can be added later."""

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _

from .languages import validate_language


class User(AbstractUser):
    """A player or game master. Roles are per campaign (see ``campaign.Membership``)."""

    display_name = models.CharField(max_length=60, blank=True)
    time_zone = models.CharField(
        max_length=64,
        blank=True,
        help_text="An IANA zone (Europe/Paris) for the times pages show; empty: the browser's.",
    )
    #: Django's code of the language her pages show in (``settings.LANGUAGES``, checked by the
    #: validator rather than frozen into the migration as choices); empty: her browser's.
    language = models.CharField(
        _("language"),
        max_length=10,
        blank=True,
        default="",
        validators=[validate_language],
        help_text=_("The language the site speaks to you in; empty: your browser's."),
    )

    def __str__(self) -> str:
        return self.display_name or self.username

    def get_session_auth_hash(self) -> str:
        """Django's, or, on a cached copy kept without the password hash
        (``accounts.token_cache.keep_session_user``), the one worked out when it was kept: no
        read of the password for it. Once the password is set or read, Django's again."""
        kept = self.__dict__.get("_session_auth_hash")
        if isinstance(kept, str) and "password" not in self.__dict__:
            return kept
        return super().get_session_auth_hash()

    @property
    def shown_name(self) -> str:
        return self.display_name or self.username
