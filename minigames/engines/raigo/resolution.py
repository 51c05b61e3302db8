"""Yang balls change hands here: paying penalties, spending spells, resolving towers, and the
end of the game with its final scoring and tie-breaks ("SCORING", "END CONDITIONS")."""

from __future__ import annotations

from typing import Any

from minigames.engines.raigo.board import (
    Json,
    go_public,
    player,
    seat_name,
    sides,
    total_weight,
    tower_name,
)
from minigames.engines.raigo.hands import TowerScore, score_tower
from minigames.engines.raigo.setup import STARTING_BALLS
from minigames.engines.raigo.tokens import kind, words
from westernroses.protocol import Text, event
from westernroses.words import N_, Words, listing, said

#: Extra Yang balls for a Raigo Discharge of a tower holding a hand ("Roar").
RAIGO_DISCHARGE_BONUS = 2


class Ctx:
    """One action's work in progress: the state being changed and the events it produces."""

    def __init__(self, state: Json) -> None:
        self.state = state
        self.events: list[Json] = []

    def say(
        self, text: Text, *, type: str, visible_to: list[int] | None = None, **data: Any
    ) -> None:
        self.events.append(event(text, type=type, visible_to=visible_to, **data))


def balls_words(n: int) -> Words:
    if n == 1:
        return Words(N_("1 Yang ball"))
    return Words(N_("%(count)s Yang balls"), {"count": n})


def row_words(row: Json) -> Text:
    """A scoring row's words (kept with its text by :func:`westernroses.words.said`)."""
    found = row.get("words")
    return Words.from_json(found) if isinstance(found, dict) else str(row["text"])


def pay(ctx: Ctx, seat: int, why: Words, *, logged: bool = False) -> bool:
    """``seat`` returns one Yang ball to the Reserve; left with none, her side is out and the game
    ends at once ("Forbiddance"). Returns True when the game ended.

    The ball goes into the scoring log (so the final scoring's lines add up to her Yang balls)
    unless the caller ``logged`` it already, as a resolved tower does."""
    p = player(ctx.state, seat)
    p["balls"] = max(0, p["balls"] - 1)
    who = seat_name(ctx.state, seat)
    text = Words(N_("%(name)s pays a Yang ball for %(why)s."), {"name": who, "why": why})
    if not logged:
        ctx.state["scoring_log"].append(
            {"seat": seat, **said(text), "points": -1, "when": "play", "kind": "penalty"}
        )
    ctx.say(text, type="penalty", seat=seat)
    if p["balls"] == 0:
        p["out"] = True
        ctx.say(
            Words(N_("%(name)s has no Yang ball left and is out of the game."), {"name": who}),
            type="out",
            seat=seat,
        )
        finish(ctx, Words(N_("%(name)s ran out of Yang balls"), {"name": who}))
        return True
    return False


def spend(ctx: Ctx, tokens: list[str]) -> None:
    """Spells whose effect was applied go to the Canyon, or into an active Destroy's row, which
    strikes (at the end of this turn) once their weights add up to more than X ("Destroy")."""
    state = ctx.state
    for token in tokens:
        go_public(state, token)
        if token in state["in_play"]:
            state["in_play"].remove(token)
        destroy = state["destroy"]
        if destroy is not None:
            destroy["row"].append(token)
        else:
            state["canyon"].append(token)
    destroy = state["destroy"]
    threshold = state["options"]["destroy_threshold"]
    if (
        destroy is not None
        and destroy["victim"] is None
        and total_weight(destroy["row"]) > threshold
    ):
        victim = state["turn"]["seat"]
        destroy["victim"] = victim
        ctx.say(
            Words(
                N_(
                    "The spells beside Destroy weigh more than %(threshold)s: at the end of this "
                    "turn %(name)s destroys one of %(victim)s's towers."
                ),
                {
                    "threshold": threshold,
                    "name": seat_name(state, destroy["owner"]),
                    "victim": seat_name(state, victim),
                },
            ),
            type="destroy_charged",
        )


def score_tokens(tokens: list[str]) -> TowerScore:
    return score_tower([kind(t).key for t in tokens])


