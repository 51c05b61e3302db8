"""Every worked example on the tavern games' rulings pages (docs/games/*.md) and "How to play"
pages (templates/minigames/rules/*.html), played or scored through the engines.

Each entry names its source and quotes it as it reads there; one test checks the quote is
still on its page, another plays it. A sum on a page ("Sakura 2 + height 1 = 3") or a sentence
giving an example that no entry quotes fails ``test_every_example_on_the_pages_is_listed``,
so a new example cannot be written without its test.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from minigames.engines import dbs, raigo, rso, spirit_war
from minigames.engines.raigo.hands import score_tower
from minigames.engines.rso.state import spell_stats
from minigames.engines.spirit_war.battles import resolve
from minigames.engines.spirit_war.cards import CardSetError, bundled_cards, parse_file
from minigames.engines.spirit_war.elements import DRAW, LOSS, WIN

ROOT = Path(__file__).resolve().parents[2]
RAIGO_MD, RAIGO_HTML = "docs/games/raigo.md", "templates/minigames/rules/raigo.html"
SW_MD, SW_HTML = "docs/games/spirit-war.md", "templates/minigames/rules/spirit_war.html"
RSO_MD, RSO_HTML = "docs/games/rso.md", "templates/minigames/rules/rso.html"
DBS_MD, DBS_HTML = "docs/games/dbs.md", "templates/minigames/rules/dbs.html"
SOURCES = (RAIGO_MD, RAIGO_HTML, SW_MD, SW_HTML, RSO_MD, RSO_HTML, DBS_MD, DBS_HTML)


@cache
def words_of(source: str) -> str:
    """The page as a reader sees it: tags dropped and entities read (HTML), spaces joined."""
    text = (ROOT / source).read_text(encoding="utf-8")
    if source.endswith(".html"):
        text = html.unescape(re.sub(r"<[^>]+>", " ", text))
    return " ".join(text.split())


@dataclass(frozen=True)
class Example:
    source: str
    quote: str
    check: Callable[[], None]

    def __str__(self) -> str:
        return f"{self.source}: {self.quote[:60]}"


# --- RAIGO -------------------------------------------------------------------------------


def tower(bottom_to_top: str, hand: str | None, total: int) -> Callable[[], None]:
    """Score the tower written "Eight, Eight, Five" (bottom to top) through the engine."""

    def check() -> None:
        kinds = [w.strip().lower() for w in bottom_to_top.split(",")]
        score = score_tower(kinds)
        assert (score.hand, score.total) == (hand, total), score

    return check


def raijin_rows(source: str) -> list[Example]:
    """The Raijin hands table of ``source``, a row each (quoted as the page reads it), scored in
    every order the row allows."""
    raw = _raw(source)
    if source.endswith(".md"):
        section = raw[raw.index("### Raijin hands") :]
        rows = re.findall(r"^(\| ([^|]+?)(?: \(ours\))? \| ([^|]+) \| (\d+) \|)$", section, re.M)
        rows = [(quote, name, pattern, points) for quote, name, pattern, points in rows]
    else:
        section = raw[raw.index("<h3>Raijin hands") :]
        found = re.findall(r"<tr><td>([^<]+)</td><td>(\d+)</td><td>([^<]+)</td></tr>", section)
        rows = [(f"{n} {pts} {pat}", n, pat, pts) for n, pts, pat in found]
    out = []
    for quote, name, pattern, points in rows:

        def check(name: str = name, pattern: str = pattern, points: int = int(points)) -> None:
            alternating = re.match(r"(\w+) and (\w+) alternating", pattern)
            if alternating:
                a, b = alternating[1].lower(), alternating[2].lower()
                orders = [[a, b] * 3, [b, a] * 3]
            else:
                orders = [[w.strip().lower() for w in pattern.split(",")]]
            for kinds in orders:
                score = score_tower(kinds)
                assert (score.hand, score.total) == (name, points), (kinds, score)

        out.append(Example(source, quote, check))
    return out


def _raw(source: str) -> str:
    return (ROOT / source).read_text(encoding="utf-8")


def raizan_sizes() -> None:
    """63 tokens for two players (no Eights, the Bonus Token up, one boxed), 68 otherwise."""
    for seats, size in ((2, 63), (3, 68), (4, 68)):
        state = raigo.ENGINE.new_game(seats=seats, seed=5)
        dealt = sum(len(p["body"]) for p in state["players"])
        assert sum(len(pile) for pile in state["raizan"]) + dealt == size


def raigo_words() -> None:
    """The move log's words for a draw of two in a real game, and a pile's button."""
    from tests.engine.raigo.helpers import bare, give, start

    state = raigo.ENGINE.new_game(seats=2, seed=3, config={"names": ["Reimu", "Marisa"]})
    two = {"type": "select", "count": 2}
    while two not in raigo.ENGINE.legal_actions(state, seat := raigo.ENGINE.waiting_on(state)[0]):
        state, _ = raigo.ENGINE.apply(state, seat, raigo.ENGINE.legal_actions(state, seat)[-1])
    state, events = raigo.ENGINE.apply(state, seat, two)
    drawn = " and ".join(t.capitalize() for t in _kinds(state["turn"]["drawn"]))
    mine = [e["text"] for e in events if e.get("visible_to") == [seat]]
    theirs = [e["text"] for e in events if e.get("hidden_from") == [seat]]
    assert (mine, theirs) == ([f"You draw {drawn}."], ["Reimu draws two tokens from Raizan."])
    state = bare(3)
    give(state, 0, left="roar")
    state = start(state)
    pile = {"type": "pile", "hand": "left", "tower": 0}
    assert str(raigo.ENGINE.describe_action(state, 0, pile)) == (
        "Pile the Roar in your left hand on your first tower"
    )


def _kinds(tokens: list[str]) -> list[str]:
    from minigames.engines.raigo.tokens import name

    return [name(t).lower() for t in tokens]


RAIGO_EXAMPLES = [
    Example(
        RAIGO_MD,
        "So four Ones score Sakura 2 + height 1 + Silent 1 = 4",
        tower("One, One, One, One", "Sakura", 4),
    ),
    Example(
        RAIGO_MD,
        "three Ones and a Thunder (the rulebook's scoring example) score Sakura 2 + height 1 = 3",
        tower("One, Thunder, One, One", "Sakura", 3),
    ),
    Example(
        RAIGO_MD,
        "Snake-Katana-Shield scores Lotus 1 + Spell 1 = 2",
        tower("Shield, Katana, Snake", "Lotus", 2),
    ),
    Example(
        RAIGO_MD,
        "every Double Sakura (4 + height 3 + bonus, up to 8)",
        tower("Three, Three, Three, Three, Three, Three", "Double Sakura", 8),
    ),
    Example(
        RAIGO_MD,
        "Five, Five, Roar, Roar, One, One (Five and Roar both weigh 5) is no Camellia and, with "
        "no other hand, scores nothing",
        tower("Five, Five, Roar, Roar, One, One", None, 0),
    ),
    Example(
        RAIGO_MD,
        "Eight, Eight, Five, Five, One, One is a Red Camellia (6)",
        tower("Eight, Eight, Five, Five, One, One", "Red Camellia", 6),
    ),
    Example(
        RAIGO_MD,
        "Eight, Eight, Five, Roar, One, Thunder a White one (4)",
        tower("Eight, Eight, Five, Roar, One, Thunder", "White Camellia", 4),
    ),
    Example(
        RAIGO_MD,
        "Raizan starts with 63 tokens (68 with three or four players)",
        raizan_sizes,
    ),
    Example(
        RAIGO_MD,
        'the drawer reads "You draw Snake and Seven.", everyone else "Reimu draws two tokens '
        'from Raizan."). `describe_action` words name the acting seat\'s own tokens ("Pile the '
        'Roar in your left hand")',
        raigo_words,
    ),
    Example(
        RAIGO_HTML,
        "Four Ones score Sakura 2 + height 1 + Silent 1 = 4",
        tower("One, One, One, One", "Sakura", 4),
    ),
    Example(
        RAIGO_HTML,
        "three Ones and a Thunder score Sakura 2 + height 1 = 3",
        tower("Thunder, One, One, One", "Sakura", 3),
    ),
    Example(
        RAIGO_HTML,
        "a Double Sakura (worth up to 8) would score only a White Camellia's 4",
        tower("Six, Six, Six, Six, Six, Six", "Double Sakura", 8),
    ),
    Example(
        RAIGO_HTML,
        "So Five, Five, Roar, Roar, One, One (Five and Roar both weigh 5) is no Camellia",
        tower("Five, Five, Roar, Roar, One, One", None, 0),
    ),
    Example(
        RAIGO_HTML,
        "while Eight, Eight, Five, Five, One, One is a Red Camellia",
        tower("Eight, Eight, Five, Five, One, One", "Red Camellia", 6),
    ),
    *raijin_rows(RAIGO_MD),
    *raijin_rows(RAIGO_HTML),
]


# --- Spirit War --------------------------------------------------------------------------


def sw_counts() -> None:
    """The default decks: 36 Spirits (three of each of 12, 12 of each element), 18 Spells,
    16 Attacks (four of the first definition, three of the others), 8 Fortunes, 8 Disasters."""
    state = spirit_war.ENGINE.new_game(seats=2, seed=1)
    defs = state["defs"]
    counts = Counter(state["cards"].values())
    by_kind = Counter(defs[key]["kind"] for key in state["cards"].values())
    assert by_kind == {"spirit": 36, "spell": 18, "attack": 16, "fortune": 8, "disaster": 8}
    spirits = [k for k in counts if defs[k]["kind"] == "spirit"]
    assert len(spirits) == 12 and {counts[k] for k in spirits} == {3}
    elements = Counter(defs[k]["element"] for k in state["cards"].values() if k in spirits)
    assert elements == {"fire": 12, "earth": 12, "water": 12}
    attacks = [c["key"] for c in bundled_cards()["attack"]]
    assert [counts[k] for k in attacks] == [4, 3, 3, 3, 3]


def sw_copies() -> None:
    """Each named card's copies in the default decks, as the page lists them."""
    state = spirit_war.ENGINE.new_game(seats=2, seed=1)
    names = Counter(state["defs"][k]["name"] for k in state["cards"].values())
    expected = {
        "Challenge Down the Road": 4,
        "Grudge From Behind": 3,
        "Open Duel": 3,
        "Envy of the Full Hand": 3,
        "Picking on the Weak": 3,
        "Festival Offerings": 2,
        "Wind at Your Back": 2,
        "Rummaging the Abyss": 2,
        "Rumours Spread": 2,
        "Sudden Downpour": 2,
        "Mischievous Fairy": 2,
        "Lost in the Bamboo": 2,
        "Ambush at Dusk": 1,
        "Landslide": 1,
    }
    assert {n: names[n] for n in expected} == expected


