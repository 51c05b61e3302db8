"""The cards and decks API: field errors on 400, every broken rule, text import/export,
and never a 500 for bad input."""

from __future__ import annotations

import pytest

from decks.games import DBS, RSO
from decks.models import CustomCard, Deck
from tests.decks.conftest import DBS_GM_CHARACTER, RSO_GM_SPELL, preset

pytestmark = pytest.mark.django_db


def test_card_list_filters_and_words(api_for, player, rso_gm_card):
    client = api_for(player)
    everything = client.get("/api/card-games/rso/cards/").json()
    assert len(everything) == len(RSO.engine.starter_card_set()) + 1
    rows = client.get("/api/card-games/rso/cards/?type=spell&character=Reimu&cost=3").json()
    assert rows and all(
        r["kind"] == "spell" and "Reimu" in r["characters"] and r["cost"] == 3 for r in rows
    )
    # the older names repeat the card's kind (docs/decks.md, the API)
    assert all((r["type"], r["type_label"]) == (r["kind"], r["kind_label"]) for r in rows)
    found = client.get("/api/card-games/rso/cards/?q=lantern").json()
    assert [r["number"] for r in found] == ["GM-101"]
    assert found[0]["custom_card"] == rso_gm_card.pk
    assert found[0]["lines"][0].startswith("Spell, 2 SP. General")
    one = client.get("/api/card-games/dbs/cards/DBS-001/").json()
    assert one["name"] == "Hakurei Reimu" and one["kind_label"] == "Character"


# ``campaign=x`` names no campaign: a 404 like every list's (tests/hardening/test_bad_input.py)
@pytest.mark.parametrize("query", ["cost=abc", "cost=-1", "q=" + "x" * 101], ids=str)
def test_bad_filters_are_a_400_with_the_field(api_for, player, query):
    response = api_for(player).get(f"/api/card-games/rso/cards/?{query}")
    assert response.status_code == 400
    assert query.split("=")[0] in response.json()["errors"]


def test_unknown_game_and_card_are_404(api_for, player):
    assert api_for(player).get("/api/card-games/chess/cards/").status_code == 404
    assert api_for(player).get("/api/card-games/rso/cards/RSO-999/").status_code == 404


def test_a_gm_adds_a_card_and_a_bad_one_gets_field_errors(api_for, gm, campaign):
    client = api_for(gm)
    ok = client.post(
        "/api/custom-cards/",
        {"game": "rso", "campaign": campaign.pk, "data": RSO_GM_SPELL},
        format="json",
    )
    assert ok.status_code == 201, ok.content
    assert ok.json()["lines"][1] == "Spread shot: AV 3, IV 2, HV 3"
    assert (ok.json()["kind"], ok.json()["card_type"]) == ("spell", "spell")  # and its older name
    bad = client.post(
        "/api/custom-cards/",
        {
            "game": "rso",
            "campaign": campaign.pk,
            "data": {**RSO_GM_SPELL, "number": "GM-102", "basic": {"faith": 0}},
        },
        format="json",
    )
    assert bad.status_code == 400
    assert bad.json()["errors"] == {"data.basic.faith": ["must be between 1 and 9"]}
    assert CustomCard.objects.count() == 1


