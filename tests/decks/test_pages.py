"""The card and deck pages without JavaScript: filters, a card in words, a GM card refused
beside the form, the builder's counts and every broken rule, import and export."""

from __future__ import annotations

import re

import pytest

from decks.games import DBS, RSO
from decks.models import CustomCard, Deck
from tests.decks.conftest import preset

pytestmark = pytest.mark.django_db


def text_of(response) -> str:
    return response.content.decode()


def test_card_list_filters(client_for, player):
    page = client_for(player)
    everything = text_of(page.get("/cards/rso/"))
    assert (
        f"{len(RSO.engine.starter_card_set())} of {len(RSO.engine.starter_card_set())} cards"
        in everything
    )
    events = text_of(page.get("/cards/rso/?type=event"))
    n_events = sum(1 for c in RSO.engine.starter_card_set().values() if c["kind"] == "event")
    assert f"{n_events} of {len(RSO.engine.starter_card_set())} cards" in events
    battle = text_of(page.get("/cards/dbs/?type=battle&character=Hakurei+Reimu&cost=2"))
    assert "Sealing Circle of the Gohei" in battle and "Needle Drizzle" not in battle
    # Nonsense filters filter nothing rather than failing.
    assert page.get("/cards/rso/?type=dragon&cost=many").status_code == 200


def test_a_card_page_shows_the_card_in_words(client_for, player):
    body = text_of(client_for(player).get("/cards/rso/RSO-101/"))
    card = RSO.engine.starter_card_set()["RSO-101"]
    assert card["name"] in body
    for line in RSO.engine.card_lines(card, RSO.engine.starter_card_set()):
        assert line.replace("'", "&#x27;") in body
    dbs_body = text_of(client_for(player).get("/cards/dbs/DBS-103/"))
    assert "Level 3, attack 2200, costs 2 SP." in dbs_body
    assert "On a hit: Break 1 of your opponent&#x27;s SP beads." in dbs_body
    assert client_for(player).get("/cards/rso/RSO-999/").status_code == 404
    assert client_for(player).get("/cards/go/RSO-101/").status_code == 404


def test_a_gm_adds_a_card_and_sees_each_error_beside_the_form(client_for, gm, campaign):
    page = client_for(gm)
    url = f"/campaigns/{campaign.pk}/cards/"
    assert f'href="{url}" id="nav-cards"' in text_of(page.get(f"/campaigns/{campaign.pk}/"))
    bad = page.post(
        url,
        {
            "game": "rso",
            "card": "number: GM-001\nname: Moth Glow\nkind: spell\ncost: 2\n"
            "shot: spread\nav: 30\niv: 1\nhv: 1\n",
        },
    )
    assert bad.status_code == 400
    errors = re.search(r'id="card-errors">(.*?)</div>', text_of(bad), re.S).group(1)
    assert "av: must be between 0 and 20" in errors
    assert re.search(r'<textarea name="card"[^>]*>\s*number: GM-001', text_of(bad))
    unreadable = page.post(url, {"game": "rso", "card": "number: [GM-001\n"})
    assert unreadable.status_code == 400 and "not readable YAML or JSON" in text_of(unreadable)
    good = page.post(
        url,
        {
            "game": "rso",
            "card": "number: GM-001\nname: Moth Glow\nkind: spell\ncost: 2\n"
            "shot: spread\nav: 3\niv: 1\nhv: 1\n",
        },
    )
    card = CustomCard.objects.get()
    assert good.status_code == 302 and good["Location"] == f"/cards/gm/{card.pk}/"
    shown = text_of(page.get(good["Location"]))
    assert "Spread shot: AV 3, IV 1, HV 1" in shown and "GM card of Scarlet Mist" in shown
    edited = page.post(f"/cards/gm/{card.pk}/edit/", {"card": "number: GM-001\nname: X\n"})
    assert edited.status_code == 400 and "kind: must be one of" in text_of(edited)


def test_a_deck_from_a_preset_through_the_builder_without_javascript(client_for, player):
    page = client_for(player)
    key = DBS.engine.preset_decks()[0]["key"]
    created = page.post("/decks/", {"game": "dbs", "name": "Mine", "start": f"dbs:{key}"})
    deck = Deck.objects.get()
    assert created["Location"] == f"/decks/{deck.pk}/"
    builder = text_of(page.get(created["Location"]))
    assert 'id="deck-legal"' in builder and "40 cards" in builder
    # Two more copies of a card already at three breaks a rule, named in words.
    number = next(n for n in set(deck.cards) if deck.cards.count(n) == 3)
    back = page.post(
        f"/decks/{deck.pk}/cards/", {"number": number, "count": "4", "filters": "type=battle"}
    )
    assert back["Location"] == f"/decks/{deck.pk}/?type=battle#card-list"
    body = text_of(page.get(back["Location"]))
    assert "1 broken rule" in body and "is in it 4 times" in body
    bad = page.post(f"/decks/{deck.pk}/cards/", {"number": number, "count": "11"})
    assert bad.status_code == 302
    deck.refresh_from_db()
    assert deck.cards.count(number) == 4


