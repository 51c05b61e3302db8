"""Token spells ("The Effect of Token Spells") and the Rules of the Spell.

A chant names its effect and target in one action. Thunder (Discharge or Charge), Snake and
Katana then open a reaction window: every seat that, by public information, might answer is
asked at once and answers in secret (decline, Shield, or Roar with the tower she chooses);
the answers are opened together, which is also the simultaneous reveal of a Raigo Battle.
Who is asked depends only on public things (tokens in her hands, her towers, the spells she
has already used this turn), never on which tokens she holds.

Rules of the Spell, as we apply them: "during your turn, you cannot apply the effect of the
same Spell twice" binds the player whose turn it is (house rule ``spell_limit``: or every
player, her answers included); Discharge and Charge are different effects; Mist counts as the
effect it copies, so two Mists may copy two different effects. Nothing happens during a Raigo
Battle but the battle; Roar beats Shield (the Shield stays in its hand); one Roar per seat per
Thunder. A Mist in a hand may also answer as a Shield or a Roar.
"""

from __future__ import annotations

from typing import Any

from minigames.engines.raigo.board import (
    HANDS,
    Json,
    blur,
    draw_token,
    go_public,
    inner_tokens,
    learn,
    open_towers,
    player,
    put_body,
    raizan_total,
    reveal,
    seat_name,
    set_space,
    space_words,
    take_space,
    tower_name,
    whose,
)
from minigames.engines.raigo.resolution import Ctx, resolve_tower, spend
from minigames.engines.raigo.setup import LEGACY_SPELL_LIMIT
from minigames.engines.raigo.tokens import (
    NAME_CONTEXT,
    kind,
    sort_body,
    tokens_words,
    weight,
    words,
)
from westernroses.words import N_, NP_, Words, listing

#: Effects a token may apply when chanted in step 3 (Shield and Roar only answer).
CHANT_EFFECTS: dict[str, tuple[str, ...]] = {
    "thunder": ("discharge", "charge"),
    "snake": ("snake",),
    "katana": ("katana",),
    "mist": ("discharge", "charge", "snake", "katana"),
    "switch": ("switch",),
    "purify": ("purify",),
    "destroy": ("destroy",),
}
EFFECT_WORDS = {
    "discharge": N_("Thunder (Discharge)"),
    "charge": N_("Thunder (Charge)"),
    "snake": N_("Snake"),
    "katana": N_("Katana"),
    "shield": NP_("RAIGO token", "Shield"),
    "roar": N_("Roar"),
    "switch": NP_("RAIGO token", "Switch"),
    "purify": N_("Purify"),
    "destroy": N_("Destroy"),
}


def effect_words(effect: str) -> Words:
    context = NAME_CONTEXT if effect in ("switch", "shield") else ""
    return Words(EFFECT_WORDS[effect], context=context)


SHIELDS = ("shield", "mist")
ROARS = ("roar", "mist")
#: Spell tokens above this weight cannot be taken from the Canyon by Switch.
SWITCH_CANYON_LIMIT = 7


def used(state: Json, seat: int) -> list[str]:
    effects: list[str] = state["turn"]["used"][seat]
    return effects


def spent(state: Json, seat: int, effect: str) -> bool:
    """Whether ``seat`` may not apply ``effect`` again this turn (Rules of the Spell 1: "During
    your turn, you cannot apply the effect of the same Spell twice"). The limit binds the
    player whose turn it is; with the house rule at "everyone" it binds every player."""
    if effect not in used(state, seat):
        return False
    limit: str = state["options"].get("spell_limit", LEGACY_SPELL_LIMIT)
    return limit == "everyone" or seat == state["turn"]["seat"]


def holds_hand_token(state: Json, seat: int) -> bool:
    p = player(state, seat)
    return any(p[h] is not None for h in HANDS)


def thunder_targets(state: Json) -> list[tuple[int, int]]:
    """The highest unsealed towers, if at least two stories high ("Thunder")."""
    towers = [
        (seat, i, len(player(state, seat)["towers"][i]))
        for seat in range(state["seats"])
        for i in open_towers(state, seat)
    ]
    top = max((h for _, _, h in towers), default=0)
    if top < 2:
        return []
    return [(seat, i) for seat, i, h in towers if h == top]


