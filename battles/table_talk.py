"""What is said and pointed at around a battle's table: chat lines, whispers and pings.

None of it is part of the game: nothing here touches the engine state or bumps the battle's
version, so a chat line or a ping never makes another seat's move stale. The screen reads it
through one small feed (:func:`table_feed`) it asks for beside the view poll.

* Chat: a line (at most :data:`CHAT_MAX_LENGTH` characters) to everyone, a player's whisper to
  the GMs, or a GM's whisper to one player. :func:`chat_visible_to` is the only filter: a
  whisper reaches its author, its recipient and the GMs, never another player.
* Pings: a square someone points at; everyone's screen shows it for a few seconds. Rows older
  than :data:`PING_KEEP_SECONDS` are deleted whenever someone pings, so the table stays tiny.
* Both are throttled per member (:data:`CHAT_BURST`, :data:`PING_BURST`): 429 in words.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any, Final

from django.core.exceptions import ValidationError
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils import timezone
from rest_framework.exceptions import Throttled

from campaign.models import Membership, Role
from campaign.permissions import CampaignAccess

from .models import Battle, Combatant, TableChatMessage, TablePing

if TYPE_CHECKING:
    from accounts.models import User

CHAT_MAX_LENGTH: Final = 500
#: Chat lines one member may send per :data:`CHAT_WINDOW_SECONDS`.
CHAT_BURST: Final = 8
CHAT_WINDOW_SECONDS: Final = 10
#: A page of chat (the first feed, or one scroll back).
CHAT_PAGE: Final = 50
#: Pings one member may place per :data:`PING_WINDOW_SECONDS`.
PING_BURST: Final = 4
PING_WINDOW_SECONDS: Final = 5
#: How long a ping is shown (and delivered to screens that poll late).
PING_SHOW_SECONDS: Final = 8
#: Older pings are deleted.
PING_KEEP_SECONDS: Final = 60


class TooFast(Throttled):
    """429 in words (DRF's own message names seconds as a number only)."""

    def __init__(self, what: str, seconds: int) -> None:
        super().__init__(wait=seconds, detail=f"Too many {what} at once: wait a few seconds.")


def _recent(qs: QuerySet[Any], seconds: int) -> QuerySet[Any]:
    return qs.filter(created_at__gte=timezone.now() - timedelta(seconds=seconds))


# --------------------------------------------------------------------------- chat


def chat_visible_to(qs: QuerySet[TableChatMessage], access: CampaignAccess) -> QuerySet[Any]:
    """The lines this member may read: GMs read everything said at the table; a player reads
    public lines, her own, and whispers to her."""
    if access.is_gm:
        return qs
    mine = Q(author_id=access.user_id) | Q(recipient_id=access.user_id)
    return qs.filter(Q(to_gms=False, recipient__isnull=True) | mine)


def _whisper_target(access: CampaignAccess, whisper_to: str) -> tuple[bool, int | None]:
    """(to the GMs, recipient id) for the form's ``whisper_to``: "" everyone, "gm" the GMs
    (players only), or a player's user id (GMs only)."""
    if not whisper_to:
        return False, None
    if whisper_to == "gm":
        if access.is_gm:
            raise ValidationError({"whisper_to": ["You are a GM: whisper to a player instead."]})
        return True, None
    if not access.is_gm:
        raise ValidationError({"whisper_to": ["Players whisper to the GM only."]})
    try:
        user_id = int(whisper_to)
    except ValueError:
        user_id = 0
    if not 0 < user_id < 2**63:  # never a key the database cannot hold
        raise ValidationError({"whisper_to": ["Choose a player of this campaign."]})
    is_player = Membership.objects.filter(
        campaign_id=access.campaign_id, user_id=user_id, role=Role.PLAYER
    ).exists()
    if not is_player:
        raise ValidationError({"whisper_to": ["Choose a player of this campaign."]})
    return False, user_id


def chat_send(
    *, battle: Battle, access: CampaignAccess, author: User, text: str, whisper_to: str = ""
) -> TableChatMessage:
    """Say ``text`` at the table (``whisper_to`` as in :func:`_whisper_target`)."""
    text = " ".join(text.split())
    if not text:
        raise ValidationError({"text": ["Write something first."]})
    if len(text) > CHAT_MAX_LENGTH:
        raise ValidationError({"text": [f"At most {CHAT_MAX_LENGTH} characters."]})
    to_gms, recipient = _whisper_target(access, whisper_to)
    said = TableChatMessage.objects.filter(battle=battle, author=author)
    if _recent(said, CHAT_WINDOW_SECONDS).count() >= CHAT_BURST:
        raise TooFast("messages", CHAT_WINDOW_SECONDS)
    version = Battle.objects.filter(pk=battle.pk).values_list("version", flat=True).first()
    return TableChatMessage.objects.create(
        battle=battle,
        author=author,
        author_is_gm=access.is_gm,
        text=text,
        to_gms=to_gms,
        recipient_id=recipient,
        version=version or 0,
    )


def chat_json(message: TableChatMessage, names: dict[int, str]) -> dict[str, Any]:
    """One line for the screen, in words (who said it, and to whom if it was a whisper)."""
    whisper = None
    if message.to_gms:
        whisper = "to the GM"
    elif message.recipient_id is not None:
        whisper = f"to {names.get(message.recipient_id, 'a player')}"
    return {
        "id": message.pk,
        "author": names.get(message.author_id, "someone"),
        "author_id": message.author_id,
        "gm": message.author_is_gm,
        "text": message.text,
        "whisper": whisper,
        "recipient_id": message.recipient_id,
        "version": message.version,
        "at": message.created_at.isoformat(),
    }


# --------------------------------------------------------------------------- pings


def ping_place(
    *, battle: Battle, access: CampaignAccess, author: User, x: int, y: int
) -> TablePing:
    """Point at square (x, y) for everyone; inside the arena, a few per member at a time."""
    size = (
        Battle.objects.filter(pk=battle.pk)
        .values_list("state__arena__width", "state__arena__height")
        .first()
    )
    width, height = size if size else (None, None)
    if isinstance(width, int) and isinstance(height, int) and not (x < width and y < height):
        raise ValidationError({"square": ["That square is outside the arena."]})
    del access
    pings = TablePing.objects.filter(battle=battle)
    if _recent(pings.filter(author=author), PING_WINDOW_SECONDS).count() >= PING_BURST:
        raise TooFast("pings", PING_WINDOW_SECONDS)
    stale = timezone.now() - timedelta(seconds=PING_KEEP_SECONDS)
    TablePing.objects.filter(battle=battle, created_at__lt=stale).delete()
    return TablePing.objects.create(battle=battle, author=author, x=x, y=y)


# --------------------------------------------------------------------------- the feed


def member_names(campaign_id: int) -> dict[int, str]:
    return {
        m.user_id: m.user.shown_name
        for m in Membership.objects.filter(campaign_id=campaign_id).select_related("user")
    }


def table_feed(
    *,
    battle: Battle,
    access: CampaignAccess,
    chat_after: int | None,
    chat_before: int | None,
    pings_after: int,
) -> dict[str, Any]:
    """New chat lines (after ``chat_after``; none given: the last page; ``chat_before``: the
    page before it, for scrolling back) and the pings of the last few seconds."""
    names = member_names(battle.campaign_id)
    lines = chat_visible_to(TableChatMessage.objects.filter(battle=battle), access)
    older = False
    if chat_after is not None:
        rows = list(lines.filter(pk__gt=chat_after).order_by("pk")[:CHAT_PAGE])
    else:
        if chat_before is not None:
            lines = lines.filter(pk__lt=chat_before)
        rows = list(lines.order_by("-pk")[: CHAT_PAGE + 1])
        older = len(rows) > CHAT_PAGE
        rows = rows[:CHAT_PAGE][::-1]
    pings = _recent(
        TablePing.objects.filter(battle=battle, pk__gt=pings_after), PING_SHOW_SECONDS
    ).order_by("pk")[:50]
    return {
        "chat": [chat_json(m, names) for m in rows],
        "chat_older": older,
        "pings": [
            {
                "id": p.pk,
                "square": [p.x, p.y],
                "author": names.get(p.author_id, "someone"),
                "mine": p.author_id == access.user_id,
            }
            for p in pings
        ],
    }


def portraits(*, battle: Battle, visible: set[str]) -> dict[str, str]:
    """Engine id → portrait URL for the combatants in ``visible`` (the ids the asker's view
    holds: a fogged combatant's portrait would tell she is there) whose character has one."""
    rows = (
        Combatant.objects.filter(battle=battle, engine_id__in=visible, character__isnull=False)
        .exclude(character__portrait="")
        .values_list("engine_id", "character_id")
    )
    return {eid: reverse("characters:portrait", args=[cid]) for eid, cid in rows}
