"""Using spellcards in battle ("Spellcards", "Use an Spell Card", RULINGS 5-10).

A card costs what :func:`westernroses.spellcards.price` says (Efficiency included) and goes to
the discard pile when used. Targets are squares within the caster's range stat (RULINGS 9;
"A target can be an opponent, an ally, or even an empty space") and an AOE covers every
square within n steps of each target. Cards with a duration trigger when cast and then at the
start of each of the caster's turns, for the listed number of rounds in total (RULINGS 10);
homing cards follow the combatants they hit and each trigger is dodged anew ("that character
gets an insight roll to avoid damage every turn the spellcard lasts").

Attack cards: an optional to-hit roll (a failure means the card "does not hit regardless of the
target's roll"), then each combatant in the area except the caster rolls insight to dodge
against the caster's INT or PWR, whichever is higher; damage is rolled once per trigger and
modified per defender (elements, Shield, reductions). Defensive cards heal, recover, shield
and buff; a plain defensive card (no skill) is adjudicated by the GM and marked on its targets.
Bombs are cast as reactions (``reactions``); they take no action and target the attacker.
"""

from __future__ import annotations

import functools
from typing import Final

from westernroses.battle import damage, fog, reactions, spell_power, status, summons
from westernroses.battle.arena import Square, manhattan
from westernroses.battle.context import Ctx
from westernroses.battle.errors import IllegalAction
from westernroses.battle.state import Combatant, FieldEffect, Json, Profile, Timer, peek, scan
from westernroses.battle.stats import (
    hp_max,
    pool,
    reach_stat,
    roll_mod,
    speed,
    stat,
    to_hit_penalty,
)
from westernroses.dice import DiceExpression
from westernroses.elements import Element
from westernroses.house_rules import HouseRules
from westernroses.spellcards.card import CardType, SpellcardDraft, Targets, ToHit
from westernroses.spellcards.caster import CasterInfo, Profession
from westernroses.spellcards.cost import PricingError, price
from westernroses.spellcards.deck import discard
from westernroses.spellcards.skills import SKILLS, BombRule
from westernroses.words import N_, Words

#: "DIE. ... Roll 10d damage immediately. Your target takes this damage ... with no chance to
#: dodge."
DIE_DICE: Final = 10
#: "I don't wanna be painful anymore – Heal yourself by 2d HP."
SELF_HEAL_DICE: Final = 2
#: "Read a book – +6 intelligence for the next 3 turns."
READ_A_BOOK: Final = (6, 3)
#: "Bob and weave ... gain +1 charisma for the next three turns."
BOB_AND_WEAVE: Final = (1, 3)
#: "Sturdy – +50 maximum HP for the duration of this card."
STURDY_HP: Final = 50
#: "Divine Fire – Choose 3 spaces within your range ... for the next 3 turns".
DIVINE_FIRE: Final = (3, 3)
#: Magician's Magic Spirit: "All magic skills and attacks deal an additional 2 points".
MAGIC_SPIRIT: Final = 2
#: "Lethal 6d / 7d damage" and "+10 damage – Cost: 20 per 10 points".
LETHAL_DICE: Final = {"lethal_6d": 6, "lethal_7d": 7}
LETHAL_STEP: Final = 10

#: Doll skills resolved by ``_dolls`` (their targets are the caster's dolls or squares).
DOLL_SKILLS: Final = frozenset(
    {"doll_swarm", "doll_cremation", "dual_strike", "hive_mind", "doll_buff", "dollmageddon"}
)
#: Doll Cremation: "It deals damage to all characters within two spaces of itself";
#: Buff: "+9 to their power and intelligence ... for the next three turns".
CREMATION_RADIUS: Final = 2
DOLL_BUFF: Final = (9, 3)
SELF_SKILLS: Final = frozenset(
    {
        "read_a_book",
        "i_dont_wanna_be_painful_anymore",
        "but_dying_is_no_fun",
        "drunk_as_i_please",
        "sturdy",
        "what_was_i_doing_again",
        "bob_and_weave",
    }
)
ONE_COMBATANT: Final = frozenset({"die", "stay_still", "have_a_drink", "power_transfer"})
CHARGE_SKILLS: Final = frozenset({"shield", "soul_transfer", "body_shield"})
#: Protection skills: only a Guardian whose charge is unharmed may use them.
GUARDIAN_SKILLS: Final = frozenset(
    {"body_shield", "shield", "soul_transfer", "sturdy", "power_transfer", "taunt"}
)


# --------------------------------------------------------------------------- card facts


#: Parsed card designs by the identity of their stored dict. Card dicts are never changed
#: during a battle and are shared between successive states, so each is parsed once.
_PARSED: dict[int, tuple[Json, SpellcardDraft]] = {}
_PARSED_LIMIT: Final = 4096


def card_of(c: Combatant, card_id: str) -> SpellcardDraft:
    data = c.cards[card_id]
    hit = _PARSED.get(id(data))
    if hit is not None and hit[0] is data:
        return hit[1]
    card = SpellcardDraft.from_dict(data)
    if len(_PARSED) >= _PARSED_LIMIT:
        _PARSED.clear()
    _PARSED[id(data)] = (data, card)
    return card