def _card(key: str) -> dict[str, object]:
    return next(c for cards in bundled_cards().values() for c in cards if c["key"] == key)


SPIRIT = {"fire": "cinder_fox", "earth": "moss_tortoise", "water": "mist_carp"}


def buff(
    mine: str, my_buff: bool, theirs: str, their_buff: bool, result: int
) -> Callable[[], None]:
    """A battle of ``mine`` against ``theirs`` resolved by the engine, each side adding a
    Spirit of its own element (an Element buff) or nothing."""

    def check() -> None:
        supports = (
            _card(SPIRIT[mine]) if my_buff else None,
            _card(SPIRIT[theirs]) if their_buff else None,
        )
        assert resolve((mine, theirs), supports).result == result

    return check


def bluff() -> None:
    """A Spirit of another element than the battling one changes nothing."""
    for mine, theirs in (("fire", "earth"), ("earth", "fire"), ("water", "water")):
        other = next(e for e in SPIRIT if e != mine)
        plain = resolve((mine, theirs), (None, None)).result
        assert resolve((mine, theirs), (_card(SPIRIT[other]), None)).result == plain


def two_disintegrates() -> None:
    lantern = _card("unmaking_lantern")
    kindling = _card("kindling_charm")
    res = resolve(("earth", "earth"), (lantern, lantern))
    assert res.cancelled == [False, True]
    res = resolve(("water", "water"), (lantern, kindling))
    assert res.cancelled == [False, True] and res.result == DRAW


