"""Rumbling Spell Orchestra's cards in Japanese and Simplified Chinese (issue 42): a card's
lines (its kind, needs, values and abilities) and the deck rules' refusals are message ids with
their numbers, so a table, the card and deck pages and the API show them in the reader's
language (the glossary's terms), every number kept; ``str()`` of the words is the English
line."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from django.utils import translation

from apibase.engine_words import in_language, json_in_language, reason_in_language
from decks import services as deck_services
from minigames.engines import rso
from minigames.engines.rso import vocabulary, words
from tests.minigames.card_words import NUMBER, assert_lines_read_in
from tests.minigames.test_i18n import english_left

pytestmark = pytest.mark.django_db

LANGUAGES = ["ja", "zh-hans"]
#: Abbreviations both glossaries keep in Latin letters.
KEPT = ["AV", "IV", "HV", "EV", "BV", "HP", "SP"]


def _names(cards: list[dict[str, Any]]) -> list[str]:
    """The data's names a line may hold (cards, characters, titles, classes), longest first."""
    found: set[str] = set()
    for card in cards:
        found.update(str(card[k]) for k in ("name", "character", "title", "class") if card.get(k))
        found.update((card.get("requires") or {}).keys())
    return sorted(found, key=len, reverse=True)


def _vocabulary_cards() -> list[dict[str, Any]]:
    """Cards that between them use every target, effect (one and many), condition, trigger,
    role, phase, cost, keyword, shot, Support type and ability kind the card words know."""
    effects: list[dict[str, Any]] = []
    for do in vocabulary.EFFECTS:
        for amount in (1, 2, -3):
            if amount < 0 and do != "modify":
                continue
            effect: dict[str, Any] = {"do": do, "amount": amount}
            if do == "modify":
                effect["stat"] = "av"
            if do == "grant":
                effect = {"do": do, "ability": "faith", "amount": amount}
            effects.append(effect)
    effects.append({"do": "grant", "ability": "guided", "amount": True})
    conditions = {
        "your_leader": "Test Leader",
        "opponent_leader": "Test Rival",
        "your_hp_at_most": 3,
    }
    cost = [{"sp": 2}, {"hand": 1}, {"deck": 2}, {"field": 1}, {"doctrine": 3}]
    abilities: list[dict[str, Any]] = []
    for target in [*words.TARGET_WORDS, "this"]:
        abilities.append({"kind": "passive", "target": target, "effects": effects[:3]})
    for keyword in vocabulary.KEYWORDS:
        abilities.append({"kind": "passive", "target": "this", "keyword": keyword})
    for when in words.TRIGGER_WORDS:
        for role in vocabulary.ROLES:
            abilities.append(
                {
                    "kind": "trigger",
                    "when": when,
                    "role": role,
                    "target": "own_leader",
                    "effects": effects,
                    "condition": conditions,
                }
            )
    for phase in vocabulary.PHASES:
        for role in vocabulary.ROLES:
            for paid in (cost, []):
                abilities.append(
                    {
                        "kind": "special",
                        "phase": phase,
                        "role": role,
                        "cost": paid,
                        "target": "own_spell",
                        "effects": effects[:2],
                        "awakening": {"cost": cost[:1], "effects": effects[2:4]},
                        **({"condition": {"opposing_shot": "spread"}} if paid else {}),
                    }
                )
    cards: list[dict[str, Any]] = [
        {
            "number": "T-1",
            "name": "Test Leader Card",
            "kind": "character",
            "character": "Test Leader",
            "title": "Test Title",
            "hp": 20,
            "ev": 3,
            "bv": 4,
            "abilities": abilities,
        },
        {
            "number": "T-2",
            "name": "Plain",
            "kind": "character",
            "character": "Test Rival",
            "hp": 18,
            "ev": 2,
            "bv": 5,
        },
    ]
    for i, shot in enumerate(vocabulary.SHOT_TYPES):
        cards.append(
            {
                "number": f"T-1{i}",
                "name": f"Test Shot {i}",
                "kind": "spell",
                "cost": 2,
                "requires": {"Test Leader": 2, "Test Rival": 1} if i else {"Test Leader": 1},
                "extra_cost": cost,
                "shot": shot,
                "av": 5,
                "iv": 3,
                "hv": 2,
                "basic": {
                    b: (True if b in vocabulary.FLAG_BASICS else 2) for b in vocabulary.BASICS
                },
                "activate_cost": cost[:2],
                "battle_cost": cost[2:],
                "abilities": [
                    {
                        "kind": "passive",
                        "target": "this",
                        "effects": effects[:1],
                        "condition": {"opposing_shot": shot},
                    }
                ],
            }
        )
    for i, support in enumerate(vocabulary.SUPPORT_TYPES):
        cards.append(
            {
                "number": f"T-2{i}",
                "name": f"Test Support {i}",
                "kind": "support",
                "support": support,
                "cost": 1,
                **({"class": "Doll"} if i else {}),
                "abilities": [{"kind": "passive", "target": "this", "effects": effects[:2]}],
            }
        )
    for i, role in enumerate(vocabulary.ROLES):
        cards.append(
            {
                "number": f"T-3{i}",
                "name": f"Test Event {i}",
                "kind": "event",
                "cost": 0,
                "phases": list(vocabulary.PHASES[: i + 1]),
                "role": role,
                "target": "both_leaders",
                "effects": effects,
                **({"condition": conditions} if i else {}),
                "awakening": {"cost": cost, "effects": effects[:2]},
            }
        )
    return cards


