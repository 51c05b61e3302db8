"""A Character or NPC entry's stat block (issue 43, "fields per kind … an NPC's stat block usable
in a battle"): checked by the rules every NPC of a battle follows, the GMs' alone, in the
entry's history, and refused in words (400 naming the part) when a number breaks a rule.

The numbers are the rulebook's Charge of Virtue ("Shot-types": PWR 5, CHA 7, INT 5, INS 8,
HP 140, Speed 4, Range 3; Resilience, "you take 5 less damage"), Will from ruling 3
((CHA + INS) / 2 rounded up: 8) and spell power's bounds from "Spell Power" and ruling 8 (an
NPC may start with more or less, never above 400)."""

from __future__ import annotations

import pytest

from westernroses.stat_block import StatBlockError, stat_block_parse
from wiki import services
from wiki.models import Entry, Revision
from wiki.stat_blocks import stat_block_set

pytestmark = pytest.mark.django_db

CHARGE_OF_VIRTUE = {
    "pwr": 5,
    "cha": 7,
    "int": 5,
    "ins": 8,
    "hp": 140,
    "speed": 4,
    "range": 3,
    "damage_reduction": 5,
    "weapons": ["spear"],
    "element": "spirit",
}


def _url(campaign, entry, tail="stat-block/"):
    return f"/api/campaigns/{campaign.pk}/wiki/entries/{entry.pk}/{tail}"


def test_the_rules_check_every_part_with_the_rulebooks_numbers():
    block = stat_block_parse(CHARGE_OF_VIRTUE)
    assert block.stats == {"pwr": 5, "cha": 7, "int": 5, "ins": 8}
    assert (block.hp, block.speed, block.range, block.damage_reduction) == (140, 4, 3, 5)
    assert block.will == 8  # ruling 3: ceil((7 + 8) / 2)
    assert block.spell_power is None  # the house rule's start (ruling 8)
    assert stat_block_parse({**CHARGE_OF_VIRTUE, "spell_power": 400}).spell_power == 400
    # every broken part is named at once, in words
    with pytest.raises(StatBlockError) as caught:
        stat_block_parse({**CHARGE_OF_VIRTUE, "pwr": 100, "hp": 0, "spell_power": 401, "cha": True})
    errors = caught.value.errors
    assert set(errors) == {"pwr", "hp", "spell_power", "cha"}
    assert errors["pwr"] == ["Power is a whole number from 0 to 99."]
    assert errors["spell_power"] == ["Starting spell power is a whole number from 0 to 400."]
    with pytest.raises(StatBlockError) as caught:
        stat_block_parse({"pwr": 5, "secret": 1, "weapons": ["laser"], "element": "plasma"})
    assert {"non_field_errors", "cha", "hp", "weapons", "element"} <= set(caught.value.errors)


def test_a_gm_gives_an_npc_entry_a_stat_block_through_the_api(
    world, campaign, gm, player, outsider, api_for
):
    url = _url(campaign, world.patchouli)
    answer = api_for(gm).put(url, {**CHARGE_OF_VIRTUE, "spell_power": 120}, format="json")
    assert answer.status_code == 200, answer.content
    block = answer.json()["stat_block"]
    assert (block["hp"], block["speed"], block["range"], block["spell_power"]) == (140, 4, 3, 120)
    assert block["weapons"] == ["spear"]
    entry = Entry.objects.get(pk=world.patchouli.pk)
    assert entry.stat_block["damage_reduction"] == 5
    # one new version, "the stat block" in its history
    last = Revision.objects.filter(entry=entry).order_by("-number").first()
    assert last is not None and last.changed == ["stat_block"]
    assert last.snapshot["stat_block"]["hp"] == 140
    # players may not write it (403), outsiders do not see the campaign (404)
    assert api_for(player).put(url, CHARGE_OF_VIRTUE, format="json").status_code == 403
    assert api_for(outsider).put(url, CHARGE_OF_VIRTUE, format="json").status_code == 404
    # the player who reads Patchouli's entry never gets her numbers, in the API or the page
    seen = api_for(player).get(_url(campaign, world.patchouli, "")).json()
    assert seen["stat_block"] is None
    assert api_for(gm).get(_url(campaign, world.patchouli, "")).json()["stat_block"] == block
    # taking it away is one more version
    assert api_for(gm).delete(url).json()["stat_block"] is None
    assert Entry.objects.get(pk=entry.pk).stat_block is None


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"pwr": 100}, "pwr"),  # STAT_MAX 99, the battle's own bound
        ({"ins": -1}, "ins"),
        ({"hp": 0}, "hp"),  # "Death – You die when your HP drops below 0": at least 1 to start
        ({"hp": 10_000}, "hp"),
        ({"speed": 51}, "speed"),
        ({"range": "far"}, "range"),
        ({"spell_power": 401}, "spell_power"),  # "may hold a maximum of 400"
        ({"damage_reduction": 100}, "damage_reduction"),
        ({"element": "plasma"}, "element"),
        ({"weapons": ["laser"]}, "weapons"),
        ({"weapons": ["sword"] * 6}, "weapons"),  # at most 5 weapons
        ({"pwr": 10**30}, "pwr"),
        ({"cha": True}, "cha"),
    ],
)
def test_bad_numbers_are_400_with_the_part_named_and_nothing_saved(
    world, campaign, gm, api_for, change, field
):
    answer = api_for(gm).put(
        _url(campaign, world.patchouli), {**CHARGE_OF_VIRTUE, **change}, format="json"
    )
    assert answer.status_code == 400, answer.content
    assert field in answer.json()["errors"], answer.json()
    entry = Entry.objects.get(pk=world.patchouli.pk)
    assert entry.stat_block is None
    assert Revision.objects.filter(entry=entry).count() == 3  # written, and its two sections


