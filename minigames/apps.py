from django.apps import AppConfig


class MinigamesConfig(AppConfig):
    """The tavern: tables of the four card and token games on the table core (docs/tavern.md)."""

    name = "minigames"

    def ready(self) -> None:
        from .game import register_games
        from .integration import register as register_campaign_parts

        register_games()
        register_campaign_parts()
