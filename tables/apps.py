from django.apps import AppConfig


class TablesConfig(AppConfig):
    """The game-table core every turn-based game runs on (battles, the tavern games)."""

    name = "tables"

    def ready(self) -> None:
        # Table heads (version, scope) follow every save into the cache (tables/heads.py).
        from . import epoch, heads

        heads.connect()
        # "Still waiting" counts from a player's last move at the table (tables/activity.py).
        from notifications import turn_activity_register

        from .activity import last_move_at

        turn_activity_register(last_move_at)
        # The database's start time keys every per-version cache entry (tables/epoch.py).
        epoch.connect()
