"""Creating a battle: the arena, the combatants, the seed and the campaign's house rules.

The new state is in the ``setup`` phase: the GM may still place pieces and add combatants
(``gm_move``, ``gm_add_combatant``) before the ``start`` action rolls the turn order. Decks are
shuffled here with the battle's own random source, so the whole battle - shuffles included -
replays from this state and the action log.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from westernroses.battle.arena import Arena
from westernroses.battle.state import BattleState, Combatant
from westernroses.house_rules import DEFAULT_HOUSE_RULES, HouseRules
from westernroses.rng import RandomSource
from westernroses.spellcards.deck import DeckState


def prepare(c: Combatant, rng: RandomSource, rules: HouseRules) -> None:
    """Shuffle her draw pile and give her the starting spell power (RULINGS 8: 50 unless the
    GM gave an NPC more or less; never above the cap)."""
    pile = list(c.deck.draw_pile)
    rng.shuffle(pile)
    c.deck = DeckState(tuple(pile), c.deck.hand, c.deck.discard)
    if c.spell_power < 0:
        c.spell_power = rules.starting_spell_power
    c.spell_power = max(0, min(c.spell_power, rules.spell_power_cap))
    c.hp = min(c.hp, c.profile.hp_max)


def add_dolls(state: BattleState, c: Combatant) -> None:
    """A Doll Master brings her dolls, off the board until she activates them."""
    from westernroses.battle.summons import make_dolls

    if "doll_master" not in c.profile.traits:
        return
    for doll in make_dolls(c):
        if doll.id not in state.combatants:
            state.combatants[doll.id] = doll


def number_duplicate(others: Iterable[Combatant], c: Combatant) -> None:
    """Tell apart combatants of the same name by number ("Fairy Maid 1", "Fairy Maid 2"), so
    the board, the turn order, the log and every action say which one (issue 14).

    Why here: the name is the engine's display name, so numbering it once, as a combatant
    joins (placed in setup, or a GM's reinforcement), makes it the same everywhere and stable
    for the whole battle: nobody is renumbered when another falls or leaves. The first of a
    name keeps it bare until a second arrives; then she becomes "1" and the newcomer "2"; later
    ones take the next number after the highest in use. Dolls are named by their Doll Master.
    """
    if c.kind == "doll":
        return
    base = c.name
    numbered = re.compile(re.escape(base) + r" (\d+)")
    bare: list[Combatant] = []
    numbers: list[int] = []
    for o in others:
        if o is c or o.id == c.id or o.kind == "doll":
            continue
        if o.name == base:
            bare.append(o)
        elif (m := numbered.fullmatch(o.name)) is not None:
            numbers.append(int(m.group(1)))
    if not bare and not numbers:
        return
    top = max(numbers, default=0)
    for o in bare:
        top += 1
        o.name = f"{base} {top}"
    c.name = f"{base} {top + 1}"


def check_placement(state: BattleState, c: Combatant) -> None:
    if c.id in state.combatants:
        raise ValueError(f"{c.name} is already in the battle")
    if c.position is None:
        return
    if not state.arena.open(c.position):
        x, y = c.position
        raise ValueError(f"{c.name} cannot stand on square {x}, {y}: it is blocked or outside")
    for other in state.combatants.values():
        if other.conscious and other.position == c.position:
            x, y = c.position
            raise ValueError(f"{c.name} and {other.name} cannot share square {x}, {y}")


def new_battle(
    *,
    arena: Arena | Mapping[str, Any],
    combatants: Sequence[Combatant],
    seed: int,
    rules: HouseRules = DEFAULT_HOUSE_RULES,
    battle_id: str = "",
) -> BattleState:
    """A battle ready to start. ``seed`` must stay secret until the battle is over (anyone
    who knows it can predict every roll; ``view`` never shows it while the battle runs)."""
    grid = arena if isinstance(arena, Arena) else Arena.from_dict(arena)
    rng = RandomSource(seed)
    state = BattleState(
        arena=grid, rng=rng.to_dict(), battle_id=battle_id, house_rules=rules.changed()
    )
    for c in combatants:
        check_placement(state, c)
        number_duplicate(state.combatants.values(), c)
        prepare(c, rng, rules)
        state.combatants[c.id] = c
        add_dolls(state, c)
    state.rng = rng.to_dict()
    state.initial = state.to_dict(history=False)
    return state
