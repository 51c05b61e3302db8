"""Dream Battle of SpellCard's cards in Japanese and Simplified Chinese (issue 42): a card's
lines (its stats, needs and effects, built from the card vocabulary) and the deck rules' refusals
are message ids with their numbers, so a table, the card and deck pages and the API show them
in the reader's language (the rulebook's terms), every number kept; ``str()`` of the words is
the English line."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from django.utils import translation

from apibase.engine_words import in_language, json_in_language, reason_in_language
from decks import services as deck_services
from decks.models import Deck
from minigames import services
from minigames.engines import dbs
from minigames.engines.dbs import vocabulary
from tests.minigames.card_words import NUMBER, assert_lines_read_in
from tests.minigames.test_i18n import english_left

pytestmark = pytest.mark.django_db

LANGUAGES = ["ja", "zh-hans"]
#: Words the rulebook keeps in Latin capitals in both languages.
KEPT = ["SUPPORT", "CENTER", "HYPER"]


def _conditions() -> list[dict[str, Any]]:
    return [
        {"check": check, "amount": amount, "whose": whose}
        for check in vocabulary.CONDITIONS
        for amount in (1, 3)
        for whose in ("self", "opponent")
    ]


def _effects() -> list[dict[str, Any]]:
    """Every effect of the vocabulary at every target it allows, with one and many, and under
    a condition."""
    out: list[dict[str, Any]] = []
    for verb, (_, takes_amount, targets) in vocabulary.EFFECTS.items():
        for target in targets:
            for amount in (1, 2, -300) if takes_amount else (None,):
                if amount is not None and amount < 0 and verb != "boost":
                    continue
                effect: dict[str, Any] = {"do": verb, "target": target}
                if amount is not None:
                    effect["amount"] = amount
                out += [effect, {**effect, "if": _conditions()[:2]}]
    return out


def _statics() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for kind in vocabulary.STATICS:
        for amount in (1, 2):
            for when in vocabulary.WHEN if kind == "attack_bonus" else ("always",):
                static: dict[str, Any] = {"static": kind}
                if kind == "win_when":
                    static["if"] = _conditions()[4:6]
                else:
                    static["amount"] = amount
                if kind == "attack_bonus":
                    static["when"] = when
                out += [static, {**static, "if": _conditions()[2:4]}]
    return out


def _triggers() -> list[dict[str, Any]]:
    effects = [e for e in _effects() if e["do"] not in vocabulary.CLASH_EFFECTS]
    return [
        {
            "at": at,
            "effects": effects[i * 3 : i * 3 + 3],
            **({"if": _conditions()[:1]} if i else {}),
        }
        for at in vocabulary.TRIGGERS
        for i in (0, 1)
    ]


def _vocabulary_cards() -> list[dict[str, Any]]:
    """GM cards that between them use every condition, effect, lasting effect, trigger, limit
    and timing of the vocabulary (each valid: the vocabulary's own check passes them)."""
    effects = _effects()
    clash = [e for e in effects if e["do"] in vocabulary.CLASH_EFFECTS]
    plain = [e for e in effects if e["do"] not in vocabulary.CLASH_EFFECTS]
    statics = [s for s in _statics() if s["static"] != "win_when"]
    cards: list[dict[str, Any]] = [
        {
            "number": "GM-001",
            "name": "Test Character",
            "kind": "character",
            "support": {"statics": _statics()[:6], "triggers": _triggers()[:3]},
            "center": {"statics": _statics()[6:]},
            "hyper": {"triggers": _triggers()[3:]},
        },
        {
            "number": "GM-010",
            "name": "Test Constant",
            "kind": "constant",
            "cost": 2,
            "statics": [*_statics(), {"static": "win_when", "if": _conditions()}],
            "triggers": _triggers(),
        },
        {
            "number": "GM-011",
            "name": "Test Buff",
            "kind": "buff",
            "cost": 1,
            "requires": _conditions()[:3],
            "effects": plain[:8],
            "this_turn": statics[:4],
        },
        {"number": "GM-012", "name": "Test Trap", "kind": "trap", "cost": 0, "effects": clash},
        {
            "number": "GM-013",
            "name": "Test Defence",
            "kind": "instant",
            "cost": 1,
            "timing": "defend",
            "effects": clash + plain[8:16],
        },
        {
            "number": "GM-014",
            "name": "Test Attack",
            "kind": "instant",
            "cost": 1,
            "timing": "attack",
            "effects": plain[16:],
        },
    ]
    for limit, number in (("none", "GM-020"), ("center", "GM-021"), ("hyper", "GM-022")):
        cards.append(
            {
                "number": number,
                "name": "Test Shot",
                "kind": "battle",
                "character": "GM-001",
                "cost": 3,
                "attack": 2500,
                "level": 4,
                "limit": limit,
                "on_declare": clash[:2],
                "on_hit": plain[:6],
            }
        )
    for card in cards:
        assert vocabulary.validate_card(card) == [], (
            card["number"],
            vocabulary.validate_card(card),
        )
    return cards


def _every_card() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    card_set = dbs.load_card_set(_vocabulary_cards())
    return list(card_set.values()), card_set


def test_the_test_cards_use_the_whole_vocabulary():
    used = {"do": set(), "static": set(), "at": set(), "check": set()}

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key in used:
                if key in value:
                    used[key].add(value[key])
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(_vocabulary_cards())
    assert used["do"] == set(vocabulary.EFFECTS)
    assert used["static"] == set(vocabulary.STATICS)
    assert used["at"] == set(vocabulary.TRIGGERS)
    assert used["check"] == set(vocabulary.CONDITIONS)


def _names(card_set: dict[str, Any]) -> list[str]:
    return sorted({str(c["name"]) for c in card_set.values()}, key=len, reverse=True)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_card_and_effect_reads_in_her_language_with_its_numbers(language):
    """Every starter card and every kind of the vocabulary's conditions, effects, lasting
    effects and triggers: each line in her language has no English word left and the same
    numbers as the English line; in English each line is the engine's own."""
    cards, card_set = _every_card()
    assert len(cards) > len(dbs.starter_card_set())
    names = [*_names(card_set), *KEPT]
    for card in cards:
        assert_lines_read_in(
            language,
            dbs.card_line_words(card, card_set),
            dbs.card_lines(card, card_set),
            names,
            card["number"],
        )


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_deck_rule_refusal_reads_in_her_language(language):
    card_set = dbs.starter_card_set()
    too_few = ["DBS-101"] * 4
    too_many = ["DBS-101"] * 3 + ["DBS-201"] * 48 + ["GM-999"]
    for deck in (too_few, too_many):
        rules = dbs.deck_rule_words(deck, card_set)
        assert [str(r) for r in rules] == dbs.validate_deck(deck, card_set)
        with translation.override(language):
            for rule, english in zip(rules, dbs.validate_deck(deck, card_set), strict=True):
                text = in_language(rule)
                assert (
                    english_left(text, [*_names(card_set), "GM-999", "DBS-201", "DBS-101"]) == []
                ), text
                assert Counter(NUMBER.findall(text)) >= Counter(NUMBER.findall(english)), text
    with pytest.raises(ValueError) as refused:
        dbs.ENGINE.new_game(seats=2, seed=1, config={"decks": [too_few, too_few]})
    assert str(refused.value).startswith("The deck of player 1 breaks the deck rules: A deck")
    with translation.override(language):
        text = reason_in_language(refused.value)
    assert english_left(text, [*_names(card_set), "DBS-101"]) == []
    assert "1" in text and "40" in text


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_tables_cards_read_in_her_language_and_the_english_view_is_unchanged(
    api_for, player, other_player, language
):
    from tests.minigames.conftest import two_humans

    table = two_humans("dbs", player, other_player)
    state = dbs.ENGINE.from_json(table.state)
    view = dbs.ENGINE.view(state, 0)
    assert view["cards"]
    for number, card in view["cards"].items():
        assert card["lines"] == dbs.card_lines(state["cards"][number], state["cards"])
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
    # the JSON step in the middle, by itself
    with translation.override(language):
        rendered = json_in_language(view)
    assert rendered["cards"][number]["lines"] == shown[number]["lines"]


def test_the_card_and_deck_pages_and_the_api_read_in_japanese(client_for, api_for, player):
    card_set = dbs.starter_card_set()
    with translation.override("ja"):
        lines = [in_language(w) for w in dbs.card_line_words(card_set["DBS-103"], card_set)]
    assert lines[0] == "華麗度3、戦力2200、コスト霊力2。"
    page = client_for(player).get("/cards/dbs/DBS-103/", HTTP_ACCEPT_LANGUAGE="ja")
    body = page.content.decode()
    assert all(line in body for line in lines), lines
    assert "Level 3, attack 2200" not in body
    listed = client_for(player).get("/cards/dbs/?q=DBS-103", HTTP_ACCEPT_LANGUAGE="ja")
    assert lines[0] in listed.content.decode()
    one = api_for(player).get("/api/card-games/dbs/cards/DBS-103/", HTTP_ACCEPT_LANGUAGE="ja")
    assert one.json()["lines"] == lines
    english = api_for(player).get("/api/card-games/dbs/cards/DBS-103/")
    assert english.json()["lines"] == dbs.card_lines(card_set["DBS-103"], card_set)

    # a deck that breaks the rules: the builder lists why in her language
    deck = deck_services.deck_create(by=player, game="dbs", name="Half done", cards=["DBS-101"])
    builder = client_for(player).get(f"/decks/{deck.pk}/", HTTP_ACCEPT_LANGUAGE="ja")
    text = builder.content.decode()
    assert "デッキには40枚以上のカードが必要です。このデッキは1枚です。" in text
    assert "A deck needs at least" not in text
    checked = api_for(player).post(
        "/api/decks/validate/",
        {"game": "dbs", "cards": ["DBS-101"]},
        format="json",
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    assert checked.status_code == 200 and checked.json()["legal"] is False
    assert "卡组至少需要40张卡，这副卡组有1张。" in checked.json()["errors"]


def test_a_gm_cards_lines_read_in_japanese_through_the_api(api_for, gm, campaign):
    from tests.decks.conftest import DBS_GM_BATTLE, DBS_GM_CHARACTER

    client = api_for(gm)
    for data in (DBS_GM_CHARACTER, {**DBS_GM_BATTLE, "on_hit": [{"do": "draw", "amount": 2}]}):
        made = client.post(
            "/api/custom-cards/",
            {"game": "dbs", "campaign": campaign.pk, "data": data},
            format="json",
            HTTP_ACCEPT_LANGUAGE="ja",
        )
        assert made.status_code == 201, made.content
    lines = made.json()["lines"]
    assert lines == ["華麗度2、戦力1500、コスト霊力1。", "命中時：カードを2枚引く。"]
    listed = client.get("/api/custom-cards/?game=dbs", HTTP_ACCEPT_LANGUAGE="zh-hans").json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert ["SUPPORT技能：手牌上限增加1。"] in [r["lines"] for r in rows]


def test_a_deck_that_broke_the_rules_after_seating_is_refused_at_the_start_in_japanese(
    api_for, player, other_player
):
    """A seat brought a legal saved deck, which lost cards before the start: the start is a
    400 naming every broken rule, in her language."""
    preset = dbs.preset_decks()[0]["cards"]
    deck = deck_services.deck_create(by=player, game="dbs", name="Stars copy", cards=preset)
    table = services.tavern_create(
        by=player,
        game="dbs",
        campaign=None,
        seats=[services.SeatSpec(kind="host", deck=f"deck:{deck.pk}"), services.SeatSpec()],
    )
    services.tavern_join(table_id=table.pk, by=other_player, index=1)
    Deck.objects.filter(pk=deck.pk).update(cards=preset[:10])
    started = api_for(player).post(
        f"/api/tavern/tables/{table.pk}/start/", HTTP_ACCEPT_LANGUAGE="ja"
    )
    assert started.status_code == 400, started.content
    text = str(started.json())
    assert "「Stars copy」はまだデッキの規則を満たしていません" in text
    assert "デッキには40枚以上のカードが必要です。このデッキは10枚です。" in text
    assert "A deck needs" not in text and "not legal" not in text
