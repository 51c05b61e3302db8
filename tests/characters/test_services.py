"""Character services: model <-> draft, rule-checked writes, GM-only changes, levels,
inventory, export/import round trips and bad files, portrait validation."""

from __future__ import annotations

import io
import json

import pytest
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import SimpleUploadedFile

from campaign.permissions import owned_access
from characters import services
from characters.models import Character, InventoryItem
from tests.factories import CharacterFactory, legal_draft
from westernroses.characters import CharacterDraft, deck_limits
from westernroses.characters.builder import validate

pytestmark = pytest.mark.django_db


def _by(user, campaign, owner):
    return owned_access(user, campaign, owner.pk)


# --------------------------------------------------------------------------- model <-> draft


def test_draft_round_trips_through_the_model(campaign, player):
    draft = legal_draft(
        current_hp=40,
        spell_power=120,
        drunkenness="tipsy",
        status_effects=["fear", "blind"],
        clothing_covered=True,
    )
    draft.effects = CharacterDraft.from_dict(
        {"effects": [{"target": "int", "amount": 6, "source": "Read a book", "rounds": 3}]}
    ).effects
    character = CharacterFactory(owner=player, campaign=campaign, draft=draft)
    stored = Character.objects.get(pk=character.pk)
    assert services.character_to_draft(stored) == draft
    # listing columns are real columns, the inventory real rows
    assert (stored.shot_type, stored.race, stored.profession, stored.element) == (
        "homing_amulets",
        "fairy",
        "carefree_soul",
        "water",
    )
    assert stored.current_hp == 40 and stored.status_effects == ["fear", "blind"]
    assert set(stored.inventory.values_list("item", flat=True)) == set(draft.inventory)
    assert "stats" not in stored.draft and "hp" not in stored.draft  # nothing derived stored


def test_apply_draft_changes_only_the_inventory_rows_that_changed(player):
    character = CharacterFactory(owner=player)
    clothing = InventoryItem.objects.get(character=character, item="basic_clothing")
    draft = services.character_to_draft(character)
    draft.inventory.pop("basic_improvised_weapon")
    draft.inventory["book"] = draft.inventory["basic_clothing"].__class__(2, False)
    services.character_apply_draft(character=character, draft=draft)
    rows = {r.item: r for r in InventoryItem.objects.filter(character=character)}
    assert set(rows) == {"basic_clothing", "book"}
    assert rows["basic_clothing"].pk == clothing.pk
    assert rows["book"].quantity == 2


# --------------------------------------------------------------------------- create


def test_create_a_legal_character(campaign, player):
    character = services.character_create(
        owner=player,
        campaign=campaign,
        draft=legal_draft(name="Daiyousei"),
        by=_by(player, campaign, player),
        private_notes="secret",
    )
    assert character.pk and character.name == "Daiyousei" and character.level == 1
    assert character.private_notes == "secret"


def test_create_refuses_and_lists_every_broken_rule(campaign, player):
    draft = legal_draft(
        name="",
        bonus_points={"pwr": 19},
        skill_points={"stealth": 11},
        abilities=["hard_to_kill", "ley_lines"],
        element="plasma",
    )
    with pytest.raises(services.CharacterRulesError) as caught:
        services.character_create(
            owner=player, campaign=campaign, draft=draft, by=_by(player, campaign, player)
        )
    codes = [v.code for v in caught.value.violations]
    assert codes == [v.code for v in validate(draft)]
    assert {"name.missing", "element.unknown", "bonus_points.total", "skill_points.total"} <= set(
        codes
    )
    assert "abilities.count" in codes
    errors = caught.value.errors()
    assert errors["name"] == ["Give the character a name."]
    assert len(errors["rules"]) == len(codes)
    assert set(errors["rules"][0]) == {"code", "field", "message", "rule"}
    assert not Character.objects.exists()


def test_players_cannot_start_above_level_1_or_waive_rules(campaign, gm, player):
    draft = legal_draft(level=3, gm_waivers=["abilities.manipulation_element"])
    with pytest.raises(services.CharacterRulesError) as caught:
        services.character_create(
            owner=player, campaign=campaign, draft=draft, by=_by(player, campaign, player)
        )
    assert {"level.gm_only", "gm_waivers.gm_only"} <= {v.code for v in caught.value.violations}
    # the GM may (an NPC of level 3)
    npc = services.character_create(
        owner=gm, campaign=campaign, draft=draft, by=_by(gm, campaign, gm), is_npc=True
    )
    assert npc.level == 3 and npc.is_npc


