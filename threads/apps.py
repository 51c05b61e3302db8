from django.apps import AppConfig


class ThreadsConfig(AppConfig):
    """Play-by-post: a campaign's threads, where members post as themselves or in character,
    roll dice inline and react, between sessions (docs/play-by-post.md)."""

    name = "threads"
    verbose_name = "Play-by-post threads"
