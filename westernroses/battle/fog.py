"""Fog of war: squares the GM hides from the players, and what that hides in views and logs.

Why it lives in the engine: the per-seat view is the only place that serialises state for a
client (boardgame.io's ``playerView``), so whatever fog hides must be cut there, and the rules
that would otherwise leak a hidden piece through a player's own options (a move blocked by an
unseen enemy, an attack target list) are rules of play.

The rules (docs/battle.md, "Fog of war"):

* The fogged squares (``Arena.fog``) are public: everyone sees *where* the fog is.
* A combatant standing on a fogged square is **hidden** from every player but her own
  controller (the GM sees everything). So is a combatant off the board (no square: waiting
  in the wings, taken off by the GM), unless the GM shows her (``gm_show``): :func:`in_fog`
  counts her as in the fog, and everything below holds for her alike. A hidden combatant is
  absent from that player's view: no entry, no place in the turn order, no id anywhere
  (pending hits, effects' sources, field effects following her, dropped power she may
  collect, legal actions).
* Players' pieces cannot enter fog and players cannot aim into it (their attacks never target
  a hidden combatant, their cards never target a fogged square, and a card's area never reaches
  whoever hides in fog): the fog is revealed first.
* Log entries: each action records who stood in fog when it finished (a trailing ``in_fog``
  event). For a player, an entry's events about a combatant hidden then or now are dropped
  (the event's own ``combatant``, or anyone rolling in an opposed roll: a versus with a hidden
  side is dropped whole); other mentions of her become ``null`` (a hit on you "by
  someone in the fog"), and an action naming her is shown only as ``{"type": "fogged"}``.
  So a move into fog, and everything done from inside it, never shows; a piece that steps
  out (or is revealed) reappears from then on, while what she did unseen stays unseen.
* Whose turn it is: when the current combatant is hidden, a player's view has ``current``
  null and ``current_hidden`` true ("the GM is acting"), and the public summary names nobody.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

from westernroses.battle.arena import Arena, Square, square
from westernroses.battle.errors import IllegalAction
from westernroses.battle.state import BattleState, Combatant, Json

GM: Final = "gm"
#: The trailing event that records who stood in fog when an action finished (never shown).
IN_FOG: Final = "in_fog"
#: What a player sees of an action that names a hidden combatant.
FOGGED_ACTION: Final = "fogged"
#: At most this many squares change in one fog action (an arena is at most 100 × 100).
MAX_AREA: Final = 100 * 100


def changed_arena(
    arena: Arena, action: Mapping[str, Any], *, fogged: bool
) -> tuple[Arena, set[Square]]:
    """``arena`` with the rectangle between ``action``'s ``from`` and ``to`` corners fogged
    (or cleared), and the rectangle's squares; ``IllegalAction`` for a corner outside."""
    try:
        a, b = square(action.get("from")), square(action.get("to"))
    except ValueError as exc:
        raise IllegalAction(str(exc)) from None
    if not (arena.inside(a) and arena.inside(b)):
        raise IllegalAction(f"both corners must be inside the {arena.width}×{arena.height} arena")
    xs = range(min(a[0], b[0]), max(a[0], b[0]) + 1)
    ys = range(min(a[1], b[1]), max(a[1], b[1]) + 1)
    area = {(x, y) for x in xs for y in ys}
    squares = arena.fog | area if fogged else arena.fog - area
    return Arena(
        arena.width, arena.height, arena.blocked, arena.difficult, frozenset(squares)
    ), area


def in_fog(state: BattleState, c: Combatant) -> bool:
    """Whether ``c`` is out of the players' sight: on a fogged square, or off the board and
    not shown by the GM."""
    if c.position is None:
        return not c.shown
    return c.position in state.arena.fog


def hidden_ids(state: BattleState, player: str) -> frozenset[str]:
    """The combatants ``player`` may not see now: in fog (or off the board, not shown), not
    hers. None for the GM."""
    if player == GM:
        return frozenset()
    return frozenset(
        cid for cid, c in state.combatants.items() if c.controller != player and in_fog(state, c)
    )


def fogbound(state: BattleState, player: str) -> list[str]:
    """``player``'s pieces on the board that fog walls in: every open square next to her is
    fogged (and there is at least one), so she can step nowhere (rule 2). Worked out from
    public things only (the fog, the terrain, her own square), so a screen may say why her
    Move is missing. Never the GM's: her pieces walk into fog."""
    fog = state.arena.fog
    if player == GM or not fog:
        return []
    out = []
    for cid, c in state.combatants.items():
        if c.controller != player or c.position is None or not c.alive:
            continue
        around = state.arena.neighbours(c.position)
        if around and all(sq in fog for sq in around):
            out.append(cid)
    return sorted(out)


