"""A table's invite link: ``/tavern/invite/<token>/``, the token the table's id signed with
the site's secret (Django's signing), so nobody makes one for a table she was not shown.

The link takes an open seat for whoever follows it signed in (a signed-out visitor signs in
first and comes back); it is shown while the table waits for players. It opens nothing the
table's page would not: an open table is anyone's to join, a campaign's table its members'
(others get a 404, as everywhere in a campaign). Once the game starts, or every seat is taken,
the link says so in words.
"""

from __future__ import annotations

from typing import Any, Final

from django.core import signing
from django.core.exceptions import ValidationError
from django.http import Http404
from django.utils.translation import gettext

from tables.models import TableStatus

from .models import TavernSeat, TavernTable

SALT: Final = "tavern-invite"
#: The longest token a URL may carry (an id of 19 digits and its signature fit).
MAX_TOKEN: Final = 80


def invite_token(table: TavernTable) -> str:
    return signing.Signer(salt=SALT).sign(str(table.pk))


def invite_path(table: TavernTable) -> str:
    return f"/tavern/invite/{invite_token(table)}/"


def table_id_of(token: str) -> int:
    """The table a token names; 404 for a token not signed here (or garbled)."""
    if len(token) > MAX_TOKEN:
        raise Http404("No such invitation.")
    try:
        value = signing.Signer(salt=SALT).unsign(token)
    except signing.BadSignature:
        raise Http404("No such invitation.") from None
    if not value.isdigit():  # signed here, so digits; checked all the same
        raise Http404("No such invitation.")
    return int(value)


def why_closed(table: TavernTable, seats: list[TavernSeat]) -> str:
    """Why the link can seat nobody now, in words; empty while a seat is open."""
    if table.status == TableStatus.ENDED:
        return gettext(
            "This game has ended: the invitation is over. You may still watch the table."
        )
    if table.status != TableStatus.SETUP:
        return gettext("This game has started: its seats are taken. You may watch it.")
    if not any(s.is_open for s in seats):
        return gettext("Every seat at this table is taken.")
    return ""


def first_open_seat(seats: list[TavernSeat]) -> int:
    """The lowest open seat (the caller has checked there is one)."""
    return next(s.index for s in seats if s.is_open)


def take_seat(
    *, table: TavernTable, by: Any, seat: int | None = None, character: int | None = None,
    deck: str = "",
) -> TavernSeat:  # fmt: skip
    """Sit at ``seat`` (or the first open one) from the link: the join service's rules, with
    the link's words for a table that can seat nobody."""
    from .models import seats_of
    from .services import tavern_join

    seats = seats_of(table)
    closed = why_closed(table, seats)
    if closed:
        raise ValidationError({"seat": [closed]})
    return tavern_join(
        table_id=table.pk,
        by=by,
        index=first_open_seat(seats) if seat is None else seat,
        character=character,
        deck=deck,
    )


def qr_svg(url: str) -> str:
    """The link as a QR code, an inline SVG (segno: pure Python), black on white whatever the
    theme so any phone's camera reads it."""
    import segno

    svg: str = segno.make(url, error="m").svg_inline(
        scale=4, dark="#000", light="#fff", title=gettext("QR code of the invite link")
    )
    return svg.replace("<svg ", '<svg role="img" ', 1)