@pytest.mark.parametrize(
    ("game", "data", "field", "words"),
    [
        (
            "rso",
            {
                "number": "GM-103",
                "name": "Late Objection",
                "kind": "event",
                "cost": 1,
                "phases": ["preparation"],
                "role": "intercept",
                "effects": [{"do": "gain_sp", "amount": 1}],
            },
            "data.role",
            "only the attacking player acts in the Preparation phase, so this, for the "
            "intercepting player, could never be played",
        ),
        (
            "dbs",
            {
                "number": "GM-010",
                "name": "Last Breath Charm",
                "kind": "buff",
                "cost": 1,
                "requires": [{"check": "lp_below", "amount": 0}],
                "effects": [{"do": "heal", "amount": 500}],
            },
            "data.requires[0].amount",
            "your LP below 0 means below 0, which ends the game by Knock Out, so this card "
            "could never be played.",
        ),
    ],
    ids=["rso-event", "dbs-buff"],
)
def test_a_card_that_could_never_be_played_is_a_400_naming_the_field(
    api_for, gm, campaign, game, data, field, words
):
    """The engines' validators refuse a card no game could ever play; the API says why in
    words under the field's name, and saves nothing."""
    r = api_for(gm).post(
        "/api/custom-cards/", {"game": game, "campaign": campaign.pk, "data": data}, format="json"
    )
    assert r.status_code == 400
    assert r.json()["errors"] == {field: [words]}
    assert not CustomCard.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"game": "go", "data": {}},
        {"game": "rso", "campaign": "x", "data": {}},
        {"game": "rso", "data": "text"},
        {"game": "rso", "data": [1, 2]},
        {"game": "dbs", "data": {"number": 5, "name": None, "kind": []}},
    ],
    ids=str,
)
def test_malformed_card_bodies_are_400_never_500(api_for, gm, campaign, body):
    body = {**body}
    if "campaign" not in body and "game" in body:
        body["campaign"] = campaign.pk
    response = api_for(gm).post("/api/custom-cards/", body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["errors"]


def test_update_and_delete_a_card(api_for, gm, rso_gm_card):
    client = api_for(gm)
    url = f"/api/custom-cards/{rso_gm_card.pk}/"
    response = client.put(url, {"data": {**RSO_GM_SPELL, "hv": 5}}, format="json")
    assert response.status_code == 200 and response.json()["data"]["hv"] == 5
    response = client.patch(url, {"data": {**RSO_GM_SPELL, "hv": 99}}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"] == {"data.hv": ["must be between 0 and 20"]}
    page = client.get("/api/custom-cards/?game=rso&limit=1").json()  # paged like every list
    assert (page["count"], page["next"]) == (1, None)
    listed = client.get("/api/custom-cards/?game=rso").json()["results"]
    assert [c["number"] for c in listed] == ["GM-101"]
    assert listed[0]["lines"][0] == "Spell, 2 SP. General (anyone may use it)."
    assert client.get("/api/custom-cards/?game=dbs").json()["results"] == []
    assert client.delete(url).status_code == 204
    assert not CustomCard.objects.exists()


def test_deck_crud_with_legality(api_for, player):
    client = api_for(player)
    created = client.post(
        "/api/decks/", {"game": "dbs", "name": "Stars", "cards": preset(DBS)}, format="json"
    )
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["legal"] is True and body["errors"] == [] and body["total"] == 40
    assert body["seat_key"] == f"deck:{body['id']}"
    url = f"/api/decks/{body['id']}/"
    changed = client.patch(url, {"cards": ["DBS-101"] * 4}, format="json").json()
    assert changed["legal"] is False
    assert changed["errors"] == [
        "A deck needs at least 40 cards; this one has 4.",
        "At most 3 cards of the same number are allowed; Paper Charm Flurry (DBS-101) is in "
        "it 4 times.",
        "A deck needs at least one character card.",
    ]
    assert client.put(url, {"name": "Renamed"}, format="json").json()["name"] == "Renamed"
    listed = client.get("/api/decks/?game=dbs").json()
    assert [d["name"] for d in listed["results"]] == ["Renamed"] and listed["count"] == 1
    assert client.delete(url).status_code == 204
    assert not Deck.objects.exists()


def test_validate_import_and_export(api_for, player, rso_deck):
    client = api_for(player)
    text = client.get(f"/api/decks/{rso_deck.pk}/export/").json()["text"]
    checked = client.post("/api/decks/validate/", {"game": "rso", "text": text}, format="json")
    assert checked.json() == {"legal": True, "errors": [], "cards": rso_deck.cards}
    broken = client.post(
        "/api/decks/validate/", {"game": "rso", "cards": ["RSO-101"] * 2}, format="json"
    ).json()
    assert broken["legal"] is False and len(broken["errors"]) == 3
    fresh = client.post(
        "/api/decks/", {"game": "rso", "name": "Pasted", "text": text}, format="json"
    )
    assert fresh.json()["cards"] == rso_deck.cards
    bad = client.post(
        f"/api/decks/{rso_deck.pk}/import/", {"text": "2 Nobody At All\n"}, format="json"
    )
    assert bad.status_code == 400
    assert bad.json()["errors"] == {"text": ["Line 1: no card is called 'Nobody At All'."]}
    imported = client.post(
        f"/api/decks/{rso_deck.pk}/import/", {"text": "3 RSO-101\n"}, format="json"
    )
    assert imported.status_code == 200 and imported.json()["cards"] == ["RSO-101"] * 3


@pytest.mark.parametrize(
    "body",
    [
        {"game": "rso"},
        {"game": "rso", "name": ""},
        {"game": "rso", "name": "x" * 81},
        {"game": "rso", "name": "A", "cards": "RSO-101"},
        {"game": "rso", "name": "A", "cards": ["RSO-101"] * 121},
        {"game": "rso", "name": "A", "cards": ["<b>x</b>"]},
        {"game": "rso", "name": "A", "cards": ["x" * 13]},
        {"game": "rso", "name": "A", "text": "x" * 10_001},
        {"game": "rso", "name": "A", "text": "nonsense"},
        {"game": "rso", "name": "A", "cards": [], "text": "3 RSO-101"},
        {"game": "rso", "name": "A", "campaign": 999999},
    ],
    ids=lambda b: ",".join(sorted(b)) + f"/{str(b)[:40]}",
)
def test_malformed_deck_bodies_are_400_never_500(api_for, player, body):
    response = api_for(player).post("/api/decks/", body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["errors"]


def test_a_deck_can_use_a_campaigns_gm_cards(api_for, player, campaign, gm):
    added = api_for(gm).post(
        "/api/custom-cards/",
        {"game": "dbs", "campaign": campaign.pk, "data": DBS_GM_CHARACTER},
        format="json",
    )
    assert added.status_code == 201, added.content
    cards = [*preset(DBS)[:39], "GM-001"]
    loose = api_for(player).post(
        "/api/decks/", {"game": "dbs", "name": "Loose", "cards": cards}, format="json"
    )
    assert loose.json()["errors"] == ["There is no card numbered GM-001 in this card set."]
    tied = api_for(player).post(
        "/api/decks/",
        {"game": "dbs", "name": "Tied", "cards": cards, "campaign": campaign.pk},
        format="json",
    )
    assert tied.json()["errors"] == []


def test_seat_decks_endpoint(api_for, player, rso_deck):
    rows = api_for(player).get("/api/card-games/rso/seat-decks/").json()
    assert rows[-1] == {"key": f"deck:{rso_deck.pk}", "name": "Shrine copy"}
    assert len(rows) == 5


def test_the_schema_lists_the_routes(api_for, player):
    schema = api_for(player).get("/api/schema/", {"format": "json"}).json()
    for path in (
        "/api/decks/",
        "/api/decks/{id}/import/",
        "/api/decks/validate/",
        "/api/custom-cards/",
        "/api/card-games/{game}/cards/",
    ):
        assert path in schema["paths"], path


def test_the_deck_list_pages_and_refuses_a_bad_limit(api_for, player):
    """Like every list (docs/api.md): paged with ``limit`` and ``offset``, and a limit or
    offset that is not a whole number is a 400 naming it, not ignored."""
    from decks import services

    for i in range(3):
        services.deck_create(by=player, game="rso", name=f"Deck {i}", cards=preset(RSO))
    api = api_for(player)
    first = api.get("/api/decks/?limit=2").json()
    assert first["count"] == 3 and [d["name"] for d in first["results"]] == ["Deck 0", "Deck 1"]
    rest = api.get(first["next"]).json()
    assert [d["name"] for d in rest["results"]] == ["Deck 2"] and rest["next"] is None
    for query, field in (("limit=abc", "limit"), ("limit=0", "limit"), ("offset=-1", "offset")):
        for listed in ("decks", "custom-cards"):
            refused = api.get(f"/api/{listed}/?{query}")
            assert refused.status_code == 400, listed
            assert list(refused.json()["errors"]) == [field]


def test_the_seat_key_the_decks_api_gives_seats_that_deck_at_a_tavern_table(
    api_for, player, rso_deck
):
    """The key the decks API hands out (seat-decks' ``key``, each deck's ``seat_key``) is the
    key a tavern seat takes; the tavern refused it ("Choose one of the decks offered.") and
    wanted ``saved:deck:<id>``, which tables made before still hold and still play."""
    from minigames.models import TavernSeat

    api = api_for(player)
    key = api.get(f"/api/decks/{rso_deck.pk}/").json()["seat_key"]
    assert key in {row["key"] for row in api.get("/api/card-games/rso/seat-decks/").json()}
    for sent in (key, f"saved:{key}"):
        made = api.post(
            "/api/tavern/tables/",
            {
                "game": "rso",
                "seats": [{"kind": "host", "deck": sent}, {"kind": "bot", "strength": "random"}],
            },
            format="json",
        )
        assert made.status_code == 201, made.json()
        table = made.json()["id"]
        assert TavernSeat.objects.get(table_id=table, index=0).deck == key
        assert api.post(f"/api/tavern/tables/{table}/start/").status_code == 200
    someone_elses = api.post(
        "/api/tavern/tables/",
        {"game": "rso", "seats": [{"kind": "host", "deck": "deck:999999"}, {"kind": "open"}]},
        format="json",
    )
    assert someone_elses.status_code == 400
    assert someone_elses.json()["errors"]["deck"] == ["Choose one of the decks offered."]
