from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ThreadsConfig(AppConfig):
    """Play-by-post: a campaign's threads, where members post as themselves or in character,
    roll dice inline and react, between sessions (docs/play-by-post.md)."""

    name = "threads"
    verbose_name = _("Play-by-post threads")
