from django.apps import AppConfig


class DuelTablesConfig(AppConfig):
    """Secret Duel (tests/games/duel.py) at a game table: a second game on the table core,
    installed only by the test settings, proving a game plugs in with a few lines."""

    name = "tests.games.duel_tables"
    label = "duel_tables"

    def ready(self) -> None:
        from .game import register_duel

        register_duel()
