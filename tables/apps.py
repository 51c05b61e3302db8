from django.apps import AppConfig


class TablesConfig(AppConfig):
    """The game-table core every turn-based game runs on (battles, the tavern games)."""

    name = "tables"

    def ready(self) -> None:
        # Table heads (version, campaign) follow every save into the cache (tables/heads.py).
        from . import epoch, heads

        heads.connect()
        # The database's start time keys every per-version cache entry (tables/epoch.py).
        epoch.connect()