def slugs(card: SpellcardDraft) -> frozenset[str]:
    """The card's skill slugs, remembered per parsed card (cards are parsed once and never
    change; legal actions ask this several times per card in hand)."""
    hit = _SLUGS.get(id(card))
    if hit is not None and hit[0] is card:
        return hit[1]
    found = frozenset(card.skill_slugs())
    if len(_SLUGS) >= _PARSED_LIMIT:
        _SLUGS.clear()
    _SLUGS[id(card)] = (card, found)
    return found


_SLUGS: dict[int, tuple[SpellcardDraft, frozenset[str]]] = {}


def is_bomb(card: SpellcardDraft) -> bool:
    """Remembered per parsed card, like :func:`slugs`: legal actions and every hit's reaction
    choices ask it of every card in hand."""
    hit = _BOMBS.get(id(card))
    if hit is not None and hit[0] is card:
        return hit[1]
    found = card.bomb or any(
        SKILLS[s].bomb is BombRule.DEFAULT for s in card.skill_slugs() if s in SKILLS
    )
    if len(_BOMBS) >= _PARSED_LIMIT:
        _BOMBS.clear()
    _BOMBS[id(card)] = (card, found)
    return found


_BOMBS: dict[int, tuple[SpellcardDraft, bool]] = {}


def caster_info(c: Combatant, card: SpellcardDraft) -> CasterInfo:
    """The pricing facts of a combatant. An NPC without a profession prices as a Carefree
    Soul and one without an element as if the card's element were her own (ruling)."""
    try:
        profession = Profession(c.profile.profession or "carefree_soul")
    except ValueError:
        profession = Profession.CAREFREE_SOUL
    element = c.profile.element or (card.element.value if card.element else "spirit")
    goddess = c.profile.goddess_element
    return CasterInfo(
        profession=profession,
        shot_type=c.profile.shot_type or "",
        element=Element(element),
        level=max(c.profile.level, 1),
        goddess_element=Element(goddess) if goddess else None,
    )


def cost(ctx: Ctx, c: Combatant, card: SpellcardDraft) -> int | None:
    """Spell power to activate (None: the card cannot be priced, so cannot be used). Dual
    Strike is priced by the dolls active now ("10 per active doll, minimum of 20")."""
    dolls = len(summons.active(ctx, c)) if "dual_strike" in slugs(card) else None
    rules = ctx.rules
    key = (id(card), id(c.profile), id(rules), dolls)
    hit = _COSTS.get(key)
    if hit is not None and hit[0] is card and hit[1] is c.profile and hit[3] is rules:
        return hit[2]
    try:
        found: int | None = _price(card, caster_info(c, card), ctx.rules, dolls)
    except (PricingError, ValueError):
        found = None
    if len(_COSTS) >= _PARSED_LIMIT:
        _COSTS.clear()
    _COSTS[key] = (card, c.profile, found, rules)
    return found


def clear_caches() -> None:
    """Forget parsed cards and prices (tests comparing against a fresh engine)."""
    _PARSED.clear()
    _SLUGS.clear()
    _BOMBS.clear()
    _COSTS.clear()
    _price.cache_clear()


_CostKey = tuple[int, int, int, int | None]
#: Prices by the identity of the parsed card, the caster's profile (both fixed for the battle
#: and shared between successive states) and the house rules (parsed once per battle,
#: ``actions.house_rules``; hashing them field by field cost more than the lookup), and the
#: dolls out: legal actions price every card in hand on every call. The objects are kept with
#: the price, so an id the garbage collector hands out again can never match.
_COSTS: dict[_CostKey, tuple[SpellcardDraft, Profile, int | None, HouseRules]] = {}


@functools.lru_cache(maxsize=4096)
def _price(card: SpellcardDraft, caster: CasterInfo, rules: HouseRules, dolls: int | None) -> int:
    """``price`` is pure; legal actions ask for the same cards' prices over and over."""
    return price(card, caster, rules, active_dolls=dolls).total


def power(ctx: Ctx, c: Combatant) -> int:
    """What she can spend: her own spell power and her familiar's ("may be used in addition
    to your own in casting spells")."""
    return c.spell_power + summons.familiar_power(ctx, c)


def is_attack(card: SpellcardDraft) -> bool:
    return (
        card.type is CardType.ATTACK
        or card.attack_power is not None
        or any(SKILLS[s].damage for s in card.skill_slugs() if s in SKILLS)
    )


