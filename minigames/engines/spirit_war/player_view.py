"""What one seat sees of a Spirit War (``seat=None``: a spectator): the one place that turns the
state into JSON for pages and the API, so nothing hidden can reach a client by another route.

A seat sees her own hand with card ids; of other hands only their size and the cards shown to
everyone (piles.shown_cards: a shown card she may have put face down stays listed until the
reveal); face-down summons and Support cards only as "face down" (her own with their card);
decks only as counts. The random source (and so its seed) is never in a view.

A Support choice made at the same time as the other side's (battles.choices_blind) shows to
everyone else only as "chosen" (``{"chosen": True}``), whether it was a card or none, and her
hand size counts the card until the reveal: two tables that differ only in that choice look
the same, byte for byte, to every other seat and to spectators.
"""

from __future__ import annotations

from typing import Any

from minigames.engines.spirit_war.battles import choice_public, support_record
from minigames.engines.spirit_war.piles import State, card, copy_json, name, shown_cards
from westernroses.protocol import Text
from westernroses.words import N_, Words, said

Json = dict[str, Any]


def card_json(state: State, cid: str) -> Json:
    c = card(state, cid)
    out: Json = {"id": cid, "key": c["key"], "name": c["name"], "kind": c["kind"]}
    for extra in ("element", "support", "target"):
        if extra in c:
            out[extra] = c[extra]
    out["text"] = c["text"]
    return out


def _slot(state: State, cid: str | None, visible: bool, chosen: bool) -> Json | None:
    if cid is None:
        return {"face_down": False, "none": True} if chosen else None
    if visible:
        return card_json(state, cid)
    return {"face_down": True}


def _support_slot(state: State, side: int, seat: int | None) -> Json | None:
    """A side's Support slot as ``seat`` sees it: her own as it is; another's as it is when
    her choice is public, else only whether she has chosen."""
    battle = state["battle"]
    mine = battle["sides"][side] == seat
    chosen = bool(battle["supported"][side])
    if mine or choice_public(state, side) or not chosen:
        return _slot(state, battle["support"][side], mine, chosen)
    return {"face_down": False, "chosen": True}


def hand_size(state: State, seat: int, viewer: int | None) -> int:
    """How many cards ``viewer`` sees in ``seat``'s hand: a Support card she put down at the
    same time as the other side still counts for everyone else until the reveal."""
    size = len(state["hands"][seat])
    battle = state["battle"]
    if viewer == seat or battle is None or seat not in battle["sides"]:
        return size
    side = battle["sides"].index(seat)
    if battle["support"][side] is not None and not choice_public(state, side):
        size += 1
    return size


def phase_words(state: State) -> Text:
    """The situation in a sentence, as words to read in every language."""
    phase = state["phase"]
    if phase == "over":
        return result_words(state["result"])
    if phase == "turn":
        return Words(
            N_("Turn %(turn)s: %(name)s to draw."),
            {"turn": state["turn_number"], "name": name(state, state["turn"])},
        )
    if phase == "attack":
        return Words(
            N_("%(name)s to choose whom to attack."),
            {"name": name(state, state["attack"]["attacker"])},
        )
    if phase == "summon":
        a, d = state["battle"]["sides"]
        return Words(
            N_("%(first)s and %(second)s summon a Spirit face down."),
            {"first": name(state, a), "second": name(state, d)},
        )
    if phase == "support":
        return Words(N_("The Spirits are revealed: the Support card phase."))
    if phase == "discard":
        seat = state["discard"]["seat"]
        left = state["discard"]["left"]
        if left > 1:
            return Words(
                N_("%(name)s to discard %(count)s cards."),
                {"name": name(state, seat), "count": left},
            )
        return Words(N_("%(name)s to discard 1 card."), {"name": name(state, seat)})
    if phase == "rare_outcome":
        return Words(N_("The survivors vote on how to end the war."))
    return Words(N_("The turn goes on."))


def result_words(result: Json) -> Text:
    """The final result's sentence: its words, or the English alone of a war that ended
    before results kept their words (migration 0008 replays those)."""
    words = result.get("words")
    return Words.from_json(words) if isinstance(words, dict) else str(result["text"])


def _support_record(state: State, seat: int) -> Json:
    """What everyone has seen of ``seat``'s Support cards put down before the other side
    chose: how many could help her, how many could not (``battles.record_blind_cards``)."""
    helped, idle = support_record(state, seat)
    return {"could_help": helped, "could_not_help": idle}


def view(state: State, seat: int | None, waiting: tuple[int, ...]) -> Json:
    players = []
    for s in range(state["seats"]):
        players.append(
            {
                "seat": s,
                "name": name(state, s),
                "cards_in_hand": hand_size(state, s, seat),
                # seen by everyone, in her hand or put face down in the battle
                "shown_cards": [card_json(state, c) for c in shown_cards(state, s)],
                "out": state["out"][s],
                "misses_next_turn": state["skip_next"][s],
                # public: her Support cards revealed after she chose first (battles.py)
                "support_record": _support_record(state, s),
            }
        )
    battle = state["battle"]
    battle_view: Json | None = None
    if battle is not None:
        sides = battle["sides"]
        battle_view = {
            "attacker": sides[0],
            "defender": sides[1],
            "summons": [
                _slot(
                    state,
                    battle["summon"][i],
                    battle["revealed"] or sides[i] == seat,
                    battle["summoned"][i],
                )
                for i in (0, 1)
            ],
            "supports": [_support_slot(state, i, seat) for i in (0, 1)],
            "summoned": list(battle["summoned"]),
            "supported": list(battle["supported"]),
            "revealed": battle["revealed"],
            "no_spirit": battle["no_spirit"],
        }
    mini = state["mini"]
    return {
        "game": "Spirit War",
        "seat": seat,
        "phase": state["phase"],
        # the situation in a sentence, with its words (``said``) for the reader's language
        "phase_text": said(phase_words(state)),
        "waiting_on": list(waiting),
        "turn": state["turn"],
        "turn_number": state["turn_number"],
        "first_seat": state["first_seat"],
        "players": players,
        "hand": [] if seat is None else [card_json(state, c) for c in state["hands"][seat]],
        "preparation_deck": len(state["prep_deck"]),
        "encounter_deck": len(state["encounter_deck"]),
        "abyss": [card_json(state, c) for c in state["abyss"]],
        "history": [card_json(state, c) for c in state["history"]],
        "encounter": [card_json(state, c) for c in state["encounter"]],
        "attack": copy_json(state["attack"]),
        "battle": battle_view,
        "discard": copy_json(state["discard"]),
        "votes": copy_json(state["votes"]),
        "mini_war": None
        if mini is None
        else {
            "deck": len(mini["deck"]),
            "table": [card_json(state, c) for c in mini["table"]],
            "players": list(mini["players"]),
            "round": mini["round"],
        },
        "result": copy_json(state["result"]),
        # each note as English with its words (``said``), or English alone in older games
        "setup": copy_json(state["setup_notes"]),
        "house_rules": dict(state["options"]),
    }