def test_only_members_create_in_a_campaign_and_only_gms_create_npcs(campaign, player, outsider, gm):
    with pytest.raises(PermissionDenied):
        services.character_create(
            owner=outsider,
            campaign=campaign,
            draft=legal_draft(),
            by=_by(outsider, campaign, outsider),
        )
    with pytest.raises(PermissionDenied):
        services.character_create(
            owner=player,
            campaign=campaign,
            draft=legal_draft(),
            by=_by(player, campaign, player),
            is_npc=True,
        )
    # a player may create for herself only
    with pytest.raises(PermissionDenied):
        services.character_create(
            owner=gm, campaign=campaign, draft=legal_draft(), by=_by(player, campaign, gm)
        )


def test_unattached_characters_are_their_owners_alone(outsider):
    character = services.character_create(
        owner=outsider,
        campaign=None,
        draft=legal_draft(),
        by=owned_access(outsider, None, outsider.pk),
    )
    assert character.campaign is None


def test_what_the_database_cannot_hold_is_a_rule_problem_not_a_crash(campaign, gm):
    draft = legal_draft(name="x" * 500, yen=10**12, level=5000)
    with pytest.raises(services.CharacterRulesError) as caught:
        services.character_create(
            owner=gm, campaign=campaign, draft=draft, by=_by(gm, campaign, gm), is_npc=True
        )
    assert {"name.too_long", "yen.too_large", "level.too_high"} <= {
        v.code for v in caught.value.violations
    }


# --------------------------------------------------------------------------- update, delete


def test_update_validates_the_whole_draft_and_keeps_the_old_one_on_refusal(
    character, campaign, player
):
    by = _by(player, campaign, player)
    draft = services.character_to_draft(character)
    draft.current_hp = 12
    services.character_update(character=character, by=by, draft=draft, public_notes="hurt")
    character.refresh_from_db()
    assert character.current_hp == 12 and character.public_notes == "hurt"
    bad = services.character_to_draft(character)
    bad.bonus_points = {"pwr": 30}
    bad.inventory["leather_armor"] = bad.inventory["basic_clothing"].__class__(1, True)
    with pytest.raises(services.CharacterRulesError) as caught:
        services.character_update(character=character, by=by, draft=bad)
    assert {"bonus_points.total", "equipment.armor_not_allowed"} <= {
        v.code for v in caught.value.violations
    }
    character.refresh_from_db()
    assert services.character_to_draft(character) == draft


def test_other_players_cannot_update_or_delete(character, campaign, other_player):
    by = _by(other_player, campaign, character.owner)
    with pytest.raises(PermissionDenied):
        services.character_update(character=character, by=by, public_notes="mine now")
    with pytest.raises(PermissionDenied):
        services.character_delete(character=character, by=by)


def test_gm_edits_and_a_player_cannot_change_her_level(character, campaign, gm, player):
    draft = services.character_to_draft(character)
    draft.level = 2
    with pytest.raises(services.CharacterRulesError) as caught:
        services.character_update(
            character=character, by=_by(player, campaign, player), draft=draft
        )
    assert [v.code for v in caught.value.violations] == ["level.gm_only"]
    services.character_update(character=character, by=_by(gm, campaign, player), draft=draft)
    character.refresh_from_db()
    assert character.level == 2


def test_owner_moves_a_character_between_her_campaigns_only(character, player, gm):
    from tests.factories import CampaignFactory

    elsewhere = CampaignFactory(created_by=gm)
    with pytest.raises(PermissionDenied):
        services.character_update(
            character=character,
            by=owned_access(player, character.campaign, player.pk),
            campaign=elsewhere,
        )
    services.character_update(
        character=character, by=owned_access(player, character.campaign, player.pk), campaign=None
    )
    character.refresh_from_db()
    assert character.campaign is None


def test_delete(character, campaign, gm):
    services.character_delete(character=character, by=_by(gm, campaign, character.owner))
    assert not Character.objects.filter(pk=character.pk).exists()
    assert not InventoryItem.objects.exists()


