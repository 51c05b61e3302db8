"""docs/rulings.md (for players) and docs/battle.md (for developers) say the same thing about the
rulings issue 9's audit found missing or contradicting, and every house rule in the code is in
the players' table with its default."""

from __future__ import annotations

from pathlib import Path

import pytest

from westernroses.house_rules import DEFAULT_HOUSE_RULES, HOUSE_RULES_META

DOCS = Path(__file__).resolve().parents[2] / "docs"
RULINGS = (DOCS / "rulings.md").read_text()
BATTLE = (DOCS / "battle.md").read_text()


def _flat(text: str) -> str:
    return " ".join(text.split())


def _paragraph(text: str, start: str) -> str:
    flat = _flat(text)
    at = flat.index(start)
    return flat[at : at + 600]


def test_every_house_rule_is_in_the_players_table_with_its_default():
    """A row may pair two settings ("Element cost, same cycle / other cycle | 40 / 80")."""
    rows = [line.split("|")[1:3] for line in RULINGS.splitlines() if line.startswith("| ")]
    for name, meta in HOUSE_RULES_META.items():
        label = meta.label.split(" (")[0]
        names = {
            label,
            label.split(", ")[-1],
            label[0].lower() + label[1:],
            label.split(" ", 1)[-1],
        }
        found = [cells for cells in rows if any(n in cells[0] for n in names)]
        assert found, f"{meta.label} is missing from docs/rulings.md"
        default = str(getattr(DEFAULT_HOUSE_RULES, name))
        assert default in found[0][1], (name, found[0])


@pytest.mark.parametrize("doc", [RULINGS, BATTLE], ids=["rulings.md", "battle.md"])
def test_the_audits_rulings_are_written_down_alike(doc):
    caster = _paragraph(doc, "An attack card never hits its caster")
    assert "Divine Fire" in caster and "Cremation" in caster  # issue 9, rule 2
    flat = _flat(doc)
    assert "+20 HP stays" not in flat and "not taken away" not in flat  # rule 9
    assert "stunned, frozen or thawing" in flat or "stunned, frozen, thawing" in flat  # rule 10
    assert "line of sight" in flat  # rule 10
    assert "from an opponent" in flat or "an attack from an opponent" in flat  # rule 10
    lethal = _paragraph(doc, "Lethal damage is physical")
    assert "no Options" in lethal and "Magic Spirit" in lethal  # rule 10


def test_the_drinking_rulings_say_what_the_code_does():
    """Issue 9: staying conscious is −2, −4, −6 in all (not the level's penalty plus those), and
    a plastered tengu keeps Kaze Sake's +4 speed."""
    from westernroses.characters.drunkenness import KAZE_SAKE_SPEED, DrunkLevel, consciousness_check

    totals = [
        consciousness_check(level, "pony").modifier
        for level in (DrunkLevel.DRUNK, DrunkLevel.HEAVILY_DRUNK, DrunkLevel.PLASTERED)
    ]
    assert totals == [-2, -4, -6]
    flat = _flat(RULINGS)
    assert "−2 in all when drunk, −4 in all when heavily drunk and −6 in all when plastered" in flat
    assert KAZE_SAKE_SPEED[DrunkLevel.PLASTERED] == 4 and "+4 when plastered" in flat
