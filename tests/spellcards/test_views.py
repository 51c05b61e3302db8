"""Spellcard pages: who sees them, the builder without JavaScript (same rules as the API),
the live preview fragment, the deck page and the template library."""

from __future__ import annotations

import re

import pytest

from spellcards.models import DeckEntry, Spellcard, TemplateCard
from tests.factories import SpellcardFactory, TemplateCardFactory, attack_draft

pytestmark = pytest.mark.django_db

ROLES = ("owner", "gm", "other_player", "outsider", "anonymous")
EXPECTED = {"owner": 200, "gm": 200, "other_player": 403, "outsider": 404, "anonymous": 302}


@pytest.fixture
def as_role(client_for, player, gm, other_player, outsider):
    users = {
        "owner": player,
        "gm": gm,
        "other_player": other_player,
        "outsider": outsider,
        "anonymous": None,
    }
    return lambda role: client_for(users[role])


def form_data(**changes):
    data = {
        "name": "Fantasy Seal",
        "type": "attack",
        "to_hit": "none",
        "targets": "single",
        "aoe": "0",
        "duration": "instantaneous",
        "attack_dice": "2",
        "attack_modifier": "0",
        "element": "",
        "action": "save",
    }
    data.update(changes)
    return data


@pytest.mark.parametrize("role", ROLES)
def test_pages_per_role(as_role, role, character):
    card = SpellcardFactory(character=character)
    client = as_role(role)
    for url in (
        f"/characters/{character.pk}/spellcards/new/",
        f"/characters/{character.pk}/spellcards/new/?partial=preview&type=attack",
        f"/characters/{character.pk}/deck/",
        f"/spellcards/{card.pk}/edit/",
    ):
        response = client.get(url)
        assert response.status_code == EXPECTED[role], url
        if role == "anonymous":
            assert response["Location"].startswith("/accounts/login/")


@pytest.mark.parametrize("role", ROLES)
def test_posts_per_role(as_role, role, character):
    card = SpellcardFactory(character=character)
    client = as_role(role)
    ok = EXPECTED[role] == 200
    created = client.post(f"/characters/{character.pk}/spellcards/new/", form_data(name="New"))
    assert created.status_code == (302 if ok else EXPECTED[role])
    copies = client.post(
        f"/characters/{character.pk}/deck/copies/", {"spellcard": card.pk, "copies": 2}
    )
    assert copies.status_code == (302 if ok else EXPECTED[role])
    deleted = client.post(f"/spellcards/{card.pk}/delete/")
    assert deleted.status_code == (302 if ok else EXPECTED[role])
    assert Spellcard.objects.filter(name="New").exists() == ok
    assert Spellcard.objects.filter(pk=card.pk).exists() != ok


def test_builder_offers_only_the_characters_choices(client_for, player, character, librarian):
    page = client_for(player).get(f"/characters/{character.pk}/spellcards/new/")
    form = page.context["form"]
    # A Shrine Maiden may build special cards with her own skills only.
    skills = {value for value, _ in form.fields["skills"].choices}
    assert "healing" in skills and "goddess_element" in skills
    assert "die" not in skills and "intelligent_design" not in skills
    assert [v for v, _ in form.fields["type"].choices] == ["attack", "defensive", "special"]
    # Prices in the labels come from the engine: spirit caster, fire is the other cycle (80).
    assert dict(form.fields["element"].choices)["fire"] == "Fire: other cycle, +80 spell power"
    assert b'id="cost-total" data-total="20"' in page.content


def test_save_to_deck_without_javascript(client_for, player, character):
    response = client_for(player).post(
        f"/characters/{character.pk}/spellcards/new/",
        form_data(aoe="1", description="Seals evil."),
    )
    assert response.status_code == 302
    assert response["Location"] == f"/characters/{character.pk}/deck/"
    card = Spellcard.objects.get()
    assert (card.cost, card.description) == (50, "Seals evil.")
    assert DeckEntry.objects.get(spellcard=card).copies == 1


def test_illegal_card_rerenders_with_errors_beside_their_fields(client_for, player, character):
    response = client_for(player).post(
        f"/characters/{character.pk}/spellcards/new/",
        form_data(name="", type="defensive", targets="self", to_hit="burst"),
    )
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert errors["name"] == ["Give the spellcard a name."]
    assert errors["attack_dice"] == ["Defensive-type cards cannot have attack power."]
    assert errors["to_hit"] == ["Any card that targets self cannot have a to-hit skill."]
    html = response.content.decode()
    assert 'data-field="attack_dice"' in html and "cannot have attack power" in html
    assert not Spellcard.objects.exists()