# --------------------------------------------------------------------------- levels


def test_gm_raises_the_level_and_the_deck_limits_follow(character, campaign, gm, player):
    from characters.selectors import character_sheet

    with pytest.raises(PermissionDenied):
        services.character_level_up(character=character, by=_by(player, campaign, player))
    services.character_level_up(character=character, by=_by(gm, campaign, player), levels=2)
    character.refresh_from_db()
    assert character.level == 3
    deck = character_sheet(character).sheet["spellcards"]["deck"]
    assert deck["max_cards"] == deck_limits(3).max_cards == 15 + 5 * 3
    assert deck["max_kinds"] == deck_limits(3).max_kinds == 4 * 3


def test_raising_by_zero_levels_is_a_field_error(character, campaign, gm):
    with pytest.raises(services.CharacterRulesError) as caught:
        services.character_level_up(
            character=character, by=_by(gm, campaign, character.owner), levels=0
        )
    assert caught.value.violations[0].field == "levels"


# --------------------------------------------------------------------------- inventory


def test_inventory_set_adds_changes_and_drops(character, campaign, player):
    by = _by(player, campaign, player)
    services.inventory_set(character=character, by=by, item="book", quantity=3)
    services.inventory_set(character=character, by=by, item="basic_clothing", quantity=0)
    rows = dict(character.inventory.values_list("item", "quantity"))
    assert rows == {"basic_improvised_weapon": 1, "book": 3}


def test_inventory_rules_come_from_the_engine(character, campaign, player):
    by = _by(player, campaign, player)
    with pytest.raises(services.CharacterRulesError) as caught:
        services.inventory_set(
            character=character, by=by, item="leather_armor", quantity=1, equipped=True
        )
    assert caught.value.violations[0].code == "equipment.armor_not_allowed"
    with pytest.raises(services.CharacterRulesError) as caught:
        services.inventory_set(character=character, by=by, item="laser_sword", quantity=1)
    assert caught.value.violations[0].code == "inventory.unknown_item"


# --------------------------------------------------------------------------- export / import


def test_export_import_export_is_byte_identical(character, campaign, player):
    by = _by(player, campaign, player)
    services.inventory_set(character=character, by=by, item="book", quantity=2)
    first = services.export_bytes(services.character_export(character=character, access=by))
    copy = services.character_import(owner=player, campaign=campaign, document=first, by=by)
    second = services.export_bytes(services.character_export(character=copy, access=by))
    assert first == second
    document = json.loads(first)
    assert document["format"] == "westernroses.character" and document["version"] == 1
    assert document["notes"] == {
        "public": "Strongest fairy of the lake.",
        "private": "Secretly afraid of frogs.",
    }
    assert CharacterDraft.from_dict(document["character"]) == services.character_to_draft(copy)


def test_export_for_another_player_has_no_private_notes(character, campaign, other_player):
    access = owned_access(other_player, campaign, character.owner_id)
    document = services.character_export(character=character, access=access)
    assert "private" not in document["notes"]
    assert "frogs" not in services.export_bytes(document).decode()


@pytest.mark.parametrize(
    ("raw", "field", "words"),
    [
        (b"\x89PNG not json", "(file)", "UTF-8"),
        (b"{not json", "(file)", "not JSON"),
        (b"[1, 2]", "(file)", "JSON object"),
        (b'{"format": "pdf", "version": 1, "character": {}}', "format", "westernroses.character"),
        (
            b'{"format": "westernroses.character", "version": 2, "character": {}}',
            "version",
            "version 1",
        ),
        (b'{"format": "westernroses.character", "version": 1}', "character", "required"),
        (
            b'{"format": "westernroses.character", "version": 1, "character": {}, "x": 1}',
            "x",
            "unknown",
        ),
        (
            b'{"format": "westernroses.character", "version": 1, '
            b'"character": {"bonus_points": {"pwr": "lots"}}}',
            "character.bonus_points.pwr",
            "whole number",
        ),
        (
            b'{"format": "westernroses.character", "version": 1, "character": {"hat": 1}}',
            "character.hat",
            "unknown field",
        ),
        (
            b'{"format": "westernroses.character", "version": 1, "character": {}, '
            b'"notes": {"public": 3}}',
            "notes.public",
            "text",
        ),
    ],
)
def test_bad_files_are_refused_naming_the_field(raw, field, words):
    with pytest.raises(services.CharacterFormatError) as caught:
        services.character_document_parse(raw)
    assert caught.value.field == field
    assert words in caught.value.detail


