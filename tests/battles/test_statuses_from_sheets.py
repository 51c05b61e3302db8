"""Statuses on a character's sheet and her combatant in a battle (issue 10: a stun applied from
the GM dashboard showed on the sheet but not in the battle she was fighting).

A status the GM applies to a character in a running battle reaches her combatant there as the
GM's logged override; clearing it clears it there too; a character entering a battle (its
start) brings the statuses on her sheet. Stun: "loses her next turn" (docs/rulings.md, status
effects; westernroses/battle/status.py ``stun``).
"""

from __future__ import annotations

import pytest

from battles import services
from battles.models import BattleAction
from campaign.permissions import access_for
from characters import party
from characters.models import Character
from tests.battles.conftest import build_battle

pytestmark = pytest.mark.django_db


def effects(setup_battle_or_battle, cid: str) -> list[str]:
    battle = setup_battle_or_battle
    battle.refresh_from_db()
    state = services.full_state(battle)
    return [e.kind for e in state.combatants[cid].effects]


def test_a_status_from_the_dashboard_reaches_her_combatant_as_a_logged_override(
    started, campaign, gm, character
):
    battle = started.battle
    before = BattleAction.objects.filter(battle=battle).count()
    party.character_status_apply(character=character, by=access_for(gm, campaign), status="blind")
    assert "blind" in Character.objects.get(pk=character.pk).status_effects
    assert "blind" in effects(battle, started.pc)
    last = BattleAction.objects.filter(battle=battle).order_by("-seq").first()
    assert BattleAction.objects.filter(battle=battle).count() == before + 1
    assert last.actor == gm
    assert last.action["type"] == "gm_add_status" and last.action["status"] == "blind"
    assert any(e["type"] == "gm_override" for e in last.events)
    # cleared on the sheet: cleared in the battle, again as a logged override
    party.character_status_clear(character=character, by=access_for(gm, campaign), status="blind")
    assert "blind" not in effects(battle, started.pc)
    assert BattleAction.objects.filter(battle=battle).count() == before + 2


def test_battles_in_setup_or_ended_and_other_characters_are_left_alone(
    setup_battle, campaign, gm, character, other_character
):
    battle = setup_battle.battle
    version = battle.version
    party.character_status_apply(character=character, by=access_for(gm, campaign), status="fear")
    battle.refresh_from_db()
    assert battle.version == version  # not started yet: nothing to override
    assert not BattleAction.objects.filter(battle=battle).exists()


def test_a_character_entering_a_battle_brings_her_statuses(
    campaign, gm, character, other_character
):
    access = access_for(gm, campaign)
    party.character_status_apply(character=character, by=access, status="stun")
    party.character_status_apply(character=character, by=access, status="blind")
    battle = build_battle(campaign, gm, [character, other_character])
    services.battle_action_apply(
        battle_id=battle.pk, actor=gm, action={"type": "start"}, expected_version=battle.version
    )
    cid = f"pc{character.pk}"
    assert {"stun", "blind"} <= set(effects(battle, cid))
    assert "stun" not in effects(battle, f"pc{other_character.pk}")
    added = BattleAction.objects.filter(battle=battle, action__type="gm_add_status")
    assert sorted(a.action["status"] for a in added) == ["blind", "stun"]
    assert all(a.actor == gm for a in added)


def test_a_refused_placement_says_so_in_words(setup_battle, gm):
    """Issue 10: "position: … cannot share [5, 4]" reached the page; the refusal is a sentence
    naming the square."""
    from django.core.exceptions import ValidationError

    from tests.battles.conftest import fairy

    with pytest.raises(ValidationError) as refused:
        services.battle_npc_place(
            battle_id=setup_battle.battle.pk, by=gm, npc=fairy(), position=[1, 0]
        )
    message = refused.value.message_dict["position"][0]
    assert message.endswith("cannot share square 1, 0")
    assert "[" not in message and "_" not in message
