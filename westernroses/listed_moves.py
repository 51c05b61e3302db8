"""The legal moves an engine listed last, so ``apply`` need not list them again.

An engine's ``apply`` must refuse an illegal action, and the plain way is to list the legal
actions and look the action up. Random playouts and the bots' searches, though, always apply an
action they have just taken from ``legal_actions`` of the same state: listing the moves a second
time doubled the cost of every simulated move (issue 41 measured RSO's playouts at 0.64× and
then 0.9× OpenSpiel's ``python_block_dominoes``). :class:`ListedMoves` remembers the last list
for one state and seat; ``apply`` trusts an action only when it is *that very object* from that
list, for that very state object, and still equal to what was listed (a caller that edited an
action dict after it was listed gets the full check). Anything else, a move from a web request
above all, is checked as before.

States are values: engines never change a state in place once ``apply`` has returned it (they
copy first), which is what makes remembering by identity sound.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any


def _snapshot(action: Mapping[str, Any]) -> dict[str, Any]:
    """A copy deep enough for the engines' actions (scalars and lists of scalars)."""
    return {k: (list(v) if type(v) is list else v) for k, v in action.items()}


class ListedMoves:
    """One remembered listing: ``(state, seat, actions, their snapshots)``.

    One slot per engine is enough: a playout or a search applies one of the moves it has just
    listed. The slot is replaced whole (one assignment), so a thread reading it sees an old or a
    new listing, never half of one.
    """

    __slots__ = ("_last",)

    def __init__(self) -> None:
        self._last: tuple[object, Hashable, Sequence[Any], list[dict[str, Any]]] | None = None

    def remember(self, state: object, seat: Hashable, actions: Sequence[Any]) -> None:
        """Note that ``actions`` are the legal moves of ``seat`` in ``state``."""
        self._last = (state, seat, actions, [_snapshot(a) for a in actions])

    def listed(self, state: object, seat: Hashable, action: object) -> bool:
        """Whether ``action`` is one of the moves just listed for this state and seat,
        unchanged since."""
        last = self._last
        if last is None or last[0] is not state or last[1] != seat:
            return False
        for candidate, snapshot in zip(last[2], last[3], strict=False):
            if candidate is action:
                return bool(action == snapshot)
        return False
