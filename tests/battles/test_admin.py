"""Battles in the admin: read-only; staff GMs see their battles but never the stored state or
starting snapshot (they hold the secret seed); other staff see nothing of them."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_staff_gm_sees_their_battle_without_the_seed(client, gm, started):
    gm.is_staff = True
    gm.save()
    gm.user_permissions.add(
        *Permission.objects.filter(content_type__app_label__in=["campaign", "battles"])
    )
    client.force_login(gm)
    battle = started.battle
    assert client.get("/admin/battles/battle/").status_code == 200
    page = client.get(f"/admin/battles/battle/{battle.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert battle.name in html
    assert str(battle.initial["rng"]["seed"]) not in html
    assert "seed" not in html.lower()
    assert client.get("/admin/battles/battleaction/").status_code == 200
    assert client.get("/admin/battles/battle/add/").status_code == 403


def test_other_staff_do_not_see_the_battle(client, started):
    stranger = UserFactory(username="staff-stranger", is_staff=True)
    stranger.user_permissions.add(
        *Permission.objects.filter(content_type__app_label__in=["campaign", "battles"])
    )
    client.force_login(stranger)
    assert started.battle.name not in client.get("/admin/battles/battle/").content.decode()
    page = client.get(f"/admin/battles/battle/{started.battle.pk}/change/")
    assert page.status_code in (302, 403, 404)
