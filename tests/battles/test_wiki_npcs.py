"""NPCs from the campaign's wiki (issue 43: "an NPC's stat block usable in a battle"): the GM
adds a Character or NPC entry with a stat block as a combatant, on the side she chooses, and
the combatant's numbers are the stat block's; players cannot, another campaign's entry is a
404, and no seat learns anything of the entry beyond what a battle shows of any combatant.

The numbers are the rulebook's Charge of Virtue ("Shot-types": PWR 5, CHA 7, INT 5, INS 8,
HP 140, Speed 4, Range 3; Resilience, "you take 5 less damage"); Will is (CHA + INS) / 2
rounded up (ruling 3: 8); spell power starts at what the stat block says, else 50 ("Every
character begins with 50 spell power … NPCs may begin with more or less", ruling 8)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from battles.models import BattleAction, Combatant
from battles.wiki_npcs import wiki_npc_choices
from campaign.permissions import access_for
from tests.factories import CampaignFactory
from wiki import services as wiki
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
    "element": "spirit",
    "weapons": ["spear"],
}
#: Words only the GM-only entry's text and its hidden section hold.
HIDDEN = ("sealed darkness", "ribbon is a seal", "Rumia's secret")


@pytest.fixture
def rumia(campaign, gm):
    """A GM-only NPC entry with a GM-only section and a stat block (spell power 120)."""
    access = access_for(gm, campaign)
    entry = wiki.entry_create(
        campaign_id=campaign.pk,
        by=access,
        author=gm,
        title="Rumia",
        kind="character",
        body="A youkai of the sealed darkness. Rumia's secret: she is far older.",
    )
    wiki.section_save(
        entry=entry, by=access, author=gm, heading="Her ribbon",
        body="The ribbon is a seal; untie it and the darkness wakes.", visibility="gm",
    )  # fmt: skip
    stat_block_set(entry=entry, by=access, author=gm, data={**CHARGE_OF_VIRTUE, "spell_power": 120})
    return entry


def _post(api: Any, battle: Any, body: dict[str, Any]) -> Any:
    return api.post(f"/api/battles/{battle.pk}/combatants/", body, format="json")


def test_the_combatants_numbers_are_the_stat_blocks(setup_battle, rumia, gm, api_for):
    battle = setup_battle.battle
    placed = _post(
        api_for(gm), battle, {"wiki_entry": rumia.pk, "side": "enemies", "position": [6, 3]}
    )
    assert placed.status_code == 201, placed.content
    view = placed.json()["view"]["combatants"]["npc3"]
    assert (view["name"], view["kind"], view["side"], view["controller"]) == (
        "Rumia",
        "npc",
        "enemies",
        "gm",
    )
    assert (view["hp"], view["hp_max"], view["speed"], view["range"]) == (140, 140, 4, 3)
    assert view["element"] == "spirit" and view["position"] == [6, 3]
    assert view["spell_power"] == 120  # the stat block's, not the house rule's 50
    profile = setup_battle.refresh().state["combatants"]["npc3"]["profile"]
    assert profile["stats"] == {"pwr": 5, "cha": 7, "int": 5, "ins": 8}
    assert profile["will"] == 8 and profile["damage_reduction"] == 5
    assert [a["slug"] for a in profile["attacks"]] == ["danmaku", "bare_fists", "spear"]
    spear = profile["attacks"][2]
    assert (spear["range"], spear["dice"]) == (2, 2)  # "Spears – Range of 2, 2d damage"
    row = Combatant.objects.get(battle=battle, engine_id="npc3")
    assert (row.name, row.character_id, row.controller_id) == ("Rumia", None, None)
    # without a spell power in the stat block she starts with the house rule's 50 (ruling 8)
    stat_block_set(
        entry=rumia, by=access_for(gm, battle.campaign), author=gm, data=CHARGE_OF_VIRTUE
    )
    again = _post(
        api_for(gm),
        battle,
        {"wiki_entry": rumia.pk, "side": "neutral", "position": [6, 4], "name": "Rumia's shadow"},
    )
    assert again.status_code == 201, again.content
    shadow = again.json()["view"]["combatants"]["npc4"]
    assert (shadow["name"], shadow["side"], shadow["spell_power"]) == (
        "Rumia's shadow",
        "neutral",
        50,
    )


def test_a_running_battle_gets_her_as_a_logged_reinforcement(started, rumia, gm, api_for):
    battle = started.battle
    placed = _post(
        api_for(gm),
        battle,
        {
            "wiki_entry": rumia.pk,
            "side": "enemies",
            "position": [5, 5],
            "expected_version": battle.version,
        },
    )
    assert placed.status_code == 201, placed.content
    state = started.refresh().state
    assert "npc3" in state["order"]  # she joins the turn order (ruling 11, by Speed)
    last = BattleAction.objects.filter(battle=battle).order_by("-seq").first()
    assert last is not None and last.action["type"] == "gm_add_combatant"
    assert state["combatants"]["npc3"]["hp"] == 140
    # a stale version is a 409, and nothing is added
    stale = _post(
        api_for(gm),
        battle,
        {"wiki_entry": rumia.pk, "side": "enemies", "position": [5, 4], "expected_version": 1},
    )
    assert stale.status_code == 409
    assert "npc4" not in started.refresh().state["combatants"]


def test_bad_requests_are_400_403_or_404_and_change_nothing(
    setup_battle, rumia, campaign, gm, player, outsider, api_for
):
    battle = setup_battle.battle
    before = setup_battle.version
    api = api_for(gm)
    # the side is the GM's choice, never a default
    missing = _post(api, battle, {"wiki_entry": rumia.pk, "position": [6, 3]})
    assert missing.status_code == 400
    assert "side" in missing.json()["errors"]
    bad_side = _post(api, battle, {"wiki_entry": rumia.pk, "side": "the bad guys!"})
    assert bad_side.status_code == 400 and "side" in bad_side.json()["errors"]
    # an entry without a stat block says how to give it one
    plain = wiki.entry_create(
        campaign_id=campaign.pk, by=access_for(gm, campaign), author=gm, title="Wriggle",
        kind="character",
    )  # fmt: skip
    none = _post(api, battle, {"wiki_entry": plain.pk, "side": "enemies"})
    assert none.status_code == 400
    assert none.json()["errors"]["wiki_entry"] == [
        "Wriggle has no stat block: add one on its wiki page."
    ]
    assert (
        _post(api, battle, {"wiki_entry": rumia.pk, "side": "enemies", "name": ""}).status_code
        == 400
    )
    both = _post(api, battle, {"wiki_entry": rumia.pk, "npc": {"name": "x"}, "side": "enemies"})
    assert both.status_code == 400
    # another campaign's entry, or none at all: 404
    elsewhere = CampaignFactory(created_by=gm, name="Elsewhere")
    from campaign.models import Membership, Role

    Membership.objects.create(campaign=elsewhere, user=gm, role=Role.GM)
    theirs = wiki.entry_create(
        campaign_id=elsewhere.pk, by=access_for(gm, elsewhere), author=gm, title="Yuuka",
        kind="character",
    )  # fmt: skip
    stat_block_set(entry=theirs, by=access_for(gm, elsewhere), author=gm, data=CHARGE_OF_VIRTUE)
    assert _post(api, battle, {"wiki_entry": theirs.pk, "side": "enemies"}).status_code == 404
    assert _post(api, battle, {"wiki_entry": 10**9, "side": "enemies"}).status_code == 404
    # players may not add combatants (403); outsiders do not see the battle (404)
    body = {"wiki_entry": rumia.pk, "side": "enemies", "position": [6, 3]}
    assert _post(api_for(player), battle, body).status_code == 403
    assert _post(api_for(outsider), battle, body).status_code == 404
    assert setup_battle.version == before
    assert not Combatant.objects.filter(battle=battle, name__in=["Rumia", "Yuuka"]).exists()


def _payloads(client: Any, battle: Any, campaign: Any) -> dict[str, str]:
    pk = battle.pk
    urls = {
        "list": f"/api/campaigns/{campaign.pk}/battles/",
        "retrieve": f"/api/battles/{pk}/",
        "view": f"/api/battles/{pk}/state/",
        "legal": f"/api/battles/{pk}/legal-actions/",
        "log": f"/api/battles/{pk}/log/?limit=200",
        "combatants": f"/api/battles/{pk}/combatants/",
        "page": f"/battles/{pk}/",
    }
    if battle.status != "setup":
        urls["replay"] = f"/api/battles/{pk}/replay/"
    out = {}
    for name, url in urls.items():
        response = client.get(url)
        assert response.status_code == 200, (name, response.status_code)
        out[name] = response.content.decode()
    return out


@pytest.mark.parametrize("phase", ["setup", "running"])
def test_no_seat_learns_the_entrys_hidden_text(
    request, phase, rumia, campaign, gm, player, other_player, api_for
):
    """Each player sees Rumia as the battle shows any combatant (her name, side, HP, square)
    and nothing of her GM-only entry: not its text, its section, its id's page, nor the
    stat-block list the GM's screen carries; and the GM's NPC that stays off the board is in
    no player's page at all."""
    setup = request.getfixturevalue("started" if phase == "running" else "setup_battle")
    battle = setup.battle
    unplaced = wiki.entry_create(
        campaign_id=campaign.pk, by=access_for(gm, campaign), author=gm,
        title="Daiyousei the unseen", kind="character",
    )  # fmt: skip
    stat_block_set(entry=unplaced, by=access_for(gm, campaign), author=gm, data=CHARGE_OF_VIRTUE)
    placed = _post(
        api_for(gm),
        battle,
        {
            "wiki_entry": rumia.pk,
            "side": "enemies",
            "position": [5, 5],
            "expected_version": setup.version,
        },
    )
    assert placed.status_code == 201, placed.content
    battle.refresh_from_db()
    gm_page = api_for(gm)
    gm_page.force_login(gm)
    screen = gm_page.get(f"/battles/{battle.pk}/").content.decode()
    assert "Daiyousei the unseen" in screen and '"wiki_npcs"' in screen  # the GM's list
    for seat in (player, other_player):
        client = api_for(seat)
        client.force_login(seat)
        for name, text in _payloads(client, battle, campaign).items():
            for words in HIDDEN:
                assert words not in text, (seat.username, name, words)
            assert f"/wiki/{rumia.pk}/" not in text, (seat.username, name)
            assert "wiki_npcs" not in text and "stat_block" not in text, (seat.username, name)
            assert "Daiyousei the unseen" not in text, (seat.username, name)
        view = client.get(f"/api/battles/{battle.pk}/state/").json()["view"]
        rumia_seen = view["combatants"]["npc3"]
        assert (rumia_seen["name"], rumia_seen["hp"], rumia_seen["side"]) == (
            "Rumia",
            140,
            "enemies",
        )
        assert rumia_seen["attacks"] is None  # her attacks are the GM's, as any NPC's
        raw = json.dumps(client.get(f"/api/battles/{battle.pk}/log/?limit=200").json())
        assert '"profile"' not in raw  # a reinforcement's numbers stay the GM's in the log


