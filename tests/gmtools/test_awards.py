"""Awards, level-ups and the party quick actions: every change to a character goes through the
characters app's services (and so the engine), all or nothing, and the campaign is told."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from campaign.permissions import access_for
from characters import party as character_party
from characters.models import Character, InventoryItem
from characters.services import character_to_draft
from gmtools import awards, party
from gmtools.models import Award, LevelUp
from notifications.models import Notification
from tests.factories import CharacterFactory, legal_draft
from westernroses.characters import derive_sheet

pytestmark = pytest.mark.django_db


def carried(character, slug):
    row = InventoryItem.objects.filter(character=character, item=slug).first()
    return row.quantity if row else 0


def grant(campaign, gm, characters, **kwargs):
    return awards.award_grant(
        campaign=campaign,
        by=access_for(gm, campaign),
        awarded_by=gm,
        characters=characters,
        **kwargs,
    )


def test_award_gives_yen_and_items_to_each_character(
    campaign, gm, player, character, other_character, capture_commits
):
    yen_before = {c.pk: c.yen for c in (character, other_character)}
    with capture_commits(execute=True):
        award = grant(
            campaign,
            gm,
            [character, other_character],
            yen=100,
            items={"sword": 1, "tankard": 2},
            reason="The fairy hoard",
        )
    for c in (character, other_character):
        c.refresh_from_db()
        assert c.yen == yen_before[c.pk] + 100
        assert carried(c, "sword") == 1
        assert carried(c, "tankard") == 2
    assert sorted(r.character_name for r in award.recipients.all()) == ["Cirno", "Daiyousei"]
    notified = Notification.objects.filter(event="loot_awarded", campaign=campaign)
    assert player in [n.recipient for n in notified]
    assert gm not in [n.recipient for n in notified]  # the GM who gave it knows
    assert "100 yen" in notified.first().title


def test_award_adds_to_an_existing_stack_keeping_it_equipped(campaign, gm, character):
    InventoryItem.objects.create(character=character, item="tankard", quantity=1, equipped=True)
    grant(campaign, gm, [character], items={"tankard": 2})
    row = InventoryItem.objects.get(character=character, item="tankard")
    assert (row.quantity, row.equipped) == (3, True)


def test_an_award_is_all_or_nothing(campaign, gm, character, player):
    """The second character's sheet breaks a rule: neither gets anything."""
    broken = CharacterFactory(
        owner=player, campaign=campaign, name="Broken", draft=legal_draft(bonus_points={"pwr": 30})
    )
    yen = character.yen
    with pytest.raises(ValidationError) as refused:
        grant(campaign, gm, [character, broken], yen=50)
    assert "Broken" in str(refused.value)
    character.refresh_from_db()
    assert character.yen == yen
    assert not Award.objects.exists()


def test_award_input_is_checked(campaign, gm, character, outsider):
    elsewhere = CharacterFactory(owner=outsider, name="Elsewhere")
    with pytest.raises(ValidationError) as bad:
        grant(campaign, gm, [character, elsewhere], yen=-1, items={"moon_rock": 1, "sword": 0})
    assert set(bad.value.message_dict) == {"characters", "yen", "items"}
    with pytest.raises(ValidationError) as nothing:
        grant(campaign, gm, [character])
    assert "yen" in nothing.value.message_dict
    with pytest.raises(PermissionDenied):
        awards.award_grant(
            campaign=campaign,
            by=access_for(character.owner, campaign),
            awarded_by=character.owner,
            characters=[character],
            yen=5,
        )


def test_level_up_uses_the_characters_service_and_records_it(
    campaign, gm, player, other_player, character, capture_commits
):
    with capture_commits(execute=True):
        level_up = party.level_up_grant(
            character=character, by=access_for(gm, campaign), raised_by=gm, levels=2
        )
    character.refresh_from_db()
    assert character.level == 3
    assert (level_up.from_level, level_up.to_level) == (1, 3)
    # the owner hears it once (from the characters app); the rest of the table from here
    assert Notification.objects.filter(recipient=player, event="level_up").count() == 1
    assert Notification.objects.filter(recipient=other_player, event="level_up").count() == 1
    assert not Notification.objects.filter(recipient=gm, event="level_up").exists()
    with pytest.raises(PermissionDenied):
        party.level_up_grant(character=character, by=access_for(player, campaign), raised_by=player)


