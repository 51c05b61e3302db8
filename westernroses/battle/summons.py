"""Dolls and familiars: the combatants a character brings into the battle.

Doll Master (level 1 and "Doll Skills"), with the rulings in docs/battle.md:

* Her dolls are pieces of their own, off the board until activated: "bring a doll to action
  for the cost of 20 power ... it will count as an action", onto a square next to her; only
  dolls she owns and that are not damaged. Deactivating one is free.
* Dolls take no turns: "Activated dolls can be given actions by their controller at the cost
  of one of the controller's actions ... every doll is given an action" (Move, Attack or Do
  Nothing, during her turn).
* Their stats follow how many are active: one or two, the controller's; three or four, −4 to
  the four main stats and −20 HP; more than four, half the controller's (rounded up). Damage a
  doll took is kept when the numbers change.
* "Dolls can only move their full speed if they begin within their controller's range.
  Otherwise, their speed is treated as halved"; they are immune to status effects, gain no
  spell power and hold no cards; below 0 HP a doll is incapacitated, at −100 destroyed.

Familiar ("Summon Familiar"): half her summoner's stats (rounded up), no cards, gains twice the
spell power her summoner would, holds at most 200, and that power may pay for her summoner's
cards; she may teleport next to her summoner for 20 of it. One familiar per summoner: casting
the card again moves her (a fallen familiar comes back whole). She takes her own turns
(ruling), placed in the order by her speed.
"""

from __future__ import annotations

from typing import Final

from westernroses.battle.arena import Square, manhattan
from westernroses.battle.combatants import attack_from_item
from westernroses.battle.context import Ctx
from westernroses.battle.state import AttackProfile, Combatant, Profile
from westernroses.battle.stats import can_act, hp_max, reach_stat

#: "bring a doll to action for the cost of 20 power".
DOLL_COST: Final = 20
#: Three or four dolls: "all four mane stats have a -4 penalty. In addition, they have a -20
#: to HP"; more than four: "stats equal to half the controller's stats".
CROWD_PENALTY: Final = (-4, -20)
#: Familiar: "can only hold a total of 200"; teleport "for the cost of 20 power".
FAMILIAR_CAP: Final = 200
FAMILIAR_TELEPORT: Final = 20
#: Doll Swarm summons four dolls; Dual Strike and Dollmageddon give two actions.
SWARM: Final = 4


