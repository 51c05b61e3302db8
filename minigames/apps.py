from django.apps import AppConfig


class MinigamesConfig(AppConfig):
    name = "minigames"
