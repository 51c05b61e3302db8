"""The four steps of a turn ("HOW TO PLAY"): Fetch, Select, Pile/Chant/No action, passing the
Dong token; and the end of a turn (seals ending, Destroy striking, the end of the game).

``advance`` runs everything automatic until somebody must decide: the state's ``prompt`` then
says who and what. ``turn.stage`` remembers where the current turn stands.
"""

from __future__ import annotations

from typing import Final

from minigames.engines.raigo.board import (
    HANDS,
    Json,
    blur,
    draw_token,
    go_public,
    inner_count,
    learn,
    open_towers,
    player,
    put_body,
    raizan_total,
    seat_name,
    tower_name,
)
from minigames.engines.raigo.resolution import Ctx, finish, pay, resolve_tower, spend
from minigames.engines.raigo.spells import note_last_draw
from minigames.engines.raigo.tokens import tokens_words, words
from westernroses.words import N_, Words, listing

#: Body holds three tokens, each Hand one: five spaces ("Notes on Fetch").
BODY_SPACES = 3
SPACES = 5
TOWER_LIMIT = 6
MAX_FETCH = 2
#: How many tokens a player may select from Raizan at once.
SELECT_COUNTS: Final = (1, 2)


def can_fetch(state: Json) -> bool:
    turn = state["turn"]
    p = player(state, turn["seat"])
    return turn["fetched"] < MAX_FETCH and bool(p["body"]) and any(p[h] is None for h in HANDS)


def select_counts(state: Json) -> list[int]:
    free = SPACES - inner_count(player(state, state["turn"]["seat"]))
    return [c for c in SELECT_COUNTS if c <= free and c <= raizan_total(state)]


def place_options(state: Json) -> list[Json]:
    p = player(state, state["turn"]["seat"])
    spaces = (["body"] if len(p["body"]) < BODY_SPACES else []) + [h for h in HANDS if p[h] is None]
    return [
        {"type": "place", "token": t, "space": s} for t in state["turn"]["drawn"] for s in spaces
    ]


def advance(ctx: Ctx) -> None:
    """Carry the turn on until a decision is needed or the game is over."""
    state = ctx.state
    while state["prompt"] is None and not state["over"]:
        turn = state["turn"]
        seat = turn["seat"]
        stage = turn["stage"]
        p = player(state, seat)
        if stage == "fetch":
            if can_fetch(state):
                state["prompt"] = {"kind": "fetch", "seat": seat}
            else:
                turn["stage"] = "select"
        elif stage == "select":
            if raizan_total(state) == 0:
                turn["stage"] = "act_start"
            elif inner_count(p) >= SPACES:
                ctx.say(
                    Words(
                        N_("%(name)s reaches Select with all five spaces full (Forbiddance)."),
                        {"name": seat_name(state, seat)},
                    ),
                    type="forbiddance",
                )
                if pay(ctx, seat, Words(N_("Forbiddance"))):
                    return
                turn["discards_left"] = 2
                turn["stage"] = "discard"
            else:
                counts = select_counts(state)
                if len(counts) == 1:
                    select(ctx, counts[0])
                else:
                    state["prompt"] = {"kind": "select", "seat": seat}
        elif stage == "discard":
            state["prompt"] = {"kind": "discard", "seat": seat}
        elif stage == "place":
            options = place_options(state)
            if not turn["drawn"]:
                turn["stage"] = "act_start"
            elif len(options) == 1:
                place(ctx, options[0])
            else:
                state["prompt"] = {"kind": "place", "seat": seat}
        elif stage == "act_start":
            turn["pending"] = [h for h in HANDS if p[h] is not None]
            turn["stage"] = "act"
        elif stage == "act":
            turn["pending"] = [h for h in turn["pending"] if p[h] is not None]
            if turn["pending"]:
                state["prompt"] = {"kind": "act", "seat": seat}
            else:
                turn["stage"] = "end_seals"
        elif stage == "end_seals":
            end_seals(ctx)
            turn["stage"] = "end_destroy"
        elif stage == "end_destroy":
            destroy = state["destroy"]
            if destroy is not None and destroy["victim"] is not None:
                towers = open_towers(state, destroy["victim"])
                if len(towers) > 1:
                    state["prompt"] = {"kind": "destroy", "seat": destroy["owner"]}
                    return
                destroy_strikes(ctx, towers[0] if towers else None)
            turn["stage"] = "pass"
        elif stage == "pass":
            if state["end_after_turn"] == turn["number"]:
                finish(ctx, Words(N_("Raizan is empty and everyone has played")))
                return
            next_turn(ctx)


def select(ctx: Ctx, count: int) -> None:
    """Step 2: draw the declared tokens at once; they are placed next."""
    state = ctx.state
    turn = state["turn"]
    seat = turn["seat"]
    for _ in range(count):
        token = draw_token(state)
        learn(state, token, seat)
        turn["drawn"].append(token)
    who = seat_name(state, seat)
    ctx.say(
        Words(
            N_("%(name)s draws %(tokens)s from Raizan."),
            {"name": who, "tokens": tokens_words(count)},
        ),
        type="select",
        hidden_from=[seat],
        seat=seat,
        count=count,
    )
    ctx.say(
        Words(N_("You draw %(tokens)s."), {"tokens": listing([words(t) for t in turn["drawn"]])}),
        type="select_private",
        visible_to=[seat],
        tokens=list(turn["drawn"]),
    )
    note_last_draw(ctx, seat)
    turn["stage"] = "place"


