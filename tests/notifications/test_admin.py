"""The notification tables in the admin: superusers read them; staff GMs and edits are refused."""

from __future__ import annotations

import pytest

from notifications import notify
from notifications.models import EventType
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PAGES = (
    "notification",
    "delivery",
    "digest",
    "notificationpreference",
    "campaignnotificationsettings",
    "turnwait",
    "schedulednotification",
)


def test_superuser_reads_every_notification_table(
    client, player, django_capture_on_commit_callbacks
):
    admin_user = UserFactory(username="root", is_staff=True, is_superuser=True)
    with django_capture_on_commit_callbacks(execute=True):
        note = notify(recipient=player, event=EventType.LEVEL_UP, title="Level 2!")
    client.force_login(admin_user)
    for model in PAGES:
        assert client.get(f"/admin/notifications/{model}/").status_code == 200, model
    page = client.get(f"/admin/notifications/notification/{note.pk}/change/")
    assert page.status_code == 200 and "Level 2!" in page.content.decode()
    assert client.get("/admin/notifications/notification/add/").status_code == 403


def test_staff_gm_does_not_see_other_peoples_notifications(client, gm):
    gm.is_staff = True
    gm.save()
    client.force_login(gm)
    for model in PAGES:
        assert client.get(f"/admin/notifications/{model}/").status_code == 403, model