def targeting(ctx: Ctx, c: Combatant, card: SpellcardDraft) -> Json:
    """How the caster aims this card: ``mode`` squares | combatant | self | charge | move."""
    found = slugs(card)
    if "divine_fire" in found:
        return {"mode": "squares", "count": DIVINE_FIRE[0], "range": reach_stat(c), "aoe": 0}
    if "i_wanna_be_over_there" in found:
        return {"mode": "move", "count": 1, "range": 2 * speed(c), "aoe": 0}
    if found & ONE_COMBATANT:
        return {"mode": "combatant", "count": 1, "range": reach_stat(c), "aoe": 0}
    if "summon_familiar" in found:
        return {"mode": "place", "count": 1, "range": reach_stat(c), "aoe": 0}
    if "dollmageddon" in found:
        count = len(summons.inactive(ctx, c))
        return {"mode": "place", "count": count, "range": reach_stat(c), "aoe": 0}
    if "doll_cremation" in found:
        return {"mode": "doll", "count": 1, "range": 0, "aoe": CREMATION_RADIUS}
    if "hive_mind" in found:
        return {"mode": "hive", "count": 1, "range": 0, "aoe": 0}
    if found & {"doll_swarm", "dual_strike", "doll_buff"}:
        return {"mode": "self", "count": 0, "range": 0, "aoe": 0}
    if found & SELF_SKILLS or card.targets is Targets.SELF:
        return {"mode": "self", "count": 0, "range": 0, "aoe": 0}
    if found & CHARGE_SKILLS:
        return {"mode": "charge", "count": 0, "range": 0, "aoe": 0}
    count = card.targets.spaces if card.targets is not None else 1
    return {"mode": "squares", "count": count, "range": reach_stat(c), "aoe": card.aoe}


def castable(ctx: Ctx, c: Combatant, card_id: str) -> tuple[SpellcardDraft, int] | str:
    """The card and its cost if ``c`` may cast it now as an action, else the reason not."""
    found = castable_aimed(ctx, c, card_id)
    return found if isinstance(found, str) else (found[0], found[1])


def castable_aimed(ctx: Ctx, c: Combatant, card_id: str) -> tuple[SpellcardDraft, int, Json] | str:
    """:func:`castable` with the card's :func:`targeting` (worked out on the way; legal
    actions list it for every card in hand, so not asked twice)."""
    if card_id not in c.deck.hand:
        return "that card is not in her hand"
    card = card_of(c, card_id)
    if is_bomb(card):
        return "a bomb can only be used when she is hit"
    needed = cost(ctx, c, card)
    if needed is None:
        return "this card cannot be priced (see the card builder)"
    if needed > power(ctx, c):
        return f"it costs {needed} spell power and she holds {power(ctx, c)}"
    aim = targeting(ctx, c, card)
    if aim["mode"] == "charge" and _charge(ctx, c) is None:
        return "her charge is not on the battlefield"
    found = slugs(card)
    if found & {"dual_strike", "doll_buff"} and not summons.active(ctx, c):
        return "she has no active dolls"
    if "doll_swarm" in found and not (
        summons.inactive(ctx, c) and summons.free_squares_near(ctx, c.position)
    ):
        return "she has no doll to bring out, or no free square next to her"
    if aim["mode"] in ("doll", "hive", "place") and (
        not aim["count"] or len(candidate_squares(ctx, c, aim)) < aim["count"]
    ):
        return "there is nothing to aim this card at"
    if found & GUARDIAN_SKILLS and charge_harmed(ctx, c):
        return "her charge has been harmed: Guardian powers are lost until she is healed"
    return card, needed, aim


def charge_harmed(ctx: Ctx, c: Combatant) -> bool:
    """Guardian: "If harm comes to this pony or object, the Guardian loses all Guardian-related
    powers (including the ability to use Guardian-specific spellcards) until their charge is no
    longer injured." In battle, injured means below her maximum HP (ruling); a charge who is
    not on the battlefield cannot be harmed here."""
    charge = peek(ctx.state.combatants, c.profile.charge)  # read only
    return charge is not None and (not charge.alive or charge.hp < hp_max(charge))


def _charge(ctx: Ctx, c: Combatant) -> Combatant | None:
    charge = ctx.state.find(c.profile.charge or "")
    if charge is None or not charge.alive or charge.position is None:
        return None
    return charge


def usable_bombs(ctx: Ctx, c: Combatant) -> list[tuple[str, int]]:
    out = []
    for card_id in sorted(set(c.deck.hand)):
        card = card_of(c, card_id)
        if not is_bomb(card) or "body_shield" in slugs(card):
            continue
        needed = cost(ctx, c, card)
        if needed is not None and needed <= power(ctx, c):
            out.append((card_id, needed))
    return out


def usable_shields(ctx: Ctx, g: Combatant) -> list[str]:
    out = []
    for card_id in sorted(set(g.deck.hand)):
        card = card_of(g, card_id)
        needed = cost(ctx, g, card)
        if charge_harmed(ctx, g):
            return []
        if "body_shield" in slugs(card) and needed is not None and needed <= power(ctx, g):
            out.append(card_id)
    return out


def pay_and_discard(ctx: Ctx, c: Combatant, card_id: str) -> SpellcardDraft:
    card = card_of(c, card_id)
    needed = cost(ctx, c, card)
    if needed is None or needed > power(ctx, c):
        raise IllegalAction(f"{c.name} cannot pay for {card.name}")
    c.deck = discard(c.deck, card_id)
    ctx.emit("card_used", combatant=c.id, card=card_id, name=card.name, cost=needed)
    own = min(needed, c.spell_power)
    spell_power.change(ctx, c, -own, f"cast {card.name}")
    familiar = summons.familiar_of(ctx, c)
    if needed > own and familiar is not None:
        spell_power.change(ctx, familiar, own - needed, f"{c.name} cast {card.name}")
    return card


