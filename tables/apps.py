from django.apps import AppConfig


class TablesConfig(AppConfig):
    """The game-table core every turn-based game runs on (battles, the tavern games)."""

    name = "tables"

    def ready(self) -> None:
        # Table heads (version, campaign) follow every save into the cache (tables/heads.py).
        from . import heads

        heads.connect()
