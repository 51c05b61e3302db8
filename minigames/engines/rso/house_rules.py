"""Rumbling Spell Orchestra's house rules: every choice the rulebook leaves open, with the
tavern's default (docs/games/rso.md, "House rules").

A game keeps the values it started with in ``state["options"]``; :func:`option` reads one, and
a game saved before a rule existed reads that rule's default, which is what the engine did
before the rule could be changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from westernroses.protocol import HouseRule
from westernroses.words import N_, Words, listing

HOUSE_RULES: Final = (
    HouseRule(
        key="deck_out",
        label=Words(N_("When does an empty deck lose?")),
        default="draw",
        help=Words(
            N_(
                "The rulebook says the game ends when a player's deck runs out. By default she "
                "loses when she must draw and cannot; a table may instead end the game as soon as "
                "a "
                "deck is empty."
            )
        ),
        choices=(
            ("draw", Words(N_("When she must draw from an empty deck"))),
            ("empty", Words(N_("As soon as her deck is empty"))),
        ),
    ),
    HouseRule(
        key="first_player",
        label=Words(N_("Who goes first")),
        default="random",
        help=Words(
            N_(
                "The rulebook lets the players pick the first player at random or by agreement. "
                "She attacks on the first turn and skips her first draw."
            )
        ),
        choices=(
            ("random", Words(N_("Decided at random"))),
            ("first", Words(N_("The first seat"))),
            ("second", Words(N_("The second seat"))),
        ),
    ),
    HouseRule(
        key="both_fall",
        label=Words(N_("When both Leaders fall at once")),
        default="draw",
        help=Words(
            N_(
                "The rulebook does not say who wins when both Leaders reach 0 HP at the same "
                "moment (both hit in one battle)."
            )
        ),
        choices=(
            ("draw", Words(N_("The game is a draw"))),
            ("attacker", Words(N_("The attacking player wins"))),
            ("intercepting", Words(N_("The intercepting player wins"))),
        ),
    ),
    HouseRule(
        key="special_uses",
        label=Words(N_("Uses of each Special per turn")),
        default=1,
        help=Words(
            N_(
                "The rulebook prints no limit. A Special used again and again while its cost is "
                "paid could go on for ever (one that gains more SP than it costs), so each may be "
                "used this many times in a turn."
            )
        ),
        minimum=1,
        maximum=3,
    ),
    HouseRule(
        key="doctrine",
        label=Words(N_("Which cards Doctrine takes")),
        default="oldest",
        help=Words(
            N_(
                "A Doctrine cost puts non-spell cards from the opponent's discard pile at the "
                "bottom of her deck; the rulebook does not say which ones."
            )
        ),
        choices=(
            ("oldest", Words(N_("Those longest in the discard pile"))),
            ("newest", Words(N_("Those most recently discarded"))),
        ),
    ),
    HouseRule(
        key="border_order",
        label=Words(N_("Who answers the Border Value first")),
        default="attacker",
        help=Words(
            N_(
                "When both Leaders are tied in one battle, one decides whether to pay her Border "
                "Value first, and the other sees her answer before giving her own."
            )
        ),
        choices=(
            ("attacker", Words(N_("The attacking player"))),
            ("intercepting", Words(N_("The intercepting player"))),
        ),
    ),
)

DEFAULTS: Final[Mapping[str, Any]] = {rule.key: rule.default for rule in HOUSE_RULES}


def resolve_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Every house rule's value, defaults filled in; ``ValueError`` in words for a value that
    is not one of a rule's choices, or not a whole number in its range."""
    result = dict(DEFAULTS)
    for key, value in (options or {}).items():
        rule = next((r for r in HOUSE_RULES if r.key == key), None)
        if rule is None:
            raise ValueError(f"Rumbling Spell Orchestra has no house rule called {key!r}.")
        if not rule.choices:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(
                    Words(N_("%(rule)s must be a whole number."), {"rule": rule.label})
                )
            low = value if rule.minimum is None else rule.minimum
            high = value if rule.maximum is None else rule.maximum
            if not low <= value <= high:
                raise ValueError(
                    Words(
                        N_("%(rule)s must be a whole number from %(minimum)s to %(maximum)s."),
                        {"rule": rule.label, "minimum": rule.minimum, "maximum": rule.maximum},
                    )
                )
        elif value not in [v for v, _ in rule.choices]:
            labels = listing([label for _, label in rule.choices], last="comma")
            raise ValueError(
                Words(
                    N_("%(rule)s must be one of: %(choices)s."),
                    {"rule": rule.label, "choices": labels},
                )
            )
        result[key] = value
    return result


def option(state: Mapping[str, Any], key: str) -> Any:
    """The value of house rule ``key`` for this game (its default for a game saved before the
    rule existed)."""
    return state["options"].get(key, DEFAULTS[key])
