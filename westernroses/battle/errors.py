"""The one exception the battle engine raises for a move the rules do not allow.

``apply`` either applies an action completely or raises :class:`IllegalAction` before anything
is visible: it works on a private copy of the state, so a refusal half-way through a
resolution leaves the caller's state untouched. The reason is written for players ("Reimu
has no actions left"), because the app shows it as is.
"""

from __future__ import annotations

from westernroses import protocol


class IllegalAction(protocol.IllegalAction):
    """The action is not allowed now; ``reason`` says why in plain words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