def blocks(state: BattleState, mover: Combatant) -> frozenset[Square]:
    """Squares a piece may not enter because of fog: all of it for a player's piece."""
    return frozenset() if mover.controller == GM else state.arena.fog


def unseen_by(state: BattleState, looker: Combatant, other: Combatant) -> bool:
    """Whether ``looker``'s controller cannot see ``other`` (so can't target her)."""
    if looker.controller == GM or other.controller == looker.controller:
        return False
    return in_fog(state, other)


def tag(state: BattleState, events: list[Json]) -> None:
    """Append the ``in_fog`` record of who stands in fog now, off the board (not shown)
    included (nothing when nobody does)."""
    fogged = sorted(cid for cid, c in state.combatants.items() if in_fog(state, c))
    if fogged:
        events.append({"type": IN_FOG, "combatants": fogged})


def redact(value: Any, hidden: frozenset[str] | set[str]) -> Any:
    """``value`` with every mention of a hidden id gone: list items and dict keys removed,
    other values replaced by ``None``."""
    if isinstance(value, str):
        return None if value in hidden else value
    if isinstance(value, dict):
        return {k: redact(v, hidden) for k, v in value.items() if k not in hidden}
    if isinstance(value, list | tuple):
        return [redact(v, hidden) for v in value if not (isinstance(v, str) and v in hidden)]
    return value


def mentions(value: Any, hidden: frozenset[str] | set[str]) -> bool:
    if isinstance(value, str):
        return value in hidden
    if isinstance(value, dict):
        return any(k in hidden or mentions(v, hidden) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(mentions(v, hidden) for v in value)
    return False


def entry_hidden(
    state: BattleState, player: str, events: Iterable[Mapping[str, Any]], now: frozenset[str]
) -> frozenset[str]:
    """Who ``player`` may not see in one log entry: hidden now, or in fog when it happened
    (and not hers)."""
    if player == GM:
        return frozenset()
    then: set[str] = set()
    for e in events:
        if e.get("type") == IN_FOG:
            for cid in e.get("combatants", ()):
                c = state.find(cid)
                if c is None or c.controller != player:
                    then.add(cid)
    return now | then


def _participants(event: Mapping[str, Any]) -> set[str]:
    """The combatants rolling in a ``versus`` event (``"id#2"``: her second roll)."""
    result = event.get("result")
    people = result.get("participants", ()) if isinstance(result, dict) else ()
    return {str(p.get("id")).split("#")[0] for p in people if isinstance(p, dict)}


def about_hidden(event: Mapping[str, Any], hidden: frozenset[str] | set[str]) -> bool:
    """Whether ``event`` is about someone hidden: its subject (``combatant``), or anyone rolling
    in an opposed roll. A versus is about all its sides: her own dice shown alone would still
    tell of an unseen roller (a turn-order tie is rolled only between equal speeds; a round
    re-rolled is a tie with someone), so it is dropped whole rather than shown in part."""
    if event.get("combatant") in hidden:
        return True
    return event.get("type") == "versus" and bool(_participants(event) & hidden)


def shown_events(events: Iterable[Json], hidden: frozenset[str]) -> list[Json]:
    """An entry's events for a player who may not see ``hidden`` (already view-filtered)."""
    out = []
    for e in events:
        if e.get("type") == IN_FOG:
            continue
        if not hidden:
            out.append(e)
        elif not about_hidden(e, hidden):
            out.append(redact(e, hidden))
    return out


def shown_action(action: Json, hidden: frozenset[str]) -> Json:
    if hidden and mentions(action, hidden):
        return {"type": FOGGED_ACTION, "player": action.get("player")}
    return action


def filter_view(state: BattleState, player: str, shown: Json, hidden: frozenset[str]) -> Json:
    """The finished view (log excepted) with every hidden combatant taken out."""
    if not hidden:
        shown["turn"]["current_hidden"] = False
        return shown
    fog = state.arena.fog
    current_hidden = state.current in hidden
    shown["field_effects"] = [
        f for f in shown["field_effects"] if not set(f.get("follows", ())) & hidden
    ]
    shown["drops"] = [d for d in shown["drops"] if tuple(d.get("square") or ()) not in fog]
    log = shown.pop("log")
    out: Json = redact(shown, hidden)
    out["log"] = log
    out["turn"]["current_hidden"] = current_hidden
    return out
