"""Character pages without JavaScript: the wizard as one plain form, the live preview endpoint,
the printable sheet with breakdowns and exact odds, edit, import/export, and query counts."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from characters.models import Character
from characters.services import character_to_draft
from tests.factories import CharacterFactory, legal_draft
from westernroses.catalog import get_catalog
from westernroses.characters import derive_sheet
from westernroses.probability import check_odds

pytestmark = pytest.mark.django_db


def wizard_post(**changes):
    """The wizard's form as a browser without JavaScript posts it: a legal Guardian."""
    data = {
        "shot_type": "fourth_strike",
        "race": "oni",
        "profession": "guardian",
        "guardian_charge": "the shrine",
        "element": "metal",
        "bonus_pwr": "8",
        "bonus_cha": "6",
        "bonus_int": "3",
        "bonus_ins": "3",
        "skill_dexterity": "4",
        "skill_will": "6",
        "abilities": ["hard_to_kill"],
        "kit_guardian_1": "spear",
        "name": "Suika",
        "public_notes": "Gourd of endless sake.",
        "private_notes": "Misses the old days.",
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


# --------------------------------------------------------------------------- wizard


def test_wizard_lists_every_option_and_unavailable_professions_disabled(player, client_for):
    page = client_for(player).get("/characters/new/").content.decode()
    cat = get_catalog()
    for slug in [*cat.shot_types, *cat.races, *cat.professions]:
        assert f'value="{slug}"' in page
    for slug in ("witch", "scout", "mechanic"):
        tag = re.search(rf'<input type="radio" name="profession" value="{slug}"[^>]*>', page)
        assert tag and "disabled" in tag.group(0)
    assert page.count('<span class="badge">not yet implemented</span>') == 3
    # nothing is flagged before the player has done anything
    assert 'class="error"' not in page


def test_wizard_creates_a_character_without_javascript(campaign, player, client_for):
    client = client_for(player)
    response = client.post("/characters/new/", wizard_post(campaign=str(campaign.pk)))
    assert response.status_code == 302, response.content.decode()[:2000]
    character = Character.objects.get(name="Suika")
    assert response["Location"] == f"/characters/{character.pk}/"
    assert character.campaign == campaign and character.owner == player
    assert character.private_notes == "Misses the old days."
    draft = character_to_draft(character)
    assert draft.inventory["spear"].quantity == 1  # the kit choice
    assert draft.inventory["leather_armor"].equipped
    assert draft.yen == 100
    assert draft.guardian_charge == "the shrine"


def test_wizard_refuses_with_every_error_beside_its_field(player, client_for):
    response = client_for(player).post(
        "/characters/new/",
        wizard_post(bonus_pwr="7", skill_will="9", name="", abilities=[], guardian_charge=""),
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert 'id="save-errors"' in page
    for slot, words in [
        ("bonus_points", "Spend exactly 20 bonus points"),
        ("skill_points", "Spend exactly 10 skill points"),
        ("abilities", "exactly 1 ability"),
        ("guardian_charge", "Every Guardian has a charge"),
        ("name", "Give the character a name"),
    ]:
        slot_html = re.search(rf'data-error-for="{re.escape(slot)}">(.*?)</div>', page, re.S)
        assert slot_html and words in slot_html.group(1), slot
    assert not Character.objects.exists()
    # what was typed is kept
    assert 'name="bonus_pwr" id="id_bonus_pwr" min="0" max="20" value="7"' in page


def test_wizard_rejects_a_kit_choice_that_is_not_offered(player, client_for):
    response = client_for(player).post("/characters/new/", wizard_post(kit_guardian_1="broom"))
    assert response.status_code == 400
    assert "choose one of" in re.search(
        r'data-error-for="kit">(.*?)</div>', response.content.decode(), re.S
    ).group(1)


def test_only_gms_create_npcs(campaign, gm, player, client_for):
    client_for(player).post(
        "/characters/new/", wizard_post(campaign=str(campaign.pk), is_npc="on", name="Fake")
    )
    assert Character.objects.get(name="Fake").is_npc is False  # the input does not exist
    response = client_for(gm).post(
        "/characters/new/", wizard_post(campaign=str(campaign.pk), is_npc="on", name="Meiling")
    )
    assert response.status_code == 302
    assert Character.objects.get(name="Meiling").is_npc


def test_preview_returns_the_panel_and_errors_by_slot(player, client_for):
    client = client_for(player)
    response = client.post("/characters/new/preview/", wizard_post(bonus_pwr="9"))
    body = response.json()
    assert body["valid"] is False
    assert body["errors"] == {
        "bonus_points": ["Spend exactly 20 bonus points on the main stats (21 spent)."]
    }
    draft = legal_draft()
    assert 'id="live-hp"' in body["html"]
    # Guardian: extra HP shows in the live panel
    hp = int(re.search(r'id="live-hp"[^>]*>(\d+)<', body["html"]).group(1))
    other = client.post("/characters/new/preview/", wizard_post(profession="carefree_soul"))
    hp_other = int(re.search(r'id="live-hp"[^>]*>(\d+)<', other.json()["html"]).group(1))
    assert hp > hp_other and draft


def test_preview_places_unknown_fields_in_the_general_slot(player, client_for):
    body = (
        client_for(player)
        .post("/characters/new/preview/", wizard_post(abilities=["skill_focus"]))
        .json()
    )
    assert "ability_choices.skill_focus" in body["errors"]


def test_preview_writes_nothing(player, client_for):
    client = client_for(player)
    client.get("/characters/")
    with CaptureQueriesContext(connection) as queries:
        client.post("/characters/new/preview/", wizard_post())
    assert not [
        q
        for q in queries.captured_queries
        if q["sql"].startswith(("INSERT", "UPDATE")) and "django_session" not in q["sql"]
    ]
    assert not Character.objects.exists()


# --------------------------------------------------------------------------- sheet


def test_sheet_shows_every_stat_with_breakdown_and_exact_odds(character, player, client_for):
    page = client_for(player).get(f"/characters/{character.pk}/").content.decode()
    sheet = derive_sheet(character_to_draft(character))
    for key, line in sheet.stats.items():
        row = re.search(rf'<tr id="stat-{key}">(.*?)</tr>', page, re.S).group(1)
        assert f'data-stat="{key}">{line.total}<' in row
        for part in line.contributions:
            assert part.label in row
        exact = re.search(r'data-exact="([0-9/]+)"', row).group(1)
        odds = check_odds(line.check.dice, line.check.modifier, 12).any_success
        assert Fraction(exact) == odds
        assert f"{float(odds) * 100:.2f}".rstrip("0").rstrip(".") + "%" in row
    assert f'id="hp-max">{sheet.hp.maximum.total}<' in page
    for slug in sheet.skills:
        assert f'id="skill-{slug}"' in page
    for attack in sheet.attacks:
        assert attack.damage.expression in page
    assert f'id="deck-max-cards">{sheet.spellcards.deck.max_cards}<' in page
    assert 'id="deck"' in page  # the spellcards app's block
    assert 'data-item="basic_clothing"' in page
    assert "Secretly afraid of frogs." in page  # the owner sees her private notes


def test_sheet_has_a_print_stylesheet(client):
    css = client.get("/static/css/site.css")
    text = b"".join(css.streaming_content).decode() if css.streaming else css.content.decode()
    assert "@media print" in text and ".sheet-actions" in text


def test_sheet_of_a_character_that_no_longer_derives_shows_why(campaign, player, client_for):
    broken = CharacterFactory(owner=player, campaign=campaign, draft=legal_draft(race="dragon"))
    response = client_for(player).get(f"/characters/{broken.pk}/")
    assert response.status_code == 200
    assert "Unknown race" in response.content.decode()


def test_gm_sees_the_level_up_button_and_raises_the_level(character, gm, client_for):
    client = client_for(gm)
    assert 'id="level-up-button"' in client.get(f"/characters/{character.pk}/").content.decode()
    client.post(f"/characters/{character.pk}/level-up/")
    character.refresh_from_db()
    assert character.level == 2
    page = client.get(f"/characters/{character.pk}/").content.decode()
    assert 'id="deck-max-cards">25<' in page


def _queries(client, url):
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx)


def _grow_inventory(character, how_many):
    draft = character_to_draft(character)
    slugs = [
        s for s, i in get_catalog().items.items() if i.category in ("misc", "improvised_weapon")
    ]
    for slug in slugs[:how_many]:
        draft.inventory[slug] = type(draft.inventory["basic_clothing"])(5, False)
    from characters.services import character_apply_draft

    character_apply_draft(character=character, draft=draft)


def test_sheet_and_list_queries_do_not_grow_with_the_inventory(
    character, campaign, player, client_for
):
    client = client_for(player)
    urls = [
        f"/characters/{character.pk}/",
        f"/campaigns/{campaign.pk}/characters/",
        "/characters/",
        f"/characters/{character.pk}/edit/",
    ]
    client.get(urls[0])
    before = [_queries(client, url) for url in urls]
    _grow_inventory(character, 8)
    CharacterFactory(owner=player, campaign=campaign)  # and one more character in the list
    assert character.inventory.count() >= 8
    assert [_queries(client, url) for url in urls] == before


# --------------------------------------------------------------------------- edit


def test_edit_changes_inventory_state_and_notes(character, player, client_for):
    client = client_for(player)
    page = client.get(f"/characters/{character.pk}/edit/").content.decode()
    assert 'name="qty_basic_clothing" id="id_qty_basic_clothing" min="0" value="1"' in page
    draft = character_to_draft(character)
    post = {
        "shot_type": draft.shot_type,
        "race": draft.race,
        "profession": draft.profession,
        "element": draft.element,
        "bonus_cha": "5",
        "bonus_int": "10",
        "bonus_ins": "5",
        "skill_flying": "5",
        "skill_sense": "5",
        "abilities": ["keen_senses"],
        "qty_basic_clothing": "1",
        "eq_basic_clothing": "on",
        "qty_book": "2",
        "yen": "750",
        "current_hp": "20",
        "drunkenness": "buzzed",
        "status_effects": ["fear"],
        "name": "Cirno the Great",
        "public_notes": "new public",
        "private_notes": "new private",
    }
    response = client.post(f"/characters/{character.pk}/edit/", post)
    assert response.status_code == 302, response.content.decode()[:3000]
    character.refresh_from_db()
    new = character_to_draft(character)
    assert new.name == "Cirno the Great" and new.yen == 750 and new.current_hp == 20
    assert set(new.inventory) == {"basic_clothing", "book"}
    assert new.status_effects == ["fear"] and new.drunkenness == "buzzed"
    assert character.private_notes == "new private"
    post["eq_leather_armor"], post["qty_leather_armor"] = "on", "1"
    refused = client.post(f"/characters/{character.pk}/edit/", post)
    assert refused.status_code == 400
    assert "Only Guardians can wear armor" in refused.content.decode()


def test_wizard_race_traits_never_list_none(player, client_for):
    """Races: "Other bonuses: None" is no ability; the wizard read "Moon Purity; None"."""
    page = client_for(player).get("/characters/new/").content.decode()
    lunarian = re.search(r'value="lunarian".*?<small>(.*?)</small>', page, re.S)
    hare = re.search(r'value="moon_hare".*?<small>(.*?)</small>', page, re.S)
    assert lunarian and lunarian.group(1) == "Moon Purity"
    assert hare and hare.group(1) == "Lunatic Gaze; Hallucinations"


def test_edit_refuses_current_hp_above_the_maximum_beside_the_field(character, player, client_for):
    """Current HP is never above the sheet's maximum (docs/characters.md; the tester saved 9999
    and the sheet read "9999 / 100 Healthy")."""
    draft = character_to_draft(character)
    top = derive_sheet(draft).hp.maximum.total
    page = client_for(player).get(f"/characters/{character.pk}/edit/").content.decode()
    post = _edit_form_values(page)
    post["current_hp"] = "9999"
    refused = client_for(player).post(f"/characters/{character.pk}/edit/", post)
    body = refused.content.decode()
    assert refused.status_code == 400
    slot = re.search(r'data-error-for="current_hp">(.*?)</div>', body, re.S)
    assert slot and f"Current HP cannot be above the maximum of {top} (9999 given)" in slot.group(1)
    character.refresh_from_db()
    assert character.current_hp == draft.current_hp


def _edit_form_values(page: str) -> dict[str, object]:
    """What a browser would post back from the edit page untouched (inputs, checked boxes and
    radios, selected options)."""
    values: dict[str, object] = {}
    for tag in re.findall(r"<input[^>]*>", page):
        name = re.search(r'name="([^"]+)"', tag)
        if not name or 'type="submit"' in tag:
            continue
        kind = re.search(r'type="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if kind and kind.group(1) in ("checkbox", "radio"):
            if "checked" not in tag:
                continue
            if kind.group(1) == "checkbox" and name.group(1) in values:
                existing = values[name.group(1)]
                values[name.group(1)] = [
                    *(existing if isinstance(existing, list) else [existing]),
                    value.group(1) if value else "on",
                ]
                continue
        values[name.group(1)] = value.group(1) if value else ("on" if kind else "")
    for select in re.findall(r'<select[^>]*name="([^"]+)"[^>]*>(.*?)</select>', page, re.S):
        chosen = re.search(r'<option value="([^"]*)"[^>]*selected', select[1])
        if chosen:
            values[select[0]] = chosen.group(1)
    return values


def test_gm_waiver_only_on_the_gms_edit_page(character, gm, player, client_for):
    assert (
        "waive_manipulation"
        not in client_for(player).get(f"/characters/{character.pk}/edit/").content.decode()
    )
    assert (
        "waive_manipulation"
        in client_for(gm).get(f"/characters/{character.pk}/edit/").content.decode()
    )


# --------------------------------------------------------------------------- export, import


def test_export_download_and_import_page(character, campaign, player, client_for):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client = client_for(player)
    exported = client.get(f"/characters/{character.pk}/export/")
    assert exported["Content-Disposition"] == 'attachment; filename="cirno.westernroses.json"'
    upload = SimpleUploadedFile("cirno.json", exported.content)
    response = client.post("/characters/import/", {"file": upload, "campaign": str(campaign.pk)})
    assert response.status_code == 302
    copy = Character.objects.exclude(pk=character.pk).get()
    assert client.get(f"/characters/{copy.pk}/export/").content == exported.content


def test_import_page_refuses_a_bad_file_clearly(player, client_for):
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = client_for(player).post(
        "/characters/import/", {"file": SimpleUploadedFile("x.json", b'{"format": "pdf"}')}
    )
    assert response.status_code == 400
    assert "This is not a Western Roses character: format" in response.content.decode()


def test_import_page_names_fields_in_words(player, client_for):
    """An incomplete but well-formed file lists its problems by the fields' words, never by
    their keys ("shot_type: Choose a shot-type.")."""
    import json

    from django.core.files.uploadedfile import SimpleUploadedFile

    document = {"format": "westernroses.character", "version": 1, "character": {"name": "Aya"}}
    response = client_for(player).post(
        "/characters/import/",
        {"file": SimpleUploadedFile("aya.json", json.dumps(document).encode())},
    )
    assert response.status_code == 400
    problems = re.search(r'id="import-problems">(.*?)</section>', response.content.decode(), re.S)
    assert problems
    text = re.sub(r"<[^>]+>", "", problems.group(1))
    assert "Shot-type: " in text and "Bonus points: " in text and "Skill points: " in text
    assert not re.search(r"\b[a-z]+_[a-z_]+:", text), text
    assert Character.objects.count() == 0


def test_a_players_import_above_level_1_says_what_happens(character, gm, player, client_for):
    """docs/characters.md: a player's import cannot carry a level above 1; the GM's can. The
    message spoke of "(it is 1)" for a file at level 3."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    character.level = 3
    character.save()
    document = client_for(player).get(f"/characters/{character.pk}/export/").content
    response = client_for(player).post(
        "/characters/import/", {"file": SimpleUploadedFile("x.json", document)}
    )
    assert response.status_code == 400
    text = response.content.decode()
    assert (
        "Level: This character is at level 3, and a player&#x27;s new or imported character "
        "starts at level 1: only the campaign&#x27;s game master may bring one in at level 3"
    ) in text
    assert "it is 1" not in text
    assert Character.objects.count() == 1


def test_import_into_a_campaign_you_are_not_in_is_404(campaign, outsider, client_for, character):
    from django.core.files.uploadedfile import SimpleUploadedFile

    document = client_for(character.owner).get(f"/characters/{character.pk}/export/").content
    response = client_for(outsider).post(
        "/characters/import/",
        {"file": SimpleUploadedFile("x.json", document), "campaign": str(campaign.pk)},
    )
    # the outsider's form does not even offer the campaign: a field error, nothing created
    assert response.status_code == 400
    assert Character.objects.count() == 1


def test_portrait_upload_page_refuses_a_fake_image(character, player, client_for, media):
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = client_for(player).post(
        f"/characters/{character.pk}/portrait/upload/",
        {"portrait": SimpleUploadedFile("me.png", b"GIF89a but not really")},
    )
    assert response.status_code == 400
    assert "damaged" in response.content.decode() or "PNG, JPEG" in response.content.decode()


def test_campaign_page_links_to_its_characters(campaign, player, client_for):
    page = client_for(player).get(f"/campaigns/{campaign.pk}/").content.decode()
    assert f"/campaigns/{campaign.pk}/characters/" in page


def test_admin_lists_and_filters_characters(character, npc, client_for):
    from tests.factories import UserFactory

    admin = UserFactory(username="admin", is_staff=True, is_superuser=True)
    client = client_for(admin)
    page = client.get("/admin/characters/character/?is_npc__exact=1").content.decode()
    assert "Meiling" in page and "Cirno" not in page
    assert client.get(f"/admin/characters/character/{character.pk}/change/").status_code == 200
    assert client.get("/admin/characters/inventoryitem/").status_code == 200


def test_wizard_skills_step_shows_each_base_from_the_stats_chosen(player, client_for):
    """ "Character Creation > Skills": a skill's base comes from the stats (Will = (CHA + INS)
    / 2, rounded up: RULINGS 3); step 6 showed only the formulas. Page and live preview show
    the engine's numbers."""
    from characters.forms import CharacterForm

    post = wizard_post(name="")
    draft, _ = CharacterForm(post, mode="create", is_gm=False).draft()
    sheet = derive_sheet(draft)
    expected = {slug: line.base for slug, line in sheet.skills.items()}
    stats = {k: sheet.stats[k].total for k in ("cha", "ins")}
    assert expected["will"] == -(-(stats["cha"] + stats["ins"]) // 2)
    client = client_for(player)
    page = client.post("/characters/new/", post).content.decode()
    for slug, base in expected.items():
        assert f'data-skill-base="{slug}"> = {base}</span>' in page, slug
    assert "data-skill-bases-pending hidden" in page
    live = client.post("/characters/new/preview/", post).json()
    assert live["skill_bases"] == expected
    # before the stats exist, nothing is guessed and the page says why
    empty = client.post("/characters/new/preview/", {"name": "x"}).json()
    assert empty["skill_bases"] == {}
    fresh = client.get("/characters/new/").content.decode()
    assert 'data-skill-base="will"></span>' in fresh
    assert "The bases show once a shot-type, race, profession and element are chosen." in fresh
