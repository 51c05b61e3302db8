"""The dice roller's character checks: pick a stat or skill of a character and roll its
sheet's pool with the sheet's modifiers ("Basic rolls": one die per three points)."""

from __future__ import annotations

import pytest

from campaign.models import Roll
from tests.factories import CharacterFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def cirno(campaign, player):
    # Homing Amulets INT 9, fairy -1, bonus points +10: INT 18 -> 6d
    return CharacterFactory(owner=player, campaign=campaign, name="Cirno")


@pytest.fixture
def meiling(campaign, gm):
    return CharacterFactory(owner=gm, campaign=campaign, name="Meiling", is_npc=True)


def test_player_sees_only_their_own_characters_checks(campaign, player, cirno, meiling, client_for):
    html = client_for(player).get(f"/campaigns/{campaign.pk}/dice/").content.decode()
    assert f'value="{cirno.pk}:stat:int"' in html
    assert "Cirno: Intelligence (6d)" in html
    assert f'value="{meiling.pk}:stat:int"' not in html


def test_gm_rolls_for_npcs_and_players(campaign, gm, cirno, meiling, client_for):
    html = client_for(gm).get(f"/campaigns/{campaign.pk}/dice/").content.decode()
    assert f'value="{cirno.pk}:stat:int"' in html
    assert f'value="{meiling.pk}:stat:pwr"' in html


def test_rolling_a_character_check_uses_the_sheet(campaign, player, cirno, client_for):
    """Keen Senses: +2 to Sense; the pool comes from the skill value."""
    client = client_for(player)
    response = client.post(
        f"/campaigns/{campaign.pk}/dice/", {"check": f"{cirno.pk}:stat:int", "target": "12"}
    )
    assert response.status_code == 302
    roll = Roll.objects.get()
    assert roll.notation == "6d" and len(roll.dice) == 6
    assert roll.label == "Cirno: Intelligence"
    client.post(f"/campaigns/{campaign.pk}/dice/", {"check": f"{cirno.pk}:skill:sense"})
    sense = Roll.objects.get(label="Cirno: Sense")
    assert sense.notation.endswith("+2")


def test_someone_elses_check_is_a_field_error(campaign, other_player, cirno, client_for, api_for):
    response = client_for(other_player).post(
        f"/campaigns/{campaign.pk}/dice/", {"check": f"{cirno.pk}:stat:int"}
    )
    assert response.status_code == 400
    assert "check" in response.context["form"].errors
    api = api_for(other_player).post(
        "/api/rolls/", {"check": f"{cirno.pk}:stat:int", "campaign": campaign.pk}, format="json"
    )
    assert api.status_code == 400
    assert "check" in api.json()["errors"]
    assert Roll.objects.count() == 0


def test_api_rolls_a_character_check(campaign, player, cirno, api_for):
    body = (
        api_for(player)
        .post(
            "/api/rolls/",
            {"check": f"{cirno.pk}:stat:int", "campaign": campaign.pk, "modifier": 1, "target": 20},
            format="json",
        )
        .json()
    )
    assert body["notation"] == "6d+1"
    assert body["label"] == "Cirno: Intelligence"
    assert body["total"] == sum(body["dice"]) + 1


def test_live_odds_refresh_does_not_derive_sheets(
    campaign, player, client_for, django_assert_max_num_queries
):
    """The odds fragment is fetched on every keystroke: its cost must not grow with the number
    of characters (their sheets are only derived when a check is picked)."""
    client = client_for(player)
    url = f"/campaigns/{campaign.pk}/dice/"
    params = {"notation": "4d", "target": "12", "partial": "odds"}
    with django_assert_max_num_queries(50) as none_yet:
        client.get(url, params)
    for i in range(5):
        CharacterFactory(owner=player, campaign=campaign, name=f"Fairy {i}")
    with django_assert_max_num_queries(len(none_yet.captured_queries)):
        html = client.get(url, params).content.decode()
    assert 'id="odds-panel"' in html
    # picking a check still works in the fragment
    chosen = CharacterFactory(owner=player, campaign=campaign, name="Cirno")
    picked = client.get(url, {**params, "notation": "", "check": f"{chosen.pk}:stat:int"})
    assert "6d vs 12" in picked.content.decode()


