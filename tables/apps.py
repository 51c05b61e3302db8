from django.apps import AppConfig


class TablesConfig(AppConfig):
    """The game-table core every turn-based game runs on (battles, the tavern games)."""

    name = "tables"
