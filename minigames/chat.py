"""The tavern's chat rules (:mod:`tables.chat.rules`): the host (and at a campaign's table its
GMs) moderates; spectators may talk
only where the host allows it; private talk only where a game's rules allow it.

RAIGO with four players is played two against two, partners sitting opposite (seats 0 and 2
against 1 and 3, ``minigames/engines/raigo/setup.py``), and its rulebook invites partners to
"share secret codes or hand signs to share your plans" (RAIGO rulebook, introduction; setup
rule 10): a partner may whisper to her partner. RAIGO with two or three players, Spirit War,
RSO and DBS are every player for herself: no whispers.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from minigames.engines.registry import ENGINE_MODULES
from tables.chat.rules import ChatRules, Whisper, register_chat

from .game import table_seats
from .models import TavernTable, seat_names


def _moderates(user: Any, table: TavernTable) -> bool:
    """The host, and at a campaign's table its GMs (who manage its tavern, as they set seats
    and abandon tables)."""
    if not getattr(user, "is_authenticated", False):
        return False
    if table.host_id == user.pk:
        return True
    if table.campaign_id is None:
        return False
    from campaign.permissions import access_for, access_from_row

    access = access_from_row(table, user, table.campaign_id)
    return (access or access_for(user, table.campaign_id)).can_manage


def _moderator_words(table: TavernTable) -> str:
    """Who moderates, in the reader's language (asked when a page or a refusal is made)."""
    return gettext("the host") if table.campaign_id is None else gettext("the host or a GM")


def raigo_partner(user: Any, table: TavernTable, seat: Any) -> list[Whisper]:
    """Her partner, when four play and the partner is a person still playing."""
    seats = table_seats(table)
    if seat is None or len(seats) != 4:
        return []
    names = dict(zip((s.index for s in seats), seat_names(seats), strict=True))
    partner = next((s for s in seats if s.index == (int(seat) + 2) % 4), None)
    if partner is None or partner.user_id is None or partner.bot or partner.resigned:
        return []
    # The whispers are asked for each reader's view, so the label is in her language.
    label = gettext("%(name)s, your partner") % {"name": names[partner.index]}
    return [Whisper(str(partner.user_id), label, partner.user_id)]


def register_tavern_chat() -> None:
    """Each tavern game's chat rules (``MinigamesConfig.ready``)."""
    for slug in ENGINE_MODULES:
        register_chat(
            slug,
            ChatRules(
                moderates=_moderates,
                moderator_words=_moderator_words,
                whispers=raigo_partner if slug == "raigo" else None,
            ),
        )
