"""A greedy Spirit War policy (the tavern's "heuristic" bot) and a position evaluator for search.

:func:`heuristic_action` looks one decision ahead with what the seat can see (her hand, the
revealed Spirits, public cards) and never peeks at hidden cards:

* **Attack**: the target holding the fewest cards (fewer cards, fewer Spirits to defend with);
  a tie is broken at random.
* **Summon**: the Spirit whose element scores best: +2 if another Spirit of that element stays in
  hand (so an Element buff is possible later), +1 for each Spirit the opponent is known to hold
  that it beats, -1 for each that beats it.
* **Support**: when already winning, nothing, unless the opponent has been seen putting a card
  down (only under the "loser first" house rule: by default both choose at once and nothing
  of her choice shows): then a Disintegrate, else a Safeguard, if held. When not winning, the
  cheapest card that turns the battle into a win (Spells before Spirits), else one that makes
  it a draw, else a Safeguard when losing, else nothing. Outcomes come from the engine's own
  :func:`battles.resolve` (through :func:`battles.outcome_alone`).
* **Discard**: Spells before Spirits, the least useful first (Swap, Imbue, Safeguard,
  Disintegrate); among Spirits, one of the element held most.
* **The rare outcome**: vote to share (a Mini Spirit War is a lottery worth no more on average).

For the search bot (docs/bots.md): :func:`evaluate` scores a state for ``seat`` in [-1, 1]:
the result once the game is over, otherwise a chance of winning fitted to games of this policy
against itself (:data:`WEIGHTS`); :func:`fold_actions` tells the search which moves play alike
(cards of one kind) or are never better than another (a Support card that changes nothing once
the other side was seen passing), and answers the other side's face-down Support card, seen
put down under the "loser first" house rule, by weighing each answer over worlds in which she
would have put that card down (:func:`answer_face_down`);
:data:`search_settings` are the search's settings for this game.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable
from typing import Final

from minigames.engines.spirit_war.battles import (
    choice_public,
    outcome_alone,
    side_of,
    support_actions,
    support_record,
)
from minigames.engines.spirit_war.elements import DRAW, LOSS, WIN, chart
from minigames.engines.spirit_war.engine import ENGINE
from minigames.engines.spirit_war.piles import State, card, is_spirit, shown_cards, survivors
from westernroses.protocol import Action

#: The search bot's settings for Spirit War (fields of minigames.bots.search.SearchSettings
#: that replace the generic ones; docs/bots.md has the measurements): playouts of 8 moves of
#: this greedy policy with no random moves (the greedy policy is the opponent the search must
#: beat, and random moves only added noise), scored by :func:`evaluate`; each leaf scored in
#: the same 32 worlds dealt for the searcher (paired worlds: a war is mostly the deal, so moves
#: are compared on common deals), and the move with the best mean played. A leaf the searcher
#: cannot tell from one already scored costs nothing, so 16 simulations cover every move kept.
search_settings: Final = {
    "guided_moves": 8,
    "epsilon": 0.0,
    "prior_weight": 0.8,
    "paired_worlds": 32,
    "simulations": 16,
    "final_policy": "max_value",
}

#: Which Spell to let go of first when discarding (lower goes first).
SPELL_KEEP: Final = {"swap": 0, "imbue": 1, "safeguard": 2, "disintegrate": 3}


def heuristic_action(state: State, seat: int, rng: random.Random) -> Action:
    """The greedy policy's move for ``seat`` (who must be waited on)."""
    actions = ENGINE.legal_actions(state, seat)
    if not actions:
        raise ValueError("This seat has nothing to do now.")
    if len(actions) == 1:
        return actions[0]
    phase = state["phase"]
    if phase == "attack":
        fewest = min(len(state["hands"][a["target"]]) for a in actions)
        return rng.choice([a for a in actions if len(state["hands"][a["target"]]) == fewest])
    if phase == "summon":
        return _summon(state, seat, actions, rng)
    if phase == "support":
        return _support(state, seat, actions)
    if phase == "discard":
        return min(actions, key=lambda a: _keep_value(state, seat, a["card"]))
    if phase == "rare_outcome":
        return {"type": "vote", "choice": "share"}
    return actions[0]


