"""Card-set validation: every mistake names its file and field.

The bundled set (minigames/engines/spirit_war/data/*.yaml) is original data in a declarative
effect vocabulary (RULINGS.md "Spirit War, RSO, DBS"; docs/games/spirit-war.md lists it).
"""

from __future__ import annotations

import pytest

from minigames.engines.spirit_war.cards import (
    ATTACK_TARGETS,
    EFFECT_STEPS,
    SUPPORT_EFFECTS,
    CardSetError,
    bundled_cards,
    parse_file,
)


def test_bundled_set_loads_and_uses_only_the_vocabulary():
    cards = bundled_cards()
    assert {k: len(v) for k, v in cards.items()} == {
        "spirit": 12,
        "spell": 6,
        "attack": 5,
        "fortune": 4,
        "disaster": 5,
    }
    assert {c["support"] for c in cards["spell"]} == set(SUPPORT_EFFECTS)
    assert {c["target"] for c in cards["attack"]} == set(ATTACK_TARGETS)
    steps = {s["do"] for kind in ("fortune", "disaster") for c in cards[kind] for s in c["effects"]}
    assert steps == set(EFFECT_STEPS)


def error(kind, text):
    with pytest.raises(CardSetError) as err:
        parse_file(kind, f"{kind}s.yaml", text)
    return err.value


@pytest.mark.parametrize(
    ("kind", "text", "field", "message"),
    [
        (
            "spirit",
            "cards:\n  - {key: a, name: A, text: t}\n",
            "cards[0].element",
            "must be one of fire, earth, water",
        ),
        (
            "spirit",
            "cards:\n  - {key: a, name: A, text: t, element: metal}\n",
            "cards[0].element",
            "must be one of",
        ),
        (
            "spirit",
            "cards:\n  - {key: A-1, name: A, text: t, element: fire}\n",
            "cards[0].key",
            "slug",
        ),
        (
            "spirit",
            "cards:\n  - {key: a, name: '', text: t, element: fire}\n",
            "cards[0].name",
            "non-empty",
        ),
        (
            "spirit",
            "cards:\n  - {key: a, name: A, text: t, element: fire, power: 3}\n",
            "cards[0].power",
            "is not a field of a spirit card",
        ),
        (
            "spell",
            "cards:\n  - {key: a, name: A, text: t, support: heal}\n",
            "cards[0].support",
            "disintegrate, imbue, swap, safeguard",
        ),
        (
            "spell",
            "cards:\n  - {key: a, name: A, text: t, support: imbue}\n",
            "cards[0].element",
            "must be one of",
        ),
        (
            "spell",
            "cards:\n  - {key: a, name: A, text: t, support: swap, element: fire}\n",
            "cards[0].element",
            "only an imbue spell",
        ),
        (
            "attack",
            "cards:\n  - {key: a, name: A, text: t, target: everyone}\n",
            "cards[0].target",
            "next, previous, any",
        ),
        (
            "fortune",
            "cards:\n  - {key: a, name: A, text: t, effects: []}\n",
            "cards[0].effects",
            "1 to 6 steps",
        ),
        (
            "fortune",
            "cards:\n  - {key: a, name: A, text: t, effects: [{do: fly}]}\n",
            "cards[0].effects[0].do",
            "must be one of draw_preparation",
        ),
        (
            "fortune",
            "cards:\n  - {key: a, name: A, text: t, effects: [{do: draw_preparation, count: 9}]}\n",
            "cards[0].effects[0].count",
            "from 1 to 5",
        ),
        (
            "fortune",
            "cards:\n  - {key: a, name: A, text: t, effects: [{do: draw_preparation}]}\n",
            "cards[0].effects[0].count",
            "is required",
        ),
        (
            "disaster",
            "cards:\n  - {key: a, name: A, text: t, effects: [{do: skip_next_turn, count: 1}]}\n",
            "cards[0].effects[0].count",
            "is not a field of 'skip_next_turn'",
        ),
        (
            "disaster",
            "cards:\n  - {key: a, name: A, text: t, effects:\n"
            "    [{do: take_from_abyss, kind: spirit, count: 1}]}\n",
            "cards[0].effects[0].kind",
            "must be one of spell",
        ),
        (
            "disaster",
            "cards:\n  - {key: a, name: A, text: t, effects: [{do: ambush, by: any}]}\n",
            "cards[0].effects[0].by",
            "next, previous",
        ),
        (
            "spirit",
            "cards:\n  - {key: a, name: A, text: t, element: fire}\n"
            "  - {key: a, name: B, text: t, element: earth}\n",
            "cards[1].key",
            "used twice",
        ),
        ("spirit", "cards: []\n", "cards", "non-empty list"),
        ("spirit", "spirits: []\n", "(file)", "exactly one field"),
        ("spirit", "cards: [\n", "line 2", "not valid YAML"),
    ],
)
def test_errors_name_the_file_and_the_field(kind, text, field, message):
    err = error(kind, text)
    assert err.source == f"{kind}s.yaml"
    assert err.field == field
    assert message in err.message
    assert str(err).startswith(f"{kind}s.yaml: {field}: ")
