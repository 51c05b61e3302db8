"""GM cards and decks through the services and selectors, driving the real engines.

Deck rules: RSO ../shared/rules/rumbling-spell-orchestra-gameplay.txt lines 11 (four character
cards, levels), 15 (exactly 40 cards, at most 3 copies by name), 19 (Team cards); DBS
../shared/rules/dream-battle-of-spellcard-rules.en.md lines 19-20 (40-50 cards, at most 3 of
one number, at least one character).
"""

from __future__ import annotations

import copy

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from decks import selectors, services
from decks.games import DBS, GAMES, RSO
from decks.models import CustomCard, Deck
from tests.decks.conftest import DBS_GM_BATTLE, DBS_GM_CHARACTER, RSO_GM_SPELL, preset

pytestmark = pytest.mark.django_db


def errors_of(exc: pytest.ExceptionInfo[ValidationError]) -> dict[str, list[str]]:
    return exc.value.message_dict


# --------------------------------------------------------------------------- GM cards


def test_a_gm_adds_a_valid_card_with_copies_for_the_filters(rso_gm_card, campaign):
    card = CustomCard.objects.get(pk=rso_gm_card.pk)
    assert (card.game, card.campaign_id, card.number, card.name) == (
        "rso",
        campaign.pk,
        "GM-101",
        "Lantern Drift",
    )
    assert (card.kind, card.cost, card.characters) == ("spell", 2, [])
    assert card.data == RSO_GM_SPELL


def test_an_rso_card_written_in_the_older_shape_is_stored_in_todays(gm, campaign):
    """RSO cards named their kind ``type`` before both games shared one card shape
    (docs/decks.md, "One card shape"); such a card (an older API client, a pasted card) is
    stored as today's."""
    older = {("type" if k == "kind" else k): v for k, v in RSO_GM_SPELL.items()}
    card = services.custom_card_create(by=gm, game="rso", campaign=campaign, data=older)
    card.refresh_from_db()
    assert card.data == RSO_GM_SPELL
    assert card.kind == "spell"


def test_a_card_that_breaks_the_vocabulary_names_every_field(gm, campaign):
    bad = {
        **RSO_GM_SPELL,
        "av": 40,
        "shot": "laser",
        "abilities": [{"kind": "special", "phase": "battle", "effects": [{"do": "fly"}]}],
    }
    with pytest.raises(ValidationError) as exc:
        services.custom_card_create(by=gm, game="rso", campaign=campaign, data=bad)
    errors = errors_of(exc)
    assert errors["data.av"] == ["must be between 0 and 20"]
    assert errors["data.shot"][0].startswith("must be one of spread, concentration, normal")
    assert errors["data.abilities[0].effects[0].do"][0].startswith("unknown effect 'fly'")
    assert not CustomCard.objects.exists()


def test_a_dbs_card_error_names_its_nested_field(gm, campaign):
    bad = {**DBS_GM_BATTLE, "on_hit": [{"do": "damage", "amount": 0}], "level": 9}
    with pytest.raises(ValidationError) as exc:
        services.custom_card_create(by=gm, game="dbs", campaign=campaign, data=bad)
    errors = errors_of(exc)
    assert errors["data.level"] == ["must be a whole number from 1 to 5."]
    assert errors["data.on_hit[0].amount"] == ["must be a whole number from 1 to 20000."]


def test_a_dbs_spellcard_needs_its_character_in_the_set(gm, campaign):
    with pytest.raises(ValidationError) as exc:
        services.custom_card_create(by=gm, game="dbs", campaign=campaign, data=DBS_GM_BATTLE)
    assert errors_of(exc)["data.character"] == ["GM-001 is not a character card in this set."]
    services.custom_card_create(by=gm, game="dbs", campaign=campaign, data=DBS_GM_CHARACTER)
    battle = services.custom_card_create(by=gm, game="dbs", campaign=campaign, data=DBS_GM_BATTLE)
    assert battle.characters == ["Mystia Lorelei"]


@pytest.mark.parametrize(
    ("game", "number"), [("rso", "RSO-101"), ("dbs", "DBS-101")], ids=["rso", "dbs"]
)
def test_a_gm_card_never_takes_a_starter_number(gm, campaign, game, number):
    """Our ruling (docs/decks.md "Card numbers"), in both games although DBS's engine would
    let an extra card replace a starter one."""
    data = {**(RSO_GM_SPELL if game == "rso" else DBS_GM_CHARACTER), "number": number}
    with pytest.raises(ValidationError) as exc:
        services.custom_card_create(by=gm, game=game, campaign=campaign, data=data)
    assert "is a starter card's number" in errors_of(exc)["data.number"][0]


