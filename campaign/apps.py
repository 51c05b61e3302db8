from django.apps import AppConfig


class CampaignConfig(AppConfig):
    name = "campaign"
    verbose_name = "Campaigns"

    def ready(self) -> None:
        # The timeline's own sources; later apps register theirs in their ready() the same way
        # (campaign.registry).
        from .timeline import register_built_in_sources

        register_built_in_sources()
        from .party import level_up_grant
        from .registry import register_level_up_grant

        register_level_up_grant(level_up_grant)