def resolve_tower(ctx: Ctx, seat: int, tower: int, *, raigo: bool = False) -> bool:
    """Tower Resolution: reveal, score (or pay for an Unsettled Tower), send the tokens to the
    Canyon. ``raigo``: a Raigo Discharge, +2 when the tower holds a hand. True if the game ended."""
    state = ctx.state
    p = player(state, seat)
    tokens: list[str] = p["towers"][tower]
    p["towers"][tower] = []
    shown = listing([words(t) for t in tokens], last="comma")
    where = tower_name(state, seat, tower)
    for token in tokens:
        go_public(state, token)
        state["canyon"].append(token)
    score = score_tokens(tokens)
    if score.unsettled:
        # scores nothing and costs a ball: the breakdown says -1, as the final scoring's does
        text = Words(
            N_("%(tower)s is resolved (bottom to top: %(tokens)s): %(score)s, -1 Yang ball."),
            {"tower": where, "tokens": shown, "score": score.words()},
        )
        state["scoring_log"].append(
            {"seat": seat, **said(text), "points": -1, "when": "play", "kind": "tower"}
        )
        ctx.say(text, type="tower_resolved", seat=seat, tower=tower, points=-1)
        return pay(ctx, seat, Words(N_("an Unsettled Tower")), logged=True)
    gain = score.total
    if raigo and score.hand is not None:
        gain += RAIGO_DISCHARGE_BONUS
    p["balls"] += gain
    scored: Words = score.words()
    if raigo and score.hand is not None:
        scored = Words(
            N_("%(score)s, + %(bonus)s for the Raigo Discharge"),
            {"score": scored, "bonus": RAIGO_DISCHARGE_BONUS},
        )
    text = Words(
        N_("%(tower)s is resolved (bottom to top: %(tokens)s): %(score)s."),
        {"tower": where, "tokens": shown, "score": scored},
    )
    state["scoring_log"].append(
        {"seat": seat, **said(text), "points": gain, "when": "play", "kind": "tower"}
    )
    ctx.say(text, type="tower_resolved", seat=seat, tower=tower, points=gain)
    return False


def finish(ctx: Ctx, reason: Words) -> None:
    """End the game: spell effects stop, every tower is resolved with the Bonus Token, the winner
    is decided ("Resolving All Towers", Q&A 4)."""
    state = ctx.state
    if state["over"]:
        return
    state["over"] = True
    state["prompt"] = None
    leftovers = [s["token"] for s in state["seals"]] + list(state["in_play"])
    if state["destroy"] is not None:
        leftovers += [state["destroy"]["token"], *state["destroy"]["row"]]
    state["seals"], state["in_play"], state["destroy"] = [], [], None
    for token in leftovers:
        go_public(state, token)
        state["canyon"].append(token)
    bonus_kind = kind(state["bonus"]).key
    for seat in range(state["seats"]):
        p = player(state, seat)
        unsettled: list[Json] = []
        resolved: list[tuple[int, Json]] = []
        for index, tokens in enumerate(p["towers"]):
            if not tokens:
                continue
            p["towers"][index] = []
            for token in tokens:
                go_public(state, token)
                state["canyon"].append(token)
            score = score_tokens(tokens)
            where = tower_name(state, seat, index)
            shown = listing([words(t) for t in tokens], last="comma")
            if score.unsettled:
                row: Json = {
                    "seat": seat,
                    "tower": where.to_json(),
                    "tokens": shown.to_json() if isinstance(shown, Words) else shown,
                    "points": -1,
                    "when": "end",
                    "kind": "tower",
                }
                unsettled.append(row)  # paid below, once her settled towers have scored
            else:
                bonus = sum(1 for t in tokens if kind(t).key == bonus_kind)
                gain = score.total + bonus
                p["balls"] += gain
                scored: Words = score.words()
                if bonus:
                    scored = Words(
                        N_("%(score)s, + %(bonus)s for the Bonus Token"),
                        {"score": scored, "bonus": bonus},
                    )
                text = Words(
                    N_("%(tower)s (bottom to top: %(tokens)s): %(score)s."),
                    {"tower": where, "tokens": shown, "score": scored},
                )
                row = {
                    "seat": seat,
                    **said(text),
                    "points": gain,
                    "when": "end",
                    "kind": "tower",
                }
            state["scoring_log"].append(row)
            resolved.append((index, row))
        for row in unsettled:
            # a ball for each, while she has one (never below zero)
            row["points"] = -1 if p["balls"] > 0 else 0
            parts = {
                "tower": Words.from_json(row.pop("tower")),
                "tokens": row.pop("tokens"),
            }
            if isinstance(parts["tokens"], dict):
                parts["tokens"] = Words.from_json(parts["tokens"])
            paid = (
                N_("%(tower)s (bottom to top: %(tokens)s) is an Unsettled Tower: -1 Yang ball.")
                if p["balls"] > 0
                else N_(
                    "%(tower)s (bottom to top: %(tokens)s) is an Unsettled Tower: no Yang ball "
                    "left to pay."
                )
            )
            row.update(said(Words(paid, parts)))
            p["balls"] += row["points"]
        for index, row in resolved:
            ctx.say(
                row_words(row), type="final_tower", seat=seat, tower=index, points=row["points"]
            )
        if unsettled and p["balls"] == 0 and not p["out"]:
            # Forbiddance in Resolving Tower, to which the end's scoring refers: left with no
            # Yang ball, she is out and her side loses.
            p["out"] = True
            out = (
                N_(
                    "%(name)s has no Yang ball left after her Unsettled Tower and is out of the "
                    "game."
                )
                if len(unsettled) == 1
                else N_(
                    "%(name)s has no Yang ball left after her Unsettled Towers and is out of the "
                    "game."
                )
            )
            ctx.say(Words(out, {"name": seat_name(state, seat)}), type="out", seat=seat)
    state["result"] = decide(state, reason)
    ctx.say(row_words(state["result"]), type="game_over")