# --------------------------------------------------------------------------- targets


def candidate_squares(ctx: Ctx, c: Combatant, aim: Json) -> list[Square]:
    """Every square she could pick as a target for this aim (for legal actions and checks)."""
    if c.position is None:
        return []
    arena = ctx.state.arena
    near = arena.open_area(c.position, aim["range"])
    unseen = fog.blocks(ctx.state, c)  # a player's cards never aim into fog
    if unseen:
        near = [s for s in near if s not in unseen]
    if aim["mode"] == "squares":
        return near
    if aim["mode"] == "combatant":
        within = set(near)
        return sorted(
            o.position
            for o in ctx.state.combatants.values()
            if o.id != c.id and o.alive and o.position is not None and o.position in within
        )
    if aim["mode"] in ("move", "place"):
        taken = {o.position for o in ctx.state.combatants.values() if o.conscious}
        return [s for s in near if s not in taken]
    if aim["mode"] == "doll":
        return sorted(d.position for d in summons.active(ctx, c) if d.position is not None)
    if aim["mode"] == "hive":
        return _hive_targets(ctx, c)
    return []


def _hive_targets(ctx: Ctx, c: Combatant) -> list[Square]:
    """Hive Mind: "Choose a target within range of one of your dolls"."""
    dolls = summons.active(ctx, c)
    found = set()
    for o in ctx.state.combatants.values():
        if o.position is None or not o.alive or o.owner == c.id or o.id == c.id:
            continue
        if fog.unseen_by(ctx.state, c, o):
            continue
        if any(
            d.position is not None and manhattan(d.position, o.position) <= reach_stat(d)
            for d in dolls
        ):
            found.add(o.position)
    return sorted(found)


def check_targets(ctx: Ctx, c: Combatant, aim: Json, given: list[Square]) -> None:
    if aim["mode"] in ("self", "charge"):
        if given:
            raise IllegalAction("this card picks its own target; give no squares")
        return
    if len(given) != aim["count"] or len(set(given)) != len(given):
        raise IllegalAction(f"choose {aim['count']} different target square(s)")
    allowed = set(candidate_squares(ctx, c, aim))
    for sq in given:
        if sq not in allowed:
            raise IllegalAction(f"square {list(sq)} is not a target she can choose")


def covered(ctx: Ctx, centres: list[Square], aoe: int) -> list[Square]:
    """The union of the AOE around each target square (RULINGS 9)."""
    out: set[Square] = set()
    for centre in centres:
        out.update(ctx.state.arena.area(centre, aoe))
    return sorted(out)


def standing_on(
    ctx: Ctx,
    squares: list[Square] | tuple[Square, ...],
    *,
    skip_returning: bool = False,
    by: Combatant | None = None,
) -> list[Combatant]:
    """Who stands on ``squares``. With ``by`` (the caster): not whoever hides in fog from her
    controller (``fog``): a player's card never reaches into fog, so nothing it does (a hit
    that waits for a hidden defender's decision) can tell her someone is there."""
    where = set(squares)
    return [
        ctx.c(o.id)  # taken by id: a copy of her, as everything rules code holds
        for o in scan(ctx.state.combatants)
        if o.alive
        and o.position in where
        and not (skip_returning and o.has("returning"))
        and not (by is not None and fog.unseen_by(ctx.state, by, o))
    ]


# --------------------------------------------------------------------------- casting


def cast(ctx: Ctx, c: Combatant, card_id: str, given: list[Square], amount: int | None) -> None:
    """Use a card as an action (validation included; raises IllegalAction)."""
    found = castable(ctx, c, card_id)
    if isinstance(found, str):
        raise IllegalAction(found)
    card, _ = found
    aim = targeting(ctx, c, card)
    check_targets(ctx, c, aim, given)
    _check_amount(ctx, c, card, amount, found[1])
    pay_and_discard(ctx, c, card_id)
    _resolve(ctx, c, card, card_id, aim, given, amount)
    reactions.drain(ctx)


def _check_amount(
    ctx: Ctx, c: Combatant, card: SpellcardDraft, amount: int | None, needed: int
) -> None:
    found = slugs(card)
    if "soul_transfer" in found or "power_transfer" in found:
        top = amount_range(c, card, needed)[1]
        if not isinstance(amount, int) or isinstance(amount, bool) or not 1 <= amount <= top:
            raise IllegalAction(f"choose an amount from 1 to {top}")
    elif amount is not None:
        raise IllegalAction("this card takes no amount")


def amount_range(c: Combatant, card: SpellcardDraft, needed: int) -> tuple[int, int]:
    """Soul Transfer gives HP (at most what she has), Power Transfer spell power (what she
    holds after paying for the card)."""
    if "soul_transfer" in slugs(card):
        return 1, max(c.hp, 0)
    return 1, max(c.spell_power - needed, 0)


