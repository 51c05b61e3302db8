"""Battle pages (the list with the GMs' create form, the screen's configuration), the campaign
timeline and GM dashboard entries, and the demo data."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command

from battles.models import Battle
from campaign.registry import dashboard_panels, timeline_sources
from gmtools.timeline import timeline_page
from tests.battles.conftest import build_battle

pytestmark = pytest.mark.django_db


def test_list_page_and_create_form(campaign, gm, player, client_for):
    gm_client = client_for(gm)
    page = gm_client.get(f"/campaigns/{campaign.pk}/battles/")
    assert page.status_code == 200
    assert b'id="battle-form"' in page.content
    assert (
        b'id="battle-form"'
        not in client_for(player).get(f"/campaigns/{campaign.pk}/battles/").content
    )
    bad = gm_client.post(f"/campaigns/{campaign.pk}/battles/", {"name": "", "width": "99"})
    assert bad.status_code == 400
    assert not Battle.objects.exists()
    ok = gm_client.post(
        f"/campaigns/{campaign.pk}/battles/", {"name": "Gate", "width": "10", "height": "6"}
    )
    battle = Battle.objects.get()
    assert ok.status_code == 302 and ok["Location"] == f"/battles/{battle.pk}/"
    listed = client_for(player).get(f"/campaigns/{campaign.pk}/battles/")
    assert b"Gate" in listed.content


def _config(response) -> dict:
    text = response.content.decode()
    start = text.index('<script id="battle-config" type="application/json">') + len(
        '<script id="battle-config" type="application/json">'
    )
    return json.loads(text[start : text.index("</script>", start)])


def test_the_screen_carries_urls_and_lookups_not_the_state(setup_battle, gm, player, client_for):
    pk = setup_battle.battle.pk
    gm_page = client_for(gm).get(f"/battles/{pk}/")
    assert gm_page.status_code == 200
    assert b"battle_gm.js" in gm_page.content and b'id="gm-panel"' in gm_page.content
    config = _config(gm_page)
    assert config["player"] == "gm" and config["is_gm"] is True
    assert config["urls"]["state"] == f"/api/battles/{pk}/state/"
    assert {c["engine_id"] for c in config["characters"]} >= {setup_battle.pc}
    assert "stun" in dict(config["statuses"])
    player_page = client_for(player).get(f"/battles/{pk}/")
    assert b"battle_gm.js" not in player_page.content and b"gm-panel" not in player_page.content
    config = _config(player_page)
    assert config["player"] == str(player.pk)
    assert "characters" not in config
    assert config["members"][str(player.pk)] == player.shown_name


def test_timeline_lists_started_and_ended_battles(started, gm, player, campaign, client_for):
    from battles import services
    from campaign.permissions import access_for

    assert "battle" in timeline_sources()
    services.battle_action_apply(
        battle_id=started.battle.pk,
        actor=gm,
        action={"type": "gm_end_battle", "winner": "heroes"},
        expected_version=started.version,
    )
    entries = timeline_page(access_for(gm, campaign), kinds={"battle"}).entries
    assert [e.title for e in entries] == [
        "Battle ended: Battle at the lake",
        "Battle started: Battle at the lake",
    ]
    assert entries[0].url == f"/battles/{started.battle.pk}/"
    assert entries[0].body == "Ended: heroes won"
    page = client_for(player).get(f"/campaigns/{campaign.pk}/timeline/?kind=battle")
    assert page.status_code == 200
    assert b"Battle started: Battle at the lake" in page.content


def test_dashboard_panel_shows_whose_turn_it_is(started, setup_battle, gm, campaign, client_for):
    panel = next(p for p in dashboard_panels("active_battles") if p.key == "battles")
    from campaign.permissions import access_for

    items = panel.items(campaign=campaign, access=access_for(gm, campaign))
    battle = started.refresh()
    assert items[0]["title"] == battle.name
    assert items[0]["detail"].startswith("Round 1 · ") and items[0]["detail"].endswith("'s turn")
    before = panel.version(campaign=campaign)
    build_battle(campaign, gm, [], npcs=1)
    assert panel.version(campaign=campaign) != before
    page = client_for(gm).get(f"/campaigns/{campaign.pk}/dashboard/")
    assert page.status_code == 200
    assert f'href="/battles/{battle.pk}/"'.encode() in page.content


def test_seed_demo_adds_a_battle_on_a_map_once(client_for, settings, tmp_path):
    """The demo battle a newcomer opens lies on a map (drawn at seed time, added through the
    map library as an upload is), its grid aligned square for square with the 10×7 arena; the
    map's image is served to the demo's members."""
    import io

    from PIL import Image

    from battles.models import BattleMap

    settings.MEDIA_ROOT = str(tmp_path / "media")
    out = StringIO()
    for _ in range(2):
        call_command("seed_demo", stdout=out)
    battle = Battle.objects.get(name="Fairies at Misty Lake")
    assert battle.status == "setup"
    names = sorted(c["name"] for c in battle.state["combatants"].values())
    assert names == ["Luna Child", "Marisa Kirisame", "Reimu Hakurei", "Sunny Milk"]
    # Sakuya's wiki entry has a stat block, ready to add from the GM's screen (issue 43)
    from wiki.models import Entry

    sakuya = Entry.objects.get(campaign=battle.campaign, title="Sakuya Izayoi")
    assert sakuya.stat_block is not None and sakuya.stat_block["hp"] == 100
    gm_screen = client_for(battle.campaign.created_by).get(f"/battles/{battle.pk}/")
    assert b"Sakuya Izayoi" in gm_screen.content and b"HP 100" in gm_screen.content
    assert battle.state["arena"]["blocked"] == [[4, 1], [4, 5]]
    assert f"/battles/{battle.pk}/" in out.getvalue()

    assert BattleMap.objects.filter(campaign=battle.campaign).count() == 1
    demo_map = battle.map
    assert demo_map is not None and demo_map.name == "Misty Lake shore"
    arena = battle.state["arena"]
    assert (demo_map.cols, demo_map.rows) == (arena["width"], arena["height"]) == (10, 7)
    assert (demo_map.offset_x, demo_map.offset_y, demo_map.square_px) == (0, 0, 64)
    assert (demo_map.width_px, demo_map.height_px) == (10 * 64, 7 * 64)

    reimu = battle.campaign.memberships.get(user__username="reimu").user
    view = client_for(reimu).get(f"/api/battles/{battle.pk}/state/").json()["view"]
    assert view["map"]["cols"] == 10 and view["map"]["square_px"] == 64
    image = client_for(reimu).get(view["map"]["url"])
    assert image.status_code == 200 and image["Content-Type"] == "image/png"
    picture = Image.open(io.BytesIO(b"".join(image.streaming_content)))
    assert picture.size == (demo_map.width_px, demo_map.height_px)
    # a boulder is drawn on the blocking square (4, 1), grass on the open square (1, 1)
    boulder, grass = picture.getpixel((4 * 64 + 32, 64 + 32)), picture.getpixel((64 + 8, 64 + 8))
    assert boulder != grass