def side_words(state: Json, side: list[int]) -> Words | str:
    return listing([seat_name(state, s) for s in side])


def decide(state: Json, reason: Words) -> Json:
    """Most Yang balls wins (a team adds its two players); a tie goes to fewer Inner Tokens; a
    side that ran out of Yang balls loses. Still tied: the tied sides share the win."""
    table = []
    for side in sides(state):
        ps = [player(state, s) for s in side]
        table.append(
            {
                "seats": side,
                "balls": sum(p["balls"] for p in ps),
                "inner_tokens": sum(
                    len(p["body"]) + (p["left"] is not None) + (p["right"] is not None) for p in ps
                ),
                "out": any(p["out"] for p in ps),
            }
        )
    alive = [row for row in table if not row["out"]]
    winners: list[int] = []
    best = 0
    tied: list[Json] = []
    if alive:
        best = max(row["balls"] for row in alive)
        tied = [row for row in alive if row["balls"] == best]
        fewest = min(row["inner_tokens"] for row in tied)
        for row in tied:
            if row["inner_tokens"] == fewest:
                winners.extend(row["seats"])
    winning_sides = [row["seats"] for row in table if set(row["seats"]) <= set(winners)]
    text: Words
    if not winners:
        text = Words(N_("The game is over (%(reason)s): nobody wins."), {"reason": reason})
    elif len(winning_sides) == 1:
        who = side_words(state, winning_sides[0])
        wins = (
            N_("The game is over (%(reason)s): %(who)s win with %(balls)s.")
            if len(winning_sides[0]) > 1
            else N_("The game is over (%(reason)s): %(who)s wins with %(balls)s.")
        )
        text = Words(wins, {"reason": reason, "who": who, "balls": balls_words(best)})
        if len(tied) > 1:
            # the tie-break decided it: say so, or the table's equal scores look like an error
            others = [row for row in tied if row["seats"] != winning_sides[0]]
            mine = next(row for row in tied if row["seats"] == winning_sides[0])
            broken = (
                N_(
                    "The game is over (%(reason)s): tied on %(balls)s with %(others)s, %(who)s "
                    "win with fewer Inner Tokens (%(mine)s against %(theirs)s)."
                )
                if len(winning_sides[0]) > 1
                else N_(
                    "The game is over (%(reason)s): tied on %(balls)s with %(others)s, %(who)s "
                    "wins with fewer Inner Tokens (%(mine)s against %(theirs)s)."
                )
            )
            text = Words(
                broken,
                {
                    "reason": reason,
                    "balls": balls_words(best),
                    "others": listing([side_words(state, row["seats"]) for row in others]),
                    "who": who,
                    "mine": mine["inner_tokens"],
                    "theirs": listing([str(row["inner_tokens"]) for row in others]),
                },
            )
    else:
        text = Words(
            N_("The game is over (%(reason)s): %(who)s share the win with %(balls)s each."),
            {
                "reason": reason,
                "who": listing([side_words(state, s) for s in winning_sides]),
                "balls": balls_words(best),
            },
        )
    return {
        **said(text),
        "reason": str(reason),
        "winners": sorted(winners),
        "sides": table,
        "scores": [p["balls"] for p in state["players"]],
        # where every seat began, so the breakdown's lines add up to her score
        "starting_balls": STARTING_BALLS,
        "breakdown": list(state["scoring_log"]),
    }


def returns(state: Json) -> list[float]:
    n = state["seats"]
    if not state["over"]:
        return [0.0] * n
    winners = set(state["result"]["winners"])
    winning_sides = [s for s in sides(state) if set(s) <= winners]
    if not winners or len(winning_sides) == len(sides(state)):
        return [0.0] * n
    win = 1.0 if len(winning_sides) == 1 else 0.0
    return [win if s in winners else -1.0 for s in range(n)]
