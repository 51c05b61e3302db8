"""Reads on a table's chat: the lines a member may read, a page of them, in words.

:func:`readable` is the only filter: a GM (the game's ``is_gm``) reads every line said at the
table; everyone else reads the lines said to everyone, her own, and whispers to her. A
whisper to the GMs reaches its author and the GMs, never another seat or a spectator.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any, Final

from django.db.models import Q, QuerySet
from django.utils.translation import pgettext

from .models import ChatLine, ChatMute, ChatReaction, ChatRoom
from .rules import REACTIONS
from .services import Member, member_at, room_of, spectators_may_chat, why_silent

if TYPE_CHECKING:
    from tables.registry import TableGame, Viewer

#: A page of chat (the first read, or one scroll back).
CHAT_PAGE: Final = 50
_REACTION: Final = {key: (emoji, words) for key, emoji, words in REACTIONS}


def readable(lines: QuerySet[ChatLine], member: Member) -> QuerySet[ChatLine]:
    """The lines of ``lines`` that ``member`` may read."""
    if member.is_gm:
        return lines
    me = member.user_id
    return lines.filter(
        Q(to_gms=False, recipient__isnull=True) | Q(author_id=me) | Q(recipient_id=me)
    )


def _whisper_words(line: ChatLine, reader_id: int) -> str | None:
    """To whom a whisper went, in the reader's language (the line keeps only ids, so the words
    are made when it is read)."""
    if line.to_gms:
        return pgettext("whispered", "to the GMs")
    if line.recipient_id is None:
        return None
    if line.recipient_id == reader_id:
        return pgettext("whispered", "to you")
    if line.recipient is None:
        return pgettext("whispered", "to a player")
    return pgettext("whispered", "to %(name)s") % {"name": line.recipient.shown_name}


def line_json(line: ChatLine, reader_id: int, reactions: list[ChatReaction]) -> dict[str, Any]:
    """One line for a page, in words: who said it, to whom if whispered, the reactions."""
    counted: dict[str, list[ChatReaction]] = defaultdict(list)
    for r in reactions:
        counted[r.reaction].append(r)
    return {
        "id": line.pk,
        "author": line.author.shown_name,
        "author_id": line.author_id,
        "mine": line.author_id == reader_id,
        "gm": line.author_is_gm,
        "spectator": line.spectator,
        "text": line.text,
        "whisper": _whisper_words(line, reader_id),
        "recipient_id": line.recipient_id,
        "version": line.version,
        "at": line.created_at.isoformat(),
        "reactions": [
            {
                "reaction": key,
                "emoji": emoji,
                "words": words,
                "count": len(counted[key]),
                "mine": any(r.user_id == reader_id for r in counted[key]),
                "names": [r.user.shown_name for r in counted[key]],
            }
            for key, (emoji, words) in _REACTION.items()
            if counted[key]
        ],
    }


def lines_json(lines: list[ChatLine], reader_id: int) -> list[dict[str, Any]]:
    """``lines`` in words, their reactions read in one query."""
    by_line: dict[int, list[ChatReaction]] = defaultdict(list)
    for r in (
        ChatReaction.objects.filter(line__in=[line.pk for line in lines])
        .select_related("user")
        .order_by("pk")
    ):
        by_line[r.line_id].append(r)
    return [line_json(line, reader_id, by_line[line.pk]) for line in lines]


def chat_lines(
    member: Member, room: ChatRoom | None, *, after: int | None, before: int | None
) -> tuple[list[dict[str, Any]], bool]:
    """Lines ``member`` may read, oldest first, and whether older ones exist: those after
    ``after`` (a page at most); none given, the last page (before ``before``, scrolling back)."""
    if room is None:
        return [], False
    lines = readable(ChatLine.objects.filter(room=room), member).select_related(
        "author", "recipient"
    )
    older = False
    if after is not None:
        rows = list(lines.filter(pk__gt=after).order_by("pk")[:CHAT_PAGE])
    else:
        if before is not None:
            lines = lines.filter(pk__lt=before)
        rows = list(lines.order_by("-pk")[: CHAT_PAGE + 1])
        older = len(rows) > CHAT_PAGE
        rows = rows[:CHAT_PAGE][::-1]
    return lines_json(rows, member.user_id), older


def muted_at(member: Member, room: ChatRoom | None = None) -> list[dict[str, Any]]:
    """Who is muted at the table, for its moderators (nobody else is told)."""
    if not member.moderator:
        return []
    mutes = (
        ChatMute.objects.filter(room__table_label=member.label, room__table_id=member.table.pk)
        if room is None
        else ChatMute.objects.filter(room=room)
    )
    return [
        {"user_id": m.user_id, "name": m.user.shown_name}
        for m in mutes.select_related("user").order_by("pk")
    ]


def chat_page(
    game: TableGame,
    *,
    table_id: Any,
    user: Viewer,
    after: int | None = None,
    before: int | None = None,
    since: int | None = None,
) -> dict[str, Any] | None:
    """What the chat panel shows ``user``: the lines she may read (:func:`chat_lines`), what
    she may do (say, whisper to whom, moderate) and the table's setting; None when the room's
    stamp is still ``since`` (nothing changed: the poll answers 204)."""
    member = member_at(game, user, table_id)
    room = room_of(member)
    stamp = room.stamp if room is not None else 0
    if since is not None and since == stamp:
        return None
    results, older = chat_lines(member, room, after=after, before=before)
    silent = why_silent(member, room)
    muted = muted_at(member, room)
    return {
        "stamp": stamp,
        "results": results,
        "older": older,
        "you": {
            "may_send": not silent,
            "why_not": silent,
            "moderator": member.moderator,
            "spectator": member.spectator,
            "whisper_to": [{"key": w.key, "name": w.name} for w in member.whispers()],
        },
        "spectators_may_chat": spectators_may_chat(member, room),
        "reactions": [{"reaction": k, "emoji": e, "words": w} for k, e, w in REACTIONS],
        "muted": muted,
    }