def test_only_a_character_or_npc_entry_has_one(world, campaign, gm, api_for, client_for):
    answer = api_for(gm).put(_url(campaign, world.mansion), CHARGE_OF_VIRTUE, format="json")
    assert answer.status_code == 400
    assert answer.json()["errors"]["non_field_errors"] == [
        "Only a Character or NPC entry has a stat block."
    ]
    # an entry that stops being a character loses its numbers (as a place loses its parent)
    stat_block_set(entry=world.patchouli, by=world.access, author=gm, data=CHARGE_OF_VIRTUE)
    services.entry_update(entry=world.patchouli, by=world.access, author=gm, kind="lore")
    assert Entry.objects.get(pk=world.patchouli.pk).stat_block is None
    page = client_for(gm).get(f"/campaigns/{campaign.pk}/wiki/{world.mansion.pk}/stat-block/")
    assert b"Only a Character or NPC entry has a stat block" in page.content


def test_restoring_a_version_puts_its_stat_block_back(world, campaign, gm, api_for):
    stat_block_set(entry=world.patchouli, by=world.access, author=gm, data=CHARGE_OF_VIRTUE)
    number = Revision.objects.filter(entry=world.patchouli).order_by("-number").first().number
    stat_block_set(
        entry=world.patchouli, by=world.access, author=gm, data={**CHARGE_OF_VIRTUE, "hp": 60}
    )
    restored = api_for(gm).post(_url(campaign, world.patchouli, f"history/{number}/restore/"))
    assert restored.status_code == 200
    assert restored.json()["stat_block"]["hp"] == 140


def test_the_page_form_saves_shows_and_refuses_in_words(world, campaign, gm, player, client_for):
    c, entry = campaign.pk, world.patchouli
    url = f"/campaigns/{c}/wiki/{entry.pk}/stat-block/"
    form = {k: v for k, v in CHARGE_OF_VIRTUE.items() if k != "weapons"} | {"weapons": ["spear"]}
    bad = client_for(gm).post(url, {**form, "spell_power": 401})
    assert bad.status_code == 400
    assert b"Ensure this value is less than or equal to 400." in bad.content
    assert Entry.objects.get(pk=entry.pk).stat_block is None
    saved = client_for(gm).post(url, form)
    assert saved.status_code == 302
    html = client_for(gm).get(f"/campaigns/{c}/wiki/{entry.pk}/").content.decode()
    assert 'id="wiki-stat-block"' in html
    # HP 140, Will 8 (ruling 3), the spear beside the fists, Resilience's 5
    for words in ("<dt>HP</dt><dd>140</dd>", "<dt>Will</dt><dd>8</dd>", "Bare Fists, Spear"):
        assert words in html, words
    assert "<dt>Damage reduction</dt><dd>5</dd>" in html
    # the player who may read Patchouli sees no numbers, and may not open the form
    mine = client_for(player).get(f"/campaigns/{c}/wiki/{entry.pk}/").content.decode()
    assert "wiki-stat-block" not in mine and "<dd>140</dd>" not in mine
    assert client_for(player).get(url).status_code == 403
    history = client_for(gm).get(f"/campaigns/{c}/wiki/{entry.pk}/history/").content.decode()
    assert "Changed: the stat block" in history
    removed = client_for(gm).post(url, {"remove": "1"})
    assert removed.status_code == 302 and Entry.objects.get(pk=entry.pk).stat_block is None


def test_the_schema_documents_the_stat_block(api_for, player):
    schema = api_for(player).get("/api/schema/?format=json").json()
    path = schema["paths"]["/api/campaigns/{id}/wiki/entries/{entry_id}/stat-block/"]
    assert {"put", "delete"} <= set(path)
    block = schema["components"]["schemas"]["StatBlockRequest"]["properties"]
    assert block["pwr"]["maximum"] == 99 and block["spell_power"]["maximum"] == 400
    assert "stat_block" in schema["components"]["schemas"]["Entry"]["properties"]
