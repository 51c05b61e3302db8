"""A battle action carries only its own fields, in a body of bounded size (the table core's
shape check and body limit; the shapes are the engine's, westernroses/battle/shapes.py)."""

from __future__ import annotations

import pytest

from battles.models import BattleAction

pytestmark = pytest.mark.django_db


def test_an_action_carries_only_its_own_fields(started, gm, api_for):
    """Issue "One game-table core": a 4.5 MB ``note`` on a "do nothing" was accepted, logged and
    served to every seat. Now a body over the table limit is a 413 and an unknown field a 400,
    and nothing reaches the log."""
    battle = started.refresh()
    url = f"/api/battles/{battle.pk}/actions/"
    action = {"type": "do_nothing", "combatant": battle.state["current"]}
    api = api_for(gm)
    huge = api.post(
        url,
        {"action": {**action, "note": "x" * 4_500_000}, "expected_version": battle.version},
        format="json",
    )
    assert huge.status_code == 413
    small = api.post(
        url, {"action": {**action, "note": "hi"}, "expected_version": battle.version}, format="json"
    )
    assert small.status_code == 400
    assert "note" in small.json()["errors"]["action"][0]
    long_id = api.post(
        url,
        {"action": {**action, "combatant": "c" * 500}, "expected_version": battle.version},
        format="json",
    )
    assert long_id.status_code == 400
    assert not BattleAction.objects.filter(battle=battle, seq__gt=battle.version).exists()
    plain = api.post(url, {"action": action, "expected_version": battle.version}, format="json")
    assert plain.status_code == 201
    logged = BattleAction.objects.get(battle=battle, seq=battle.version + 1)
    assert set(logged.action) == {"type", "combatant", "player", "at"}
    assert logged.seat == "gm"
