"""The turn's preparing phases and its end (rulebook 六 ①②③⑤); the Battle phase is
:mod:`.battle`.

* Pick (automatic): draw one card per empty intact SP bead, at least one (plus draw bonuses);
  the first player's first Pick draws nothing. Then both players refill one bead, the attacker
  first. Victory is judged after each start-of-Pick effect and at the draw (Smack Down by an
  empty deck); the first victory attained ends the game there ("all the settlement will be
  shutdown"), so a K.O. by a trigger comes before the draw.
* Change: one of three character actions, or none: A call a character from hand, tapped
  (Support); B stand a tapped character up (Center; the previous Center is tapped again);
  C move the Center character into the Duel Zone (Hyper). At most one Center or Hyper.
* Set: any number of cards face down into Extra SP (up to 5) and Traps face down into the
  Item Area (up to 2; a full area's item may be replaced, the old one to the grave).
* End: a hand above the limit (5) is discarded down by its owner's choice.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from westernroses.protocol import Action, Event, IllegalAction, event
from westernroses.words import N_, Words

from .rules import (
    EXTRA_SP,
    ITEM_AREA,
    State,
    card_words,
    draw_cards,
    fire_triggers,
    forget,
    hand_limit,
    judge,
    other,
    player,
    recover_beads,
    static_total,
    who,
)

PHASE_WORDS = {
    "setup_character": N_("Opening: choose a character"),
    "setup_retrieve": N_("Opening: retrieve a card"),
    "change": N_("Change phase"),
    "set": N_("Set phase"),
    "battle": N_("Battle phase"),
    "reaction": N_("Battle phase (defence)"),
    "discard": N_("End phase"),
    "over": N_("Game over"),
}


def start_turn(state: State, events: list[Event]) -> None:
    """Begin the active player's turn with its Pick phase, then Change."""
    seat = state["active"]
    me = player(state, seat)
    state["turn"] += 1
    state["changed"] = False
    events.append(
        event(
            Words(
                N_("Turn %(turn)s: %(name)s attacks."),
                {"turn": state["turn"], "name": who(state, seat)},
            ),
            type="turn",
        )
    )
    fire_triggers(state, seat, "pick_start", events)
    fire_triggers(state, other(seat), "opponent_pick_start", events)
    if judge(state, events):
        return
    empty_draw = None
    if state["turn"] == 1 and seat == state["first"]:
        events.append(
            event(
                Words(
                    N_("%(name)s goes first and skips her first draw."), {"name": who(state, seat)}
                ),
                type="pick",
            )
        )
    else:
        count = max(1, me["beads"].count("empty")) + static_total(state, seat, "pick_bonus")
        if not me["deck"]:
            empty_draw = seat
            events.append(
                event(
                    Words(
                        N_("%(name)s must draw but her deck is empty."), {"name": who(state, seat)}
                    ),
                    type="pick",
                )
            )
        else:
            draw_cards(state, seat, count, events)
    if judge(state, events, empty_draw=empty_draw):
        return
    for s in (seat, other(seat)):
        if recover_beads(state, s, 1):
            events.append(
                event(
                    Words(N_("%(name)s refills one SP bead."), {"name": who(state, s)}),
                    type="beads",
                )
            )
    state["phase"] = "change"


# --- Change ------------------------------------------------------------------------------


def _numbers_in_play(state: State, seat: int) -> set[str]:
    return {state["instances"][slot["card"]] for slot in player(state, seat)["characters"]}


def change_legal(state: State, seat: int) -> list[Action]:
    me = player(state, seat)
    actions: list[Action] = []
    in_play = _numbers_in_play(state, seat)
    seen: set[str] = set()
    for iid in me["hand"]:
        number = state["instances"][iid]
        if (
            state["cards"][number]["kind"] == "character"
            and number not in in_play
            and number not in seen
        ):
            seen.add(number)
            actions.append({"type": "call_character", "card": iid})
    statuses = [slot["status"] for slot in me["characters"]]
    if "hyper" not in statuses:
        for slot in me["characters"]:
            if slot["status"] == "support":
                actions.append({"type": "center", "card": slot["card"]})
    for slot in me["characters"]:
        if slot["status"] == "center":
            actions.append({"type": "hyper", "card": slot["card"]})
    actions.append({"type": "skip_change"})
    return actions