def cast_bomb(ctx: Ctx, c: Combatant, card_id: str, attacker_id: str) -> None:
    """A bomb: paid and discarded, aimed at the attacker (defensive bombs at herself)."""
    card = pay_and_discard(ctx, c, card_id)
    attacker = ctx.state.find(attacker_id)
    aim = targeting(ctx, c, card)
    given: list[Square] = []
    if aim["mode"] == "squares" and not is_attack(card) and c.position is not None:
        # A defensive bomb protects its caster ("a defensive bomb may target self").
        given = [c.position]
        aim = {**aim, "count": 1}
    elif aim["mode"] in ("squares", "combatant"):
        if attacker is None or attacker.position is None or not attacker.alive:
            ctx.emit("bomb_fizzled", combatant=c.id, card=card_id, reason="no attacker to target")
            return
        given = [attacker.position]
        aim = {**aim, "count": 1}
    _resolve(ctx, c, card, card_id, aim, given, None, bomb=True)


def _resolve(
    ctx: Ctx,
    c: Combatant,
    card: SpellcardDraft,
    card_id: str,
    aim: Json,
    given: list[Square],
    amount: int | None,
    *,
    bomb: bool = False,
) -> None:
    found = slugs(card)
    ctx.emit(
        "spellcard",
        combatant=c.id,
        card=card_id,
        name=card.name,
        targets=[list(s) for s in given],
        covered=[list(s) for s in covered(ctx, given, aim["aoe"])] if given else [],
        bomb=bomb,
    )
    if card.to_hit in (ToHit.ROLL_VS_INT, ToHit.ROLL_VS_PWR) and not _to_hit(ctx, c, card):
        ctx.emit("card_missed", combatant=c.id, card=card_id, name=card.name)
        return
    if "what_was_i_doing_again" in found:
        return
    if "i_wanna_be_over_there" in found:
        assert c.position is not None  # noqa: S101 - the target check needs a position
        ctx.emit("moved", combatant=c.id, frm=list(c.position), to=list(given[0]), reason=card.name)
        c.position = given[0]
        return
    if "divine_fire" in found:
        _divine_fire(ctx, c, card, card_id, given)
        return
    if found & DOLL_SKILLS:
        _dolls(ctx, c, card, card_id, given)
        return
    if "summon_familiar" in found:
        element = next(
            (ch.param("familiar_element") for ch in card.skills if ch.slug == "summon_familiar"),
            None,
        )
        summons.summon_familiar(ctx, c, given[0], element if isinstance(element, str) else None)
        return
    if is_attack(card) or "die" in found:
        _attack_card(ctx, c, card, card_id, given, aim["aoe"])
        return
    _other(ctx, c, card, card_id, aim, given, amount)


def _to_hit(ctx: Ctx, c: Combatant, card: SpellcardDraft) -> bool:
    """ "Roll against intelligence / power – A failed roll means the card does not hit"."""
    key = "int" if card.to_hit is ToHit.ROLL_VS_INT else "pwr"
    value = stat(c, key)
    mods = [
        ("Spellcard to-hit (Homing)", c.profile.spellcard_to_hit),
        ("Drink", roll_mod(c, key)),
        *to_hit_penalty(c),
    ]
    result = ctx.check(
        c.id,
        Words(N_("%(name)s to-hit"), {"name": card.name}),
        pool(value, ctx.rules),
        mods,
        ctx.target("spellcard_to_hit"),
        stat=key,
        value=value,
    )
    return bool(result.success)


def damage_spec(ctx: Ctx, c: Combatant, card: SpellcardDraft) -> Json:
    """What one trigger rolls: attack power, or the skill that replaces it."""
    found = slugs(card)
    parts: list[tuple[str, int]] = []
    physical = False
    if "die" in found:
        dice = DIE_DICE
    elif "intelligent_design" in found:
        dice = pool(2 * stat(c, "int"), ctx.rules)
    elif "divine_insight" in found:
        dice = pool(stat(c, "ins"), ctx.rules)
    elif found & set(LETHAL_DICE) or "lethal_bonus" in found:
        physical = True
        dice = max((LETHAL_DICE[s] for s in found & set(LETHAL_DICE)), default=0)
        for choice in card.skills:
            if choice.slug == "lethal_bonus":
                tens = choice.param("tens")
                parts.append(("+10 damage", LETHAL_STEP * (tens if isinstance(tens, int) else 0)))
    else:
        power = card.attack_power
        dice = power.dice if power else 0
        parts.append(("Attack power modifier", power.modifier if power else 0))
    if "magic_spirit" in c.profile.traits and not physical:
        parts.append(("Magic Spirit", MAGIC_SPIRIT))
    on_hit: list[Json] = []
    if "stay_where_you_are" in found:
        on_hit.append({"kind": "stun", "turns": 1, "save": False, "unavoidable": True})
    if "stunning_note" in c.profile.traits:
        on_hit.append({"kind": "stun", "turns": 2, "save": True})
    element = card.element.value if card.element else None
    if element is None and "goddess_element" in found:
        element = c.profile.goddess_element
    return {
        "kind": "damage",
        "dice": dice,
        "modifier": sum(a for _, a in parts),
        "multiplier": 1,
        "parts": [[label, a] for label, a in parts if a],
        "element": element,
        "physical": physical,
        "no_dodge": "die" in found,
        "dodge_target": max(stat(c, "int"), stat(c, "pwr")),
        "on_hit": on_hit,
    }