def sw_file_error() -> None:
    text = (
        "cards:\n- {key: a, name: A, text: A, element: fire}\n"
        "- {key: b, name: B, text: B, element: mud}\n"
    )
    with pytest.raises(CardSetError) as caught:
        parse_file("spirit", "spells.yaml", text)
    assert str(caught.value) == "spells.yaml: cards[1].element: must be one of fire, earth, water"


def sw_config_error() -> None:
    with pytest.raises(ValueError, match=r"^config: extra_cards\[0\]\."):
        spirit_war.ENGINE.new_game(
            seats=2, seed=1, config={"extra_cards": [{"kind": "spirit", "key": "x"}]}
        )


SW_EXAMPLES = [
    Example(
        SW_MD,
        "36 Spirits from 12 definitions is three of each; 16 Attacks from 5 definitions is four "
        "of the first and three of each other.",
        sw_counts,
    ),
    Example(SW_MD, "| Preparation | Spirit | 36 (12 fire, 12 earth, 12 water) |", sw_counts),
    Example(
        SW_MD,
        "**Attacks**: Challenge Down the Road (the next player, 4 copies), Grudge From Behind (the "
        "previous player), Open Duel (anyone), Envy of the Full Hand (the most cards), Picking on "
        "the Weak (the fewest cards), 3 copies each.",
        sw_copies,
    ),
    Example(
        SW_MD,
        "Ambush at Dusk (the previous player must attack you) and Landslide (discard two cards of "
        "your choice), 2, 1 and 1 copies.",
        sw_copies,
    ),
    Example(
        SW_MD,
        "| buff | no buff, an element that would beat you | you win |",
        buff("water", True, "earth", False, WIN),
    ),
    Example(
        SW_MD,
        "| buff | no buff, an element you beat anyway | you win |",
        buff("fire", True, "earth", False, WIN),
    ),
    Example(
        SW_MD,
        "| buff | no buff, your own element | draw |",
        buff("fire", True, "fire", False, DRAW),
    ),
    Example(
        SW_MD,
        "| buff | buff | the chart decides (same element: draw) |",
        buff("fire", True, "water", True, LOSS),
    ),
    Example(
        SW_MD,
        "| buff | buff | the chart decides (same element: draw) |",
        buff("earth", True, "earth", True, DRAW),
    ),
    Example(SW_MD, "| Spirit of another element | anything | no effect (a bluff) |", bluff),
    Example(SW_MD, "so of two Disintegrates only the attacker's takes effect.", two_disintegrates),
    Example(
        SW_MD, "(`spells.yaml: cards[1].element: must be one of fire, earth, water`)", sw_file_error
    ),
    Example(SW_MD, "(errors then name `config: extra_cards[0].…`)", sw_config_error),
    Example(
        SW_HTML, "buff no buff, any other element you win", buff("earth", True, "fire", False, WIN)
    ),
    Example(
        SW_HTML, "buff no buff, your own element draw", buff("water", True, "water", False, DRAW)
    ),
    Example(SW_HTML, "buff buff the chart decides", buff("fire", True, "earth", True, WIN)),
    Example(SW_HTML, "a Spirit of another element anything no effect: a bluff", bluff),
]


