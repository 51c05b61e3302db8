"""The builder's preview: exact damage distribution and chance to hit a typical target.

Ruleset "Attacking and Dodging": "the base difficulty to dodge a spellcard attack is equal to
the attacker's intelligence or power (whichever is higher)"; the target dodges like danmaku,
with an insight roll. Our reading (docs/spellcards.md): a typical target has INS 12 (4d); a
to-hit roll is the caster's INT or PWR check against the base difficulty 12.
"""

from __future__ import annotations

from fractions import Fraction

from spellcards.services import CasterStats, card_preview
from tests.factories import attack_draft
from westernroses.house_rules import DEFAULT_HOUSE_RULES
from westernroses.probability import check_odds, total_distribution
from westernroses.spellcards import CasterInfo, SpellcardDraft

WITCH = CasterInfo("witch", "spectrum_mystery", "spirit")


def test_damage_is_the_exact_distribution_of_the_attack_power():
    preview = card_preview(
        SpellcardDraft.from_dict(attack_draft(attack_power={"dice": 3, "modifier": 2})),
        WITCH,
        DEFAULT_HOUSE_RULES,
    )
    assert preview.attack.distribution == total_distribution("3d+2")
    assert preview.attack.mean == Fraction(25, 2)
    assert 'data-bars="16"' in preview.attack.chart_svg
    assert "crit-" not in preview.attack.chart_svg  # damage is not a check
    assert preview.attack.p_hit is None  # no sheet: no dodge difficulty


def test_chance_to_hit_is_the_typical_target_failing_its_insight_dodge():
    stats = CasterStats(dodge_difficulty=15, int_dice=5, pwr_dice=1)
    preview = card_preview(
        SpellcardDraft.from_dict(attack_draft()), WITCH, DEFAULT_HOUSE_RULES, stats
    )
    p_dodge = check_odds(4, 0, 15).any_success
    assert preview.attack.p_dodge == p_dodge
    assert preview.attack.p_hit == 1 - p_dodge
    assert preview.attack.expected_damage == (1 - p_dodge) * 7


def test_a_to_hit_roll_must_succeed_first():
    stats = CasterStats(dodge_difficulty=15, int_dice=5, int_modifier=1, pwr_dice=1)
    preview = card_preview(
        SpellcardDraft.from_dict(attack_draft(to_hit="roll_vs_int")),
        WITCH,
        DEFAULT_HOUSE_RULES,
        stats,
    )
    p_caster = check_odds(5, 1, 12).any_success
    assert preview.attack.p_caster == p_caster
    assert preview.attack.p_hit == p_caster * (1 - check_odds(4, 0, 15).any_success)


def test_defensive_and_self_cards_are_not_judged():
    defensive = SpellcardDraft.from_dict(attack_draft(type="defensive", attack_power=None))
    assert card_preview(defensive, WITCH, DEFAULT_HOUSE_RULES).attack is None


def test_preview_prices_an_illegal_card_and_lists_its_problems():
    preview = card_preview(
        SpellcardDraft.from_dict(attack_draft(name="", targets="self", to_hit="burst")),
        WITCH,
        DEFAULT_HOUSE_RULES,
    )
    assert preview.total == 20
    assert {v.code for v in preview.violations} == {
        "name_required",
        "self_to_hit",
        "attack_targets_self",
    }
    assert not preview.valid