def _attack_card(
    ctx: Ctx, c: Combatant, card: SpellcardDraft, card_id: str, given: list[Square], aoe: int
) -> None:
    spec = damage_spec(ctx, c, card)
    area = covered(ctx, given, aoe)
    victims = [o for o in standing_on(ctx, area, by=c) if o.id != c.id]
    hit = _damage_trigger(ctx, c, spec, card.name, card_id, victims, "spellcard")
    rounds = card.duration.rounds
    if rounds <= 1:
        return
    if card.duration.homing:
        # It follows those it hit: whoever dodged it is not followed (issue 9; a Lucky
        # re-roll that turns a failed dodge into a dodge lets her go too, ``unfollow``).
        follows = tuple(hit)
        if not follows:
            ctx.emit("homing_fizzled", combatant=c.id, card=card_id, reason="nobody to follow")
            return
        _add_field_effect(ctx, c, card_id, card.name, rounds - 1, spec, follows=follows, aoe=aoe)
    else:
        _add_field_effect(ctx, c, card_id, card.name, rounds - 1, spec, squares=tuple(area))


def _add_field_effect(
    ctx: Ctx,
    c: Combatant,
    card_id: str,
    name: str,
    triggers: int,
    spec: Json,
    *,
    squares: tuple[Square, ...] = (),
    follows: tuple[str, ...] | None = None,
    aoe: int = 0,
) -> None:
    """Puts a lasting card on the field and logs it: homing (following ``follows``, covering
    ``aoe`` around each) when ``follows`` is given, else on ``squares``."""
    if follows is not None:
        fe = FieldEffect(
            ctx.state.new_id("f"),
            c.id,
            card_id,
            name,
            True,
            triggers,
            spec,
            follows=follows,
            aoe=aoe,
        )
    else:
        fe = FieldEffect(
            ctx.state.new_id("f"), c.id, card_id, name, False, triggers, spec, squares=squares
        )
    ctx.state.field_effects.append(fe)
    ctx.emit("field_effect", effect=fe.to_dict())


def _damage_trigger(
    ctx: Ctx,
    c: Combatant,
    spec: Json,
    name: str,
    card_id: str,
    victims: list[Combatant],
    source: str,
) -> list[str]:
    """One damage roll for the trigger; each victim dodges it (unless it cannot be dodged).
    Returns the ids of those who did not dodge."""
    if not victims:
        ctx.emit("no_one_hit", combatant=c.id, card=card_id, name=name)
        return []
    expr = DiceExpression(spec["dice"], spec["modifier"])
    rolled = ctx.damage(c.id, Words(N_("%(name)s damage"), {"name": name}), expr, spec["parts"])
    hits = []
    for victim in victims:
        dodged, lucky = False, None
        if not spec["no_dodge"]:
            dodged, lucky = reactions.dodge(
                ctx,
                victim,
                c,
                spec["dodge_target"],
                Words(N_("dodge %(name)s (insight)"), {"name": name}),
            )
        hits.append(
            reactions.make_hit(
                ctx,
                attacker=c.id,
                defender=victim.id,
                source=source,
                name=name,
                stage="dodged" if dodged else "landed",
                basic=False,
                element=spec["element"],
                spec=None,
                raw=max(rolled.total, 0),
                on_hit=list(spec["on_hit"]),
                lucky=lucky,
                physical=bool(spec["physical"]),
                card=card_id,
            )
        )
    reactions.enqueue(ctx, hits)
    return [h["defender"] for h in hits if h["stage"] == "landed"]


def unfollow(ctx: Ctx, hit: Json) -> None:
    """A cast's hit turned into a dodge (Lucky): its homing card stops following her, and
    fizzles if it now follows nobody."""
    if hit.get("source") != "spellcard":
        return
    kept = []
    for fe in ctx.state.field_effects:
        if fe.homing and fe.caster == hit["attacker"] and fe.card_id == hit.get("card"):
            fe.follows = tuple(f for f in fe.follows if f != hit["defender"])
            if not fe.follows:
                ctx.emit(
                    "homing_fizzled",
                    combatant=fe.caster,
                    card=fe.card_id,
                    reason="nobody to follow",
                )
                continue
        kept.append(fe)
    ctx.state.field_effects = kept


