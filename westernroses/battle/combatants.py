"""Building combatants: from a character :class:`~westernroses.characters.Sheet` and its deck,
or from explicit NPC stats.

The sheet already sums every passive with its source; the battle keeps the parts that never
change during a fight and drops the ones it recomputes as the fight goes (drink, Options,
status effects), so a tipsy character or a Read-a-book buff is never counted twice. Every
engine rule that depends on a named passive looks for its slug in ``Profile.traits``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from westernroses.battle.arena import Square
from westernroses.battle.state import AttackProfile, Combatant, Profile
from westernroses.catalog import MAIN_STATS, get_catalog
from westernroses.characters.contributions import Contribution
from westernroses.characters.sheet import Sheet
from westernroses.spellcards.card import SpellcardDraft
from westernroses.spellcards.deck import DeckState

#: Sheet contributions the battle recomputes itself (so they are left out of the profile).
DYNAMIC_SOURCES: Final = frozenset({"drunkenness", "options", "status_effect"})

#: Item ``on_hit`` texts and the rule the engine applies for each ("Items").
ON_HIT: Final = {
    "successful attack can cause a 1-turn stun": "stun_1",
    "successful attack destroys buffs": "destroy_buffs",
}

#: Passive slugs the engine acts on (everything else on a sheet is a number or role-play).
TRAITS: Final = frozenset(
    {
        "lucky",  # Spectrum Mystery
        "stunning_note",  # Slow Sound
        "fleet_hooves",  # Tengu Gale
        "quick_strike",  # Misdirection
        "short_term_memory",  # fairy
        "magic_spirit",  # magician: +2 to magic skills (spellcards) as well as danmaku
        "lunatic_gaze",  # moon hare
        "shrine_maiden",
        "librarian",
        "guardian",
        "combat_maid",
        "drunken_master",
        "doll_master",
        "familiar",
        "manipulation_of_ice",
        "manipulation_of_light",
        "manipulation_of_electricity",
    }
)


def _static(parts: Iterable[Contribution]) -> int:
    return sum(p.amount for p in parts if p.source not in DYNAMIC_SOURCES)


def _recovery(text: str | None) -> int | None:
    if text is None or not text.endswith("d"):
        return None
    return int(text[:-1])


def _ability_slugs(sheet: Sheet) -> set[str]:
    """Ability slugs from the sheet's passives (it lists abilities by name, maybe with the
    choice in brackets: "Skill Focus (Stealth)")."""
    names = {p.name for p in sheet.passives if p.source == "ability"}
    found = set()
    for ability in get_catalog().abilities.values():
        if any(n == ability.name or n.startswith(ability.name + " (") for n in names):
            found.add(ability.slug)
    return found


def traits_of(sheet: Sheet) -> tuple[str, ...]:
    slugs = {sheet.shot_type.passive.slug, sheet.profession.slug}
    slugs |= {t.slug for t in sheet.race.traits}
    slugs |= _ability_slugs(sheet)
    return tuple(sorted(slugs & TRAITS))


def profile_from_sheet(sheet: Sheet, *, charge: str | None = None) -> Profile:
    """The battle profile of a character sheet (derive the sheet sober for exact numbers; any
    drink on it is removed here and tracked by the battle instead)."""
    attacks = []
    for a in sheet.attacks:
        if a.kind == "danmaku":
            attacks.append(
                AttackProfile(
                    slug=a.slug,
                    name=a.name,
                    kind="danmaku",
                    range=None,
                    bonus=_static(a.damage.modifier_parts),
                )
            )
            continue
        dice = sum(p.amount for p in a.damage.dice_parts if p.source not in DYNAMIC_SOURCES)
        bonus = sum(
            p.amount
            for p in a.damage.modifier_parts
            if p.source not in DYNAMIC_SOURCES and p.source != "stat"
        )
        attacks.append(
            AttackProfile(
                slug=a.slug,
                name=a.name,
                kind=a.kind,
                range=a.range,
                dice=dice,
                bonus=bonus,
                to_hit_bonus=_static(a.to_hit.modifiers) if a.to_hit else 0,
                on_hit=ON_HIT.get(a.on_hit or ""),
                recovery_dice=_recovery(a.recovery),
                fists=a.slug == "bare_fists",
            )
        )
    speed = sheet.speed.total - sum(
        p.amount for p in sheet.speed.contributions if p.source in DYNAMIC_SOURCES
    )
    will = sheet.skills["will"]
    defence = sheet.defence
    return Profile(
        stats={k: sheet.stats[k].total for k in MAIN_STATS},
        hp_max=sheet.hp.maximum.total,
        speed=speed,
        range=sheet.range.total,
        will=will.value,
        will_bonus=_static(will.bonuses),
        element=sheet.element,
        goddess_element=sheet.goddess_element,
        race=sheet.race.slug,
        profession=sheet.profession.slug,
        shot_type=sheet.shot_type.slug,
        traits=traits_of(sheet),
        sp_bonus=_static(p for p in sheet.spell_power.per_turn_parts if p.source != "stat"),
        sp_multiplier=sheet.spell_power.multiplier,
        damage_reduction=_static(defence.damage_reduction),
        any_damage_reduction=_static(
            p for p in defence.damage_reduction if p.source != "shot_type"
        ),
        reduction_parts=tuple(
            (p.label, p.amount, p.source != "shot_type")
            for p in defence.damage_reduction
            if p.amount and p.source not in DYNAMIC_SOURCES
        ),
        physical_dodge_bonus=_static(defence.physical_dodge.modifiers),
        danmaku_dodge_bonus=_static(defence.danmaku_dodge.modifiers),
        graze_bonus=_static(defence.graze.modifiers),
        status_resistance=_static(defence.status_resistance),
        attackers_physical_to_hit=_static(defence.attackers_physical_to_hit),
        opponents_graze=_static(sheet.opponents_graze),
        opponents_danmaku_dodge=_static(sheet.opponents_danmaku_dodge),
        spellcard_to_hit=_static(sheet.spellcards.to_hit),
        attacks=tuple(attacks),
        charge=charge,
        charge_hp=sum(p.amount for p in sheet.hp.maximum.contributions if p.source == "profession")
        if charge
        else 0,
        level=sheet.level,
        dolls=_dolls(sheet),
        unconnected_dolls=sheet.dolls.unconnected if sheet.dolls else 0,
    )


def _dolls(sheet: Sheet) -> int:
    """A Doll Master's dolls: the "doll" items she carries (four from her starting kit)."""
    if sheet.profession.slug != "doll_master":
        return 0
    return sum(int(i.get("quantity", 0)) for i in sheet.inventory if i.get("slug") == "doll")


