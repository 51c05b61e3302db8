"""The campaign feature's "done when", in headless Chromium with a browser context per person:
a GM creates a campaign, invites two players with a link, schedules a session and keeps the
dashboard open while the players build their characters in the wizard; the dashboard shows
them without a reload; the GM awards loot and applies a status from the dashboard, and both
show on the dashboard (still without a reload) and on the player's sheet."""

from __future__ import annotations

import pytest

from campaign.models import Campaign, Membership
from characters.models import Character, InventoryItem
from gmtools.models import GameSession, Invitation
from notifications.models import Notification
from tests.browser.wizard import choose

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def build_character(page, campaign: Campaign, name: str) -> Character:
    """Build a legal level-1 Carefree Soul (a water fairy) through the wizard, step by step."""
    page.goto(f"/campaigns/{campaign.pk}/")
    page.click("#campaign-characters-link")
    page.click("#new-character")
    page.wait_for_selector("#step-next")
    choose(page, "input[name=shot_type][value=homing_amulets]")
    page.click("#step-next")
    choose(page, "input[name=race][value=fairy]")
    page.click("#step-next")
    choose(page, "input[name=profession][value=carefree_soul]")
    page.click("#step-next")
    choose(page, "input[name=element][value=water]")
    page.click("#step-next")
    page.fill("#id_bonus_cha", "5")
    page.fill("#id_bonus_int", "10")
    page.fill("#id_bonus_ins", "5")
    page.click("#step-next")
    page.fill("#id_skill_flying", "5")
    page.fill("#id_skill_sense", "5")
    page.click("#step-next")
    choose(page, "input[name=abilities][value=keen_senses]")
    page.click("#step-next")
    page.fill("#id_name", name)
    page.wait_for_selector("#live-ok")
    page.click("#save-button")
    page.wait_for_selector("#sheet")
    return Character.objects.get(name=name, campaign=campaign)


def party_row(page, character: Character) -> str:
    return f'#party tr[data-character="{character.pk}"]'


