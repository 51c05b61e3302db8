"""The spellcard API: per-role permissions, pricing that matches the engine, every broken rule
in a 400, deck limits, template copies, and a price endpoint that needs no database."""

from __future__ import annotations

import pytest

from spellcards.models import DeckEntry, Spellcard
from tests.factories import SpellcardFactory, TemplateCardFactory, attack_draft
from westernroses.spellcards import CasterInfo, SpellcardDraft, price

pytestmark = pytest.mark.django_db

ROLES = ("owner", "gm", "other_player", "outsider", "anonymous")


@pytest.fixture
def as_role(api_for, player, gm, other_player, outsider):
    users = {
        "owner": player,
        "gm": gm,
        "other_player": other_player,
        "outsider": outsider,
        "anonymous": None,
    }
    return lambda role: api_for(users[role])


# Expected status per role: owner and GM act; another member learns the character exists from
# its public sheet (403); outsiders get 404; anonymous callers 401.
EXPECTED = {"owner": 200, "gm": 200, "other_player": 403, "outsider": 404, "anonymous": 401}


@pytest.mark.parametrize("role", ROLES)
def test_list_a_characters_cards(as_role, role, character):
    SpellcardFactory(character=character, name="Fantasy Seal")
    response = as_role(role).get(f"/api/spellcards/?character={character.pk}")
    assert response.status_code == EXPECTED[role]
    if response.status_code == 200:
        assert [c["name"] for c in response.json()["results"]] == ["Fantasy Seal"]


@pytest.mark.parametrize("role", ROLES)
def test_retrieve_update_delete_per_role(as_role, role, character):
    card = SpellcardFactory(character=character)
    client = as_role(role)
    assert client.get(f"/api/spellcards/{card.pk}/").status_code == EXPECTED[role]
    response = client.patch(
        f"/api/spellcards/{card.pk}/", {"description": "Seals evil."}, format="json"
    )
    assert response.status_code == EXPECTED[role]
    deleted = client.delete(f"/api/spellcards/{card.pk}/")
    assert deleted.status_code == (204 if EXPECTED[role] == 200 else EXPECTED[role])
    assert Spellcard.objects.filter(pk=card.pk).exists() == (EXPECTED[role] != 200)


@pytest.mark.parametrize("role", ROLES)
def test_create_per_role(as_role, role, character):
    response = as_role(role).post(
        "/api/spellcards/",
        {"character": character.pk, "draft": attack_draft(), "add_to_deck": 1},
        format="json",
    )
    assert response.status_code == (201 if EXPECTED[role] == 200 else EXPECTED[role])
    assert Spellcard.objects.exists() == (EXPECTED[role] == 200)


def test_list_without_character_shows_what_you_may_act_for(
    api_for, character, librarian, player, gm, other_player
):
    SpellcardFactory(character=character, name="Reimu's")
    SpellcardFactory(character=librarian, name="Patchouli's")

    def names(user):
        return sorted(c["name"] for c in api_for(user).get("/api/spellcards/").json()["results"])

    assert names(player) == ["Reimu's"]
    assert names(other_player) == ["Patchouli's"]
    assert names(gm) == ["Patchouli's", "Reimu's"]


# Rulebook cards (ruleset "Spellcards" tables; RULINGS 5-7), priced by the Shrine Maiden
# (spirit, goddess of light, Homing Amulets) through the API: the same totals as the engine.
RULEBOOK_CARDS = [
    # Single 10 + 1d 5 = 15, raised to the 20 minimum.
    (attack_draft(attack_power={"dice": 1, "modifier": 0}), 20),
    # Single 10 + 3d 15 + modifier +6 (5 × 10 + 20) = 95.
    (attack_draft(attack_power={"dice": 3, "modifier": 6}), 95),
    # RULINGS 5: AOE 3 100 + 2 × Two Targets 20 + 2d 10 = 150.
    (attack_draft(aoe=3, targets="two"), 150),
    # Bomb: 10 + 1d 5 = 15 → 20 → ×2 = 40 ("would cost 40 as a bomb").
    (attack_draft(attack_power={"dice": 1, "modifier": 0}, bomb=True), 40),
    # Elements (RULINGS 6): spirit caster, wind card (other cycle) 80: 10 + 10 + 80 = 100.
    (attack_draft(element="wind"), 100),
    # Healing 2d over 3 rounds: Single 10 + 3 rounds 50 + 2d healing 40 × 2 = 140.
    (
        attack_draft(
            type="special",
            attack_power=None,
            duration="single_space_3",
            skills=[{"slug": "healing", "params": {"dice": 2}}],
        ),
        140,
    ),
]