DeckSpec = Sequence[tuple[str, SpellcardDraft, int]]


def _deck(deck: DeckSpec, hand: Sequence[str]) -> tuple[DeckState, dict[str, dict[str, object]]]:
    cards: dict[str, dict[str, object]] = {}
    pile: list[str] = []
    for card_id, card, copies in deck:
        if card_id in cards:
            raise ValueError(f"card id {card_id!r} is listed twice")
        cards[card_id] = card.to_dict()
        pile.extend([card_id] * copies)
    held = list(hand)
    for card_id in held:
        if card_id not in pile:
            raise ValueError(f"card {card_id!r} in the hand is not a copy in the deck")
        pile.remove(card_id)
    return DeckState(draw_pile=tuple(pile), hand=tuple(held)), cards


def combatant_from_sheet(
    sheet: Sheet,
    *,
    id: str,
    controller: str,
    side: str,
    position: Square | None,
    deck: DeckSpec = (),
    hand: Sequence[str] = (),
    spell_power: int | None = None,
    charge: str | None = None,
    kind: str = "character",
) -> Combatant:
    """A player character. ``deck`` lists (card id, card, copies); the draw pile is shuffled
    when the battle is created. ``hand`` are cards already held ("all drawn (and unused) cards
    remain in your hoof"). ``spell_power`` None takes the house rule's start (RULINGS 8).
    ``charge`` is the combatant id of a Guardian's charge, if it fights here."""
    piles, cards = _deck(deck, hand)
    profile = profile_from_sheet(sheet, charge=charge)
    ammo = {a.slug: a.quantity for a in sheet.attacks if a.kind == "thrown" and a.quantity}
    return Combatant(
        id=id,
        name=sheet.name or id,
        kind=kind,
        controller=controller,
        side=side,
        profile=profile,
        position=position,
        hp=sheet.hp.current,
        spell_power=-1 if spell_power is None else spell_power,
        deck=piles,
        cards=cards,
        drunkenness=sheet.drunkenness.level.value,
        ammo=ammo,
    )