def test_numbers_are_unique_within_what_a_deck_may_use(gm, campaign, rso_gm_card, admin_user):
    with pytest.raises(ValidationError) as exc:
        services.custom_card_create(by=gm, game="rso", campaign=campaign, data=RSO_GM_SPELL)
    assert errors_of(exc)["data.number"] == ["Another card already has the number GM-101."]
    # A site-wide card may not reuse a campaign's number either (decks there would clash).
    with pytest.raises(ValidationError):
        services.custom_card_create(by=admin_user, game="rso", campaign=None, data=RSO_GM_SPELL)
    # The same number in the other game is another card.
    services.custom_card_create(
        by=gm, game="dbs", campaign=campaign, data={**DBS_GM_CHARACTER, "number": "GM-101"}
    )


def test_oversized_or_odd_data_is_refused_before_the_engine(gm, campaign):
    huge = {**RSO_GM_SPELL, "name": "x" * 9000}
    with pytest.raises(ValidationError) as exc:
        services.custom_card_create(by=gm, game="rso", campaign=campaign, data=huge)
    assert "too large" in errors_of(exc)["data"][0]
    nested: list[object] = []
    for _ in range(700):
        nested = [nested]
    with pytest.raises(ValidationError):
        services.custom_card_create(by=gm, game="rso", campaign=campaign, data={"x": nested})
    with pytest.raises(ValidationError):
        services.custom_card_create(by=gm, game="rso", campaign=campaign, data=["not", "a map"])


def test_players_may_not_add_cards_and_staff_add_site_wide(player, campaign, admin_user, gm):
    with pytest.raises(PermissionDenied):
        services.custom_card_create(by=player, game="rso", campaign=campaign, data=RSO_GM_SPELL)
    with pytest.raises(PermissionDenied):
        services.custom_card_create(by=gm, game="rso", campaign=None, data=RSO_GM_SPELL)
    card = services.custom_card_create(
        by=admin_user, game="rso", campaign=None, data={**RSO_GM_SPELL, "number": "WR-001"}
    )
    assert card.campaign_id is None


def test_updating_a_card_revalidates_it(gm, rso_gm_card):
    changed = {**RSO_GM_SPELL, "av": 5}
    services.custom_card_update(by=gm, card=rso_gm_card, data=changed)
    assert CustomCard.objects.get().data["av"] == 5
    with pytest.raises(ValidationError) as exc:
        services.custom_card_update(by=gm, card=rso_gm_card, data={**changed, "cost": -1})
    assert errors_of(exc)["data.cost"] == ["must be between 0 and 20"]
    assert CustomCard.objects.get().data["cost"] == 2


# --------------------------------------------------------------------------- visibility


def test_gm_cards_are_seen_by_the_campaign_members_only(rso_gm_card, player, outsider, admin_user):
    site = services.custom_card_create(
        by=admin_user, game="rso", campaign=None, data={**RSO_GM_SPELL, "number": "WR-001"}
    )
    numbers = {e.number for e in selectors.card_entries(player, RSO)}
    assert {"GM-101", "WR-001", "RSO-101"} <= numbers
    outsider_numbers = {e.number for e in selectors.card_entries(outsider, RSO)}
    assert "GM-101" not in outsider_numbers and "WR-001" in outsider_numbers
    assert site.campaign_id is None


def test_the_card_list_filters_by_type_character_cost_and_text(player, rso_gm_card):
    entries = selectors.card_entries(player, RSO)
    assert len(entries) == len(RSO.engine.starter_card_set()) + 1
    spells = selectors.filter_entries(entries, selectors.CardFilter(kind="spell"))
    assert spells and all(e.kind == "spell" for e in spells)
    reimu = selectors.filter_entries(entries, selectors.CardFilter(character="reimu"))
    assert reimu and all("Reimu" in e.characters for e in reimu)
    assert "RSO-001" in {e.number for e in reimu}  # her character card too
    cost2 = selectors.filter_entries(entries, selectors.CardFilter(cost=2))
    assert cost2 and all(e.cost == 2 for e in cost2)
    lantern = selectors.filter_entries(entries, selectors.CardFilter(q="lantern"))
    assert [e.number for e in lantern] == ["GM-101"]
    # Text search reads the words too: "Guided Bullets" is how the engine says "guided".
    guided = selectors.filter_entries(entries, selectors.CardFilter(q="guided bullets"))
    assert "GM-101" in {e.number for e in guided}


