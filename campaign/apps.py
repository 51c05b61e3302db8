from django.apps import AppConfig


class CampaignConfig(AppConfig):
    """The campaign core: campaigns, memberships and roles, the permission layer, the roll log
    and the dice roller, and the registries later apps fill in their ``ready()``
    (``campaign.registry``). It imports no app above it (tests/test_import_graph.py)."""

    name = "campaign"
    verbose_name = "Campaigns"

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save, pre_delete, pre_save

        from .models import Membership
        from .table_access import membership_changed

        # The fast poll of a campaign's tables caches the viewer's role beside the table's
        # head (campaign/table_access.py): any membership change drops it.
        pre_save.connect(membership_changed, sender=Membership, dispatch_uid="roles-saved")
        pre_delete.connect(membership_changed, sender=Membership, dispatch_uid="roles-deleted")

        # Open sockets check again whether their user may still see their page: a removed
        # member's table and dashboard sockets close (apibase/push.py).
        post_save.connect(_access_changed, sender=Membership, dispatch_uid="push-membership-saved")
        post_delete.connect(
            _access_changed, sender=Membership, dispatch_uid="push-membership-deleted"
        )


def _access_changed(sender: object, instance: object, **kwargs: object) -> None:
    from apibase import push

    push.announce_access(getattr(instance, "user_id", None))
