"""Writes on a table's chat: say a line (or whisper it), react, mute, the spectators' setting.

Every write reads the table through the core (:func:`tables.selectors.table_for`: a table the
user may not see is a 404, whichever game it is), checks what the game's
:class:`~tables.chat.rules.ChatRules` allow, writes, moves the room's stamp and, once the
transaction commits, tells the table's sockets ``{"type": "chat"}``: a note with no text, on
which each page reads what it may (a whisper never travels to a socket that may not read it).

Bounds: a line is at most :data:`CHAT_MAX_LENGTH` characters once its whitespace is folded;
each member says at most :data:`CHAT_BURST` lines and :data:`REACTION_BURST` reactions per
:data:`WINDOW_SECONDS` at one table (429 in words).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Final

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext
from rest_framework.exceptions import Throttled

from apibase import push
from tables.models import GameTable
from tables.registry import TableGame, game_of
from tables.selectors import table_for
from westernroses.protocol import Seat

from .models import ChatLine, ChatMute, ChatReaction, ChatRoom
from .rules import REACTION_KEYS, ChatRules, Whisper, chat_rules

if TYPE_CHECKING:
    from tables.registry import Viewer

CHAT_MAX_LENGTH: Final = 500
#: Lines one member may say at one table per :data:`WINDOW_SECONDS`.
CHAT_BURST: Final = 8
#: Reactions one member may add at one table per :data:`WINDOW_SECONDS`.
REACTION_BURST: Final = 12
WINDOW_SECONDS: Final = 10

#: Characters that would make a line lie about itself: controls, and the bidirectional
#: overrides that display text in another order than it is stored.
_BIDI: Final = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


class TooFast(Throttled):
    """429 in words (DRF's own message names seconds as a number only)."""

    def __init__(self, what: str) -> None:
        super().__init__(
            wait=WINDOW_SECONDS, detail=f"Too many {what} at once: wait a few seconds."
        )


@dataclass(frozen=True, slots=True)
class Member:
    """One user at one table, as the chat sees her."""

    user: Any
    table: Any
    game: TableGame
    rules: ChatRules
    seat: Seat | None
    is_gm: bool
    moderator: bool

    @property
    def spectator(self) -> bool:
        return self.seat is None and not self.is_gm and not self.moderator

    @property
    def user_id(self) -> int:
        """Her id (the API lets only signed-in users through)."""
        return int(self.user.pk or 0)

    @property
    def moderator_words(self) -> str:
        words = self.rules.moderator_words
        return words if isinstance(words, str) else words(self.table)

    @property
    def label(self) -> str:
        return str(self.table._meta.label_lower)

    def whispers(self) -> list[Whisper]:
        hook = self.rules.whispers
        return [] if hook is None else hook(self.user, self.table, self.seat)


def member_at(game: TableGame, user: Viewer, table_id: Any) -> Member:
    """``user`` at the table (404 when she may not see it; ``game``: any game of its model)."""
    table, seat = table_for(game, user, table_id)
    return member_of(game_of(table), table, user, seat)


def member_of(game: TableGame, table: Any, user: Viewer, seat: Seat | None) -> Member:
    """``user`` at ``table`` as a caller that has read it (and her seat) found her."""
    rules = chat_rules(game.slug)
    return Member(
        user=user,
        table=table,
        game=game,
        rules=rules,
        seat=seat,
        is_gm=rules.is_gm(user, table),
        moderator=rules.moderates(user, table),
    )


def room_of(member: Member) -> ChatRoom | None:
    return ChatRoom.objects.filter(table_label=member.label, table_id=member.table.pk).first()


def _room(member: Member) -> ChatRoom:
    room, _ = ChatRoom.objects.get_or_create(
        table_label=member.label,
        table_id=member.table.pk,
        defaults={
            "campaign_id": getattr(member.table, "campaign_id", None),
            "spectators_may_chat": member.rules.spectators_by_default,
        },
    )
    return room


def _changed(member: Member, room: ChatRoom) -> None:
    """Move the room's stamp and tell the table's sockets, once the write commits."""
    ChatRoom.objects.filter(pk=room.pk).update(stamp=F("stamp") + 1)
    push.send_on_commit(push.table_group(member.label, member.table.pk), {"type": "table.chat"})


def spectators_may_chat(member: Member, room: ChatRoom | None) -> bool:
    return room.spectators_may_chat if room is not None else member.rules.spectators_by_default


def why_silent(member: Member, room: ChatRoom | None) -> str:
    """Why ``member`` may not say anything at the table, in words ("" when she may)."""
    if room is not None and ChatMute.objects.filter(room=room, user_id=member.user_id).exists():
        words = member.moderator_words
        return gettext("%(who)s muted you at this table.") % {"who": words[:1].upper() + words[1:]}
    if member.spectator and not spectators_may_chat(member, room):
        who = member.moderator_words
        return gettext("Spectators may not chat at this table: %(who)s has not allowed it.") % {
            "who": who
        }
    return ""


def clean_text(text: str) -> str:
    """The line as kept: controls and direction overrides removed, whitespace folded."""
    kept = "".join(
        c for c in text if c not in _BIDI and unicodedata.category(c) not in ("Cc", "Cs")
    )
    return " ".join(kept.split())


def _whisper(member: Member, whisper_to: str) -> Whisper | None:
    if not whisper_to:
        return None
    targets = member.whispers()
    if not targets:
        why = gettext("This game allows no private talk: say it to the whole table.")
        raise ValidationError({"whisper_to": [why]})
    found = next((t for t in targets if t.key == whisper_to), None)
    if found is None:
        names = ", ".join(t.name for t in targets)
        why = gettext("At this table you may whisper to %(names)s.") % {"names": names}
        raise ValidationError({"whisper_to": [why]})
    return found


def _recent(qs: Any) -> Any:
    return qs.filter(created_at__gte=timezone.now() - timedelta(seconds=WINDOW_SECONDS))


def chat_send(
    game: TableGame, *, table_id: Any, user: Viewer, text: str, whisper_to: str = ""
) -> ChatLine:
    """Say ``text`` at the table: to everyone, or whispered (``whisper_to``: a key of
    :meth:`Member.whispers`). 403 in words for a muted member or a spectator the host has not
    let talk; 400 for an empty or overlong line or a whisper the game does not allow."""
    member = member_at(game, user, table_id)
    text = clean_text(text)
    if not text:
        raise ValidationError({"text": [gettext("Write something first.")]})
    if len(text) > CHAT_MAX_LENGTH:
        raise ValidationError(
            {"text": [gettext("At most %(count)s characters.") % {"count": CHAT_MAX_LENGTH}]}
        )
    target = _whisper(member, whisper_to)
    with transaction.atomic():
        room = _room(member)
        silent = why_silent(member, room)
        if silent:
            raise PermissionDenied(silent)
        said = ChatLine.objects.filter(room=room, author_id=member.user_id)
        if _recent(said).count() >= CHAT_BURST:
            raise TooFast("messages")
        line = ChatLine.objects.create(
            room=room,
            author_id=member.user_id,
            author_is_gm=member.is_gm,
            spectator=member.spectator,
            text=text,
            to_gms=target is not None and target.user_id is None,
            recipient_id=None if target is None else target.user_id,
            version=int(member.table.version),
        )
        _changed(member, room)
    return line


def chat_react(
    game: TableGame, *, table_id: Any, user: Viewer, line_id: int, reaction: str, on: bool
) -> ChatLine:
    """Add (``on``) or take back ``user``'s ``reaction`` to a line she may read (404 for one
    she may not). Adding one she has already added, or taking back one she has not, changes
    nothing. A muted member may not react either."""
    from .selectors import readable

    member = member_at(game, user, table_id)
    if reaction not in REACTION_KEYS:
        raise ValidationError({"reaction": [gettext("Choose one of the table's reactions.")]})
    room = room_of(member)
    lines = ChatLine.objects.filter(room=room, pk=line_id) if room is not None else None
    line = readable(lines, member).first() if lines is not None else None
    if room is None or line is None:
        raise ValidationError({"line": [gettext("There is no such line at this table.")]})
    with transaction.atomic():
        silent = why_silent(member, room)
        if silent:
            raise PermissionDenied(silent)
        mine = ChatReaction.objects.filter(line=line, user_id=member.user_id, reaction=reaction)
        if on and not mine.exists():
            said = ChatReaction.objects.filter(line__room=room, user_id=member.user_id)
            if _recent(said).count() >= REACTION_BURST:
                raise TooFast("reactions")
            try:
                with transaction.atomic():
                    ChatReaction.objects.create(
                        line=line, user_id=member.user_id, reaction=reaction
                    )
            except IntegrityError:
                pass  # the same reaction sent twice at once: once is enough
            _changed(member, room)
        elif not on and mine.delete()[0]:
            _changed(member, room)
    return line


def _moderating(game: TableGame, table_id: Any, user: Viewer) -> Member:
    member = member_at(game, user, table_id)
    if not member.moderator:
        words = member.moderator_words
        raise PermissionDenied(gettext("Only %(who)s may do that at this table.") % {"who": words})
    return member


def chat_mute(game: TableGame, *, table_id: Any, by: Viewer, user_id: int, muted: bool) -> ChatRoom:
    """The host (or a GM) mutes someone who has spoken at the table, or lets her speak again."""
    member = _moderating(game, table_id, by)
    room = room_of(member)
    spoke = room is not None and (
        ChatLine.objects.filter(room=room, author_id=user_id).exists()
        or ChatMute.objects.filter(room=room, user_id=user_id).exists()
    )
    if room is None or not spoke:
        raise ValidationError({"user": [gettext("Choose someone who has spoken at this table.")]})
    if user_id == member.user_id:
        raise ValidationError({"user": [gettext("You cannot mute yourself.")]})
    author = ChatLine.objects.filter(room=room, author_id=user_id).select_related("author").first()
    if muted and author is not None and _moderates(member, author.author):
        words = gettext("%(name)s moderates this table too.") % {"name": author.author.shown_name}
        raise ValidationError({"user": [words]})
    with transaction.atomic():
        if muted:
            _, made = ChatMute.objects.get_or_create(
                room=room, user_id=user_id, defaults={"by_id": member.user_id}
            )
            if made:
                _changed(member, room)
        elif ChatMute.objects.filter(room=room, user_id=user_id).delete()[0]:
            _changed(member, room)
    return room


def _moderates(member: Member, user: Any) -> bool:
    """Whether ``user`` (not the asker) moderates the table too; someone who may no longer
    see it (she left the campaign) does not."""
    try:
        return member.rules.moderates(user, member.table)
    except (Http404, PermissionDenied):
        return False


def chat_settings(
    game: TableGame, *, table_id: Any, by: Viewer, spectators_may_chat: bool
) -> ChatRoom:
    """The host (or a GM) lets spectators chat at the table, or stops them."""
    member = _moderating(game, table_id, by)
    with transaction.atomic():
        room = _room(member)
        if room.spectators_may_chat != spectators_may_chat:
            ChatRoom.objects.filter(pk=room.pk).update(spectators_may_chat=spectators_may_chat)
            room.spectators_may_chat = spectators_may_chat
            _changed(member, room)
    return room


def table_deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A game table deleted takes its chat (``post_delete``, every model: only tables match)."""
    if isinstance(instance, GameTable):
        ChatRoom.objects.filter(
            table_label=instance._meta.label_lower, table_id=instance.pk
        ).delete()