def test_every_card_reads_in_words_without_vocabulary_keys(player, dbs_gm_cards):
    for game in GAMES.values():
        for entry in selectors.card_entries(player, game):
            assert entry.lines, entry.number
            text = " ".join(entry.lines)
            for key in ("own_battle_spell", "recover_beads", "attack_bonus", "{", "None"):
                assert key not in text, (entry.number, text)
    battle = next(e for e in selectors.card_entries(player, DBS) if e.number == "GM-002")
    assert battle.lines[0] == "Level 2, attack 1500, costs 1 SP."
    assert battle.characters == ("Mystia Lorelei",)


# --------------------------------------------------------------------------- decks


@pytest.mark.parametrize("slug", ["rso", "dbs"])
def test_every_preset_deck_is_legal(player, slug):
    game = GAMES[slug]
    assert len(game.engine.preset_decks()) == 4
    for p in game.engine.preset_decks():
        deck = services.deck_create(by=player, game=slug, name=p["name"], cards=p["cards"])
        report = selectors.deck_report(deck)
        assert report.errors == [], p["key"]
        assert report.legal


def test_a_broken_rso_deck_lists_all_its_broken_rules(player):
    """Rulebook lines 11, 15 and 19: 4 characters, exactly 40, 3 copies, levels, Team cards."""
    cards = ["RSO-001"] * 3  # three Reimu characters: one short
    cards += ["RSO-101"] * 4  # a fourth copy by name
    cards += ["RSO-141"] * 3  # Patchouli's card, and no Patchouli
    deck = services.deck_create(by=player, game="rso", name="Broken", cards=cards)
    errors = selectors.deck_report(deck).errors
    starter = RSO.engine.starter_card_set()
    patchy = starter["RSO-141"]
    assert errors == [
        "A deck needs exactly 4 character cards; this one has 3.",
        "A deck holds exactly 40 Spell, Support and Event cards; this one has 7.",
        f"At most 3 copies of a card by name: {starter['RSO-101']['name']} appears 4 times.",
        f"The card {patchy['name']} needs "
        + " and ".join(f"{k} level {v}" for k, v in patchy["requires"].items())
        + "; the characters give Reimu level 3.",
    ]


def test_a_gm_cards_name_in_other_case_and_spaces_is_a_copy_of_the_starter_card(
    player, campaign, gm
):
    """RSO line 15, copies by name: a GM's " amulet scatter " is a copy of the starter's
    Amulet Scatter, so a deck with three of each breaks the 3-copy rule."""
    starter = RSO.engine.starter_card_set()
    twin = {**starter["RSO-101"], "number": "GM-101", "name": " amulet scatter "}
    services.custom_card_create(by=gm, game="rso", campaign=campaign, data=twin)
    cards = preset(RSO)
    assert cards.count("RSO-101") == 3
    others = [
        i for i, n in enumerate(cards) if n != "RSO-101" and starter[n]["kind"] != "character"
    ]
    for i in others[:3]:
        cards[i] = "GM-101"
    deck = services.deck_create(by=player, game="rso", name="Twins", cards=cards, campaign=campaign)
    errors = selectors.deck_report(deck).errors
    assert errors == [
        "At most 3 copies of a card by name: Amulet Scatter appears 6 times "
        "(also written “amulet scatter”)."
    ]


def test_a_broken_dbs_deck_lists_all_its_broken_rules(player):
    """Rulebook lines 19-20: 40 to 50 cards, at most 3 of a number, at least one character."""
    cards = ["DBS-101"] * 4 + ["DBS-102"] * 3 + ["NOPE-001"]
    deck = services.deck_create(by=player, game="dbs", name="Broken", cards=cards)
    errors = selectors.deck_report(deck).errors
    assert errors == [
        "A deck needs at least 40 cards; this one has 8.",
        "There is no card numbered NOPE-001 in this card set.",
        "At most 3 cards of the same number are allowed; Paper Charm Flurry (DBS-101) is in "
        "it 4 times.",
        "A deck needs at least one character card.",
    ]


@pytest.mark.parametrize("slug", ["rso", "dbs"])
def test_export_then_import_gives_the_same_deck(player, slug):
    game = GAMES[slug]
    cards = preset(game, game.engine.preset_decks()[1]["key"])
    deck = services.deck_create(by=player, game=slug, name="Round trip", cards=cards)
    text = selectors.deck_report(deck).text
    assert text.startswith("# Round trip\n")
    other = services.deck_create(by=player, game=slug, name="Empty")
    services.deck_import(by=player, deck=other, text=text)
    other.refresh_from_db()
    assert other.cards == sorted(cards)