def test_heal_never_goes_above_the_maximum(campaign, gm, character):
    top = derive_sheet(character_to_draft(character), campaign.rules()).hp.maximum.total
    Character.objects.filter(pk=character.pk).update(current_hp=top - 10)
    access = access_for(gm, campaign)
    character_party.character_heal(character=character, by=access, amount=4)
    character.refresh_from_db()
    assert character.current_hp == top - 6
    character_party.character_heal(character=character, by=access, amount=1000)
    character.refresh_from_db()
    assert character.current_hp is None  # unhurt
    with pytest.raises(ValidationError):
        character_party.character_heal(character=character, by=access, amount=0)


def test_status_effects_from_the_catalog(campaign, gm, character):
    access = access_for(gm, campaign)
    character_party.character_status_apply(character=character, by=access, status="stun")
    character_party.character_status_apply(character=character, by=access, status="stun")
    character.refresh_from_db()
    assert character.status_effects == ["stun"]
    with pytest.raises(ValidationError) as unknown:
        character_party.character_status_apply(character=character, by=access, status="sparkly")
    assert "status" in unknown.value.message_dict
    character_party.character_status_clear(character=character, by=access, status="stun")
    character.refresh_from_db()
    assert character.status_effects == []


def test_quick_actions_refuse_characters_of_other_campaigns(campaign, gm, outsider):
    stranger = CharacterFactory(owner=outsider, name="Stranger")
    with pytest.raises(PermissionDenied):
        character_party.character_heal(character=stranger, by=access_for(gm, campaign))


def test_npc_roll_is_secret_by_default(campaign, gm, npc, player, api_for):
    from campaign.services import dice_request_from

    roll = party.npc_roll(
        campaign=campaign,
        by=access_for(gm, campaign),
        user=gm,
        dice=dice_request_from(notation="3d+1", target=10),
        npc=npc,
        label="sneak",
    )
    assert roll.label == "Meiling: sneak"
    assert roll.secret
    log = api_for(player).get(f"/api/rolls/?campaign={campaign.pk}").json()["results"]
    assert roll.pk not in [r["id"] for r in log]


# --------------------------------------------------------------------------- API


def test_api_award_level_up_heal_status(campaign, gm, player, character, api_for):
    api = api_for(gm)
    award = api.post(
        f"/api/campaigns/{campaign.pk}/awards/",
        {"characters": [character.pk], "yen": 30, "items": {"book": 1}, "reason": "Library"},
        format="json",
    )
    assert award.status_code == 201, award.content
    assert award.json()["characters"] == [{"id": character.pk, "name": "Cirno"}]
    assert api_for(player).get(f"/api/campaigns/{campaign.pk}/awards/").status_code == 200
    assert (
        api_for(player)
        .post(f"/api/campaigns/{campaign.pk}/awards/", {"characters": [character.pk], "yen": 1})
        .status_code
        == 403
    )
    bad = api.post(
        f"/api/campaigns/{campaign.pk}/awards/",
        {"characters": [999999], "items": {"nothing-here": 1}},
        format="json",
    )
    assert bad.status_code == 400
    assert "characters" in bad.json()["errors"]

    raised = api.post(
        f"/api/campaigns/{campaign.pk}/level-ups/", {"character": character.pk}, format="json"
    )
    assert raised.status_code == 201
    assert raised.json()["to_level"] == 2
    assert LevelUp.objects.count() == 1

    status_row = api.post(
        f"/api/campaigns/{campaign.pk}/party/status/",
        {"character": character.pk, "status": "blind"},
        format="json",
    )
    assert status_row.status_code == 200
    assert status_row.json()["status_effects"] == [{"slug": "blind", "name": "Blind"}]
    bad_status = api.post(
        f"/api/campaigns/{campaign.pk}/party/status/",
        {"character": character.pk, "status": "sparkly"},
        format="json",
    )
    assert bad_status.status_code == 400
    assert "status" in bad_status.json()["errors"]

    Character.objects.filter(pk=character.pk).update(current_hp=1)
    healed = api.post(
        f"/api/campaigns/{campaign.pk}/party/heal/", {"character": character.pk}, format="json"
    )
    assert healed.status_code == 200
    assert healed.json()["hp"]["current"] == healed.json()["hp"]["max"]
