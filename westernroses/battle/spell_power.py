"""Spell power and the spell meter ("Spell Power", "Spell-meter" under "Death and Dying").

* Gain at the start of each turn: INS + modifiers (Ley Lines +4), times Power-Hungry's 2;
  Concentrate gains the same amount again; grazing gains twice the damage (× Power-Hungry);
  collecting dropped power is doubled by Power-Hungry too.
* Never above the cap nor below 0 (RULINGS 8; a familiar holds at most 200).
* A combatant who falls unconscious or dies drops everything she holds on her square; others
  collect it as an action by distance: 3 spaces ¼, 2 spaces ½, 1 space ¾, same square all,
  each rounded up (RULINGS 3).
* The spell meter: a basic attack 1, taking damage from an attack 3, hit without damage 1,
  concentrating 2; every 5 points draw a card and keep the rest.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Final

from westernroses.battle.arena import manhattan
from westernroses.battle.context import Ctx
from westernroses.battle.state import Combatant, Drop, scan
from westernroses.battle.stats import buff, sp_cap, stat
from westernroses.spellcards.deck import draw

#: "3 spaces away – ¼ of dropped power ... 0 yards away – All dropped power".
PICKUP_SHARE: Final = {0: Fraction(1), 1: Fraction(3, 4), 2: Fraction(1, 2), 3: Fraction(1, 4)}
#: "draw a single card for every five points in this meter".
METER_PER_CARD: Final = 5
#: Meter points ("Actions that increase the meter").
METER_BASIC_ATTACK: Final = 1
METER_DAMAGED: Final = 3
METER_HIT_NO_DAMAGE: Final = 1
METER_CONCENTRATE: Final = 2
#: Grazing: "you gain TWICE as much power as the damage you would have taken".
GRAZE_MULTIPLIER: Final = 2


def change(ctx: Ctx, c: Combatant, amount: int, reason: str) -> int:
    """Add (or take) spell power within 0..cap; logs and returns the actual change."""
    before = c.spell_power
    c.spell_power = max(0, min(before + amount, sp_cap(c, ctx.rules)))
    actual = c.spell_power - before
    ctx.emit(
        "spell_power",
        combatant=c.id,
        reason=reason,
        asked=amount,
        change=actual,
        total=c.spell_power,
    )
    return actual


def per_turn(c: Combatant) -> int:
    """ "spell power equal to her insight plus any modifiers from abilities, spell cards, etc."
    times Power-Hungry's ×2 ("You gain twice the normal amount of power")."""
    return (stat(c, "ins") + c.profile.sp_bonus + buff(c, "sp_per_turn")) * c.profile.sp_multiplier


def turn_gain(ctx: Ctx, c: Combatant) -> None:
    """Start of turn: gain, and remember the amount for Concentrate. A familiar "gains twice
    the spellpower you would" (her summoner's gain, doubled)."""
    owner = ctx.state.find(c.owner or "") if c.kind == "familiar" else None
    amount = 2 * per_turn(owner) if owner is not None else per_turn(c)
    c.sp_gained = amount
    change(ctx, c, amount, "start of turn")


def graze_gain(ctx: Ctx, c: Combatant, damage: int) -> None:
    change(ctx, c, GRAZE_MULTIPLIER * damage * c.profile.sp_multiplier, "graze")


def meter(ctx: Ctx, c: Combatant, points: int, reason: str) -> None:
    """Add meter points; draw a card for every full 5 and keep the rest ("If your
    spell-meter ever exceeds 5, a card is drawn ..."; **ruling**: reaching exactly 5 draws
    too, as "a single card for every five points" says). Dolls and familiars have no meter."""
    if c.kind in ("doll", "familiar"):
        return
    c.meter += points
    cards = c.meter // METER_PER_CARD
    c.meter %= METER_PER_CARD
    ctx.emit("meter", combatant=c.id, reason=reason, points=points, total=c.meter, cards=cards)
    if cards:
        draw_cards(ctx, c, cards, "spell meter")


def draw_cards(ctx: Ctx, c: Combatant, n: int, reason: str) -> None:
    """Draw from the top of the pile; an empty pile draws fewer (docs/rulings.md, Decks)."""
    result = draw(c.deck, n)
    c.deck = result.state
    ctx.emit(
        "draw",
        combatant=c.id,
        reason=reason,
        count=len(result.drawn),
        short=result.short,
        cards=list(result.drawn),
        private=["cards"],
    )


def drop(ctx: Ctx, c: Combatant) -> None:
    """ "Once a character falls unconscious or dies they drop all spell power they were
    holding." Everyone else still standing may collect it during her next turn (ruling)."""
    if c.spell_power <= 0 or c.position is None:
        c.spell_power = 0
        return
    eligible = tuple(
        o.id
        for o in scan(ctx.state.combatants)
        if o.id != c.id and o.conscious and o.kind != "doll" and o.position is not None
    )
    amount = c.spell_power
    c.spell_power = 0
    if not eligible:
        ctx.emit("power_dropped", combatant=c.id, amount=amount, square=list(c.position), lost=True)
        return
    found = Drop(ctx.state.new_id("d"), c.position, amount, c.id, eligible)
    ctx.state.drops.append(found)
    ctx.emit("power_dropped", combatant=c.id, drop=found.id, amount=amount, square=list(c.position))


def pickup_amount(amount: int, distance: int) -> int | None:
    """What a collector gets at ``distance`` (None: too far), rounded up (RULINGS 3)."""
    share = PICKUP_SHARE.get(distance)
    if share is None:
        return None
    value = share * amount
    return -(-value.numerator // value.denominator)


def collect_multiplier(c: Combatant) -> int:
    """Power-Hungry: "twice the normal amount of power from all power-gaining actions", and
    collecting dropped power is one (issue 9). A familiar's own doubling (of what her
    summoner would gain) does not cover it (docs/battle.md, ruling 26)."""
    if c.kind == "familiar":
        return max(c.profile.sp_multiplier // 2, 1)
    return c.profile.sp_multiplier


def collectable(ctx: Ctx, c: Combatant) -> list[tuple[Drop, int]]:
    """Drops ``c`` may collect now, with the amount she would get (Power-Hungry doubled)."""
    out: list[tuple[Drop, int]] = []
    if c.position is None:
        return out
    for d in ctx.state.drops:
        if c.id not in d.eligible:
            continue
        amount = pickup_amount(d.amount, manhattan(c.position, d.square))
        if amount:
            out.append((d, amount * collect_multiplier(c)))
    return out


def collect(ctx: Ctx, c: Combatant, drop_id: str) -> None:
    for d, amount in collectable(ctx, c):
        if d.id == drop_id:
            ctx.state.drops.remove(d)
            ctx.emit("power_collected", combatant=c.id, drop=d.id, dropped=d.amount, share=amount)
            change(ctx, c, amount, "collected dropped power")
            return
    raise ValueError(f"{c.name} cannot collect drop {drop_id}")


def turn_ended(ctx: Ctx, cid: str) -> None:
    """Her "next turn" is over: she can no longer collect what was dropped before it."""
    kept = []
    for d in ctx.state.drops:
        d.eligible = tuple(e for e in d.eligible if e != cid)
        if d.eligible:
            kept.append(d)
        else:
            ctx.emit("power_dissipated", drop=d.id, amount=d.amount)
    ctx.state.drops = kept