# --- Rumbling Spell Orchestra -------------------------------------------------------------


def rso_faith() -> None:
    """Faith (3) on the intercepting spell against Faith (1) on the attacking one, in real
    battles: 2 damage (and 1) is ignored, 3 is taken in full."""
    from tests.engine.rso.helpers import spell
    from tests.engine.rso.test_battle import battle_game, fight

    guard = spell("T-Y", "Example Shot B", av=0, iv=0, hv=0, basic={"faith": 3})
    for av, lost in ((1, 0), (2, 0), (3, 3), (4, 4)):
        attack = spell("T-X", "Example Shot A", av=av, iv=0, hv=9, basic={"faith": 1})
        state, x, y = battle_game(attack, guard)
        hp = state["players"][1]["hp"]
        state, _ = fight(state, x, y)
        assert hp - state["players"][1]["hp"] == lost, av


def rso_stacking() -> None:
    """A spell with Focused Movement (1) granted another (Reimu's Special) has (2)."""
    from tests.engine.rso.helpers import character, deck, pass_window, put, spell, started

    x = spell("T-X", "Example Shot A", av=3, iv=0, hv=4, shot="spread")
    y = spell("T-Y", "Example Shot B", av=0, iv=0, hv=0, basic={"focused": 1})
    decks = [deck(["T-P1"] * 4, {"T-X": 1}), deck(["RSO-001"] * 4, {"T-Y": 1})]
    state = started([x, y, character("T-P1", "Pia")], first=0, decks=decks)
    xi, yi = put(state, 0, "T-X", "active"), put(state, 1, "T-Y", "active")
    state["players"][1]["sp"] = 3
    state, _ = pass_window(state)
    state, _ = rso.ENGINE.apply(state, 0, {"type": "attack", "spell": xi})
    state, _ = rso.ENGINE.apply(state, 1, {"type": "intercept", "spell": yi})
    state, _ = rso.ENGINE.apply(state, 0, {"type": "pass"})
    assert spell_stats(state, yi)["basic"]["focused"] == 1
    lead = state["players"][1]["leader"]
    grant = {"type": "use_special", "card": lead, "ability": 0, "target": yi}
    state, _ = rso.ENGINE.apply(state, 1, grant)
    assert spell_stats(state, yi)["basic"]["focused"] == 2