def may_shield(state: Json, seat: int) -> bool:
    return holds_hand_token(state, seat) and not spent(state, seat, "shield")


def may_roar(state: Json, seat: int) -> bool:
    return (
        holds_hand_token(state, seat)
        and not spent(state, seat, "roar")
        and bool(open_towers(state, seat))
    )


def react_options(state: Json, seat: int) -> list[Json]:
    """What an asked seat may answer: decline always; Shield / Roar with a token that can."""
    prompt = state["prompt"]
    p = player(state, seat)
    options: list[Json] = [{"type": "decline"}]
    target = prompt["target"]
    if seat == target["seat"] and not spent(state, seat, "shield"):
        for h in HANDS:
            if p[h] is not None and kind(p[h]).key in SHIELDS:
                options.append({"type": "shield", "hand": h})
    if prompt["effect"] in ("discharge", "charge") and not spent(state, seat, "roar"):
        for h in HANDS:
            if p[h] is not None and kind(p[h]).key in ROARS:
                options.extend(
                    {"type": "roar", "hand": h, "tower": i} for i in open_towers(state, seat)
                )
    return options


def asked_for(state: Json, effect: str, target_seat: int) -> list[int]:
    seats = [target_seat] if may_shield(state, target_seat) else []
    if effect in ("discharge", "charge"):
        seats += [s for s in range(state["seats"]) if may_roar(state, s)]
    return sorted(set(seats))


def target_words(
    state: Json, action: Json, actor: int | None = None, *, you: bool = False
) -> Words | str:
    """A chant's target in words, to follow the spell's name (" on Reimu's first tower");
    ``actor`` (the chanter) and ``you`` as in ``whose``."""
    effect = action["effect"]
    if effect in ("discharge", "charge"):
        tower = tower_name(state, action["seat"], action["tower"], actor, you=you)
        return Words(N_(" on %(tower)s"), {"tower": tower})
    if effect == "snake":
        owner = whose(state, action["seat"], actor, you=you)
        return Words(
            N_(", taking a token from %(whose)s %(space)s"),
            {"whose": owner, "space": space_words(action["space"])},
        )
    if effect == "katana":
        tower = tower_name(state, action["seat"], action["tower"], actor, you=you)
        end = (
            N_(" on the top of %(tower)s")
            if action["end"] == "top"
            else N_(" on the bottom of %(tower)s")
        )
        return Words(end, {"tower": tower})
    return ""


def chant(ctx: Ctx, seat: int, action: Json) -> None:
    """Step 3 B: reveal the token, put it in play and apply (or ask for answers to) its effect."""
    state = ctx.state
    p = player(state, seat)
    hand = action["hand"]
    token: str = p[hand]
    p[hand] = None
    turn = state["turn"]
    if hand in turn["pending"]:
        turn["pending"].remove(hand)
    go_public(state, token)
    state["in_play"].append(token)
    effect = action["effect"]
    used(state, seat).append(effect)
    via = (
        Words(N_("Mist as %(spell)s"), {"spell": effect_words(effect)})
        if kind(token).key == "mist"
        else effect_words(effect)
    )
    ctx.say(
        Words(
            N_("%(name)s chants %(spell)s%(target)s."),
            {
                "name": seat_name(state, seat),
                "spell": via,
                "target": target_words(state, action, seat),
            },
        ),
        type="chant",
        seat=seat,
        token=token,
        effect=effect,
    )
    if effect in ("discharge", "charge", "snake", "katana"):
        target: Json = {k: action[k] for k in ("seat", "tower", "space", "end") if k in action}
        asked = asked_for(state, effect, action["seat"])
        if asked:
            state["prompt"] = {
                "kind": "react",
                "effect": effect,
                "caster": seat,
                "hand": hand,
                "target": target,
                "asked": asked,
                "answers": {},
            }
            names = listing([seat_name(state, s) for s in asked], last="comma")
            ctx.say(
                Words(N_("Waiting for %(names)s to answer the spell."), {"names": names}),
                type="react_open",
            )
            return
        apply_targeted(ctx, seat, hand, effect, target)
    elif effect == "switch":
        spend(ctx, [token])
        state["prompt"] = {"kind": "switch", "seat": seat, "first": None}
    elif effect == "purify":
        spend(ctx, [token])
        state["prompt"] = {"kind": "purify", "seat": seat, "stage": "discard", "discarded": []}
    elif effect == "destroy":
        state["in_play"].remove(token)
        if state["destroy"] is None:
            state["destroy"] = {"owner": seat, "token": token, "row": [], "victim": None}
            ctx.say(
                Words(
                    N_(
                        "%(name)s sets up Destroy: every spell applied from now on is laid "
                        "beside it."
                    ),
                    {"name": seat_name(state, seat)},
                ),
                type="destroy_set",
            )
        else:
            state["in_play"].append(token)
            spend(ctx, [token])