def _card_kind(state: State, cid: str) -> tuple[str, str, str]:
    """What a card does in play (two copies of a Spirit, or two Fire Spirits, play alike)."""
    c = state["defs"][state["cards"][cid]]
    return (str(c["kind"]), str(c.get("support", "")), str(c.get("element", "")))


def fold_actions(state: State, seat: int, actions: list[Action]) -> list[int]:
    """For each of ``actions``, the index of the move that plays alike and stands for it in the
    search: summoning, supporting with or discarding any card of one kind (a Spirit of one
    element, one kind of Spell) has the same effect, so the search need only try one of them.
    The one kept is a card everyone already knows of, if any (playing it gives nothing away),
    else the first listed: a function of what the seat sees, so the same move in every world
    the search deals."""
    known = set(state["known"])
    kept: dict[tuple[str, ...], int] = {}
    keys: list[tuple[str, ...]] = []
    for i, action in enumerate(actions):
        cid = action.get("card")
        if cid is None:
            key: tuple[str, ...] = (str(action["type"]), str(sorted(action.items())))
        else:
            key = (str(action["type"]), *_card_kind(state, cid))
        keys.append(key)
        held = kept.get(key)
        if held is None or (cid in known and actions[held]["card"] not in known):
            kept[key] = i
    folded = [kept[key] for key in keys]
    if state["phase"] == "support":
        if _other_passed(state, seat):
            folded = _fold_into_pass(state, seat, actions, folded)
        elif _other_placed(state, seat):
            chosen = answer_face_down(state, seat, actions, folded)
            folded = [actions.index(chosen)] * len(actions)
    return folded


#: Worlds in which :func:`answer_face_down` weighs each answer, and the deals it may try to
#: find them (a deal in which the other side would not have put a card down is thrown away).
ANSWER_WORLDS: Final = 32
ANSWER_TRIES: Final = 128

#: A player's face-down card is read as one that turns the battle once her record shows more
#: than this many cards that could help for each that could not (:func:`plays_for_a_reason`).
READ_RATIO: Final = 3


def plays_for_a_reason(state: State, player: int) -> bool:
    """Whether ``player``'s face-down Support cards are worth reading as ones that turn the
    battle, by what her revealed cards showed so far (``support_record``, public: cards put
    down before the other side chose that could help, and that could not): at least one that
    could help, and more than :data:`READ_RATIO` times as many as could not.

    Why not always: a player who bluffs with a Spirit of another element, or plays at random,
    shows cards that could not help; read as if they turned the battle, her cards make the
    answer spend cards for nothing. Against the random bot, the greedy policy with a reading
    answer won 90.0% of 1,000 games, with the greedy answer 95.5%, and with this rule 94.6%;
    against the greedy policy this rule still won 78.0% (docs/bots.md)."""
    helped, idle = support_record(state, player)
    return helped > READ_RATIO * idle


def placed_worlds(state: State, seat: int) -> list[State]:
    """Worlds dealt for ``seat`` in which the other side's face-down Support card is the one
    the greedy policy would have put down from her hand (cards she holds plus that one).

    A deal gives her hand and face-down card at random from the cards ``seat`` cannot see;
    her choice is then a function of that hand (the cheapest card that turns the battle, else
    a Safeguard while losing), so each deal in which she would have put a card down yields
    exactly one world, and one in which she would have passed is thrown away: rejection
    sampling of her hand given what she did. The seeds are fixed and ``determinize`` deals from
    what the seat sees, so the worlds are the same in every world the search deals for her."""
    battle = state["battle"]
    other = 1 - side_of(state, seat)
    her = int(battle["sides"][other])
    worlds: list[State] = []
    for seed in range(ANSWER_TRIES):
        world = ENGINE.determinize(state, seat, seed)
        placed = world["battle"]
        held = [*world["hands"][her], placed["support"][other]]
        placed["support"][other] = None
        placed["supported"][other] = False
        world["hands"][her] = held
        choice = _support(world, her, support_actions(world, her))
        if choice["type"] == "pass_support":
            continue
        held.remove(choice["card"])
        placed["support"][other] = choice["card"]
        placed["supported"][other] = True
        worlds.append(world)
        if len(worlds) == ANSWER_WORLDS:
            break
    return worlds


