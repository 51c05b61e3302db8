"""Campaign settings: every house rule editable by the GM, applied by the engine (RULINGS.md:
"Every ruling that is a number or a choice must be a house rule")."""

from __future__ import annotations

import pytest

from campaign.models import Campaign
from westernroses.house_rules import DEFAULT_HOUSE_RULES, HOUSE_RULES_META

pytestmark = pytest.mark.django_db


def _form(campaign, **changes):
    data = {"name": campaign.name, "description": campaign.description}
    data.update({k: str(v) for k, v in campaign.rules().to_dict().items()})
    data.update({k: str(v) for k, v in changes.items()})
    return data


@pytest.mark.parametrize(
    ("role", "get_status", "post_status"),
    [("gm", 200, 302), ("player", 403, 403), ("outsider", 404, 404), ("anonymous", 302, 302)],
)
def test_settings_page_per_role(
    role, get_status, post_status, campaign, gm, player, outsider, client_for
):
    user = {"gm": gm, "player": player, "outsider": outsider, "anonymous": None}[role]
    client = client_for(user)
    url = f"/campaigns/{campaign.pk}/settings/"
    assert client.get(url).status_code == get_status
    assert client.post(url, _form(campaign, stat_per_die=4)).status_code == post_status
    campaign.refresh_from_db()
    assert campaign.rules().stat_per_die == (4 if role == "gm" else 3)


def test_every_house_rule_is_on_the_page_with_its_default(campaign, gm, client_for):
    html = client_for(gm).get(f"/campaigns/{campaign.pk}/settings/").content.decode()
    for key, meta in HOUSE_RULES_META.items():
        assert f'name="{key}"' in html, key
        assert meta.label in html, key
    assert f"Default {DEFAULT_HOUSE_RULES.spell_power_cap}." in html


def test_gm_changes_a_rule_and_rolls_follow_it(campaign, gm, player, client_for, api_for):
    client_for(gm).post(
        f"/campaigns/{campaign.pk}/settings/", _form(campaign, critical_band=1, stat_per_die=4)
    )
    campaign.refresh_from_db()
    assert campaign.house_rules == {"critical_band": 1, "stat_per_die": 4}
    odds = (
        api_for(player)
        .get("/api/probability/", {"stat": 16, "target": 12, "campaign": campaign.pk})
        .json()
    )
    # PWR 16 at 4 points per die is 4d; with a band of 1 only 24 is a critical: 1/1296
    assert odds["notation"] == "4d"
    assert odds["critical_success"]["exact"] == "1/1296"


def test_out_of_range_values_are_field_errors_and_nothing_is_saved(campaign, gm, client_for):
    response = client_for(gm).post(
        f"/campaigns/{campaign.pk}/settings/",
        _form(campaign, stat_per_die=0, spell_power_cap=5, name="Renamed"),
    )
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert set(errors) == {"stat_per_die"}
    campaign.refresh_from_db()
    assert campaign.house_rules == {} and campaign.name == "Scarlet Mist"


def test_reset_returns_to_defaults(campaign, gm, client_for):
    campaign.house_rules = {"bomb_multiplier": 3}
    campaign.save()
    client_for(gm).post(f"/campaigns/{campaign.pk}/settings/", {"reset": "rules"})
    campaign.refresh_from_db()
    assert campaign.house_rules == {}


@pytest.mark.parametrize(
    ("role", "status"), [("gm", 200), ("player", 403), ("outsider", 404), ("anonymous", 401)]
)
def test_api_patch_per_role(role, status, campaign, gm, player, outsider, api_for):
    user = {"gm": gm, "player": player, "outsider": outsider, "anonymous": None}[role]
    response = api_for(user).patch(
        f"/api/campaigns/{campaign.pk}/",
        {"house_rules": {"starting_spell_power": 100}},
        format="json",
    )
    assert response.status_code == status
    campaign.refresh_from_db()
    assert campaign.rules().starting_spell_power == (100 if role == "gm" else 50)


def test_api_shows_rules_and_rejects_bad_ones(campaign, gm, api_for):
    client = api_for(gm)
    body = client.get(f"/api/campaigns/{campaign.pk}/").json()
    assert body["house_rules"] == DEFAULT_HOUSE_RULES.to_dict()
    assert body["house_rules_changed"] == {}
    bad = client.patch(
        f"/api/campaigns/{campaign.pk}/",
        {"house_rules": {"stat_per_die": "three", "no_such_rule": 1, "bomb_multiplier": 99}},
        format="json",
    )
    assert bad.status_code == 400
    errors = bad.json()["errors"]["house_rules"]
    assert set(errors) == {"no_such_rule"} or {"stat_per_die", "bomb_multiplier"} <= set(errors)
    assert Campaign.objects.get(pk=campaign.pk).house_rules == {}
    good = client.patch(
        f"/api/campaigns/{campaign.pk}/", {"house_rules": {"bomb_multiplier": 3}}, format="json"
    )
    assert good.json()["house_rules_changed"] == {"bomb_multiplier": 3}


def test_starting_spell_power_above_the_cap_is_refused_beside_the_field(campaign, gm, client_for):
    """RULINGS 8: spell power is never above the cap, so a battle cannot start above it (the
    tester saved 60 / 10 and the sheets read "Start / cap 60 / 10")."""
    response = client_for(gm).post(
        f"/campaigns/{campaign.pk}/settings/",
        _form(campaign, starting_spell_power=60, spell_power_cap=10, name="Renamed"),
    )
    assert response.status_code == 400
    (message,) = response.context["form"].errors["starting_spell_power"]
    assert message.startswith("Starting spell power (60) cannot be above the spell power cap (10)")
    assert message in response.content.decode()
    campaign.refresh_from_db()
    assert campaign.house_rules == {} and campaign.name == "Scarlet Mist"
    equal = client_for(gm).post(
        f"/campaigns/{campaign.pk}/settings/",
        _form(campaign, starting_spell_power=10, spell_power_cap=10),
    )
    assert equal.status_code == 302


def test_api_refuses_a_start_above_the_cap_stored_or_given(campaign, gm, api_for):
    """RULINGS 8, whether both values come in one request or the cap was stored before."""
    client = api_for(gm)
    url = f"/api/campaigns/{campaign.pk}/"
    both = client.patch(
        url, {"house_rules": {"starting_spell_power": 60, "spell_power_cap": 10}}, format="json"
    )
    assert both.status_code == 400
    (message,) = both.json()["errors"]["house_rules"]["starting_spell_power"]
    assert "cannot be above the spell power cap (10)" in message
    lowered_both = {"house_rules": {"spell_power_cap": 40, "starting_spell_power": 30}}
    assert client.patch(url, lowered_both, format="json").status_code == 200
    later = client.patch(url, {"house_rules": {"starting_spell_power": 60}}, format="json")
    assert later.status_code == 400
    (message,) = later.json()["errors"]["house_rules"]["starting_spell_power"]
    assert "cannot be above the spell power cap (40)" in message
    lowered = client.patch(url, {"house_rules": {"spell_power_cap": 20}}, format="json")
    assert lowered.status_code == 400  # the stored start (30) would sit above it
    campaign.refresh_from_db()
    assert campaign.house_rules == {"spell_power_cap": 40, "starting_spell_power": 30}