def apply_targeted(ctx: Ctx, caster: int, hand: str, effect: str, target: Json) -> None:
    """Thunder, Snake or Katana takes effect on its target (nobody answered, or all declined)."""
    state = ctx.state
    tokens = list(state["in_play"])
    if effect == "discharge":
        spend(ctx, tokens)
        resolve_tower(ctx, target["seat"], target["tower"])
    elif effect == "charge":
        seal(ctx, tokens[0], target["seat"], target["tower"])
        spend(ctx, tokens[1:])
    elif effect == "snake":
        spend(ctx, tokens)
        victim = player(state, target["seat"])
        token = take_space(victim, target["space"])
        player(state, caster)[hand] = token
        learn(state, token, caster)
        pending = state["turn"]["pending"]
        if caster == state["turn"]["seat"] and hand not in pending:
            pending.append(hand)
        for h in HANDS:
            if h in pending and player(state, caster)[h] is None:
                pending.remove(h)
        ctx.say(
            Words(
                N_("%(name)s takes a token from %(victim)s into her left hand.")
                if hand == "left"
                else N_("%(name)s takes a token from %(victim)s into her right hand."),
                {"name": seat_name(state, caster), "victim": seat_name(state, target["seat"])},
            ),
            type="snake",
        )
        seen = sorted({caster, target["seat"]})
        ctx.say(
            Words(N_("The token taken is %(token)s."), {"token": words(token)}),
            type="snake_token",
            visible_to=seen,
            token=token,
        )
    elif effect == "katana":
        spend(ctx, tokens)
        tower = player(state, target["seat"])["towers"][target["tower"]]
        token = tower.pop() if target["end"] == "top" else tower.pop(0)
        go_public(state, token)
        state["canyon"].append(token)
        ctx.say(
            Words(
                N_("Katana cuts %(token)s from the top of %(tower)s into the Canyon.")
                if target["end"] == "top"
                else N_("Katana cuts %(token)s from the bottom of %(tower)s into the Canyon."),
                {
                    "token": words(token),
                    "tower": tower_name(state, target["seat"], target["tower"]),
                },
            ),
            type="katana",
            token=token,
        )


def seal(ctx: Ctx, token: str, seat: int, tower: int) -> None:
    """Charge: the tower is sealed until the end of its owner's next turn ("Thunder", 2)."""
    state = ctx.state
    n = state["seats"]
    offset = (seat - state["turn"]["seat"]) % n or n
    until = state["turn"]["number"] + offset
    state["in_play"].remove(token)
    state["seals"].append({"seat": seat, "tower": tower, "token": token, "until_turn": until})
    ctx.say(
        Words(
            N_("%(tower)s is sealed until the end of %(name)s's next turn."),
            {"tower": tower_name(state, seat, tower), "name": seat_name(state, seat)},
        ),
        type="sealed",
    )


def answer(ctx: Ctx, seat: int, action: Json) -> None:
    """Record a secret answer; when the last asked seat has answered, open them together."""
    state = ctx.state
    prompt = state["prompt"]
    prompt["answers"][str(seat)] = dict(action)
    ctx.say(
        Words(N_("%(name)s has answered."), {"name": seat_name(state, seat)}),
        type="answered",
        seat=seat,
    )
    if len(prompt["answers"]) == len(prompt["asked"]):
        state["prompt"] = None
        resolve_answers(ctx, prompt)


