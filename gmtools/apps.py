from django.apps import AppConfig


class GMToolsConfig(AppConfig):
    """The GM's tools around the campaign core: members and invitations, sessions, GM notes,
    handouts, awards and level-ups, the timeline and the GM dashboard (docs/campaigns.md)."""

    name = "gmtools"
    verbose_name = "GM tools"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models.signals import pre_delete

        from campaign.registry import register_level_up_grant

        from . import live, mentions
        from .members import user_deleting
        from .party import level_up_grant
        from .timeline import register_built_in_sources

        # The timeline's own sources; later apps register theirs the same way.
        register_built_in_sources()
        # A GM raises a level on the character's page too (the characters app, below us).
        register_level_up_grant(level_up_grant)
        # An account deleted leaves its campaigns first (its seats resigned: gmtools.members).
        pre_delete.connect(user_deleting, sender=get_user_model(), dispatch_uid="user-departs")
        # An open GM dashboard hears of every change to what it shows (gmtools/consumers.py).
        live.connect()
        # Wiki texts mention sessions and handouts (campaign.registry's mention kinds).
        mentions.register()