def test_skill_parameter_errors_go_beside_the_parameter(client_for, player, character):
    response = client_for(player).post(
        f"/characters/{character.pk}/spellcards/new/",
        form_data(type="special", attack_dice="", skills=["healing"]),
    )
    assert response.status_code == 400
    assert "param__healing__dice" in response.context["form"].errors
    ok = client_for(player).post(
        f"/characters/{character.pk}/spellcards/new/",
        form_data(type="special", attack_dice="", skills=["healing"], param__healing__dice="2"),
    )
    assert ok.status_code == 302
    # Single 10 + 2d healing 40 = 50.
    assert Spellcard.objects.get().cost == 50


def test_preview_fragment_updates_cost_and_chance_to_hit(client_for, player, character):
    client = client_for(player)
    url = f"/characters/{character.pk}/spellcards/new/"
    small = client.get(url, {**form_data(), "partial": "preview"})
    big = client.get(url, {**form_data(aoe="3", attack_dice="5"), "partial": "preview"})
    assert b"<html" not in small.content
    assert b'data-total="20"' in small.content
    # AOE 3 100 + 5d 40 = 140.
    assert b'data-total="140"' in big.content
    # Reimu's dodge difficulty is max(INT 9, PWR 5) = 9: a 4d defender dodges on 10+.
    assert big.context["preview"].attack.dodge_difficulty == 9
    assert b'id="p-hit"' in big.content and b'id="damage-chart"' in big.content


def test_edit_saves_and_recomputes(client_for, gm, character):
    card = SpellcardFactory(character=character, cost=1)
    response = client_for(gm).post(f"/spellcards/{card.pk}/edit/", form_data(aoe="2"))
    assert response.status_code == 302
    card.refresh_from_db()
    assert (card.cost, card.draft["aoe"]) == (70, 2)  # AOE 2 60 + 2d 10


def test_deck_page_lists_cards_and_refuses_too_many_copies(client_for, player, character):
    card = SpellcardFactory(character=character, name="Fantasy Seal")
    DeckEntry.objects.create(character=character, spellcard=card, copies=1)
    SpellcardFactory(character=character, name="Spare")
    client = client_for(player)
    page = client.get(f"/characters/{character.pk}/deck/")
    html = page.content.decode()
    assert "Fantasy Seal" in html and 'id="cards-outside"' in html and "Spare" in html
    bad = client.post(
        f"/characters/{character.pk}/deck/copies/", {"spellcard": card.pk, "copies": 6}
    )
    assert bad.status_code == 400
    assert "up to 5 of the same card" in bad.content.decode()
    assert DeckEntry.objects.get().copies == 1


def test_gm_saves_a_template_and_a_player_copies_it(client_for, gm, player, campaign, character):
    response = client_for(gm).post(
        f"/characters/{character.pk}/spellcards/new/", form_data(name="Border", action="template")
    )
    assert response.status_code == 302
    template = TemplateCard.objects.get()
    assert template.campaign == campaign and not Spellcard.objects.exists()
    # A player may not make templates.
    assert (
        client_for(player)
        .post(f"/characters/{character.pk}/spellcards/new/", form_data(action="template"))
        .status_code
        == 403
    )
    library = client_for(player).get(f"/campaigns/{campaign.pk}/spellcard-templates/")
    assert library.status_code == 200 and "Border" in library.content.decode()
    copied = client_for(player).post(
        f"/spellcard-templates/{template.pk}/copy/",
        {"character": character.pk, "add_to_deck": "on"},
    )
    assert copied.status_code == 302
    assert DeckEntry.objects.get().spellcard.source_template == template


