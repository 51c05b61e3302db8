"""The one exception the table core raises for a stale move (``config/api_errors.py``: 409)."""

from __future__ import annotations


class StaleVersion(Exception):
    """The client acted on an older version of the table (someone else moved first).

    Every game's apply service raises it when the version the client saw is not the stored one
    (or no longer is when it writes), so two clicks or two browsers never apply the same move
    twice. The API answers 409 with the current version (``config/api_errors.py``), for every
    table alike.
    """

    def __init__(self, current: int, what: str = "game") -> None:
        super().__init__(f"The {what} has moved on to version {current}: reload it.")
        self.current = current
        self.what = what


class BodyTooLarge(Exception):
    """A request body over the table API's limit (413): actions are small."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"A request to a game table is at most {limit} bytes.")
        self.limit = limit


class TimeRanOut(StaleVersion):
    """A player's move sent after her seat's deadline (``tables.clocks``): refused like a
    stale move (409, nothing applied), since the table's rule has played her turn or is about
    to; the answer says so in words."""

    def __init__(self, current: int) -> None:
        super().__init__(current, "table")
        self.args = ("Your time ran out: the table's rule played this move for you.",)
        self.detail = "Your time ran out: the table's rule plays this move for you."