def answer_face_down(state: State, seat: int, actions: list[Action], folded: list[int]) -> Action:
    """The search's answer to the other side's face-down Support card: of ``seat``'s moves
    (one of each kind, per ``folded``), the one whose battle ends best on average over
    :func:`placed_worlds`, each outcome scored by :func:`evaluate` (Spirits kept or lost and
    cards spent alike); ties go to the greedy answer.

    The greedy answer (Disintegrate if held, else a Safeguard) reads nothing into the card:
    but a player who puts a card down while losing holds one that turns the battle, and the
    cards that can do so are few (docs/bots.md, "Answering a face-down Support card").
    When no deal fits (she would never have put a card down), the greedy answer stands."""
    greedy = _support(state, seat, actions)
    if not plays_for_a_reason(state, _opponent(state, seat)):
        return greedy
    worlds = placed_worlds(state, seat)
    if not worlds:
        return greedy
    kept = sorted(set(folded))
    best, best_value = greedy, -math.inf
    for i in kept:
        action = actions[i]
        value = sum(evaluate(ENGINE.apply(w, seat, action)[0], seat) for w in worlds)
        value /= len(worlds)
        if value > best_value + 1e-9 or (abs(value - best_value) <= 1e-9 and action == greedy):
            best, best_value = action, value
    return best


def _other_placed(state: State, seat: int) -> bool:
    """Whether the other side of the battle has been seen putting a Support card down (public
    only under the "loser first" house rule; which card is never)."""
    other = 1 - side_of(state, seat)
    return choice_public(state, other) and state["battle"]["support"][other] is not None


def _other_passed(state: State, seat: int) -> bool:
    """Whether the other side of the battle has been seen choosing no Support card (public
    only under the "loser first" house rule)."""
    other = 1 - side_of(state, seat)
    return choice_public(state, other) and state["battle"]["support"][other] is None


def _fold_into_pass(state: State, seat: int, actions: list[Action], folded: list[int]) -> list[int]:
    """Once the other side has passed, the battle's outcome is settled by one's own card: a
    card that neither betters the result nor saves a losing Spirit (Safeguard) only throws the
    card away, so passing is never worse and such a card folds into the pass."""
    outcome = _support_outcomes(state, seat)
    passing = next(i for i, a in enumerate(actions) if a["type"] == "pass_support")
    base, base_saved = outcome(actions[passing])

    def better(action: Action) -> bool:
        result, saved = outcome(action)
        return result > base or (result == base == LOSS and saved and not base_saved)

    return [f if better(actions[f]) else passing for f in folded]


def _support_outcomes(state: State, seat: int) -> Callable[[Action], tuple[int, bool]]:
    """The battle's result for ``seat`` and whether her Spirit is safeguarded, for each of her
    Support moves, the other side playing no card (what the greedy policy weighs)."""
    battle = state["battle"]
    side = side_of(state, seat)
    main = (
        card(state, battle["summon"][0])["element"],
        card(state, battle["summon"][1])["element"],
    )

    def result(action: Action) -> tuple[int, bool]:
        played = card(state, action["card"]) if action["type"] == "support" else None
        return outcome_alone(main, side, played)

    return result


def _opponent(state: State, seat: int) -> int:
    sides = state["battle"]["sides"]
    return int(sides[1] if sides[0] == seat else sides[0])


def _known_spirit_elements(state: State, seat: int) -> list[str]:
    """The elements of the Spirits everyone has seen ``seat`` hold (in her hand or face down:
    the table cannot tell which)."""
    return [card(state, c)["element"] for c in shown_cards(state, seat) if is_spirit(state, c)]


def _summon(state: State, seat: int, actions: list[Action], rng: random.Random) -> Action:
    mine = Counter(card(state, a["card"])["element"] for a in actions)
    theirs = _known_spirit_elements(state, _opponent(state, seat))

    def score(action: Action) -> float:
        elem = card(state, action["card"])["element"]
        value = 2.0 if mine[elem] >= 2 else 0.0
        value += sum(1 for t in theirs if chart(elem, t) == WIN)
        value -= sum(1 for t in theirs if chart(elem, t) == LOSS)
        return value + rng.random() * 0.01

    return max(actions, key=score)