def test_gm_runs_a_campaign_from_the_dashboard(new_page, gm, player, other_player):
    # The GM creates a campaign.
    gm_page = new_page(gm)
    gm_page.goto("/campaigns/new/")
    gm_page.fill("#id_name", "The Eternal Night")
    gm_page.fill("#id_description", "The moon is wrong.")
    gm_page.click("main form button[type=submit]")
    gm_page.wait_for_url("**/campaigns/*/")
    campaign = Campaign.objects.get(name="The Eternal Night")

    # ... creates an invitation link for two players ...
    gm_page.click("#nav-invitations")
    gm_page.select_option("#id_role", "player")
    gm_page.fill("#id_max_uses", "2")
    gm_page.fill("#id_note", "Reimu and Marisa")
    gm_page.click("#create-invitation")
    link = gm_page.input_value("#invitation-list .invite-link")
    invitation = Invitation.objects.get(campaign=campaign)
    assert link.endswith(f"/campaigns/join/{invitation.token}/")

    # ... both players open it, each in their own browser, and join.
    players = {}
    for user in (player, other_player):
        page = new_page(user)
        page.goto(link)
        assert "The Eternal Night" in page.text_content("#join h1")
        page.click("#join-button")
        page.wait_for_url(f"**/campaigns/{campaign.pk}/")
        assert "Welcome" in page.text_content(".messages")
        players[user.username] = page
    assert Membership.objects.filter(campaign=campaign, role="player").count() == 2

    # The GM schedules a session; the players are told.
    gm_page.click("#nav-sessions")
    gm_page.fill("#id_title", "Night of the false moon")
    gm_page.fill("#id_starts_at", "2031-09-14T20:00")
    gm_page.fill("#id_agenda", "Find who stole the moon.")
    gm_page.click("#schedule-session")
    gm_page.wait_for_selector("#session-starts")
    assert GameSession.objects.filter(campaign=campaign).count() == 1
    for user in (player, other_player):
        assert Notification.objects.filter(recipient=user, event="session_scheduled").exists()

    # The GM opens the dashboard and keeps it open (a marker tells a reload apart).
    gm_page.click("#nav-dashboard")
    gm_page.wait_for_selector("#party-empty")
    assert "Night of the false moon" in gm_page.text_content("#next-session")
    gm_page.evaluate("window.__stillTheSamePage = true")

    # The players build their characters; the dashboard shows each without a reload.
    reimu = build_character(players[player.username], campaign, "Reimu")
    gm_page.wait_for_selector(party_row(gm_page, reimu))
    marisa = build_character(players[other_player.username], campaign, "Marisa")
    gm_page.wait_for_selector(party_row(gm_page, marisa))
    hp = gm_page.text_content(f"{party_row(gm_page, reimu)} .hp-max")
    assert int(hp) > 0
    assert gm_page.text_content(f"{party_row(gm_page, reimu)} .level").strip() == "1"
    yen_before = reimu.yen

    # The GM awards loot to both from the dashboard ...
    gm_page.check(f"#award-character-{reimu.pk}")
    gm_page.check(f"#award-character-{marisa.pk}")
    gm_page.fill("#award-yen", "40")
    gm_page.select_option("#award-item-1", "tankard")
    gm_page.fill("#award-qty-1", "2")
    gm_page.fill("#award-reason", "The rabbits' treasure")
    gm_page.click("#award-submit")
    gm_page.wait_for_function(
        "([sel, yen]) => document.querySelector(sel)?.textContent.trim() === yen",
        arg=[f"{party_row(gm_page, reimu)} .yen", str(yen_before + 40)],
    )
    assert "Awarded 40 yen" in gm_page.text_content("#quick-result")
    gm_page.wait_for_selector(f'{party_row(gm_page, marisa)} [data-item="tankard"]')
    assert InventoryItem.objects.get(character=reimu, item="tankard").quantity == 2

    # ... and stuns Reimu.
    gm_page.select_option("#status-character", str(reimu.pk))
    gm_page.select_option("#status-status", "stun")
    gm_page.click("#status-submit")
    gm_page.wait_for_selector(f'{party_row(gm_page, reimu)} [data-status="stun"]')
    assert "cannot act" in gm_page.text_content(party_row(gm_page, reimu))
    assert gm_page.evaluate("window.__stillTheSamePage") is True

    # The player's sheet shows the loot and the status.
    sheet = players[player.username]
    sheet.goto(f"/characters/{reimu.pk}/")
    assert sheet.text_content("#sheet-yen") == str(yen_before + 40)
    assert "2" in sheet.text_content('#inventory tr[data-item="tankard"]')
    assert "Stun" in sheet.text_content("section[aria-labelledby=state-h]")
    assert Notification.objects.filter(recipient=player, event="loot_awarded").exists()


def test_dashboard_quick_actions_work_without_javascript(
    browser, live_server, campaign, gm, player
):
    """A plain form post, then back to the dashboard (POST, redirect, GET), with a message."""
    from tests.factories import CharacterFactory

    character = CharacterFactory(owner=player, campaign=campaign, name="Cirno")
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto("/accounts/login/")
        page.fill("#id_username", gm.username)
        page.fill("#id_password", "correct-horse-battery-staple")
        page.click("form button[type=submit]")
        page.goto(f"/campaigns/{campaign.pk}/dashboard/")
        page.select_option("#status-character", str(character.pk))
        page.select_option("#status-status", "blind")
        page.click("#status-submit")
        page.wait_for_url(f"**/campaigns/{campaign.pk}/dashboard/")
        assert "Cirno: Blind applied." in page.text_content(".messages")
        assert (
            page.locator(
                f'#party tr[data-character="{character.pk}"] [data-status="blind"]'
            ).count()
            == 1
        )
        # an error re-renders the dashboard with the reason (no JavaScript to show it inline)
        page.fill("#roll-notation", "4q")
        page.click("#roll-submit")
        assert "notation" in page.text_content("#roll-form .form-errors")
    finally:
        context.close()
