"""What each Spirit War action may carry (:mod:`westernroses.action_shapes`), checked by the
table core before the engine sees it.

The engine decides whether a move is legal; these shapes only bound it (the actions are listed
in ``engine``'s docstring). An attack's target is a seat below
:data:`~minigames.engines.spirit_war.setup.MAX_SEATS`.
"""

from __future__ import annotations

from typing import Final

from minigames.engines.spirit_war.setup import MAX_SEATS
from westernroses.action_shapes import ActionShape, Int, Str, shapes

#: Card ids and vote choices are short.
ID: Final = 40

ACTIONS: Final = shapes(
    ActionShape("draw"),
    ActionShape("attack", {"target": Int(0, MAX_SEATS - 1)}),
    ActionShape("summon", {"card": Str(ID)}),
    ActionShape("pass_support"),
    ActionShape("support", {"card": Str(ID)}),
    ActionShape("discard", {"card": Str(ID)}),
    ActionShape("skip_attack"),
    ActionShape("no_spirit"),
    ActionShape("vote", {"choice": Str(ID)}),
)
