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

        # A cached role (tables/heads.py, the battle poll) is dropped on any membership change.
        from django.db.models.signals import post_delete, post_save

        from tables.heads import membership_changed

        from .models import Membership

        post_save.connect(membership_changed, sender=Membership, dispatch_uid="roles-saved")
        post_delete.connect(membership_changed, sender=Membership, dispatch_uid="roles-deleted")
