from django.apps import AppConfig


class MinigamesConfig(AppConfig):
    """The tavern: tables of the four card and token games on the table core (docs/tavern.md)."""

    name = "minigames"

    def ready(self) -> None:
        from .game import register_games
        from .integration import register as register_campaign_parts

        register_games()
        register_campaign_parts()
        # Chat at the tavern's tables: the host moderates; whispers where a game allows them.
        from .chat import register_tavern_chat

        register_tavern_chat()

        # A bot's name, which a table's engine keeps in English, reads in the reader's language.
        from apibase.engine_words import NAME_READERS

        from .models import stored_name_in_language

        if stored_name_in_language not in NAME_READERS:
            NAME_READERS.append(stored_name_in_language)

        # Whoever leaves a campaign (or the site) first lets go of her seats (services).
        from django.contrib.auth import get_user_model
        from django.db.models.signals import pre_delete

        from campaign.registry import register_departure_handler

        from .services import tavern_departure, tavern_user_deleting

        register_departure_handler("tavern", tavern_departure)
        pre_delete.connect(tavern_user_deleting, sender=get_user_model(), dispatch_uid="tavern")