def _payloads_for(client, api, campaign, roll):
    return {
        "page": client.get(f"/campaigns/{campaign.pk}/dice/?roll={roll.pk}").content.decode(),
        "log": api.get(f"/api/rolls/?campaign={campaign.pk}").content.decode(),
        "timeline": api.get(f"/api/campaigns/{campaign.pk}/timeline/").content.decode(),
        "detail-page": client.get(f"/campaigns/{campaign.pk}/").content.decode(),
    }


def test_a_players_mental_check_is_rolled_for_the_gms_only(
    campaign, player, gm, cirno, client_for, api_for
):
    """Skills: "Mental rolls are made by the DM so the character does not know whether or not
    she succeeded" (ruleset, Skills; house rule ``mental_rolls_secret``, on by default). The
    player learns that she rolled her Sense, never the dice, total or verdict; GMs see it all."""
    client = client_for(player)
    client.post(f"/campaigns/{campaign.pk}/dice/", {"notation": "2d"})  # an ordinary roll
    ordinary = Roll.objects.get()
    response = client.post(
        f"/campaigns/{campaign.pk}/dice/",
        {"check": f"{cirno.pk}:skill:sense", "target": "12"},
        follow=True,
    )
    html = response.content.decode()
    assert "Cirno: Sense: rolled in secret" in html
    roll = Roll.objects.exclude(pk=ordinary.pk).get()
    assert roll.secret and roll.detail["hidden_from_roller"]
    assert 'id="roll-total"' not in html and f'data-roll="{roll.pk}"' not in html
    assert f'data-roll="{ordinary.pk}"' in html  # her other rolls are still there
    for name, text in _payloads_for(client, api_for(player), campaign, roll).items():
        assert (
            f'"id":{roll.pk}' not in text.replace(" ", "") and f'data-roll="{roll.pk}"' not in text
        ), name
    assert api_for(player).get(f"/api/rolls/{roll.pk}/").status_code == 404
    gm_log = api_for(gm).get(f"/api/rolls/?campaign={campaign.pk}").json()
    rows = gm_log["results"] if isinstance(gm_log, dict) else gm_log
    assert [r["total"] for r in rows] == [roll.total, ordinary.total]
    mine = api_for(player).get(f"/api/rolls/?campaign={campaign.pk}").json()["results"]
    assert [r["id"] for r in mine] == [ordinary.pk]
    gm_page = client_for(gm).get(f"/campaigns/{campaign.pk}/dice/?roll={roll.pk}").content.decode()
    assert 'id="roll-total"' in gm_page


def test_the_api_tells_the_player_only_that_she_rolled(campaign, player, cirno, api_for):
    response = api_for(player).post(
        "/api/rolls/", {"check": f"{cirno.pk}:skill:will", "campaign": campaign.pk}, format="json"
    )
    assert response.status_code == 201
    body = response.json()
    assert body["hidden"] is True and body["label"] == "Cirno: Will"
    assert not {"total", "dice", "success", "margin", "critical"} & set(body)


def test_physical_checks_the_gms_own_rolls_and_the_house_rule_off_are_ordinary(
    campaign, player, gm, cirno, client_for
):
    client_for(player).post(f"/campaigns/{campaign.pk}/dice/", {"check": f"{cirno.pk}:stat:int"})
    client_for(gm).post(f"/campaigns/{campaign.pk}/dice/", {"check": f"{cirno.pk}:skill:sense"})
    campaign.house_rules = {"mental_rolls_secret": 0}
    campaign.save()
    client_for(player).post(
        f"/campaigns/{campaign.pk}/dice/", {"check": f"{cirno.pk}:skill:legends"}
    )
    assert [r.detail.get("hidden_from_roller", False) for r in Roll.objects.order_by("pk")] == [
        False,
        False,
        False,
    ]
