"""What a seat may do now (legal actions, in a fixed order), applying one, and each in words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from minigames.engines.raigo import spells, turn
from minigames.engines.raigo.board import (
    HANDS,
    Json,
    occupied_spaces,
    open_towers,
    player,
    sealed,
    space_words,
    tower_name,
    whose,
)
from minigames.engines.raigo.resolution import Ctx
from minigames.engines.raigo.spells import CHANT_EFFECTS, thunder_targets
from minigames.engines.raigo.tokens import kind, words
from westernroses.words import N_, Words


def waiting_on(state: Json) -> tuple[int, ...]:
    prompt = state["prompt"]
    if state["over"] or prompt is None:
        return ()
    if prompt["kind"] == "react":
        return tuple(s for s in prompt["asked"] if str(s) not in prompt["answers"])
    return (prompt["seat"],)


def chant_options(state: Json, seat: int, hand: str) -> list[Json]:
    token = player(state, seat)[hand]
    options: list[Json] = []
    for effect in CHANT_EFFECTS.get(kind(token).key, ()):
        if spells.spent(state, seat, effect):
            continue
        base = {"type": "chant", "hand": hand, "effect": effect}
        if effect in ("discharge", "charge"):
            options += [{**base, "seat": s, "tower": i} for s, i in thunder_targets(state)]
        elif effect == "snake":
            for s in range(state["seats"]):
                for space in occupied_spaces(player(state, s)):
                    if not (s == seat and space == hand):
                        options.append({**base, "seat": s, "space": space})
        elif effect == "katana":
            for s in range(state["seats"]):
                for i in open_towers(state, s):
                    ends = ("top", "bottom") if len(player(state, s)["towers"][i]) > 1 else ("top",)
                    options += [{**base, "seat": s, "tower": i, "end": e} for e in ends]
        elif effect == "switch":
            if _switch_possible(state, seat, hand, token):
                options.append(base)
        else:
            options.append(base)
    return options


def _switch_possible(state: Json, seat: int, hand: str, token: str) -> bool:
    inner = sum(len(occupied_spaces(player(state, s))) for s in range(state["seats"])) - 1
    canyon = [
        t
        for t in state["canyon"]
        if not (kind(t).spell and kind(t).weight > spells.SWITCH_CANYON_LIMIT)
    ]
    if state["destroy"] is None:
        canyon.append(token)
    return inner >= 2 or (inner == 1 and bool(canyon))


def act_options(state: Json, seat: int) -> list[Json]:
    p = player(state, seat)
    options: list[Json] = []
    for hand in state["turn"]["pending"]:
        for i, tower in enumerate(p["towers"]):
            if len(tower) < turn.TOWER_LIMIT and not sealed(state, seat, i):
                options.append({"type": "pile", "hand": hand, "tower": i})
        options += chant_options(state, seat, hand)
        options.append({"type": "keep", "hand": hand})
    return options


def legal_actions(state: Json, seat: Any) -> list[Json]:
    if seat not in waiting_on(state):
        return []
    prompt = state["prompt"]
    k = prompt["kind"]
    p = player(state, seat)
    if k == "fetch":
        empty = [h for h in HANDS if p[h] is None]
        return [{"type": "fetch", "token": t, "hand": h} for t in p["body"] for h in empty] + [
            {"type": "end_fetch"}
        ]
    if k == "select":
        return [{"type": "select", "count": c} for c in turn.select_counts(state)]
    if k == "discard":
        tokens = [*p["body"], *(p[h] for h in HANDS if p[h] is not None)]
        return [{"type": "discard", "token": t} for t in tokens]
    if k == "place":
        return turn.place_options(state)
    if k == "act":
        return act_options(state, seat)
    if k == "react":
        return spells.react_options(state, seat)
    if k == "switch":
        return spells.switch_options(state)
    if k == "purify":
        return spells.purify_options(state, seat)
    if k == "destroy":
        victim = state["destroy"]["victim"]
        return [{"type": "destroy", "tower": i} for i in open_towers(state, victim)]
    return []


def apply_action(ctx: Ctx, seat: int, action: Mapping[str, Any]) -> None:
    """Apply an action already checked to be legal, then run on to the next decision."""
    state = ctx.state
    a = dict(action)
    t = a["type"]
    if t in ("decline", "shield", "roar"):
        spells.answer(ctx, seat, a)
    elif t == "switch_pick":
        spells.switch_pick(ctx, seat, a)
    elif t in ("purify_discard", "purify_done", "arrange"):
        spells.purify_step(ctx, seat, a)
    else:
        state["prompt"] = None
        if t == "fetch":
            turn.fetch(ctx, a)
        elif t == "end_fetch":
            state["turn"]["stage"] = "select"
        elif t == "select":
            turn.select(ctx, a["count"])
        elif t == "discard":
            turn.discard(ctx, a)
        elif t == "place":
            turn.place(ctx, a)
        elif t == "pile":
            turn.pile(ctx, a)
        elif t == "keep":
            turn.keep(ctx, a)
        elif t == "chant":
            spells.chant(ctx, seat, a)
        elif t == "destroy":
            turn.destroy_strikes(ctx, a["tower"])
            state["turn"]["stage"] = "pass"
    turn.advance(ctx)


#: The moves whose tokens go from one private place of hers to another, unseen by the others
#: (board.blur), and their token fields.
PRIVATE_MOVES = {"fetch": ("token",), "place": ("token",), "arrange": ("left", "right")}


def public_face(state: Json, seat: int, action: Mapping[str, Any]) -> Json:
    """What the other seats and spectators learn from ``seat``'s ``action`` (the protocol's
    ``public_action``)."""
    t = action.get("type")
    prompt = state["prompt"]
    if t in ("decline", "shield", "roar") and prompt is not None:
        unanswered = [s for s in prompt["asked"] if str(s) not in prompt["answers"]]
        if unanswered != [seat]:
            return {"type": "answer"}
        return dict(action)
    fields = PRIVATE_MOVES.get(str(t))
    if fields is None:
        return dict(action)
    face = dict(action)
    for key in fields:
        if face.get(key) is not None:
            face[key] = "hidden"
    return face


#: A token in one of her hands, named when she knows it: one sentence per hand.
HELD_WORDS = {
    "left": N_("the %(token)s in your left hand"),
    "right": N_("the %(token)s in your right hand"),
}
UNKNOWN_HELD_WORDS = {
    "left": N_("the token in your left hand"),
    "right": N_("the token in your right hand"),
}


def describe(state: Json, seat: int, action: Mapping[str, Any]) -> Words:
    """The action in words for ``seat``'s buttons and the move log."""
    t = action.get("type")
    hand = action.get("hand")
    own = player(state, seat) if isinstance(seat, int) and 0 <= seat < state["seats"] else None

    def held(h: Any) -> Words:
        if own is not None and h in HANDS and own[h] is not None:
            return Words(HELD_WORDS[h], {"token": words(own[h])})
        return Words(UNKNOWN_HELD_WORDS.get(h, N_("the token in your hand")))

    if t == "fetch":
        fetch = (
            N_("Move %(token)s from your Body to your left hand")
            if hand == "left"
            else N_("Move %(token)s from your Body to your right hand")
        )
        return Words(fetch, {"token": words(action["token"])})
    if t == "end_fetch":
        return Words(N_("Stop fetching and go on to Select"))
    if t == "select":
        if action["count"] == 1:
            return Words(N_("Draw 1 token from Raizan"))
        return Words(N_("Draw %(count)s tokens from Raizan"), {"count": action["count"]})
    if t == "discard":
        return Words(N_("Discard %(token)s to the Canyon"), {"token": words(action["token"])})
    if t == "place":
        place = {
            "body": N_("Place %(token)s on your Body"),
            "left": N_("Place %(token)s on your left hand"),
            "right": N_("Place %(token)s on your right hand"),
        }
        return Words(place[action["space"]], {"token": words(action["token"])})
    if t == "pile":
        return Words(
            N_("Pile %(held)s on %(tower)s"),
            {"held": held(hand), "tower": tower_name(state, seat, action["tower"], seat, you=True)},
        )
    if t == "keep":
        return Words(N_("Keep %(held)s (no action)"), {"held": held(hand)})
    if t == "chant":
        return Words(
            N_("Chant %(held)s as %(spell)s%(target)s"),
            {
                "held": held(hand),
                "spell": spells.effect_words(action["effect"]),
                "target": spells.target_words(state, dict(action), seat, you=True),
            },
        )
    if t == "decline":
        return Words(N_("Let the spell happen (no answer)"))
    if t == "shield":
        token = own[hand] if own is not None and hand in HANDS else None
        shield = token is not None and kind(token).key == "shield"
        block = (
            N_("Block the spell with %(held)s")
            if shield
            else N_("Block the spell with %(held)s as a Shield")
        )
        return Words(block, {"held": held(hand)})
    if t == "roar":
        return Words(
            N_("Roar with %(held)s, calling the Thunder onto %(tower)s"),
            {"held": held(hand), "tower": tower_name(state, seat, action["tower"], seat, you=True)},
        )
    if t == "switch_pick":
        if "canyon" in action:
            return Words(
                N_("Pick the %(token)s from the Canyon for Switch"),
                {"token": words(action["canyon"])},
            )
        return Words(
            N_("Pick the token in %(whose)s %(space)s for Switch"),
            {
                "whose": whose(state, action["seat"], seat, you=True),
                "space": space_words(action["space"]),
            },
        )
    if t == "purify_discard":
        return Words(N_("Discard %(token)s for Purify"), {"token": words(action["token"])})
    if t == "purify_done":
        return Words(N_("Stop discarding and draw as many tokens from Raizan"))
    if t == "arrange":
        nothing = Words(N_("nothing"))
        return Words(
            N_(
                "Rearrange: %(left)s in your left hand, %(right)s in your right hand, the rest on "
                "your Body"
            ),
            {
                "left": words(action["left"]) if action["left"] else nothing,
                "right": words(action["right"]) if action["right"] else nothing,
            },
        )
    if t == "destroy":
        victim = state["destroy"]["victim"] if state["destroy"] else seat
        return Words(
            N_("Destroy %(tower)s"),
            {"tower": tower_name(state, victim, action["tower"], seat, you=True)},
        )
    return Words(N_("An unknown action"))