def rso_field_error() -> None:
    spell = dict(rso.starter_card_set()["RSO-101"], number="GM-1")
    spell["abilities"] = [
        {
            "kind": "special",
            "phase": "battle",
            "target": "own_battle_spell",
            "effects": [
                {"do": "modify", "stat": "av", "amount": 1},
                {"do": "modify", "stat": "hv", "amount": 10},
            ],
        }
    ]
    assert "abilities[0].effects[1].amount: must be between -9 and 9" in rso.validate_card(spell)
    spell["abilities"][0]["effects"][1] = {"do": "draw", "amount": 10}
    assert "abilities[0].effects[1].amount: must be between 1 and 9" in rso.validate_card(spell)


def rso_deck_line() -> None:
    cards = rso.starter_card_set()
    deck = rso.preset_deck("shrine-and-star")
    assert "3 Amulet Scatter [RSO-101]" in rso.deck_to_text(deck, cards).splitlines()
    assert rso.deck_from_text("3 Amulet Scatter [RSO-101]", cards) == (["RSO-101"] * 3, [])


def rso_names() -> None:
    """ "Fairy Spark" and " fairy spark " (two GM cards) are copies of one card."""
    base = dict(rso.starter_card_set()["RSO-101"])
    one = {**base, "number": "GM-201", "name": "Fairy Spark"}
    two = {**base, "number": "GM-202", "name": " fairy spark "}
    cards = rso.load_card_set([one, two])
    deck = [c for c in rso.preset_deck("shrine-and-star") if c != "RSO-101"]
    deck += ["GM-201", "GM-201", "GM-202"]
    assert rso.validate_deck(deck, cards) == []
    deck[deck.index("RSO-102")] = "GM-202"
    assert rso.validate_deck(deck, cards) == [
        "At most 3 copies of a card by name: Fairy Spark appears 4 times "
        "(also written “fairy spark”)."
    ]


