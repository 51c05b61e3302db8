"""A new game: the Bonus Token, Raizan, the boards and the starting draws ("GAME SETUP").

Seat 0 is the first player (the rock-paper-scissors happens at the table, outside the engine)
and holds the Dong token. With four players seats 0 and 2 play against 1 and 3 (partners sit
opposite). Two players (2 PLAYER RULES): no Eights, one token put back in the box unseen, two
Raizan piles and three Sakura Circles each.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from minigames.engines.raigo.board import Json, draw_token, learn, player, put_body
from minigames.engines.raigo.tokens import all_token_ids
from westernroses.protocol import HouseRule
from westernroses.rng import RandomSource
from westernroses.words import N_, Words, listing

STARTING_BALLS = 2
#: RAIGO is for two to four players.
MIN_SEATS: Final = 2
MAX_SEATS: Final = 4

HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule(
        key="destroy_threshold",
        label=Words(N_("Destroy threshold (X)")),
        default=20,
        help=Words(
            N_(
                "An active Destroy strikes once the weights of the spells gathered beside it add "
                "up to more than this number."
            )
        ),
        minimum=5,
        maximum=60,
    ),
    HouseRule(
        key="spell_limit",
        label=Words(N_("Who may not apply the same spell twice in a turn")),
        default="turn_player",
        help=Words(
            N_(
                "The Rules of the Spell say that during your turn you cannot apply the effect of "
                "the same Spell twice. By default this binds the player whose turn it is: the "
                "others may Shield or Roar again against another spell of that turn."
            )
        ),
        choices=(
            ("turn_player", Words(N_("The player whose turn it is"))),
            ("everyone", Words(N_("Every player, her own spells and her answers alike"))),
        ),
    ),
)

#: What a game saved before the "spell_limit" house rule existed played by: it limited every
#: player, so such a game goes on (and replays) as it began.
LEGACY_SPELL_LIMIT = "everyone"


def check_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """House-rule values with defaults filled in; a ValueError in words for anything wrong."""
    values: dict[str, Any] = {rule.key: rule.default for rule in HOUSE_RULES}
    rules = {rule.key: rule for rule in HOUSE_RULES}
    for key, value in (options or {}).items():
        rule = rules.get(key)
        if rule is None:
            raise ValueError(
                Words(N_("RAIGO has no house rule called %(key)s."), {"key": repr(key)})
            )
        if rule.choices:
            if value not in [choice for choice, _ in rule.choices]:
                labels = listing([label for _, label in rule.choices], last="semicolon")
                raise ValueError(
                    Words(
                        N_("%(rule)s must be one of: %(choices)s."),
                        {"rule": rule.label, "choices": labels},
                    )
                )
            values[key] = value
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(Words(N_("%(rule)s must be a whole number."), {"rule": rule.label}))
        if rule.minimum is not None and value < rule.minimum:
            raise ValueError(
                Words(
                    N_("%(rule)s must be at least %(minimum)s."),
                    {"rule": rule.label, "minimum": rule.minimum},
                )
            )
        if rule.maximum is not None and value > rule.maximum:
            raise ValueError(
                Words(
                    N_("%(rule)s must be at most %(maximum)s."),
                    {"rule": rule.label, "maximum": rule.maximum},
                )
            )
        values[key] = value
    return values


def seat_names(seats: int, config: Mapping[str, Any] | None) -> list[str]:
    names = list((config or {}).get("names") or [])
    if names and (len(names) != seats or not all(isinstance(n, str) and n for n in names)):
        raise ValueError(f"Give exactly {seats} seat names, each a non-empty text.")
    return names or [f"Player {i + 1}" for i in range(seats)]


def new_state(
    *,
    seats: int,
    seed: int,
    options: Mapping[str, Any] | None,
    config: Mapping[str, Any] | None,
) -> Json:
    if isinstance(seats, bool) or not isinstance(seats, int) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValueError("RAIGO is played by 2, 3 or 4 players.")
    values = check_options(options)
    names = seat_names(seats, config)
    rng = RandomSource(seed)
    two = seats == 2
    tokens = all_token_ids(two_players=two)
    rng.shuffle(tokens)
    bonus = tokens.pop()
    box = [tokens.pop()] if two else []
    piles = 2 if two else 4
    state: Json = {
        "game": "raigo",
        "seats": seats,
        "names": names,
        "options": values,
        "rng": rng.to_dict(),
        "bonus": bonus,
        "raizan": [tokens[i::piles] for i in range(piles)],
        "box": box,
        "canyon": [],
        "in_play": [],
        "seals": [],
        "destroy": None,
        "known": {},
        "revealed": [],
        "players": [
            {
                "balls": STARTING_BALLS,
                "body": [],
                "left": None,
                "right": None,
                "towers": [[] for _ in range(3 if two else 2)],
                "out": False,
            }
            for _ in range(seats)
        ],
        "turn": {
            "number": 1,
            "seat": 0,
            "stage": "fetch",
            "fetched": 0,
            "discards_left": 0,
            "drawn": [],
            "pending": [],
            "used": [[] for _ in range(seats)],
        },
        "prompt": None,
        "end_after_turn": None,
        "scoring_log": [],
        "over": False,
        "result": None,
    }
    for seat in range(seats):
        for _ in range(1 if seat == 0 else 2):
            token = draw_token(state)
            put_body(player(state, seat), token)
            learn(state, token, seat)
    return state