def _use_hand_token(ctx: Ctx, seat: int, hand: str, effect: str) -> str:
    state = ctx.state
    p = player(state, seat)
    token: str = p[hand]
    p[hand] = None
    go_public(state, token)
    state["in_play"].append(token)
    used(state, seat).append(effect)
    if seat == state["turn"]["seat"] and hand in state["turn"]["pending"]:
        state["turn"]["pending"].remove(hand)
    return token


def resolve_answers(ctx: Ctx, prompt: Json) -> None:
    state = ctx.state
    effect, target, caster = prompt["effect"], prompt["target"], prompt["caster"]
    answers: dict[str, Any] = prompt["answers"]
    roars = [(int(s), a) for s, a in sorted(answers.items(), key=lambda kv: int(kv[0]))]
    roars = [(s, a) for s, a in roars if a["type"] == "roar"]
    shielder = target["seat"]
    shield: Json = answers.get(str(shielder)) or {"type": "decline"}
    shielded = shield["type"] == "shield"
    if not roars:
        if shielded:
            token = _use_hand_token(ctx, shielder, shield["hand"], "shield")
            raised_as = (
                Words(N_("her Shield"))
                if kind(token).key == "shield"
                else Words(N_("%(token)s as a Shield"), {"token": words(token)})
            )
            ctx.say(
                Words(
                    N_("%(name)s raises %(shield)s: the %(spell)s has no effect."),
                    {
                        "name": seat_name(state, shielder),
                        "shield": raised_as,
                        "spell": effect_words(effect),
                    },
                ),
                type="shield",
            )
            spend(ctx, list(state["in_play"]))
            return
        ctx.say(Words(N_("Nobody answers the spell.")), type="no_answer")
        apply_targeted(ctx, caster, prompt["hand"], effect, target)
        return
    if shielded:
        raised = player(state, shielder)[shield["hand"]]
        reveal(state, raised)  # she showed it; it stays in her hand, known to all
        ctx.say(
            Words(
                N_(
                    "Roar beats Shield: %(name)s's %(token)s, raised as a Shield, has no effect "
                    "and stays in her hand."
                ),
                {"name": seat_name(state, shielder), "token": words(raised)},
            ),
            type="shield_beaten",
            token=raised,
        )
    towers: list[tuple[int, int]] = []
    for seat, a in roars:
        token = _use_hand_token(ctx, seat, a["hand"], "roar")
        towers.append((seat, a["tower"]))
        ctx.say(
            Words(
                N_("%(name)s reveals %(token)s as a Roar, calling the Thunder onto %(tower)s."),
                {
                    "name": seat_name(state, seat),
                    "token": words(token),
                    "tower": tower_name(state, seat, a["tower"], seat),
                },
            ),
            type="roar",
        )
    if len(towers) == 1:
        chosen: tuple[int, int] | None = towers[0]
    else:
        chosen = raigo_battle(ctx, towers)
    thunder = state["in_play"][0]
    if effect == "charge":
        where = chosen or (target["seat"], target["tower"])
        seal(ctx, thunder, *where)
        spend(ctx, list(state["in_play"]))
        return
    spend(ctx, list(state["in_play"]))
    if chosen is None:
        resolve_tower(ctx, target["seat"], target["tower"])
    else:
        resolve_tower(ctx, chosen[0], chosen[1], raigo=True)


