from django.apps import AppConfig


class CharactersConfig(AppConfig):
    name = "characters"

    def ready(self) -> None:
        from django.db.models.signals import pre_delete

        from campaign.registry import register_roll_checks

        from .models import Character
        from .selectors import roll_checks_for
        from .services import character_deleting

        # However a character is deleted (its page, the admin, its owner's account), the games
        # of its campaign let it go first (campaign.registry.departing).
        pre_delete.connect(character_deleting, sender=Character, dispatch_uid="character-departs")
        # The dice roller (campaign core) offers the checks of the characters one may roll for.
        register_roll_checks(roll_checks_for)