def attack_from_item(
    slug: str, range_stat: int, *, improvised_penalty: bool = True, bonus: int = 0
) -> AttackProfile:
    """A basic attack with a catalog weapon (NPCs): its dice, range and on-hit rule."""
    item = get_catalog().items[slug]
    if not item.is_weapon:
        raise ValueError(f"{item.name} is not a weapon")
    improvised = item.category == "improvised_weapon" and improvised_penalty
    if item.range is not None:
        reach = item.range
    else:
        assert item.range_of_stat is not None  # noqa: S101 - the catalog guarantees one
        reach = math.ceil(item.range_of_stat * range_stat)
    return AttackProfile(
        slug=slug,
        name=item.name,
        kind="thrown" if item.category == "throwing_weapon" else "physical",
        range=reach,
        dice=item.damage_dice or 0,
        bonus=bonus + (-4 if improvised else 0),
        to_hit_bonus=-2 if improvised else 0,
        on_hit=ON_HIT.get(item.on_hit or ""),
        recovery_dice=item.recovery_dice if item.recoverable else None,
        fists=slug == "bare_fists",
    )


def npc(
    *,
    id: str,
    name: str,
    stats: Mapping[str, int],
    hp: int,
    speed: int,
    range: int,
    side: str = "enemies",
    controller: str = "gm",
    position: Square | None = None,
    element: str | None = None,
    weapons: Sequence[str] = (),
    ammo: Mapping[str, int] | None = None,
    traits: Sequence[str] = (),
    damage_reduction: int = 0,
    spell_power: int | None = None,
    deck: DeckSpec = (),
    hand: Sequence[str] = (),
    kind: str = "npc",
    race: str | None = None,
    profession: str | None = None,
    shot_type: str | None = None,
    damage_bonus: int = 0,
    dolls: int = 0,
) -> Combatant:
    """A GM's NPC from explicit numbers: bare fists, danmaku and any catalog ``weapons``.

    Will is (CHA + INS) / 2 rounded up ("Skills", RULINGS 3). ``damage_bonus`` is a flat bonus
    to physical damage (Training, Brute Force and the like, written as one number).
    """
    for key in MAIN_STATS:
        if key not in stats:
            raise ValueError(f"NPC stats need {', '.join(MAIN_STATS)}")
    attacks = [
        AttackProfile("danmaku", "Danmaku", "danmaku", None),
        attack_from_item("bare_fists", range, bonus=damage_bonus),
    ]
    attacks += [attack_from_item(slug, range, bonus=damage_bonus) for slug in weapons]
    piles, cards = _deck(deck, hand)
    profile = Profile(
        stats={k: int(stats[k]) for k in MAIN_STATS},
        hp_max=hp,
        speed=speed,
        range=range,
        will=-(-(stats["cha"] + stats["ins"]) // 2),
        element=element,
        race=race,
        profession=profession,
        shot_type=shot_type,
        traits=tuple(sorted(set(traits))),
        damage_reduction=damage_reduction,
        attacks=tuple(attacks),
        dolls=dolls,
    )
    return Combatant(
        id=id,
        name=name,
        kind=kind,
        controller=controller,
        side=side,
        profile=profile,
        position=position,
        hp=hp,
        spell_power=-1 if spell_power is None else spell_power,
        deck=piles,
        cards=cards,
        ammo=dict(ammo or {a.slug: 20 for a in attacks if a.kind == "thrown"}),
    )