def _dolls(ctx: Ctx, c: Combatant, card: SpellcardDraft, card_id: str, given: list[Square]) -> None:
    """Doll Skills (Doll Master)."""
    from westernroses.battle import attacks

    found = slugs(card)
    if "doll_swarm" in found:
        # "summons four dolls on the four spaces adjacent to her ... each doll immediately
        # gets a free action"; as many as she has and as there is room.
        spots = summons.free_squares_near(ctx, c.position)
        for doll, spot in zip(summons.inactive(ctx, c)[: summons.SWARM], spots, strict=False):
            summons.activate(ctx, c, doll, spot, actions=1)
    elif "dual_strike" in found:
        summons.command(ctx, c, 2)  # "Each doll under your control immediately takes two"
    elif "doll_buff" in found:
        bonus, turns = DOLL_BUFF
        for doll in summons.active(ctx, c):
            for key in ("pwr", "int"):
                _stat_buff(ctx, c, doll, key, bonus, card.name, status.turns_timer(ctx, c, turns))
    elif "dollmageddon" in found:
        # "All inactive dolls immediately become active ... take two actions then become
        # inactive again" (at the end of her turn); "stats equal to their controller's".
        for doll, spot in zip(summons.inactive(ctx, c), given, strict=False):
            doll.turn_used["dollmageddon"] = 1
            doll.profile = summons.doll_profile(
                c.profile, 1, full=True, connected=summons.connected(doll)
            )
            summons.activate(ctx, c, doll, spot, actions=2)
    elif "doll_cremation" in found:
        doll = next(d for d in summons.active(ctx, c) if d.position == given[0])
        spec = damage_spec(ctx, c, card)
        area = covered(ctx, given, CREMATION_RADIUS)
        victims = [o for o in standing_on(ctx, area, by=doll) if o.id != doll.id]
        ctx.emit("doll_exploded", master=c.id, doll=doll.id)
        doll.life = "dead"
        summons.deactivate(ctx, c, doll, "exploded")
        _damage_trigger(ctx, c, spec, card.name, card_id, victims, "spellcard")
    elif "hive_mind" in found:
        target = next(
            o for o in ctx.state.combatants.values() if o.alive and o.position == given[0]
        )
        for doll in summons.active(ctx, c):
            if (
                doll.position is not None
                and target.position is not None
                and manhattan(doll.position, target.position) <= reach_stat(doll)
            ):
                attacks.basic_attack(ctx, doll, doll.profile.attacks[0], target)
        for doll in summons.inactive(ctx, c):
            # "inactive dolls have stats equal to half their controller's" (for this attack)
            kept = doll.profile
            doll.profile = summons.doll_profile(
                c.profile, summons.SWARM + 1, connected=summons.connected(doll)
            )
            attacks.basic_attack(ctx, doll, doll.profile.attacks[0], target)
            doll.profile = kept


def _divine_fire(
    ctx: Ctx, c: Combatant, card: SpellcardDraft, card_id: str, given: list[Square]
) -> None:
    """Three squares burn "for the next 3 turns, dealing damage to anypony who is on them when
    your turn begins" (ruling: the flames are fire; they first burn at her next turn)."""
    spec = damage_spec(ctx, c, card)
    spec["element"] = spec["element"] or Element.FIRE.value
    spec["exclude_caster"] = False
    _add_field_effect(
        ctx, c, card_id, card.name, DIVINE_FIRE[1], spec, squares=tuple(sorted(given))
    )


def _other(
    ctx: Ctx,
    c: Combatant,
    card: SpellcardDraft,
    card_id: str,
    aim: Json,
    given: list[Square],
    amount: int | None,
) -> None:
    """Everything that is not an attack: healing, buffs, drink, stun, transfers, taunts."""
    found = slugs(card)
    rounds = card.duration.rounds
    if aim["mode"] == "self":
        targets = [c]
    elif aim["mode"] == "charge":
        charge = _charge(ctx, c)
        targets = [charge] if charge is not None else []
    else:
        targets = standing_on(ctx, covered(ctx, given, aim["aoe"]), by=c)
    if "read_a_book" in found:
        bonus, turns = READ_A_BOOK
        _stat_buff(ctx, c, c, "int", bonus, card.name, status.turns_timer(ctx, c, turns))
    if "bob_and_weave" in found:
        bonus, turns = BOB_AND_WEAVE
        _stat_buff(ctx, c, c, "cha", bonus, card.name, status.turns_timer(ctx, c, turns))
    if "i_dont_wanna_be_painful_anymore" in found:
        rolled = ctx.damage(c.id, card.name, DiceExpression(SELF_HEAL_DICE), [])
        damage.heal(ctx, c, rolled.total, card.name)
    if "but_dying_is_no_fun" in found:
        damage.heal(ctx, c, hp_max(c) - c.hp, card.name)
    if "drunk_as_i_please" in found:
        status.drink_up(ctx, c, card.name)
    if "have_a_drink" in found:
        for t in targets:
            status.drink_up(ctx, t, card.name)
    if "stay_still" in found:
        for t in targets:
            status.inflict(ctx, t, "stun", source=c.id, turns=1, save=False)
    if "sturdy" in found:
        _stat_buff(ctx, c, c, "hp_max", STURDY_HP, card.name, Timer("start", c.id, rounds))
        damage.heal(ctx, c, STURDY_HP, card.name)
    if "shield" in found:
        for t in targets:
            status.add(ctx, t, "shield", card.name, source=c.id, ends=Timer("start", c.id, rounds))
    if "soul_transfer" in found and amount:
        for t in targets:
            damage.lose_hp(ctx, c, amount, card.name)
            damage.heal(ctx, t, amount, card.name)
    if "power_transfer" in found and amount:
        for t in targets:
            spell_power.change(ctx, c, -amount, card.name)
            spell_power.change(ctx, t, amount, card.name)
    if "taunt" in found:
        for t in targets:
            if t.id != c.id:
                status.inflict(ctx, t, "taunted", source=c.id, turns=rounds)
    if "healing" in found or "recover" in found:
        _healing(ctx, c, card, card_id, aim, given, targets)
    if not found:
        # A plain defensive card: its effect is its text, adjudicated by the GM; it is marked
        # on everyone it covers for its duration so the table can see it.
        for t in targets:
            status.add(
                ctx,
                t,
                "card",
                card.name,
                source=c.id,
                ends=Timer("start", c.id, rounds),
                data={"card": card_id},
            )