def _every_card() -> list[dict[str, Any]]:
    return [*rso.starter_card_set().values(), *_vocabulary_cards()]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_card_reads_in_her_language_with_its_numbers(language):
    """Every card of the data and cards using every word of the card vocabulary: each line in
    her language has no English word left and the same numbers as the English line; in English
    each line is the engine's own."""
    cards = _every_card()
    names = [*_names(cards), *KEPT]
    for card in cards:
        assert_lines_read_in(
            language, rso.card_line_words(card), rso.card_lines(card), names, card["number"]
        )


def test_the_english_lines_read_as_before():
    """A few lines as a player reads them in English (the words' English is the old text)."""
    card = {
        "kind": "event",
        "phases": ["battle", "preparation"],
        "role": "attack",
        "target": "own_battle_spell",
        "condition": {"your_hp_at_most": 5},
        "effects": [{"do": "modify", "stat": "av", "amount": 2}, {"do": "draw", "amount": 1}],
        "awakening": {"cost": [{"sp": 1}], "effects": [{"do": "draw", "amount": 2}]},
        "cost": 1,
    }
    assert rso.card_lines(card) == [
        "Event, 1 SP. General (anyone may use it).",
        "Played in: Battle, Preparation/Attack.",
        "If your HP is 5 or less: Your spell in this battle gets AV +2; you draw 1 card.",
        "Awakening (1 SP): also you draw 2 cards.",
    ]
    with translation.override("ja"):
        lines = [in_language(w) for w in rso.card_line_words(card)]
    assert lines[1] == "使用できる時：バトル、準備／攻撃。"
    assert lines[3] == "覚醒（1 SP）：さらにあなたはカードを2枚引く。"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_deck_rule_refusal_reads_in_her_language(language):
    card_set = rso.starter_card_set()
    preset = rso.preset_decks()[0]["cards"]
    spell = next(n for n in preset if card_set[n]["kind"] != "character")
    needy = next(n for n, c in card_set.items() if c.get("requires") and c["kind"] != "character")
    broken = [*preset[:30], spell, spell, spell, spell, needy, "RSO-999"]
    rules = rso.deck_rule_words(broken, card_set)
    english = rso.validate_deck(broken, card_set)
    assert [str(r) for r in rules] == english and len(english) >= 3
    names = [*_names(list(card_set.values())), "RSO-999", *KEPT]
    with translation.override(language):
        for rule, english_rule in zip(rules, english, strict=True):
            text = in_language(rule)
            assert english_left(text, names) == [], text
            assert Counter(NUMBER.findall(text)) == Counter(NUMBER.findall(english_rule)), text