def change_apply(state: State, seat: int, action: Mapping[str, Any], events: list[Event]) -> None:
    if action not in change_legal(state, seat):
        raise IllegalAction(
            Words(
                N_(
                    "In the Change phase you may call a character from your hand, make a tapped "
                    "character your Center, or send your Center to the Duel Zone as Hyper, once, "
                    "or do nothing."
                )
            )
        )
    me = player(state, seat)
    kind = action["type"]
    if kind == "call_character":
        iid = action["card"]
        me["hand"].remove(iid)
        forget(state, seat, iid)
        me["characters"].append({"card": iid, "status": "support"})
        events.append(
            event(
                Words(
                    N_("%(name)s calls %(card)s into her Character Area, tapped (Support)."),
                    {"name": who(state, seat), "card": card_words(state, iid)},
                ),
                type="change",
            )
        )
    elif kind == "center":
        for slot in me["characters"]:
            if slot["status"] == "center":
                slot["status"] = "support"
                events.append(
                    event(
                        Words(
                            N_("%(card)s is tapped again (Support)."),
                            {"card": card_words(state, slot["card"])},
                        ),
                        type="change",
                    )
                )
            if slot["card"] == action["card"]:
                slot["status"] = "center"
        events.append(
            event(
                Words(
                    N_("%(name)s stands %(card)s up: she is now in Center status."),
                    {"name": who(state, seat), "card": card_words(state, action["card"])},
                ),
                type="change",
            )
        )
    elif kind == "hyper":
        for slot in me["characters"]:
            if slot["card"] == action["card"]:
                slot["status"] = "hyper"
        events.append(
            event(
                Words(
                    N_("%(name)s sends %(card)s into the Duel Zone: she is now in Hyper status."),
                    {"name": who(state, seat), "card": card_words(state, action["card"])},
                ),
                type="change",
            )
        )
    else:
        events.append(
            event(Words(N_("%(name)s changes nothing."), {"name": who(state, seat)}), type="change")
        )
    state["changed"] = True
    state["phase"] = "set"


# --- Set ---------------------------------------------------------------------------------


def set_legal(state: State, seat: int) -> list[Action]:
    me = player(state, seat)
    actions: list[Action] = []
    if len(me["extra_sp"]) < EXTRA_SP:
        actions += [{"type": "extra_sp", "card": iid} for iid in me["hand"]]
    for iid in me["hand"]:
        if state["cards"][state["instances"][iid]]["kind"] != "trap":
            continue
        if len(me["items"]) < ITEM_AREA:
            actions.append({"type": "set_trap", "card": iid})
        else:
            actions += [
                {"type": "set_trap", "card": iid, "replace": item["card"]} for item in me["items"]
            ]
    actions.append({"type": "end_set"})
    return actions


def place_item(
    state: State, seat: int, iid: str, replace: str | None, face_down: bool, events: list[Event]
) -> None:
    """Put ``iid`` from hand into the Item Area, sending ``replace`` to the grave first."""
    me = player(state, seat)
    if replace is not None:
        old = next(item for item in me["items"] if item["card"] == replace)
        me["items"].remove(old)
        forget(state, seat, replace)
        me["grave"].append(replace)
        # the grave is public: a replaced face-down Trap is shown as it goes
        events.append(
            event(
                Words(
                    N_("%(name)s sends %(card)s from her Item Area to the grave."),
                    {"name": who(state, seat), "card": card_words(state, replace)},
                ),
                type="replace",
            )
        )
    me["hand"].remove(iid)
    if not face_down:  # a known Trap set face down stays known (rules.forget)
        forget(state, seat, iid)
    me["items"].append({"card": iid, "face_down": face_down})