def place(ctx: Ctx, action: Json) -> None:
    state = ctx.state
    turn = state["turn"]
    p = player(state, turn["seat"])
    token = action["token"]
    turn["drawn"].remove(token)
    if action["space"] == "body":
        put_body(p, token)
    else:
        p[action["space"]] = token
    place_words = {
        "body": N_("%(name)s places a token on her Body."),
        "left": N_("%(name)s places a token on her left hand."),
        "right": N_("%(name)s places a token on her right hand."),
    }
    ctx.say(
        Words(place_words[action["space"]], {"name": seat_name(state, turn["seat"])}),
        type="place",
    )


def fetch(ctx: Ctx, action: Json) -> None:
    """Step 1: one Body token to an empty Hand (never back, never across)."""
    state = ctx.state
    turn = state["turn"]
    p = player(state, turn["seat"])
    blur(state, turn["seat"], list(p["body"]))  # which Body token moved is hers alone
    p["body"].remove(action["token"])
    p[action["hand"]] = action["token"]
    turn["fetched"] += 1
    ctx.say(
        Words(
            N_("%(name)s moves a token from her Body to her left hand.")
            if action["hand"] == "left"
            else N_("%(name)s moves a token from her Body to her right hand."),
            {"name": seat_name(state, turn["seat"])},
        ),
        type="fetch",
    )


def discard(ctx: Ctx, action: Json) -> None:
    """Forbiddance: two Inner Tokens to the Canyon, then Select again."""
    state = ctx.state
    turn = state["turn"]
    p = player(state, turn["seat"])
    token = action["token"]
    hand = next((h for h in HANDS if p[h] == token), None)
    if hand is None:
        p["body"].remove(token)
    else:
        p[hand] = None
    go_public(state, token)
    state["canyon"].append(token)
    turn["discards_left"] -= 1
    ctx.say(
        Words(
            N_("%(name)s discards %(token)s to the Canyon (Forbiddance)."),
            {"name": seat_name(state, turn["seat"]), "token": words(token)},
        ),
        type="discard",
        token=token,
    )
    if turn["discards_left"] == 0:
        turn["stage"] = "select"


def pile(ctx: Ctx, action: Json) -> None:
    """Step 3 A: the Hand token goes face down on top of a tower; the sixth resolves it."""
    state = ctx.state
    turn = state["turn"]
    seat = turn["seat"]
    p = player(state, seat)
    hand, index = action["hand"], action["tower"]
    token = p[hand]
    p[hand] = None
    turn["pending"].remove(hand)
    tower = p["towers"][index]
    tower.append(token)
    ctx.say(
        Words(
            N_("%(name)s piles her left-hand token on %(tower)s (%(height)s high).")
            if hand == "left"
            else N_("%(name)s piles her right-hand token on %(tower)s (%(height)s high)."),
            {
                "name": seat_name(state, seat),
                "tower": tower_name(state, seat, index, seat),
                "height": len(tower),
            },
        ),
        type="pile",
    )
    if len(tower) == TOWER_LIMIT:
        resolve_tower(ctx, seat, index)


def keep(ctx: Ctx, action: Json) -> None:
    state = ctx.state
    turn = state["turn"]
    turn["pending"].remove(action["hand"])
    ctx.say(
        Words(
            N_("%(name)s keeps the token in her left hand.")
            if action["hand"] == "left"
            else N_("%(name)s keeps the token in her right hand."),
            {"name": seat_name(state, turn["seat"])},
        ),
        type="keep",
    )


def end_seals(ctx: Ctx) -> None:
    """Seals of the player ending her turn expire now; their Thunder is spent (Q&A 3)."""
    state = ctx.state
    turn = state["turn"]
    for s in [s for s in state["seals"] if s["until_turn"] == turn["number"]]:
        state["seals"].remove(s)
        state["in_play"].append(s["token"])
        ctx.say(
            Words(
                N_("The seal on %(tower)s ends."),
                {"tower": tower_name(state, s["seat"], s["tower"])},
            ),
            type="unsealed",
        )
        spend(ctx, [s["token"]])


def destroy_strikes(ctx: Ctx, tower: int | None) -> None:
    """Destroy sends one tower of the player whose turn it was to the Canyon, then leaves."""
    state = ctx.state
    destroy = state["destroy"]
    victim = destroy["victim"]
    if tower is not None:
        tokens = player(state, victim)["towers"][tower]
        player(state, victim)["towers"][tower] = []
        shown = listing([words(t) for t in tokens], last="comma")
        for token in tokens:
            go_public(state, token)
            state["canyon"].append(token)
        ctx.say(
            Words(
                N_("Destroy strikes: %(tower)s (%(tokens)s) goes to the Canyon."),
                {"tower": tower_name(state, victim, tower), "tokens": shown},
            ),
            type="destroy",
        )
    else:
        ctx.say(
            Words(
                N_("Destroy strikes, but %(name)s has no tower."),
                {"name": seat_name(state, victim)},
            ),
            type="destroy",
        )
    for token in [destroy["token"], *destroy["row"]]:
        state["canyon"].append(token)
    state["destroy"] = None


def next_turn(ctx: Ctx) -> None:
    """Step 4: the Dong token passes to the left."""
    state = ctx.state
    turn = state["turn"]
    seat = (turn["seat"] + 1) % state["seats"]
    state["turn"] = {
        "number": turn["number"] + 1,
        "seat": seat,
        "stage": "fetch",
        "fetched": 0,
        "discards_left": 0,
        "drawn": [],
        "pending": [],
        "used": [[] for _ in range(state["seats"])],
    }
    ctx.say(
        Words(N_("%(name)s takes the Dong token."), {"name": seat_name(state, seat)}),
        type="turn",
        seat=seat,
    )