def test_a_deck_for_the_wrong_games_preset_is_a_field_error(client_for, player):
    response = client_for(player).post(
        "/decks/",
        {"game": "rso", "name": "Odd", "start": f"dbs:{DBS.engine.preset_decks()[0]['key']}"},
    )
    assert response.status_code == 400 and "other game" in text_of(response)
    assert not Deck.objects.exists()


def test_a_broken_deck_shows_every_broken_rule_at_once(client_for, player):
    page = client_for(player)
    deck = Deck.objects.create(
        owner=player, game="rso", name="Broken", cards=["RSO-001"] * 3 + ["RSO-141"] * 4
    )
    body = text_of(page.get(f"/decks/{deck.pk}/"))
    rules = re.search(r'id="deck-errors".*?<ul>(.*?)</ul>', body, re.S).group(1)
    assert rules.count("<li>") == 4


def test_the_script_gets_counts_and_the_panel_as_json(client_for, player, rso_deck):
    response = client_for(player).post(
        f"/decks/{rso_deck.pk}/cards/",
        {"number": "RSO-305", "count": "3"},
        HTTP_X_REQUESTED_WITH="fetch",
    )
    data = response.json()
    assert data["counts"]["RSO-305"] == 3 and data["error"] == ""
    assert "A deck holds exactly 40" in data["panel"]
    refused = client_for(player).post(
        f"/decks/{rso_deck.pk}/cards/",
        {"number": "NOPE-1", "count": "1"},
        HTTP_X_REQUESTED_WITH="fetch",
    )
    assert refused.status_code == 400 and "no card" in refused.json()["error"]


def test_import_and_export_on_the_page(client_for, player, rso_deck):
    page = client_for(player)
    exported = page.get(f"/decks/{rso_deck.pk}/export/")
    assert exported["Content-Type"].startswith("text/plain")
    text = exported.content.decode()
    assert text.startswith("# Shrine copy\nCharacters:\n")
    other = Deck.objects.create(owner=player, game="rso", name="Other")
    assert page.post(f"/decks/{other.pk}/import/", {"text": text}).status_code == 302
    other.refresh_from_db()
    assert other.cards == rso_deck.cards
    bad = page.post(f"/decks/{other.pk}/import/", {"text": "2 Nobody\nxx\n"})
    assert bad.status_code == 400
    body = text_of(bad)
    assert "Line 1: no card is called" in body and "Line 2 should read like" in body
    other.refresh_from_db()
    assert other.cards == rso_deck.cards


def test_settings_rename_and_campaign(client_for, player, campaign, rso_deck, outsider):
    page = client_for(player)
    ok = page.post(f"/decks/{rso_deck.pk}/", {"name": "Renamed", "campaign": campaign.pk})
    assert ok.status_code == 302
    rso_deck.refresh_from_db()
    assert (rso_deck.name, rso_deck.campaign_id) == ("Renamed", campaign.pk)
    bad = page.post(f"/decks/{rso_deck.pk}/", {"name": "", "campaign": "999999"})
    assert bad.status_code == 400


def test_pages_have_no_inline_scripts(client_for, gm, campaign, rso_deck, player):
    """The site sends a Content-Security-Policy: scripts come only from static files."""
    urls = ["/cards/", "/cards/rso/", "/cards/dbs/DBS-001/", "/decks/", f"/decks/{rso_deck.pk}/"]
    for url in urls:
        body = text_of(client_for(player).get(url))
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", body), url
        assert not re.search(r"\son[a-z]+=", body), url
    body = text_of(client_for(gm).get(f"/campaigns/{campaign.pk}/cards/"))
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", body)
    assert 'src="/static/js/deck_builder.js"' in text_of(
        client_for(player).get(f"/decks/{rso_deck.pk}/")
    )


def test_every_preset_can_be_started_from_the_page(client_for, player):
    page = client_for(player)
    for game in (RSO, DBS):
        for p in game.engine.preset_decks():
            page.post(
                "/decks/",
                {"game": game.slug, "name": p["name"], "start": f"{game.slug}:{p['key']}"},
            )
    decks = Deck.objects.filter(owner=player)
    assert decks.count() == 8
    for deck in decks:
        game = RSO if deck.game == "rso" else DBS
        assert sorted(deck.cards) == sorted(
            preset(
                game, next(p["key"] for p in game.engine.preset_decks() if p["name"] == deck.name)
            )
        )


def test_the_builder_offers_only_cards_the_deck_may_hold(client_for, player, campaign, rso_gm_card):
    """A deck in no campaign cannot hold a campaign's GM card, so its builder does not offer it;
    tied to the campaign, it does."""
    page = client_for(player)
    deck = Deck.objects.create(owner=player, game="rso", name="Loose")
    assert 'data-number="GM-101"' not in text_of(page.get(f"/decks/{deck.pk}/"))
    assert 'data-number="GM-101"' in text_of(page.get("/cards/rso/"))
    deck.campaign = campaign
    deck.save()
    assert 'data-number="GM-101"' in text_of(page.get(f"/decks/{deck.pk}/"))