def test_template_copy_lists_what_does_not_fit(client_for, gm, player, campaign, character):
    template = TemplateCardFactory(
        campaign=campaign,
        created_by=gm,
        draft=attack_draft(
            name="Royal Flare",
            type="special",
            attack_power=None,
            skills=[{"slug": "intelligent_design", "params": {}}],
        ),
    )
    response = client_for(player).post(
        f"/spellcard-templates/{template.pk}/copy/", {"character": character.pk}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert 'data-code="skill_profession"' in html
    assert f"/characters/{character.pk}/spellcards/new/?template={template.pk}" in html
    # ... and the builder opens it with the problem beside the skills field.
    builder = client_for(player).get(
        f"/characters/{character.pk}/spellcards/new/?template={template.pk}"
    )
    assert builder.status_code == 200
    form = builder.context["form"]
    assert form.data["name"] == "Royal Flare"
    assert form.errors["skills"] == [
        "Only Librarians can use Magic Theory Skills – Danmaku Magic (Intelligent Design)."
    ]


@pytest.mark.parametrize(
    ("role", "status"),
    [("owner", 200), ("other_player", 200), ("outsider", 404), ("anonymous", 302)],
)
def test_template_library_per_role(as_role, role, status, campaign):
    assert as_role(role).get(f"/campaigns/{campaign.pk}/spellcard-templates/").status_code == status


def test_deck_block_on_the_character_sheet_is_private(rf, character, player, other_player):
    from django.template.loader import render_to_string

    DeckEntry.objects.create(
        character=character, spellcard=SpellcardFactory(character=character, name="Seal")
    )
    for user, visible in ((player, True), (other_player, False)):
        request = rf.get("/")
        request.user = user
        html = render_to_string("characters/_deck.html", {"character": character}, request=request)
        assert ("Seal" in html) is visible


def test_character_sheet_shows_the_deck_to_owner_and_gm_only(
    client_for, character, player, gm, other_player
):
    card = SpellcardFactory(character=character, name="Fantasy Seal")
    DeckEntry.objects.create(character=character, spellcard=card, copies=3)
    for user, visible in ((player, True), (gm, True), (other_player, False)):
        response = client_for(user).get(f"/characters/{character.pk}/")
        assert response.status_code == 200
        html = response.content.decode()
        assert ("Fantasy Seal" in html) is visible
        assert ('id="deck-private"' in html) is not visible
        assert html.count('id="deck"') == 1


def test_template_cards_show_their_cost_and_damage(client_for, gm, player, campaign, character):
    """Issue 10: template cards show cost and damage like deck cards do. The cost is the
    engine's price (westernroses.spellcards.cost) for each of the viewer's characters, since
    it depends on the caster (element, Efficiency)."""
    from spellcards.selectors import caster_context
    from westernroses.spellcards import SpellcardDraft, price

    client_for(gm).post(
        f"/characters/{character.pk}/spellcards/new/",
        form_data(name="Border", action="template", attack_dice="3", attack_modifier="2"),
    )
    template = TemplateCard.objects.get()
    ctx = caster_context(character)
    expected = price(SpellcardDraft.from_dict(template.draft), ctx.caster, ctx.rules).total
    html = client_for(player).get(f"/campaigns/{campaign.pk}/spellcard-templates/").content
    html = html.decode()
    assert '<strong class="template-damage">3d+2</strong>' in html
    assert f"Cost for {character.name}: <strong>{expected} SP</strong>" in html
    assert expected > 0


def test_a_copied_name_with_its_own_quotes_is_not_wrapped_in_more(
    client_for, gm, player, campaign, character
):
    """The message read "“Scarlet Sign “Red Mist”” copied to ..."; a name holding double
    quotes is wrapped in single ones."""
    template = TemplateCardFactory(
        campaign=campaign, created_by=gm, draft=attack_draft(name="Scarlet Sign “Red Mist”")
    )
    client = client_for(player)
    copied = client.post(f"/spellcard-templates/{template.pk}/copy/", {"character": character.pk})
    assert copied.status_code == 302
    page = client.get(copied["Location"]).content.decode()
    assert f"‘Scarlet Sign “Red Mist”’ copied to {character.name}." in page
    assert "”” copied" not in page
    plain = TemplateCardFactory(campaign=campaign, created_by=gm, draft=attack_draft(name="Border"))
    copied = client.post(f"/spellcard-templates/{plain.pk}/copy/", {"character": character.pk})
    assert "“Border” copied to" in client.get(copied["Location"]).content.decode()


def test_a_field_error_keeps_the_cost_panel_saying_why(client_for, player, character):
    """With the damage modifier at -99999 the cost panel vanished and only the field error
    remained: the panel stays and says the cost waits for that field."""
    client = client_for(player)
    url = f"/characters/{character.pk}/spellcards/new/"
    for response in (
        client.get(url, {**form_data(attack_modifier="-99999"), "partial": "preview"}),
        client.post(url, form_data(attack_modifier="-99999")),
    ):
        html = response.content.decode()
        assert 'id="cost-panel"' in html, html[:2000]
        assert (
            "The cost cannot be worked out until the field marked in red is fixed: Damage modifier."
        ) in html
        assert "1 field to fix" in html and "not yet known" in html
    assert not Spellcard.objects.exists()


def test_the_live_cost_bar_carries_the_total_and_the_rules_broken(client_for, player, character):
    """On a phone the cost panel is below the whole form; the fragment's bar carries the total
    and how many rules the card breaks (odds-chart-free, server-rendered, no JavaScript)."""
    client = client_for(player)
    url = f"/characters/{character.pk}/spellcards/new/"
    good = client.get(url, {**form_data(), "partial": "preview"}).content.decode()
    bar = re.search(r'id="cost-bar">(.*?)</div>', good, re.S)
    assert bar and 'data-total="20"' in bar.group(1) and "legal" in bar.group(1)
    bad = client.get(
        url, {**form_data(type="defensive", targets="self", to_hit="burst"), "partial": "preview"}
    )
    preview = bad.context["preview"]
    assert preview.violations
    bar = re.search(r'id="cost-bar">(.*?)</div>', bad.content.decode(), re.S)
    count = len(preview.violations)
    assert bar and f"{count} rule{'s' if count > 1 else ''} broken" in bar.group(1)