def raigo_battle(ctx: Ctx, towers: list[tuple[int, int]]) -> tuple[int, int] | None:
    """Raigo Battle (a)-(c): the roaring towers' top tokens are revealed together; a single
    heaviest wins, else a single second heaviest, else the Thunder keeps its own target."""
    state = ctx.state
    tops: list[tuple[int, int, int]] = []
    for seat, i in towers:
        top = player(state, seat)["towers"][i][-1]
        reveal(state, top)
        tops.append((seat, i, weight(top)))
        ctx.say(
            Words(
                N_("Raigo Battle: the top of %(tower)s is %(token)s."),
                {"tower": tower_name(state, seat, i), "token": words(top)},
            ),
            type="raigo_reveal",
            token=top,
        )
    weights = sorted({w for _, _, w in tops}, reverse=True)
    for rank, w in enumerate(weights[:2]):
        holders = [(s, i) for s, i, tw in tops if tw == w]
        if len(holders) == 1:
            ctx.say(
                Words(
                    N_("Raigo Battle: %(tower)s wins with the heaviest token.")
                    if rank == 0
                    else N_("Raigo Battle: %(tower)s wins with the second heaviest token."),
                    {"tower": tower_name(state, *holders[0])},
                ),
                type="raigo_battle",
            )
            return holders[0]
        if rank == 0 and len(weights) == 1:
            break
    ctx.say(
        Words(N_("Raigo Battle: no single winner; the Thunder keeps its target.")),
        type="raigo_battle",
    )
    return None


# Switch -------------------------------------------------------------------------------------


def switch_positions(state: Json) -> list[Json]:
    """Every token Switch may pick: Inner Tokens of every board, and Canyon tokens except Spells
    heavier than VII."""
    out: list[Json] = []
    for seat in range(state["seats"]):
        p = player(state, seat)
        out.extend({"seat": seat, "space": f"body{i}"} for i in range(len(p["body"])))
        out.extend({"seat": seat, "space": h} for h in HANDS if p[h] is not None)
    out.extend(
        {"canyon": t}
        for t in state["canyon"]
        if not (kind(t).spell and kind(t).weight > SWITCH_CANYON_LIMIT)
    )
    return out


def switch_options(state: Json) -> list[Json]:
    first = state["prompt"]["first"]
    options = []
    for pos in switch_positions(state):
        if first is not None and (pos == first or ("canyon" in pos and "canyon" in first)):
            continue
        options.append({"type": "switch_pick", **pos})
    if first is None:
        # A first pick must leave a legal second one: a Canyon token needs an Inner Token to
        # swap with, an Inner Token needs any other token.
        positions = switch_positions(state)
        inner = [p for p in positions if "canyon" not in p]
        options = [
            o
            for o in options
            if ("canyon" in o and inner) or ("canyon" not in o and len(positions) > 1)
        ]
    return options


def switch_pick(ctx: Ctx, seat: int, action: Json) -> None:
    state = ctx.state
    prompt = state["prompt"]
    pos = {k: v for k, v in action.items() if k != "type"}
    if prompt["first"] is None:
        prompt["first"] = pos
        return
    state["prompt"] = None
    do_switch(ctx, seat, prompt["first"], pos)


def _pos_words(state: Json, pos: Json) -> Words:
    if "canyon" in pos:
        return Words(N_("the %(token)s from the Canyon"), {"token": words(pos["canyon"])})
    return Words(
        N_("a token in %(name)s's %(space)s"),
        {"name": seat_name(state, pos["seat"]), "space": space_words(pos["space"])},
    )


def do_switch(ctx: Ctx, caster: int, a: Json, b: Json) -> None:
    state = ctx.state
    text = Words(
        N_("%(name)s switches %(first)s with %(second)s."),
        {
            "name": seat_name(state, caster),
            "first": _pos_words(state, a),
            "second": _pos_words(state, b),
        },
    )
    token_a = a["canyon"] if "canyon" in a else _get(state, a)
    token_b = b["canyon"] if "canyon" in b else _get(state, b)
    _put(state, a, token_b, token_a)
    _put(state, b, token_a, token_b)
    for pos, token in ((a, token_a), (b, token_b)):
        if "canyon" in pos:
            reveal(state, token)  # everyone saw it taken from the Canyon
    for pos in (a, b):
        if "seat" in pos:
            sort_body(player(state, pos["seat"])["body"])
    ctx.say(text, type="switch")
    turn = state["turn"]
    for pos in (a, b):
        mine = pos.get("seat") == caster == turn["seat"] and pos["space"] in HANDS
        if mine and pos["space"] not in turn["pending"]:
            turn["pending"].append(pos["space"])


def _get(state: Json, pos: Json) -> str:
    p = player(state, pos["seat"])
    token: str = p[pos["space"]] if pos["space"] in HANDS else p["body"][int(pos["space"][4:])]
    return token