def _support(state: State, seat: int, actions: list[Action]) -> Action:
    # Seen only under the "loser first" house rule (view: supports[i] == {"face_down": True}).
    opponent_placed = _other_placed(state, seat)
    result = _support_outcomes(state, seat)

    current, _ = result({"type": "pass_support"})
    plays = [a for a in actions if a["type"] == "support"]
    if current == WIN:
        for wanted in ("disintegrate", "safeguard"):
            if opponent_placed:
                for a in plays:
                    c = card(state, a["card"])
                    if c["kind"] == "spell" and c["support"] == wanted:
                        return a
        return {"type": "pass_support"}
    for goal in (WIN, DRAW):
        fixes = [a for a in plays if result(a)[0] == goal and (goal > current)]
        if fixes:
            return min(fixes, key=lambda a: (is_spirit(state, a["card"]), a["card"]))
    if current == LOSS:
        for a in plays:
            if result(a)[1]:
                return a
    return {"type": "pass_support"}


def _keep_value(state: State, seat: int, cid: str) -> tuple[int, int, str]:
    c = card(state, cid)
    if c["kind"] == "spell":
        return (0, SPELL_KEEP[c["support"]], cid)
    counts = Counter(card(state, h)["element"] for h in state["hands"][seat] if is_spirit(state, h))
    return (1, -counts[c["element"]], cid)


def _holdings(state: State, seat: int) -> tuple[int, int]:
    """``seat``'s Spirits (her summoned one included) and Spells."""
    spirits = spells = 0
    for cid in state["hands"][seat]:
        if is_spirit(state, cid):
            spirits += 1
        else:
            spells += 1
    battle = state["battle"]
    if (
        battle is not None
        and seat in battle["sides"]
        and battle["summon"][battle["sides"].index(seat)] is not None
    ):
        spirits += 1
    return spirits, spells


#: Logistic weights of :func:`evaluate`, fitted to 85,460 positions (at the start of a turn)
#: of 3,000 two-player games of the greedy policy against itself and their results: Spirits
#: (as the difference and the difference of log(1 + n)), Spells, both also scaled by the
#: Preparation cards left over 50 (cards still to draw make today's lead worth less), and whose
#: turn it is. On 850 held-out games its log loss was 0.396, against 0.481 for the share of
#: strength it replaced.
WEIGHTS: Final = {
    "spirits": 0.3544,
    "log_spirits": 1.7915,
    "spells": 0.6873,
    "spirits_by_deck": -0.7049,
    "spells_by_deck": -0.3054,
    "my_turn": 0.4262,
}


def evaluate(state: State, seat: int) -> float:
    """How good ``state`` is for ``seat``, in [-1, 1] (+1 a won war, -1 a lost one): the
    result once the game is over; otherwise 2p - 1 for p the chance of winning a two-player
    war that :data:`WEIGHTS` give (with more players, against the strongest other survivor).

    Meant for determinized states of the search bot: it reads every hand as dealt there."""
    if ENGINE.is_terminal(state):
        return float(ENGINE.returns(state)[seat])
    if state["out"][seat]:
        return -1.0
    others = [s for s in survivors(state) if s != seat]
    if not others:
        return 0.0
    mine = _holdings(state, seat)
    theirs = max((_holdings(state, s) for s in others), key=lambda h: h[0] + 0.4 * h[1])
    deck = len(state["prep_deck"]) / 50.0
    spirits = mine[0] - theirs[0]
    spells = mine[1] - theirs[1]
    z = (
        WEIGHTS["spirits"] * spirits
        + WEIGHTS["log_spirits"] * (math.log1p(mine[0]) - math.log1p(theirs[0]))
        + WEIGHTS["spells"] * spells
        + WEIGHTS["spirits_by_deck"] * spirits * deck
        + WEIGHTS["spells_by_deck"] * spells * deck
        + WEIGHTS["my_turn"] * ((state["turn"] == seat) - 0.5)
    )
    return max(-0.95, min(0.95, math.tanh(z / 2.0)))
