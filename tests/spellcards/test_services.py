"""Spellcard services: every write validated by the engine (ruleset "Spellcards"), refused with
every broken rule; decks checked against the limits on the character's sheet ("15 plus 5 per
level cards, level × 4 kinds, up to 5 of the same card")."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from spellcards import selectors, services
from spellcards.models import DeckEntry, Spellcard
from tests.factories import SpellcardFactory, TemplateCardFactory, attack_draft
from tests.spellcards.conftest import make_character
from westernroses.spellcards import SpellcardDraft, price

pytestmark = pytest.mark.django_db


def draft(**changes) -> SpellcardDraft:
    return SpellcardDraft.from_dict(attack_draft(**changes))


def test_create_prices_with_the_engine_and_stores_the_draft(character, player):
    # Spellcards: Single 10 + 4d 20 + 4 Rounds homing 200 = 230 for the Shrine Maiden.
    card_draft = draft(
        name="Homing Amulet", attack_power={"dice": 4, "modifier": 0}, duration="homing_4"
    )
    card = services.spellcard_create(by=player, character=character, draft=card_draft)
    card.refresh_from_db()
    ctx = selectors.caster_context(character)
    assert card.cost == price(card_draft, ctx.caster, ctx.rules).total == 230
    assert SpellcardDraft.from_dict(card.draft) == card_draft
    assert (card.name, card.card_type, card.is_bomb) == ("Homing Amulet", "attack", False)


def test_cost_is_recomputed_on_every_save_never_taken_from_storage(character, player):
    card = services.spellcard_create(by=player, character=character, draft=draft())
    Spellcard.objects.filter(pk=card.pk).update(cost=9999)
    card.refresh_from_db()
    # Spellcards: AOE 1 40 (includes the single target) + 2d 10 = 50.
    updated = services.spellcard_update(by=player, spellcard=card, draft=draft(aoe=1))
    assert updated.cost == 50


def test_invalid_card_is_refused_with_every_broken_rule(character, player):
    bad = SpellcardDraft.from_dict(
        attack_draft(name="", type="defensive", targets="self", to_hit="roll_vs_int", aoe=7)
    )
    with pytest.raises(services.SpellcardRejected) as caught:
        services.spellcard_create(by=player, character=character, draft=bad)
    codes = {r["code"] for r in caught.value.rules()}
    assert codes == {
        "name_required",
        "attack_power_not_allowed",
        "aoe_out_of_range",
        "self_to_hit",
        "self_aoe",
    }
    errors = caught.value.field_errors()
    assert set(errors) == {"name", "attack_power", "aoe", "to_hit"}
    assert len(errors["aoe"]) == 2
    assert not Spellcard.objects.exists()


def test_another_professions_skill_is_refused(character, player):
    # "Only Carefree Souls can use impulse spellcards": the Shrine Maiden cannot take DIE.
    bad = SpellcardDraft.from_dict(
        attack_draft(
            type="special", targets=None, attack_power=None, skills=[{"slug": "die", "params": {}}]
        )
    )
    with pytest.raises(services.SpellcardRejected) as caught:
        services.spellcard_create(by=player, character=character, draft=bad)
    assert "skill_profession" in {v.code for v in caught.value.violations}


def test_only_owner_and_gm_may_write(character, player, gm, other_player, outsider):
    services.spellcard_create(by=gm, character=character, draft=draft(name="GM's gift"))
    for intruder in (other_player, outsider):
        with pytest.raises(PermissionDenied):
            services.spellcard_create(by=intruder, character=character, draft=draft())
    card = Spellcard.objects.get()
    with pytest.raises(PermissionDenied):
        services.spellcard_delete(by=other_player, spellcard=card)
    services.spellcard_delete(by=player, spellcard=card)
    assert not Spellcard.objects.exists()


def test_save_to_deck_adds_one_copy_in_the_same_transaction(character, player):
    card = services.spellcard_create(by=player, character=character, draft=draft(), add_to_deck=1)
    assert DeckEntry.objects.get(character=character, spellcard=card).copies == 1


def test_deck_kinds_limit_refuses_card_and_entry_together(character, player):
    # Level 1: "up to a character's level×4 different cards" = 4 kinds.
    for i in range(4):
        services.spellcard_create(
            by=player, character=character, draft=draft(name=f"Card {i}"), add_to_deck=1
        )
    with pytest.raises(services.SpellcardRejected) as caught:
        services.spellcard_create(
            by=player, character=character, draft=draft(name="Fifth"), add_to_deck=1
        )
    (violation,) = caught.value.deck_violations
    assert violation.code == "too_many_kinds"
    assert "5 different cards" in violation.message and "only 4" in violation.message
    assert not Spellcard.objects.filter(name="Fifth").exists()  # all or nothing


def test_deck_copies_and_size_limits(character, player):
    cards = [
        services.spellcard_create(by=player, character=character, draft=draft(name=f"C{i}"))
        for i in range(4)
    ]
    # "can only contain up to 5 of the same card"
    with pytest.raises(services.SpellcardRejected) as caught:
        services.deck_set_copies(by=player, character=character, spellcard=cards[0], copies=6)
    assert [v.code for v in caught.value.deck_violations] == ["too_many_copies"]
    assert "up to 5 of the same card" in caught.value.deck_violations[0].message
    # 20 cards at level 1: 5 + 5 + 5 + 5 fits exactly ...
    for card in cards:
        services.deck_set_copies(by=player, character=character, spellcard=card, copies=5)
    assert sum(DeckEntry.objects.values_list("copies", flat=True)) == 20
    # ... 0 takes a card out.
    assert (
        services.deck_set_copies(by=player, character=character, spellcard=cards[0], copies=0)
        is None
    )
    assert DeckEntry.objects.count() == 3


def test_librarian_deck_holds_more(librarian, other_player):
    # Librarian level 1: "an additional 5 cards and 1 spell card kind" -> 25 cards, 5 kinds.
    limits = selectors.caster_context(librarian).deck_limits()
    assert (limits.max_cards, limits.max_kinds, limits.max_copies) == (25, 5, 5)
    for i in range(5):
        services.spellcard_create(
            by=other_player, character=librarian, draft=draft(name=f"Book {i}"), add_to_deck=5
        )
    summary = services.deck_summary(librarian)
    assert (summary.cards, summary.kinds, summary.violations) == (25, 5, [])


def test_a_deck_holds_only_its_own_characters_cards(character, librarian, player, gm):
    foreign = SpellcardFactory(character=librarian)
    with pytest.raises(services.SpellcardRejected) as caught:
        services.deck_set_copies(by=gm, character=character, spellcard=foreign, copies=1)
    assert caught.value.deck_violations[0].code == "not_this_characters_card"


def test_template_copy_validates_for_the_players_character(campaign, gm, character, player):
    # A GM template with the Librarian's Intelligent Design does not fit a Shrine Maiden.
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
    with pytest.raises(services.SpellcardRejected) as caught:
        services.template_card_copy(by=player, template=template, character=character)
    assert [v.code for v in caught.value.violations] == ["skill_profession"]
    assert not Spellcard.objects.exists()
    # A plain template copies, linked to its source, and can go straight into the deck.
    plain = TemplateCardFactory(campaign=campaign, created_by=gm)
    card = services.template_card_copy(
        by=player, template=plain, character=character, add_to_deck=2
    )
    assert card.source_template == plain and card.character == character
    assert DeckEntry.objects.get(spellcard=card).copies == 2


def test_template_copy_stays_in_its_campaign(campaign, gm, player):
    from tests.factories import CampaignFactory

    elsewhere = make_character(player, CampaignFactory(created_by=gm))
    template = TemplateCardFactory(campaign=campaign, created_by=gm)
    with pytest.raises(PermissionDenied):
        services.template_card_copy(by=player, template=template, character=elsewhere)


def test_only_gms_make_templates(campaign, gm, player):
    services.template_card_create(by=gm, campaign=campaign, draft=draft(name="Spirit Sign"))
    with pytest.raises(PermissionDenied):
        services.template_card_create(by=player, campaign=campaign, draft=draft())


def test_character_outside_a_campaign_is_its_owners_alone(player, gm):
    loner = make_character(player, None, name="Wanderer")
    services.spellcard_create(by=player, character=loner, draft=draft())
    with pytest.raises(PermissionDenied):
        services.spellcard_create(by=gm, character=loner, draft=draft())


def test_incomplete_character_cannot_design_cards(campaign, player):
    blank = make_character(player, campaign, profession="", element="")
    with pytest.raises(selectors.CharacterIncomplete, match="profession, element"):
        services.spellcard_create(by=player, character=blank, draft=draft())