def test_an_unreadable_import_lists_every_bad_line_and_changes_nothing(player, rso_deck):
    before = list(rso_deck.cards)
    with pytest.raises(ValidationError) as exc:
        services.deck_import(
            by=player, deck=rso_deck, text="3 Amulet Scatter\nthree cards\n2 No Such Card\n"
        )
    lines = errors_of(exc)["text"]
    assert len(lines) == 2
    assert lines[0].startswith("Line 2 ")
    assert lines[1] == "Line 3: no card is called 'No Such Card'."
    rso_deck.refresh_from_db()
    assert rso_deck.cards == before


def test_deck_inputs_are_bounded(player, rso_deck):
    with pytest.raises(ValidationError) as exc:
        services.deck_import(by=player, deck=rso_deck, text="1 RSO-101\n" * 1200)
    assert "at most 10000 characters" in errors_of(exc)["text"][0]
    with pytest.raises(ValidationError):
        services.deck_update(by=player, deck=rso_deck, cards=["RSO-101"] * 121)
    with pytest.raises(ValidationError):
        services.deck_update(by=player, deck=rso_deck, name="x" * 81)
    with pytest.raises(ValidationError):
        services.deck_set_count(by=player, deck=rso_deck, number="RSO-101", count=10)
    with pytest.raises(ValidationError):
        services.deck_set_count(by=player, deck=rso_deck, number="NOPE-001", count=1)


def test_set_count_changes_one_card_only(player, rso_deck):
    services.deck_set_count(by=player, deck=rso_deck, number="RSO-305", count=3)
    services.deck_set_count(by=player, deck=rso_deck, number="RSO-101", count=0)
    rso_deck.refresh_from_db()
    assert rso_deck.cards.count("RSO-305") == 3
    assert "RSO-101" not in rso_deck.cards
    assert len(rso_deck.cards) == 44 + 2 - 3


def test_only_the_owner_changes_a_deck(rso_deck, other_player):
    with pytest.raises(PermissionDenied):
        services.deck_update(by=other_player, deck=rso_deck, name="Mine now")
    with pytest.raises(PermissionDenied):
        services.deck_delete(by=other_player, deck=rso_deck)


def test_a_deck_uses_its_campaigns_gm_cards_while_its_owner_is_a_member(
    player, campaign, rso_gm_card
):
    cards = preset(RSO)
    cards[cards.index("RSO-305")] = "GM-101"  # swap the one single copy for the GM card
    loose = services.deck_create(by=player, game="rso", name="Loose", cards=cards)
    tied = services.deck_create(by=player, game="rso", name="Tied", cards=cards, campaign=campaign)
    assert selectors.deck_report(loose).errors == [
        "The card GM-101 is not in the card set.",
        "A deck holds exactly 40 Spell, Support and Event cards; this one has 39.",
    ]
    assert selectors.deck_report(tied).legal
    campaign.memberships.filter(user=player).delete()
    report = selectors.deck_report(Deck.objects.get(pk=tied.pk))
    assert report.campaign_lost and not report.legal


def test_a_deck_cannot_be_tied_to_a_campaign_of_strangers(outsider, campaign):
    with pytest.raises(ValidationError) as exc:
        services.deck_create(by=outsider, game="rso", name="Sneaky", campaign=campaign)
    assert "campaign" in errors_of(exc)


# --------------------------------------------------------------------------- for the tavern


def test_seat_decks_offers_presets_and_own_legal_decks_only(player, other_player, rso_deck):
    broken = services.deck_create(by=player, game="rso", name="Half done", cards=["RSO-001"])
    services.deck_create(by=other_player, game="rso", name="Theirs", cards=preset(RSO))
    services.deck_create(by=player, game="dbs", name="Other game", cards=preset(DBS))
    offered = selectors.seat_decks(player, "rso")
    presets = [(f"preset:{p['key']}", p["name"]) for p in RSO.engine.preset_decks()]
    assert offered == [*presets, (f"deck:{rso_deck.pk}", "Shrine copy")]
    assert f"deck:{broken.pk}" not in dict(offered)
    assert selectors.seat_decks(player, "chess") == []


def test_deck_cards_for_a_preset_and_a_saved_deck(player, rso_deck):
    key = RSO.engine.preset_decks()[2]["key"]
    numbers, extra = selectors.deck_cards(player, "rso", f"preset:{key}")
    assert numbers == preset(RSO, key) and extra == []
    numbers, extra = selectors.deck_cards(player, "rso", f"deck:{rso_deck.pk}")
    assert numbers == rso_deck.cards and extra == []


