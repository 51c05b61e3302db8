"""What each seat sees, what is hidden from her, and re-dealing the hidden tokens.

A seat sees her own Inner Tokens and towers (she piled them), every public place, and any token
she has seen elsewhere (one she lost to Snake or Switch, one revealed in a Raigo Battle). Of
others' boards she sees how many tokens lie where, never their order on the Body. Raizan and the
box are unknown to all. ``determinize`` deals every token unknown to a seat anew among the places
unknown to her; the knowledge others have of a place stays with the place.
"""

from __future__ import annotations

from typing import Any

from minigames.engines.raigo.board import (
    HANDS,
    Json,
    player,
    private_slots,
    private_tokens,
    raizan_total,
    sealed,
    seat_name,
    team_of,
    visible_to,
)
from minigames.engines.raigo.tokens import sort_body, token_json, weight
from westernroses.rng import RandomSource
from westernroses.words import N_, Words, listing, said

HIDDEN: Json = {"hidden": True}

PROMPT_WORDS = {
    "fetch": N_("moving tokens from the Body to the Hands (Fetch)"),
    "select": N_("choosing how many tokens to draw (Select)"),
    "discard": N_("discarding two tokens (Forbiddance)"),
    "place": N_("placing the drawn tokens"),
    "act": N_("piling, chanting or keeping her Hand tokens"),
    "react": N_("answering a spell"),
    "switch": N_("choosing tokens to switch (Switch)"),
    "purify": N_("purifying her Inner Tokens (Purify)"),
    "destroy": N_("choosing the tower Destroy strikes"),
}


def _token(state: Json, token: str, seat: int | None) -> Json:
    return token_json(token) if visible_to(state, token, seat) else dict(HIDDEN)


def _board(state: Json, owner: int, seat: int | None) -> Json:
    p = player(state, owner)
    mine = owner == seat
    body: Any
    if mine:
        body = [token_json(t) for t in p["body"]]
    else:
        seen = sorted(
            (t for t in p["body"] if visible_to(state, t, seat)),
            key=lambda t: (weight(t), int(t.rsplit("-", 1)[1])),
        )
        body = {"count": len(p["body"]), "known": [token_json(t) for t in seen]}
    return {
        "seat": owner,
        "name": seat_name(state, owner),
        "team": team_of(state, owner),
        "balls": p["balls"],
        "out": p["out"],
        "body": body,
        "hands": {h: None if p[h] is None else _token(state, p[h], seat) for h in HANDS},
        "towers": [
            {
                "height": len(tower),
                "sealed": sealed(state, owner, i),
                "tokens": [_token(state, t, seat) for t in tower],
            }
            for i, tower in enumerate(p["towers"])
        ],
    }


def _prompt(state: Json, seat: int | None) -> Json | None:
    prompt = state["prompt"]
    if prompt is None:
        return None
    k = prompt["kind"]
    if k == "react":
        out: Json = {
            "kind": k,
            "effect": prompt["effect"],
            "caster": prompt["caster"],
            "target": prompt["target"],
            "asked": prompt["asked"],
            "answered": sorted(int(s) for s in prompt["answers"]),
        }
        if seat is not None and str(seat) in prompt["answers"]:
            out["your_answer"] = prompt["answers"][str(seat)]
    else:
        out = {"kind": k, "seat": prompt["seat"]}
        if k == "switch":
            out["first"] = prompt["first"]
        if k == "purify":
            out["stage"] = prompt["stage"]
            out["discarded"] = [token_json(t) for t in prompt["discarded"]]
    who = listing(
        [seat_name(state, s) for s in prompt.get("asked", [prompt.get("seat")])], last="comma"
    )
    out.update(
        said(
            Words(
                N_("Waiting for %(who)s: %(what)s."), {"who": who, "what": Words(PROMPT_WORDS[k])}
            )
        )
    )
    return out


def view(state: Json, seat: int | None) -> Json:
    turn = state["turn"]
    current = turn["seat"]
    drawn = turn["drawn"]
    destroy = state["destroy"]
    return {
        "game": "raigo",
        "seat": seat,
        "seats": state["seats"],
        "names": list(state["names"]),
        "options": dict(state["options"]),
        "turn": turn["number"],
        "dong": current,
        "stage": turn["stage"],
        "used": [list(u) for u in turn["used"]],
        "drawn": ([token_json(t) for t in drawn] if seat == current else {"count": len(drawn)}),
        "bonus": token_json(state["bonus"]),
        "raizan": [len(pile) for pile in state["raizan"]],
        "raizan_total": raizan_total(state),
        "box": len(state["box"]),
        "canyon": [token_json(t) for t in state["canyon"]],
        "in_play": [token_json(t) for t in state["in_play"]],
        "seals": [
            {
                "seat": s["seat"],
                "tower": s["tower"],
                "token": token_json(s["token"]),
                "until_turn": s["until_turn"],
            }
            for s in state["seals"]
        ],
        "destroy": None
        if destroy is None
        else {
            "owner": destroy["owner"],
            "token": token_json(destroy["token"]),
            "row": [token_json(t) for t in destroy["row"]],
            "weight": sum(weight(t) for t in destroy["row"]),
            "victim": destroy["victim"],
        },
        "players": [_board(state, owner, seat) for owner in range(state["seats"])],
        "prompt": _prompt(state, seat),
        "end_after_turn": state["end_after_turn"],
        "scoring_log": list(state["scoring_log"]),
        "over": state["over"],
        "result": state["result"],
    }


def hidden_from(state: Json, seat: int | None) -> set[str]:
    """The tokens in private places that ``seat`` (None: a spectator) has not seen: every
    private token but the revealed ones and those she knows (``visible_to``'s rule, in set
    operations: the leak checks ask this of every state for every seat)."""
    hidden = set(private_tokens(state)).difference(state["revealed"])
    if seat is not None:
        hidden.difference_update(t for t, seen in state["known"].items() if seat in seen)
    return hidden


def determinize(state: Json, seat: int, seed: int) -> Json:
    """Deal every token ``seat`` has not seen anew among the places she has not seen into; the
    others' secret answers to a pending spell become unknown too (declines)."""
    hidden = hidden_from(state, seat)
    slots = [(c, k) for c, k in private_slots(state) if c[k] in hidden]
    tokens = [c[k] for c, k in slots]
    knowledge = [state["known"].pop(t, None) for t in tokens]
    rng = RandomSource(seed)
    rng.shuffle(tokens)
    for (container, key), token, seen in zip(slots, tokens, knowledge, strict=True):
        container[key] = token
        if seen is not None:
            state["known"][token] = seen
    for p in state["players"]:
        sort_body(p["body"])
    prompt = state["prompt"]
    if prompt is not None and prompt["kind"] == "react":
        for other in list(prompt["answers"]):
            if other != str(seat):
                prompt["answers"][other] = {"type": "decline"}
    state["rng"] = rng.to_dict()
    return state