@pytest.mark.parametrize(("draft", "total"), RULEBOOK_CARDS)
def test_price_through_the_api_matches_the_engine(api_for, player, character, draft, total):
    caster = CasterInfo("shrine_maiden", "homing_amulets", "spirit", goddess_element="light")
    engine = price(SpellcardDraft.from_dict(draft), caster).to_dict()
    by_character = api_for(player).post(
        "/api/spellcards/price/", {"draft": draft, "character": character.pk}, format="json"
    )
    explicit = api_for(None).post(
        "/api/spellcards/price/",
        {
            "draft": draft,
            "caster": {
                "profession": "shrine_maiden",
                "shot_type": "homing_amulets",
                "element": "spirit",
                "goddess_element": "light",
            },
        },
        format="json",
    )
    for response in (by_character, explicit):
        assert response.status_code == 200, response.json()
        body = response.json()
        assert body["valid"] is True and body["violations"] == []
        assert body["total"] == total == engine["total"]
        assert body["cost"] == engine


def test_price_with_an_explicit_caster_touches_no_database(client, django_assert_num_queries):
    payload = {
        "draft": attack_draft(attack_power={"dice": 4, "modifier": 2}, aoe=2),
        "caster": {
            "profession": "librarian",
            "shot_type": "magic_missile",
            "element": "water",
            "int": 15,
            "pwr": 6,
        },
    }
    with django_assert_num_queries(0):
        response = client.post("/api/spellcards/price/", payload, content_type="application/json")
    assert response.status_code == 200
    body = response.json()
    # AOE 2 60 + 4d 20 + 2 × 10 = 100, Efficiency −10 = 90.
    assert body["total"] == 90
    assert body["attack"]["dodge_difficulty"] == 15
    assert body["attack"]["p_hit"]["exact"]


def test_price_reports_every_broken_rule_without_refusing(api_for):
    response = api_for(None).post(
        "/api/spellcards/price/",
        {
            "draft": attack_draft(name="", targets="self", to_hit="burst"),
            "caster": {"profession": "witch", "shot_type": "spectrum_mystery", "element": "fire"},
        },
        format="json",
    )
    body = response.json()
    assert response.status_code == 200 and body["valid"] is False
    assert {v["code"] for v in body["violations"]} == {
        "name_required",
        "self_to_hit",
        "attack_targets_self",
    }


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"draft": {"type": "attack"}}, "caster"),
        (
            {
                "draft": {"name": "x", "type": "laser"},
                "caster": {"profession": "witch", "shot_type": "x", "element": "fire"},
            },
            "draft",
        ),
        (
            {"draft": [], "caster": {"profession": "witch", "shot_type": "x", "element": "fire"}},
            "draft",
        ),
        (
            {
                "draft": attack_draft(),
                "caster": {"profession": "pirate", "shot_type": "x", "element": "fire"},
            },
            "caster",
        ),
    ],
)
def test_bad_price_input_is_a_400_with_the_field(api_for, payload, field):
    response = api_for(None).post("/api/spellcards/price/", payload, format="json")
    assert response.status_code == 400
    assert field in response.json()["errors"]


def test_price_for_a_character_needs_the_right_to_act(api_for, character, other_player):
    url = "/api/spellcards/price/"
    payload = {"draft": attack_draft(), "character": character.pk}
    assert api_for(None).post(url, payload, format="json").status_code == 401
    assert api_for(other_player).post(url, payload, format="json").status_code == 403


def test_invalid_card_answers_400_with_errors_per_field_and_every_rule(api_for, player, character):
    draft = attack_draft(name="", type="defensive", targets="self", to_hit="roll_vs_int", aoe=7)
    response = api_for(player).post(
        "/api/spellcards/", {"character": character.pk, "draft": draft}, format="json"
    )
    assert response.status_code == 400
    body = response.json()
    assert set(body["errors"]) == {"name", "attack_power", "aoe", "to_hit"}
    assert {r["code"] for r in body["rules"]} == {
        "name_required",
        "attack_power_not_allowed",
        "aoe_out_of_range",
        "self_to_hit",
        "self_aoe",
    }
    assert all(r["section"].startswith("Spellcards") for r in body["rules"])
    assert "5 rules" in body["detail"]
    assert not Spellcard.objects.exists()


def test_update_revalidates_and_recomputes_the_cost(api_for, player, character):
    card = SpellcardFactory(character=character, cost=999)
    url = f"/api/spellcards/{card.pk}/"
    response = api_for(player).put(url, {"draft": attack_draft(aoe=1)}, format="json")
    assert response.status_code == 200 and response.json()["cost"] == 50
    bad = api_for(player).put(url, {"draft": attack_draft(targets="self")}, format="json")
    assert bad.status_code == 400
    assert bad.json()["rules"][0]["code"] == "attack_targets_self"


def test_malformed_input_never_500s(api_for, player, character):
    client = api_for(player)
    for payload in (
        {"character": character.pk, "draft": "nope"},
        {"character": character.pk, "draft": {"name": 3}},
        {"character": "abc", "draft": attack_draft()},
        {"draft": attack_draft()},
        {"character": character.pk, "draft": attack_draft(attack_power={"dice": "x"})},
    ):
        assert client.post("/api/spellcards/", payload, format="json").status_code == 400
    assert client.get("/api/spellcards/?character=abc").status_code == 404


# --------------------------------------------------------------------------- decks