def rso_playable_in_battle() -> None:
    event = {
        "number": "GM-3",
        "name": "Late Objection",
        "kind": "event",
        "cost": 1,
        "phases": ["battle", "preparation"],
        "role": "intercept",
        "effects": [{"do": "gain_sp", "amount": 1}],
    }
    assert rso.validate_card(event) == []
    assert rso.validate_card({**event, "phases": ["preparation"]})


RSO_EXAMPLES = [
    Example(
        RSO_MD,
        "Worked Faith example: your spell has Faith (3), the opposing one Faith (1). Damage of 1 "
        "or 2 is ignored; damage of 3 or more is taken in full.",
        rso_faith,
    ),
    Example(
        RSO_MD, "its worked example (Faith (3) against Faith (1) ignores 2 or less)", rso_faith
    ),
    Example(
        RSO_MD,
        "a spell with Focused Movement (1) that gains another Focused Movement (1) has Focused "
        "Movement (2).",
        rso_stacking,
    ),
    Example(RSO_MD, "`abilities[0].effects[1].amount: must be between 1 and 9`", rso_field_error),
    Example(RSO_MD, "`3 Amulet Scatter [RSO-101]`", rso_deck_line),
    Example(RSO_MD, '"Fairy Spark" and " fairy spark " are one card', rso_names),
    Example(
        RSO_MD,
        "(an intercepting Event for the Battle and Preparation phases can be played in battle)",
        rso_playable_in_battle,
    ),
    Example(
        RSO_HTML,
        "Faith (3) against Faith (1) ignores damage of 1 or 2.",
        rso_faith,
    ),
    Example(RSO_HTML, '"Fairy Spark" and "fairy spark" are the same card', rso_names),
]


# --- Dream Battle of SpellCard ------------------------------------------------------------


def picked_quarrel() -> None:
    """Picked Quarrel (800 to the opponent, then 300 to yourself) at 200 LP against 500: the
    first effect knocks the opponent out and the game ends there."""
    from tests.engine.dbs.helpers import act, clear_hand, give, opened, to_battle

    state = opened()
    clear_hand(state, 0)
    clear_hand(state, 1)
    state = to_battle(state)
    state["players"][0]["lp"], state["players"][1]["lp"] = 200, 500
    give(state, 0, "DBS-205")
    state, _ = act(state, 0, "buff", "DBS-205")
    assert dbs.ENGINE.result(state)["winners"] == [0]
    assert state["players"][0]["lp"] == 200


def mokou() -> None:
    """A hit that knocks out Mokou in Hyper, three cards in her Spell Chain: her special
    victory beats the Knock Out."""
    from tests.engine.dbs.test_victory import _chain, battle_ready, call, hit

    state = battle_ready()
    call(state, 1, "DBS-005", "hyper")
    _chain(state, 1, ["DBS-116", "DBS-117", "DBS-118"])
    state, _ = hit(state, "DBS-102", 500)
    assert state["players"][1]["lp"] < 0
    result = dbs.ENGINE.result(state)
    assert (result["victory"], result["winners"]) == ("special", [1])


LANTERN = """
- number: GM-001
  name: Lantern Festival Barrage
  kind: battle
  character: DBS-002          # Kirisame Marisa
  cost: 2
  attack: 2500
  level: 3
  limit: center
  on_hit:
    - {do: draw, amount: 1, if: [{check: hand_at_most, amount: 2}]}
"""


def lantern_words() -> None:
    import yaml

    (card,) = yaml.safe_load(LANTERN)
    assert dbs.validate_card(card) == []
    assert dbs.describe_card(card, dbs.starter_card_set()) == (
        "Lantern Festival Barrage (GM-001), Battle Spellcard of Kirisame Marisa. Level 3, attack "
        "2500, costs 2 SP. Only while she is in Center status. On a hit: If your hand holds at "
        "most 2 cards, draw 1 card."
    )