def set_apply(state: State, seat: int, action: Mapping[str, Any], events: list[Event]) -> None:
    if action not in set_legal(state, seat):
        raise IllegalAction(
            Words(
                N_(
                    "In the Set phase you may put hand cards face down as Extra SP (up to 5) and "
                    "set Traps face down in your Item Area (up to 2, replacing one when it is "
                    "full)."
                )
            )
        )
    me = player(state, seat)
    kind = action["type"]
    if kind == "extra_sp":
        iid = action["card"]
        me["hand"].remove(iid)  # a known card stays known face down (rules.forget)
        me["extra_sp"].append(iid)
        events.append(
            event(
                Words(
                    N_("%(name)s puts a card face down into her Extra SP."),
                    {"name": who(state, seat)},
                ),
                type="set",
                hidden_from=[seat],
            )
        )
        events.append(
            event(
                Words(
                    N_("You put %(card)s face down into your Extra SP."),
                    {"card": card_words(state, iid)},
                ),
                type="set",
                visible_to=[seat],
            )
        )
    elif kind == "set_trap":
        place_item(state, seat, action["card"], action.get("replace"), True, events)
        events.append(
            event(
                Words(
                    N_("%(name)s sets a card face down in her Item Area."),
                    {"name": who(state, seat)},
                ),
                type="set",
                hidden_from=[seat],
            )
        )
        events.append(
            event(
                Words(
                    N_("You set %(card)s face down in your Item Area."),
                    {"card": card_words(state, action["card"])},
                ),
                type="set",
                visible_to=[seat],
            )
        )
    else:
        state["phase"] = "battle"
        events.append(
            event(
                Words(N_("%(name)s begins her Battle phase."), {"name": who(state, seat)}),
                type="phase",
            )
        )


# --- End ---------------------------------------------------------------------------------


def end_turn(state: State, seat: int, events: list[Event]) -> None:
    """The attacker ends her Battle phase: the defender's Hyper character returns to her hand
    (rulebook 六.② C: at the end of her next defence phase), then the End phase."""
    foe = player(state, other(seat))
    for slot in list(foe["characters"]):
        if slot["status"] == "hyper":
            foe["characters"].remove(slot)
            foe["hand"].append(slot["card"])
            foe["known"].append(slot["card"])
            events.append(
                event(
                    Words(
                        N_("%(card)s leaves the Duel Zone and returns to %(name)s's hand."),
                        {"card": card_words(state, slot["card"]), "name": who(state, other(seat))},
                    ),
                    type="hyper_return",
                )
            )
    events.append(
        event(Words(N_("%(name)s ends her turn."), {"name": who(state, seat)}), type="end_turn")
    )
    if len(player(state, seat)["hand"]) > hand_limit(state, seat):
        state["phase"] = "discard"
        return
    finish_turn(state, events)


def discard_legal(state: State, seat: int) -> list[Action]:
    return [{"type": "discard", "card": iid} for iid in player(state, seat)["hand"]]


def discard_apply(state: State, seat: int, action: Mapping[str, Any], events: list[Event]) -> None:
    if action not in discard_legal(state, seat):
        raise IllegalAction(
            Words(
                N_("Your hand holds more than %(limit)s cards: discard one of them."),
                {"limit": hand_limit(state, seat)},
            )
        )
    me = player(state, seat)
    iid = action["card"]
    me["hand"].remove(iid)
    forget(state, seat, iid)
    me["grave"].append(iid)
    events.append(
        event(
            Words(
                N_("%(name)s discards %(card)s down to her hand limit."),
                {"name": who(state, seat), "card": card_words(state, iid)},
            ),
            type="discard",
        )
    )
    if len(me["hand"]) <= hand_limit(state, seat):
        finish_turn(state, events)


def finish_turn(state: State, events: list[Event]) -> None:
    player(state, state["active"])["turn_statics"] = []
    state["active"] = other(state["active"])
    start_turn(state, events)