def _stat_buff(
    ctx: Ctx, caster: Combatant, c: Combatant, key: str, amount: int, label: str, ends: Timer
) -> None:
    status.add(
        ctx,
        c,
        "stat",
        f"{label} ({key} {amount:+d})",
        source=caster.id,
        data={"stat": key, "amount": amount},
        ends=ends,
    )


def _healing(
    ctx: Ctx,
    c: Combatant,
    card: SpellcardDraft,
    card_id: str,
    aim: Json,
    given: list[Square],
    targets: list[Combatant],
) -> None:
    dice = 0
    for choice in card.skills:
        if choice.slug == "healing":
            value = choice.param("dice")
            dice = value if isinstance(value, int) else 0
    spec: Json = {"kind": "heal", "dice": dice, "recover": "recover" in slugs(card)}
    _heal_trigger(ctx, c, spec, card.name, targets)
    rounds = card.duration.rounds
    if rounds <= 1:
        return
    if card.duration.homing:
        follows = tuple(t.id for t in targets)
        _add_field_effect(
            ctx, c, card_id, card.name, rounds - 1, spec, follows=follows, aoe=aim["aoe"]
        )
    else:
        area = (
            covered(ctx, given, aim["aoe"])
            if given
            else ([c.position] if c.position is not None else [])
        )
        _add_field_effect(ctx, c, card_id, card.name, rounds - 1, spec, squares=tuple(area))


def _heal_trigger(ctx: Ctx, c: Combatant, spec: Json, name: str, targets: list[Combatant]) -> None:
    for t in targets:
        if spec.get("recover"):
            # "Remove any status effects from the target" (it wakes the unconscious too:
            # "awoken by a recovery spellcard", "Drinking").
            status.remove_kind(ctx, t, status.NEGATIVE, f"{name} (Recover)")
        if spec["dice"]:
            rolled = ctx.damage(
                c.id,
                Words(N_("%(name)s healing"), {"name": name}),
                DiceExpression(spec["dice"]),
                [],
            )
            damage.heal(ctx, t, rolled.total, name)


# --------------------------------------------------------------------------- durations


def trigger_fields(ctx: Ctx, caster_id: str) -> None:
    """At the start of the caster's turn every lasting card of hers takes effect again."""
    for fe in list(ctx.state.field_effects):
        if fe.caster != caster_id:
            continue
        caster = ctx.state.find(caster_id)
        ctx.emit("field_trigger", effect=fe.id, name=fe.name, left=fe.triggers_left - 1)
        if caster is not None:
            _trigger(ctx, caster, fe)
        fe.triggers_left -= 1
        if fe.triggers_left <= 0:
            ctx.state.field_effects.remove(fe)
            ctx.emit("field_effect_ended", effect=fe.id, name=fe.name)
    reactions.drain(ctx)


def field_squares(ctx: Ctx, fe: FieldEffect) -> list[Square]:
    if not fe.homing:
        return list(fe.squares)
    centres = []
    for cid in fe.follows:
        o = ctx.state.find(cid)
        if o is not None and o.alive and o.position is not None:
            centres.append(o.position)
    return covered(ctx, centres, fe.aoe)


def _trigger(ctx: Ctx, caster: Combatant, fe: FieldEffect) -> None:
    area = field_squares(ctx, fe)
    people = standing_on(ctx, area, skip_returning=not fe.homing, by=caster)
    if fe.spec["kind"] == "heal":
        _heal_trigger(ctx, caster, fe.spec, fe.name, people)
        return
    if fe.spec.get("exclude_caster", True):
        people = [o for o in people if o.id != caster.id]
    _damage_trigger(ctx, caster, fe.spec, fe.name, fe.card_id, people, "field")


def preview(ctx: Ctx, c: Combatant, card_id: str, given: list[Square]) -> Json:
    """What a cast would cover and whom it would reach (for a UI hovering over targets)."""
    card = card_of(c, card_id)
    aim = targeting(ctx, c, card)
    area = covered(ctx, given, aim["aoe"]) if given else []
    return {
        "card": card_id,
        "targeting": aim,
        "covered": [list(s) for s in area],
        "combatants": [o.id for o in standing_on(ctx, area, by=c)],
    }


def distance_ok(c: Combatant, sq: Square, limit: int) -> bool:
    return c.position is not None and manhattan(c.position, sq) <= limit