def test_the_battle_screen_offers_the_wikis_npcs_to_the_gm_only(
    setup_battle, rumia, campaign, gm, player, client_for, django_assert_num_queries
):
    pk = setup_battle.battle.pk
    with django_assert_num_queries(1):  # one query, however many stat blocks
        listed = wiki_npc_choices(access_for(gm, campaign))
    assert listed == [
        {
            "id": rumia.pk,
            "title": "Rumia",
            "numbers": "PWR 5 · CHA 7 · INT 5 · INS 8 · HP 140 · Speed 4 · Range 3",
        }
    ]
    assert wiki_npc_choices(access_for(player, campaign)) == []
    screen = client_for(gm).get(f"/battles/{pk}/").content.decode()
    assert 'id="wiki-npc-form"' in screen and 'value="">choose its side</option>' in screen
    # the list carries the title and the numbers in words, no more of the entry
    assert "PWR 5 \\u00b7 CHA 7 \\u00b7 INT 5 \\u00b7 INS 8 \\u00b7 HP 140" in screen or (
        "PWR 5 · CHA 7 · INT 5 · INS 8 · HP 140" in screen
    )
    assert "sealed darkness" not in screen
    theirs = client_for(player).get(f"/battles/{pk}/").content.decode()
    assert "wiki-npc-form" not in theirs and "Rumia" not in theirs