def _put(state: Json, pos: Json, token: str, old: str) -> None:
    if "canyon" in pos:
        canyon = state["canyon"]
        canyon[canyon.index(old)] = token
        go_public(state, token)
        return
    set_space(player(state, pos["seat"]), pos["space"], token)
    learn(state, token, pos["seat"])


# Purify -------------------------------------------------------------------------------------


def purify_options(state: Json, seat: int) -> list[Json]:
    prompt = state["prompt"]
    p = player(state, seat)
    if prompt["stage"] == "discard":
        options: list[Json] = [{"type": "purify_done"}]
        if len(prompt["discarded"]) < min(4, raizan_total(state)):
            options += [{"type": "purify_discard", "token": t} for t in inner_tokens(p)]
        return options
    tokens = inner_tokens(p) + list(state["turn"]["drawn"])
    arrangements: list[Json] = []
    for left in [*tokens, None]:
        for right in [*tokens, None]:
            if right is not None and right == left:
                continue
            rest = len(tokens) - (left is not None) - (right is not None)
            if rest <= 3:
                arrangements.append({"type": "arrange", "left": left, "right": right})
    return arrangements


def purify_step(ctx: Ctx, seat: int, action: Json) -> None:
    state = ctx.state
    prompt = state["prompt"]
    p = player(state, seat)
    who = seat_name(state, seat)
    if action["type"] == "purify_discard":
        token = action["token"]
        hand = next((h for h in HANDS if p[h] == token), None)
        if hand is None:
            p["body"].remove(token)
        else:
            p[hand] = None
        go_public(state, token)
        state["canyon"].append(token)
        prompt["discarded"].append(token)
        ctx.say(
            Words(
                N_("%(name)s discards %(token)s to the Canyon (Purify)."),
                {"name": who, "token": words(token)},
            ),
            type="purify_discard",
        )
        return
    if action["type"] == "purify_done":
        count = len(prompt["discarded"])
        drawn = state["turn"]["drawn"]
        for _ in range(count):
            token = draw_token(state)
            learn(state, token, seat)
            drawn.append(token)
        if count:
            ctx.say(
                Words(
                    N_("%(name)s draws %(tokens)s from Raizan (Purify)."),
                    {"name": who, "tokens": tokens_words(count)},
                ),
                type="purify_draw",
                hidden_from=[seat],
            )
            ctx.say(
                Words(
                    N_("You draw %(tokens)s."),
                    {"tokens": listing([words(t) for t in drawn], last="comma")},
                ),
                type="purify_draw_private",
                visible_to=[seat],
                tokens=list(drawn),
            )
            note_last_draw(ctx, seat)
        prompt["stage"] = "arrange"
        prompt["pending_before"] = list(state["turn"]["pending"])
        if not inner_tokens(p) and not drawn:
            state["prompt"] = None
        return
    tokens = inner_tokens(p) + list(state["turn"]["drawn"])
    blur(state, seat, tokens)  # which token went where is hers alone
    state["turn"]["drawn"] = []
    p["left"], p["right"], p["body"] = action["left"], action["right"], []
    for token in tokens:
        if token not in (action["left"], action["right"]):
            put_body(p, token)
    pending = state["turn"]["pending"]
    pending[:] = [h for h in prompt["pending_before"] if p[h] is not None]
    state["prompt"] = None
    ctx.say(
        Words(N_("%(name)s rearranges her Inner Tokens (Purify)."), {"name": who}),
        type="purify_arrange",
    )


def note_last_draw(ctx: Ctx, seat: int) -> None:
    """Drawing the last Raizan token: everyone plays once more, the drawer last ("END")."""
    state = ctx.state
    if raizan_total(state) == 0 and state["end_after_turn"] is None:
        n = state["seats"]
        state["end_after_turn"] = state["turn"]["number"] + n
        ctx.say(
            Words(
                N_(
                    "%(name)s drew the last token of Raizan: everyone plays one more turn, "
                    "%(name)s last."
                ),
                {"name": seat_name(state, seat)},
            ),
            type="raizan_empty",
        )