@pytest.mark.parametrize("role", ROLES)
def test_deck_per_role(as_role, role, character):
    card = SpellcardFactory(character=character)
    DeckEntry.objects.create(character=character, spellcard=card, copies=2)
    response = as_role(role).get(f"/api/characters/{character.pk}/deck/")
    assert response.status_code == EXPECTED[role]
    if response.status_code == 200:
        body = response.json()
        assert (body["cards"], body["kinds"], body["valid"]) == (2, 1, True)
        assert body["limits"]["max_cards"] == 20 and body["limits"]["max_kinds"] == 4
    put = as_role(role).put(
        f"/api/characters/{character.pk}/deck/", {"spellcard": card.pk, "copies": 3}, format="json"
    )
    assert put.status_code == EXPECTED[role]


def test_deck_set_copies_enforces_the_limits(api_for, player, character):
    card = SpellcardFactory(character=character, name="Fantasy Seal")
    url = f"/api/characters/{character.pk}/deck/"
    response = api_for(player).put(url, {"spellcard": card.pk, "copies": 6}, format="json")
    assert response.status_code == 400
    assert response.json()["rules"] == [
        {
            "code": "too_many_copies",
            "message": "Fantasy Seal: 6 copies, but a deck can only contain up to 5 of the "
            "same card.",
            "card_id": str(card.pk),
            "section": "Spellcards (deck size)",
            "field": "deck",
        }
    ]
    ok = api_for(player).put(url, {"spellcard": card.pk, "copies": 5}, format="json")
    assert ok.status_code == 200 and ok.json()["cards"] == 5
    removed = api_for(player).put(url, {"spellcard": card.pk, "copies": 0}, format="json")
    assert removed.json()["entries"] == [] and removed.json()["not_in_deck"][0]["name"] == (
        "Fantasy Seal"
    )


def test_validate_a_proposed_deck_without_saving(api_for, player, character, librarian):
    cards = [SpellcardFactory(character=character, name=f"C{i}") for i in range(5)]
    foreign = SpellcardFactory(character=librarian)
    url = f"/api/characters/{character.pk}/deck/validate/"
    entries = [{"spellcard": c.pk, "copies": 5} for c in cards] + [
        {"spellcard": foreign.pk, "copies": 1}
    ]
    response = api_for(player).post(url, {"entries": entries}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["valid"] is False
    assert {v["code"] for v in body["violations"]} == {
        "not_this_characters_card",
        "too_many_kinds",
        "too_many_cards",
    }
    assert not DeckEntry.objects.exists()
    good = api_for(player).post(url, {"entries": entries[:4]}, format="json").json()
    assert good["valid"] is True and good["cards"] == 20


# --------------------------------------------------------------------------- templates


def test_templates_members_list_and_copy_gms_manage(
    api_for, campaign, gm, player, outsider, character
):
    template = TemplateCardFactory(campaign=campaign, created_by=gm, name="Spirit Sign")
    assert [
        t["name"]
        for t in api_for(player)
        .get(f"/api/spellcard-templates/?campaign={campaign.pk}")
        .json()["results"]
    ] == ["Spirit Sign"]
    assert api_for(outsider).get(f"/api/spellcard-templates/{template.pk}/").status_code == 404
    assert api_for(player).delete(f"/api/spellcard-templates/{template.pk}/").status_code == 403
    created = api_for(player).post(
        "/api/spellcard-templates/",
        {"campaign": campaign.pk, "draft": attack_draft()},
        format="json",
    )
    assert created.status_code == 403
    created = api_for(gm).post(
        "/api/spellcard-templates/",
        {"campaign": campaign.pk, "draft": attack_draft(name="Boundary"), "description": "x"},
        format="json",
    )
    assert created.status_code == 201
    copy = api_for(player).post(
        f"/api/spellcard-templates/{template.pk}/copy/",
        {"character": character.pk, "add_to_deck": 1},
        format="json",
    )
    assert copy.status_code == 201
    assert Spellcard.objects.get(pk=copy.json()["id"]).source_template == template


def test_template_copy_reports_illegal_parts(api_for, campaign, gm, player, character):
    template = TemplateCardFactory(
        campaign=campaign,
        created_by=gm,
        draft=attack_draft(
            type="special",
            attack_power=None,
            targets=None,
            skills=[{"slug": "read_a_book", "params": {}}],
        ),
    )
    response = api_for(player).post(
        f"/api/spellcard-templates/{template.pk}/copy/",
        {"character": character.pk},
        format="json",
    )
    assert response.status_code == 400
    assert [r["code"] for r in response.json()["rules"]] == ["skill_profession"]


def test_schema_lists_the_spellcard_endpoints(api_for, player):
    schema = api_for(player).get("/api/schema/?format=json").json()
    for path in (
        "/api/spellcards/",
        "/api/spellcards/price/",
        "/api/characters/{id}/deck/",
        "/api/characters/{id}/deck/validate/",
        "/api/spellcard-templates/{id}/copy/",
    ):
        assert path in schema["paths"], path
