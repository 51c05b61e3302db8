from django.apps import AppConfig


class BattlesConfig(AppConfig):
    """Grid battles: the battle engine on the table core, in a campaign."""

    name = "battles"

    def ready(self) -> None:
        # Battles plug into the campaign's timeline and dashboard (campaign.registry).
        from .integration import register

        register()
