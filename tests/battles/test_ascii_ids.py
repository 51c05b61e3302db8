"""User ids a battle reads from text are written in the ASCII digits 0-9 (apibase/numbers.py):
``int()`` read a whisper's ``"٣"`` (Arabic-Indic three) as user 3, and ``str.isdigit()`` passed
a reinforcement's controller ``"²"``, which ``int()`` then refused (a 500)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from battles import services
from tests.battles.conftest import fairy

pytestmark = pytest.mark.django_db


def _arabic_indic(number: int) -> str:
    return "".join(chr(0x660 + int(d)) for d in str(number))


def _post(client: Any, url: str, body: dict[str, Any]) -> Any:
    return client.post(url, json.dumps(body), content_type="application/json")


def test_a_whisper_to_a_user_id_in_other_digits_is_refused(setup_battle, client_for, gm, player):
    chat = f"/api/battles/{setup_battle.battle.pk}/chat/"
    refused = _post(client_for(gm), chat, {"text": "psst", "whisper_to": _arabic_indic(player.pk)})
    assert refused.status_code == 400
    assert refused.json()["errors"] == {
        "whisper_to": ["At this table you may whisper to player-one, player-two."]
    }
    heard = _post(client_for(gm), chat, {"text": "psst", "whisper_to": str(player.pk)})
    assert heard.status_code == 201


@pytest.mark.parametrize("controller", ["²", "arabic"])
def test_a_reinforcements_controller_in_other_digits_is_a_400(
    started, gm, player, api_for, controller
):
    data = services.npc_combatant(fairy(), cid="x1", side="enemies", position=(4, 4)).to_dict()
    data["controller"] = _arabic_indic(player.pk) if controller == "arabic" else controller
    response = api_for(gm).post(
        f"/api/battles/{started.battle.pk}/actions/",
        {"action": {"type": "gm_add_combatant", "combatant": data}, "expected_version": 5},
        format="json",
    )
    assert response.status_code == 400, response.content
    assert started.version == 5