def dbs_field_error() -> None:
    card = yaml_card(LANTERN)
    card["on_hit"] = [{"do": "damage", "amount": 0}]
    assert dbs.validate_card(card) == ["on_hit[0].amount: must be a whole number from 1 to 20000."]


def yaml_card(text: str) -> dict[str, object]:
    import yaml

    (card,) = yaml.safe_load(text)
    return dict(card)


def dbs_deck_text() -> None:
    cards = dbs.starter_card_set()
    text = "3 DBS-001 Hakurei Reimu\n2 DBS-101 Paper Charm Flurry\n"
    numbers, errors = dbs.deck_from_text(text, cards)
    assert (numbers, errors) == (["DBS-001"] * 3 + ["DBS-101"] * 2, [])
    assert dbs.deck_to_text(numbers, cards) == text


DBS_EXAMPLES = [
    Example(
        DBS_MD,
        "So Picked Quarrel (800 damage to the opponent, then 300 to yourself) played at 200 LP "
        "against 500 wins: the opponent is knocked out by the first effect, and the 300 are "
        "never dealt.",
        picked_quarrel,
    ),
    Example(
        DBS_MD,
        "(a hit that knocks out a player whose skill wins at below 0 LP), a special victory beats "
        "a Knock Out",
        mokou,
    ),
    Example(
        DBS_MD,
        "reads: *Lantern Festival Barrage (GM-001), Battle Spellcard of Kirisame Marisa. Level 3, "
        "attack 2500, costs 2 SP. Only while she is in Center status. On a hit: If your hand "
        "holds at most 2 cards, draw 1 card.*",
        lantern_words,
    ),
    Example(
        DBS_MD, "(`on_hit[0].amount: must be a whole number from 1 to 20000.`)", dbs_field_error
    ),
    Example(DBS_MD, "3 DBS-001 Hakurei Reimu 2 DBS-101 Paper Charm Flurry", dbs_deck_text),
    Example(
        DBS_HTML,
        "Picked Quarrel (800 damage to your opponent, then 300 to you) played at 200 LP against "
        "500 wins for you: your opponent is knocked out before the 300 reach you.",
        picked_quarrel,
    ),
]

EXAMPLES = [*RAIGO_EXAMPLES, *SW_EXAMPLES, *RSO_EXAMPLES, *DBS_EXAMPLES]


@pytest.mark.parametrize("example", EXAMPLES, ids=str)
def test_the_example_is_on_its_page(example: Example) -> None:
    assert " ".join(example.quote.split()) in words_of(example.source)


@pytest.mark.parametrize("example", EXAMPLES, ids=str)
def test_the_example_plays_as_its_page_says(example: Example) -> None:
    example.check()


#: Passages that say "example" without giving one (a heading, a pointer).
NOT_EXAMPLES = (
    "### An example",
    "every example the rulebook gives is the turn player's",
    "each starting with the field it concerns, for example",
    "the rulebook's scoring example",
)


def test_every_example_on_the_pages_is_listed() -> None:
    """Every sum ("2 + 1 = 3") and every passage that says "example" or "for instance" on a
    rulings or How-to-play page lies inside a quote listed here, so it is played above."""
    assert len(RAIGO_EXAMPLES) > 20  # the Raijin tables were read: six rows on each page
    missing = []
    for source in SOURCES:
        text = words_of(source)
        quoted = [e.quote for e in EXAMPLES if e.source == source]
        spans = [
            (at, at + len(q))
            for q in (" ".join(q.split()) for q in quoted)
            if (at := text.find(q)) >= 0
        ]
        found = [m.span() for m in re.finditer(r"\d+ \+ [^.;]*?= \d+", text)]
        found += [
            m.span()
            for m in re.finditer(r"(?i)\b(example|for instance)\b", text)
            if not any(n in text[max(0, m.start() - 80) : m.end() + 80] for n in NOT_EXAMPLES)
        ]
        for start, end in found:
            if not any(a <= start and end <= b for a, b in spans):
                missing.append(f"{source}: …{text[max(0, start - 60) : end + 20]}…")
    assert not missing, missing
