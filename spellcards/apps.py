from django.apps import AppConfig


class SpellcardsConfig(AppConfig):
    name = "spellcards"
