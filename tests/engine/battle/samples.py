"""Sample characters, NPCs and cards: for demos, the benchmark and the engine's tests.

Every character here is a legal draft under the builder and every card a legal design for its
owner, so random battles between them exercise the rules as a real table would.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from westernroses.battle.arena import Arena, Square
from westernroses.battle.combatants import DeckSpec, combatant_from_sheet, npc
from westernroses.battle.creation import new_battle
from westernroses.battle.state import BattleState, Combatant
from westernroses.characters import CharacterDraft, derive_sheet, with_starting_kit
from westernroses.elements import Element
from westernroses.house_rules import DEFAULT_HOUSE_RULES, HouseRules
from westernroses.spellcards.card import (
    AttackPower,
    CardType,
    Duration,
    SkillChoice,
    SpellcardDraft,
    Targets,
    ToHit,
)

A, D, S = CardType.ATTACK, CardType.DEFENSIVE, CardType.SPECIAL


def _card(name: str, kind: CardType = A, **fields: object) -> SpellcardDraft:
    return SpellcardDraft(name=name, type=kind, **fields)  # type: ignore[arg-type]


def _skill(slug: str, **params: int | str) -> tuple[SkillChoice, ...]:
    return (SkillChoice.of(slug, **params),)


CHARACTERS: Final[dict[str, tuple[CharacterDraft, DeckSpec]]] = {
    "reimu": (
        CharacterDraft(
            name="Reimu",
            shot_type="homing_amulets",
            race="pony",
            profession="shrine_maiden",
            element="spirit",
            goddess_element="light",
            bonus_points={"int": 8, "ins": 8, "cha": 4},
            skill_points={"flying": 10},
            abilities=["graze_points", "shoot_and_ill_move"],
        ),
        [
            (
                "fantasy_seal",
                _card("Fantasy Seal", aoe=1, attack_power=AttackPower(3), element=Element.SPIRIT),
                3,
            ),
            ("healing", _card("Healing Charm", S, skills=_skill("healing", dice=2)), 2),
            (
                "evil_sealing",
                _card(
                    "Evil-Sealing Circle",
                    bomb=True,
                    attack_power=AttackPower(2),
                    element=Element.SPIRIT,
                ),
                2,
            ),
            (
                "wrath",
                _card(
                    "Divine Wrath",
                    S,
                    attack_power=AttackPower(2),
                    skills=_skill("stay_where_you_are"),
                ),
                2,
            ),
        ],
    ),
    "marisa": (
        CharacterDraft(
            name="Marisa",
            shot_type="magic_missile",
            race="magician",
            profession="librarian",
            element="fire",
            bonus_points={"int": 12, "ins": 8},
            skill_points={"legends": 10},
            abilities=["curvy_lasers"],
        ),
        [
            (
                "master_spark",
                _card(
                    "Master Spark",
                    targets=Targets.TWO,
                    attack_power=AttackPower(4),
                    element=Element.FIRE,
                ),
                3,
            ),
            ("read", _card("Grimoire Study", S, targets=None, skills=_skill("read_a_book")), 2),
            (
                "stardust",
                _card(
                    "Stardust Reverie",
                    duration=Duration.HOMING_2,
                    attack_power=AttackPower(2),
                    element=Element.FIRE,
                    to_hit=ToHit.ROLL_VS_INT,
                ),
                2,
            ),
            ("design", _card("Intelligent Design", S, skills=_skill("intelligent_design")), 1),
        ],
    ),
    "sakuya": (
        CharacterDraft(
            name="Sakuya",
            shot_type="misdirection",
            race="pony",
            profession="combat_maid",
            element="metal",
            bonus_points={"pwr": 8, "cha": 8, "ins": 4},
            skill_points={"dexterity": 10},
            abilities=["hard_to_kill", "ley_lines"],
        ),
        [
            ("killing_doll", _card("Killing Doll", S, skills=_skill("lethal_6d")), 3),
            (
                "time_stop",
                _card(
                    "Private Square", bomb=True, attack_power=AttackPower(1), element=Element.METAL
                ),
                2,
            ),
            (
                "knives",
                _card(
                    "Knife Rain",
                    aoe=2,
                    attack_power=AttackPower(2),
                    element=Element.METAL,
                    duration=Duration.SINGLE_SPACE_2,
                ),
                2,
            ),
        ],
    ),
    "meiling": (
        CharacterDraft(
            name="Meiling",
            shot_type="fourth_strike",
            race="youkai",
            profession="guardian",
            element="wood",
            natural_weapon="claws",
            guardian_charge="Reimu",
            bonus_points={"pwr": 10, "cha": 10},
            skill_points={"will": 10},
            abilities=["brute_force"],
        ),
        [
            ("body_shield", _card("Body-shield", S, bomb=True, skills=_skill("body_shield")), 2),
            (
                "shield",
                _card(
                    "Rainbow Shield", S, skills=_skill("shield"), duration=Duration.SINGLE_SPACE_2
                ),
                2,
            ),
            ("taunt", _card("Provoke", S, aoe=1, skills=_skill("taunt")), 2),
            ("sturdy", _card("Qigong", S, targets=Targets.SELF, skills=_skill("sturdy")), 1),
        ],
    ),
    "suika": (
        CharacterDraft(
            name="Suika",
            shot_type="tip_of_death",
            race="oni",
            profession="drunken_master",
            element="fire",
            bonus_points={"pwr": 10, "cha": 6, "ins": 4},
            skill_points={"will": 10},
            abilities=["hard_to_kill"],
            drunkenness="tipsy",
        ),
        [
            ("drunk", _card("Gourd Swig", S, targets=None, skills=_skill("drunk_as_i_please")), 2),
            ("share", _card("Have a drink!", S, targets=None, skills=_skill("have_a_drink")), 2),
            (
                "weave",
                _card("Bob and weave", S, bomb=True, targets=None, skills=_skill("bob_and_weave")),
                2,
            ),
        ],
    ),
    "aya": (
        CharacterDraft(
            name="Aya",
            shot_type="tengu_gale",
            race="tengu",
            profession="carefree_soul",
            element="wind",
            bonus_points={"cha": 6, "ins": 8, "int": 6},
            skill_points={"flying": 10},
            abilities=["ley_lines"],
        ),
        [
            ("stay_still", _card("Stay still!", S, targets=None, skills=_skill("stay_still")), 2),
            (
                "what",
                _card(
                    "What was I doing?",
                    S,
                    bomb=True,
                    targets=None,
                    skills=_skill("what_was_i_doing_again"),
                ),
                2,
            ),
            (
                "over_there",
                _card(
                    "I wanna be over there", S, targets=None, skills=_skill("i_wanna_be_over_there")
                ),
                2,
            ),
            (
                "gale",
                _card(
                    "Tengu Gale",
                    targets=Targets.THREE,
                    attack_power=AttackPower(2),
                    element=Element.WIND,
                ),
                2,
            ),
        ],
    ),
    "alice": (
        CharacterDraft(
            name="Alice",
            shot_type="spectrum_mystery",
            race="magician",
            profession="doll_master",
            element="light",
            bonus_points={"int": 10, "ins": 6, "pwr": 4},
            skill_points={"dexterity": 10},
            abilities=["ley_lines"],
        ),
        [
            ("swarm", _card("Doll Swarm", S, targets=None, skills=_skill("doll_swarm")), 2),
            (
                "cremation",
                _card(
                    "Doll Cremation",
                    S,
                    targets=None,
                    attack_power=AttackPower(3),
                    skills=_skill("doll_cremation"),
                ),
                2,
            ),
            ("dual", _card("Dual Strike", S, targets=None, skills=_skill("dual_strike")), 2),
            ("hive", _card("Hive Mind", S, targets=None, skills=_skill("hive_mind")), 2),
        ],
    ),
    "patchouli": (
        CharacterDraft(
            name="Patchouli",
            shot_type="magic_missile",
            race="magician",
            profession="librarian",
            element="water",
            bonus_points={"int": 10, "ins": 10},
            skill_points={"legends": 10},
            abilities=["ley_lines"],
        ),
        [
            (
                "familiar",
                _card(
                    "Summon Koakuma",
                    S,
                    targets=None,
                    skills=_skill("summon_familiar", familiar_element="darkness"),
                ),
                2,
            ),
            ("read", _card("Grimoire Study", S, targets=None, skills=_skill("read_a_book")), 2),
            ("wave", _card("Water Wave", attack_power=AttackPower(2), element=Element.WATER), 3),
            (
                "spring",
                _card("Spring Wind", aoe=1, attack_power=AttackPower(1), element=Element.WATER),
                2,
            ),
        ],
    ),
}


def character(
    key: str,
    *,
    id: str | None = None,
    controller: str = "player",
    side: str = "heroes",
    position: Square | None = None,
    rules: HouseRules = DEFAULT_HOUSE_RULES,
    charge: str | None = None,
) -> Combatant:
    """A sample player character as a combatant (sheet derived sober; drink tracked live)."""
    draft, deck = CHARACTERS[key]
    kit = with_starting_kit(draft)
    level = kit.drunkenness
    kit.drunkenness = "sober"
    sheet = derive_sheet(kit, rules)
    c = combatant_from_sheet(
        sheet,
        id=id or key,
        controller=controller,
        side=side,
        position=position,
        deck=deck,
        charge=charge,
    )
    c.drunkenness = level
    return c


def youkai(
    index: int, *, position: Square | None = None, side: str = "youkai", strength: int = 0
) -> Combatant:
    """A generic GM youkai: claws, danmaku and a small deck."""
    deck: DeckSpec = [
        ("bullets", _card("Youkai Bullets", attack_power=AttackPower(2)), 3),
        ("burst", _card("Youkai Burst", bomb=True, attack_power=AttackPower(1)), 1),
    ]
    return npc(
        id=f"youkai{index}",
        name=f"Youkai {index}",
        stats={"pwr": 12 + strength, "cha": 9, "int": 9, "ins": 8},
        hp=60 + 10 * strength,
        speed=4,
        range=4,
        side=side,
        position=position,
        element="darkness",
        weapons=("natural_weapon",),
        traits=("lucky",) if index % 2 else (),
        deck=deck,
        race="youkai",
    )


def fairy(index: int, *, position: Square | None = None) -> Combatant:
    return npc(
        id=f"fairy{index}",
        name=f"Fairy {index}",
        stats={"pwr": 6, "cha": 11, "int": 7, "ins": 6},
        hp=40,
        speed=5,
        range=3,
        side="youkai",
        position=position,
        element="water",
        traits=("short_term_memory",),
        race="fairy",
    )


def demo_battle(
    seed: int,
    *,
    heroes: Sequence[str] = ("reimu", "marisa"),
    monsters: int = 2,
    size: tuple[int, int] = (9, 7),
    rules: HouseRules = DEFAULT_HOUSE_RULES,
) -> BattleState:
    """Heroes (one player each: p1, p2 ...) on the left against GM youkai and fairies on the
    right, with a few blocking and difficult squares in the middle."""
    width, height = size
    left = _spots(height, (0, 1))
    right = _spots(height, (width - 1, width - 2))
    combatants = [
        character(
            key,
            controller=f"p{i + 1}",
            position=left[i],
            rules=rules,
            charge="reimu" if key == "meiling" and "reimu" in heroes else None,
        )
        for i, key in enumerate(heroes)
    ]
    for i in range(monsters):
        combatants.append(
            fairy(i, position=right[i]) if i % 3 == 2 else youkai(i, position=right[i])
        )
    mid = width // 2
    arena = Arena(
        width,
        height,
        blocked=frozenset({(mid, 1), (mid, height - 2)}),
        difficult=frozenset({(mid, height // 2), (mid - 1, height // 2)}),
    )
    return new_battle(arena=arena, combatants=combatants, seed=seed, rules=rules)


def _spots(height: int, columns: tuple[int, int]) -> list[Square]:
    """Distinct starting squares down two columns, every other row first."""
    rows = list(range(0, height, 2)) + list(range(1, height, 2))
    return [(x, y) for x in columns for y in rows]