def test_import_of_a_well_formed_but_illegal_character_lists_every_rule(campaign, player):
    document = {
        "format": "westernroses.character",
        "version": 1,
        "character": {"name": "Nobody"},
    }
    with pytest.raises(services.CharacterRulesError) as caught:
        services.character_import(
            owner=player, campaign=campaign, document=document, by=_by(player, campaign, player)
        )
    assert len(caught.value.violations) >= 6


# --------------------------------------------------------------------------- portrait


def _image(kind: str, size=(64, 64)) -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", size, (176, 36, 60)).save(buffer, format=kind)
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("kind", "extension"), [("PNG", "png"), ("JPEG", "jpg"), ("WEBP", "webp"), ("GIF", "gif")]
)
def test_portraits_are_recognised_by_content(kind, extension):
    upload = SimpleUploadedFile("whatever.txt", _image(kind))
    info = services.portrait_validate(upload)
    assert info.extension == extension and (info.width, info.height) == (64, 64)


@pytest.mark.parametrize(
    ("name", "content", "words"),
    [
        ("cat.png", b"<html><script>alert(1)</script></html>", "PNG, JPEG, WebP or GIF"),
        ("cat.png", b"", "empty"),
        ("tiny.png", None, "between 16 and 4096"),
        ("bmp.png", "BMP", "BMP images are not accepted"),
        ("cut.png", "truncated", "damaged"),
    ],
)
def test_bad_portraits_are_refused(name, content, words):
    if content is None:
        content = _image("PNG", (8, 8))
    elif content == "BMP":
        content = _image("BMP")
    elif content == "truncated":
        content = _image("PNG", (200, 200))[:60]
    with pytest.raises(services.PortraitError) as caught:
        services.portrait_validate(SimpleUploadedFile(name, content))
    assert words in str(caught.value)


def test_portraits_over_2_mb_are_refused():
    content = _image("PNG") + b"\0" * (2 * 1024 * 1024)
    with pytest.raises(services.PortraitError, match="at most 2 MB"):
        services.portrait_validate(SimpleUploadedFile("big.png", content))


def test_portrait_set_replaces_the_file(character, campaign, player, media):
    by = _by(player, campaign, player)
    services.character_portrait_set(
        character=character, by=by, file=SimpleUploadedFile("a.gif", _image("PNG"))
    )
    assert character.portrait.name.endswith(".png")  # the content decides, not the name
    first = character.portrait.name
    services.character_portrait_set(
        character=character, by=by, file=SimpleUploadedFile("b.png", _image("JPEG"))
    )
    assert character.portrait.name.endswith(".jpg") and character.portrait.name != first


def test_demo_data_has_legal_characters_and_an_npc_once():
    from django.core.management import call_command

    call_command("seed_demo", stdout=io.StringIO())
    call_command("seed_demo", stdout=io.StringIO())
    characters = {c.name: c for c in Character.objects.select_related("owner")}
    assert set(characters) == {"Reimu Hakurei", "Marisa Kirisame", "Hong Meiling"}
    assert characters["Hong Meiling"].is_npc and characters["Hong Meiling"].owner.username == "gm"
    assert characters["Reimu Hakurei"].owner.username == "reimu"
    for character in characters.values():
        assert validate(services.character_to_draft(character)) == []


def test_the_owner_is_notified_once_per_level(character, campaign, gm, player):
    from notifications.models import Notification

    services.character_level_up(character=character, by=_by(gm, campaign, player))
    notification = Notification.objects.get(recipient=player)
    assert notification.event == "level_up" and "level 2" in notification.title
    assert notification.url == f"/characters/{character.pk}/"
    services.character_level_up(character=character, by=_by(gm, campaign, player))
    assert Notification.objects.filter(recipient=player).count() == 2
    assert not Notification.objects.filter(recipient=gm).exists()