def _half(value: int) -> int:
    return -(-value // 2)


def _basic(range_stat: int) -> tuple[AttackProfile, ...]:
    return (
        AttackProfile("danmaku", "Danmaku", "danmaku", None),
        attack_from_item("bare_fists", range_stat),
    )


#: The trait marking a doll her controller has no deep emotional connection with.
UNCONNECTED: Final = "unconnected_doll"


def doll_profile(
    master: Profile, active: int, *, full: bool = False, connected: bool = True
) -> Profile:
    """A doll's numbers for ``active`` dolls out (``full``: Dollmageddon, the controller's).
    "any doll the controller does not feel a deep emotional connection with has all its stats
    halved" (``connected`` False): halved again, rounded up, HP included."""
    stats = dict(master.stats)
    hp = master.hp_max
    if not full and active > SWARM:
        stats = {k: _half(v) for k, v in stats.items()}
        hp = _half(hp)
    elif not full and active > 2:
        stats = {k: max(v + CROWD_PENALTY[0], 0) for k, v in stats.items()}
        hp = max(hp + CROWD_PENALTY[1], 1)
    if not connected:
        stats = {k: _half(v) for k, v in stats.items()}
        hp = _half(hp)
    return Profile(
        stats=stats,
        hp_max=hp,
        speed=master.speed,
        range=master.range,
        will=master.will,
        element=master.element,
        attacks=_basic(master.range),
        traits=() if connected else (UNCONNECTED,),
    )


def connected(doll: Combatant) -> bool:
    return UNCONNECTED not in doll.profile.traits


def make_dolls(master: Combatant) -> list[Combatant]:
    """Her dolls, off the board, undamaged (created with the battle); the last
    ``unconnected_dolls`` of them are those she feels no deep emotional connection with."""
    count = master.profile.dolls
    first_unconnected = count - min(master.profile.unconnected_dolls, count)
    out = []
    for i in range(count):
        profile = doll_profile(master.profile, 1, connected=i < first_unconnected)
        out.append(
            Combatant(
                id=f"{master.id}-doll{i + 1}",
                name=f"{master.name}'s doll {i + 1}",
                kind="doll",
                controller=master.controller,
                side=master.side,
                profile=profile,
                position=None,
                hp=profile.hp_max,
                spell_power=0,
                owner=master.id,
            )
        )
    return out


def dolls_of(ctx: Ctx, master: Combatant) -> list[Combatant]:
    return [c for c in ctx.state.combatants.values() if c.kind == "doll" and c.owner == master.id]


def active(ctx: Ctx, master: Combatant) -> list[Combatant]:
    return [d for d in dolls_of(ctx, master) if d.alive and d.position is not None]


def inactive(ctx: Ctx, master: Combatant) -> list[Combatant]:
    """Dolls that could be brought out: off the board, not incapacitated, not damaged."""
    return [
        d for d in dolls_of(ctx, master) if d.alive and d.position is None and d.hp >= hp_max(d)
    ]


def free_squares_near(ctx: Ctx, centre: Square | None, radius: int = 1) -> list[Square]:
    if centre is None:
        return []
    taken = {o.position for o in ctx.state.combatants.values() if o.conscious}
    return [
        sq
        for sq in ctx.state.arena.area(centre, radius)
        if sq != centre and ctx.state.arena.open(sq) and sq not in taken
    ]


def refresh(ctx: Ctx, master: Combatant) -> None:
    """Re-derive every active doll's numbers after the count changed; damage is kept."""
    out = [d for d in active(ctx, master) if not d.turn_used.get("dollmageddon")]
    for d in out:
        before_max = hp_max(d)
        d.profile = doll_profile(master.profile, len(out), connected=connected(d))
        d.hp = hp_max(d) - (before_max - d.hp)
    if out:
        ctx.emit("dolls_refreshed", master=master.id, active=len(out), hp_max=hp_max(out[0]))


def activate(
    ctx: Ctx, master: Combatant, doll: Combatant, square: Square, *, actions: int = 0
) -> None:
    doll.position = square
    doll.hp = hp_max(doll)
    doll.actions_left = actions
    ctx.emit("doll_activated", master=master.id, doll=doll.id, square=list(square))
    refresh(ctx, master)


def deactivate(ctx: Ctx, master: Combatant, doll: Combatant, reason: str) -> None:
    ctx.emit("doll_deactivated", master=master.id, doll=doll.id, reason=reason)
    doll.position = None
    doll.actions_left = 0
    doll.turn_used = {}
    doll.effects = []
    refresh(ctx, master)


def command(ctx: Ctx, master: Combatant, actions: int = 1) -> None:
    """Every active doll is given ``actions`` actions, to take during her turn; a doll who
    cannot act (stunned) gets none (issue 9)."""
    for d in active(ctx, master):
        if can_act(d):
            d.actions_left += actions
    ctx.emit(
        "dolls_commanded",
        master=master.id,
        actions=actions,
        dolls=[d.id for d in active(ctx, master)],
    )


def end_of_turn(ctx: Ctx, master: Combatant) -> None:
    """Unused doll actions lapse; Dollmageddon's dolls "become inactive again"."""
    for d in dolls_of(ctx, master):
        d.actions_left = 0
        if d.turn_used.get("dollmageddon") and d.position is not None:
            deactivate(ctx, master, d, "Dollmageddon is over")


def doll_speed(ctx: Ctx, doll: Combatant, speed: int) -> int:
    """Full speed only when she begins within her controller's range, else half (rounded up)."""
    master = ctx.state.find(doll.owner or "")
    if master is None or master.position is None or doll.position is None:
        return _half(speed)
    if manhattan(master.position, doll.position) <= reach_stat(master):
        return speed
    return _half(speed)


# --------------------------------------------------------------------------- familiars


def familiar_of(ctx: Ctx, master: Combatant) -> Combatant | None:
    found = ctx.state.find(f"{master.id}-familiar")
    return found if found is not None and found.kind == "familiar" else None


def familiar_profile(master: Profile, element: str | None) -> Profile:
    """ "It's stats are half yours, rounded up"; it "gains twice the spellpower you would"."""
    stats = {k: _half(v) for k, v in master.stats.items()}
    reach = _half(master.range)
    return Profile(
        stats=stats,
        hp_max=_half(master.hp_max),
        speed=_half(master.speed),
        range=reach,
        will=_half(master.will),
        element=element or master.element,
        traits=("familiar",),
        sp_multiplier=2 * master.sp_multiplier,
        sp_cap=FAMILIAR_CAP,
        attacks=_basic(reach),
    )


def summon_familiar(ctx: Ctx, master: Combatant, square: Square, element: str | None) -> None:
    from westernroses.battle import turn_order

    existing = familiar_of(ctx, master)
    if existing is not None and existing.alive:
        ctx.emit("familiar_moved", master=master.id, familiar=existing.id, to=list(square))
        existing.position = square
        return
    profile = familiar_profile(master.profile, element)
    fam = Combatant(
        id=f"{master.id}-familiar",
        name=f"{master.name}'s familiar",
        kind="familiar",
        controller=master.controller,
        side=master.side,
        profile=profile,
        position=square,
        hp=profile.hp_max,
        spell_power=0,
        owner=master.id,
    )
    fresh = existing is None
    ctx.state.combatants[fam.id] = fam
    ctx.emit("familiar_summoned", master=master.id, familiar=fam.id, square=list(square))
    if fresh or fam.id not in ctx.state.order:
        turn_order.insert(ctx, fam)


def familiar_power(ctx: Ctx, master: Combatant) -> int:
    """Spell power her familiar holds, which "may be used in addition to your own"."""
    fam = familiar_of(ctx, master)
    return fam.spell_power if fam is not None and fam.alive else 0