def test_deck_cards_carries_the_gm_cards_the_deck_needs(player, campaign, dbs_gm_cards):
    cards = preset(DBS)
    cards[-1] = "GM-002"  # the GM battle card; its character GM-001 is not in the deck
    deck = services.deck_create(
        by=player, game="dbs", name="With Mystia", cards=cards, campaign=campaign
    )
    numbers, extra = selectors.deck_cards(player, "dbs", f"deck:{deck.pk}")
    assert "GM-002" in numbers
    assert [c["number"] for c in extra] == ["GM-001", "GM-002"]
    # What the engine needs to start a game with it: the starter set plus these.
    from minigames.engines import dbs

    state = dbs.ENGINE.new_game(
        seats=2, seed=7, config={"decks": [numbers, preset(DBS)], "cards": extra}
    )
    assert not dbs.ENGINE.is_terminal(state)


def test_deck_cards_refuses_illegal_foreign_and_unknown_decks(player, other_player, rso_deck):
    broken = services.deck_create(by=player, game="rso", name="Half done", cards=["RSO-001"])
    with pytest.raises(ValidationError) as exc:
        selectors.deck_cards(player, "rso", f"deck:{broken.pk}")
    message = exc.value.message_dict["deck"][0]
    assert message.startswith("“Half done” is not legal yet:")
    assert "exactly 4 character cards" in message and "exactly 40" in message
    for user, game, key in (
        (other_player, "rso", f"deck:{rso_deck.pk}"),  # someone else's
        (player, "dbs", f"deck:{rso_deck.pk}"),  # another game's
        (player, "rso", "deck:999999"),
        (player, "rso", "deck:abc"),
        (player, "rso", "preset:nope"),
        (player, "rso", "nonsense"),
        (player, "chess", "preset:x"),
    ):
        with pytest.raises(ValidationError):
            selectors.deck_cards(user, game, key)


def test_merge_extra_cards_keeps_one_copy_and_refuses_clashes():
    a = [copy.deepcopy(DBS_GM_CHARACTER)]
    assert selectors.merge_extra_cards(a, copy.deepcopy(a)) == a
    clash = [{**DBS_GM_CHARACTER, "name": "Someone else"}]
    with pytest.raises(ValidationError):
        selectors.merge_extra_cards(a, clash)


# --------------------------------------------------------------------------- any input


_json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-30000, 30000),
    st.floats(allow_nan=True),
    st.sampled_from(["", "x", "spell", "battle", "character", "GM-001", "DBS-001", "RSO-001"]),
)
_FIELD_WORDS = [
    "do",
    "kind",
    "type",
    "effects",
    "abilities",
    "amount",
    "if",
    "statics",
    "triggers",
    "stat",
    "target",
    "check",
    "at",
    "cost",
    "requires",
    "basic",
    "phase",
    "on_hit",
    "support",
    "center",
    "hyper",
    "shot",
    "awakening",
    "condition",
    "phases",
    "when",
    1,
]
_json = st.recursive(
    _json_leaf,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(_FIELD_WORDS), inner, max_size=3)
    ),
    max_leaves=12,
)


@given(
    game=st.sampled_from(["rso", "dbs"]),
    changes=st.dictionaries(
        st.sampled_from([k for k in _FIELD_WORDS if isinstance(k, str)]), _json, max_size=3
    ),
)
# Shapes that once crashed an engine's validator (a list or mapping where a word belongs):
@example(game="dbs", changes={"requires": [{"check": {}}]})
@example(game="dbs", changes={"kind": "battle", "on_hit": [{"do": []}]})
@example(game="rso", changes={"abilities": [{"kind": "special", "effects": [{"do": {}}]}]})
@example(game="rso", changes={"kind": ["spell"]})
@example(game="rso", changes={"cost": float("nan")})
@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_any_card_data_is_saved_or_refused_in_words_never_crashes(gm, campaign, game, changes):
    """Whatever a GM types, the answer is a saved card or field errors (the API's 400)."""
    base = RSO_GM_SPELL if game == "rso" else DBS_GM_CHARACTER
    data = {**base, **changes}
    try:
        card = services.custom_card_create(by=gm, game=game, campaign=campaign, data=data)
    except ValidationError as exc:
        assert exc.message_dict
        assert all(isinstance(m, str) and m for ms in exc.message_dict.values() for m in ms)
    else:
        card.delete()