def test_a_deck_refused_at_the_start_reads_in_japanese():
    deck = rso.preset_decks()[0]["cards"][:20]
    with pytest.raises(ValueError) as refused:
        rso.ENGINE.new_game(seats=2, seed=1, config={"decks": [deck, deck]})
    assert str(refused.value).startswith("Seat 1's deck is not legal: A deck")
    with translation.override("ja"):
        text = reason_in_language(refused.value)
    assert text.startswith("席1のデッキは規則を満たしていません：")
    assert "デッキのスペル・サポート・イベントカードはちょうど40枚です。" in text
    assert english_left(text, _names(list(rso.starter_card_set().values()))) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_tables_cards_read_in_her_language_and_the_english_view_is_unchanged(
    api_for, player, other_player, language
):
    from tests.minigames.conftest import two_humans

    table = two_humans("rso", player, other_player)
    state = rso.ENGINE.from_json(table.state)
    view = rso.ENGINE.view(state, 0)
    assert view["cards"]
    for number, card in view["cards"].items():
        assert card["lines"] == rso.card_lines(state["cards"][number])
    got = api_for(player).get(
        f"/api/tavern/tables/{table.pk}/state/", HTTP_ACCEPT_LANGUAGE=language
    )
    assert got.status_code == 200
    shown = got.json()["view"]["cards"]
    assert set(shown) == set(view["cards"])  # the same cards she may see, no more
    with translation.override(language):
        for number, card in shown.items():
            assert "line_words" not in card
            expected = [in_language(w) for w in view["cards"][number]["line_words"]]
            assert card["lines"] == expected and card["lines"] != view["cards"][number]["lines"]
        rendered = json_in_language(view)
    assert rendered["cards"][number]["lines"] == shown[number]["lines"]


def test_the_card_and_deck_pages_and_the_api_read_in_japanese(client_for, api_for, player):
    card_set = rso.starter_card_set()
    number = next(n for n, c in card_set.items() if c["kind"] == "spell")
    with translation.override("ja"):
        lines = [in_language(w) for w in rso.card_line_words(card_set[number])]
    page = client_for(player).get(f"/cards/rso/{number}/", HTTP_ACCEPT_LANGUAGE="ja")
    body = page.content.decode()
    assert page.status_code == 200
    assert all(line in body for line in lines), lines
    one = api_for(player).get(f"/api/card-games/rso/cards/{number}/", HTTP_ACCEPT_LANGUAGE="ja")
    assert one.json()["lines"] == lines
    english = api_for(player).get(f"/api/card-games/rso/cards/{number}/")
    assert english.json()["lines"] == rso.card_lines(card_set[number])

    deck = deck_services.deck_create(by=player, game="rso", name="Half done", cards=[number])
    builder = client_for(player).get(f"/decks/{deck.pk}/", HTTP_ACCEPT_LANGUAGE="ja")
    text = builder.content.decode()
    assert "デッキにはキャラクターカードがちょうど4枚必要です。このデッキには0枚あります。" in text
    assert "A deck needs exactly" not in text
    # the deck rules above the builder too
    assert "キャラクターカードちょうど4枚（デッキとは別に置く）" in text
    assert rso.DECK_RULES not in text
    checked = api_for(player).post(
        "/api/decks/validate/",
        {"game": "rso", "cards": [number]},
        format="json",
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    assert checked.status_code == 200 and checked.json()["legal"] is False
    assert "卡组需要恰好4张角色卡，这副卡组有0张。" in checked.json()["errors"]
