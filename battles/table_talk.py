"""What is pointed at around a battle's table, and the battle's chat rules.

Chat lives in the table core (:mod:`tables.chat`, docs/table-chat.md); a battle gives it its
rules (:func:`register_battle_chat`): the GMs read every line and moderate, a player whispers
to the GMs and a GM to one player. The screen reads its chat lines through one small feed
(:func:`table_feed`) it asks for beside the view poll, with the pings.

* Pings: a square someone points at; everyone's screen shows it for a few seconds. Rows older
  than :data:`PING_KEEP_SECONDS` are deleted whenever someone pings, so the table stays tiny.
  Throttled per member (:data:`PING_BURST`): 429 in words.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any, Final

from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from rest_framework.exceptions import Throttled

from apibase import push
from campaign.models import Membership, Role
from campaign.permissions import CampaignAccess
from tables.chat.rules import ChatRules, Whisper, register_chat
from tables.chat.selectors import chat_lines, muted_at
from tables.chat.services import member_of, room_of
from tables.clocks.services import clock_payload

from .models import Battle, Combatant, TablePing

if TYPE_CHECKING:
    from accounts.models import User

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


# --------------------------------------------------------------------------- chat rules


def _is_gm(user: Any, battle: Battle) -> bool:
    from .services import _battle_access

    return _battle_access(user, battle).is_gm


def _whispers(user: Any, battle: Battle, seat: Any) -> list[Whisper]:
    """A player whispers to the GMs; a GM to any one player of the campaign."""
    if not _is_gm(user, battle):
        return [Whisper("gm", gettext("the GMs"))]
    players = (
        Membership.objects.filter(campaign_id=battle.campaign_id, role=Role.PLAYER)
        .select_related("user")
        .order_by("user__username")
    )
    return [Whisper(str(m.user_id), m.user.shown_name, m.user_id) for m in players]


def _gm_words(battle: Battle) -> str:
    """Who moderates a battle's chat, in the reader's language (asked when a page or a refusal
    is made)."""
    return gettext("a GM")


def register_battle_chat() -> None:
    """The battle's chat rules (``BattlesConfig.ready``)."""
    register_chat(
        "battle",
        ChatRules(
            moderates=_is_gm,
            moderator_words=_gm_words,
            is_gm=_is_gm,
            whispers=_whispers,
        ),
    )


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
        raise ValidationError({"square": [gettext("That square is outside the arena.")]})
    del access
    pings = TablePing.objects.filter(battle=battle)
    if _recent(pings.filter(author=author), PING_WINDOW_SECONDS).count() >= PING_BURST:
        raise TooFast("pings", PING_WINDOW_SECONDS)
    stale = timezone.now() - timedelta(seconds=PING_KEEP_SECONDS)
    TablePing.objects.filter(battle=battle, created_at__lt=stale).delete()
    ping = TablePing.objects.create(battle=battle, author=author, x=x, y=y)
    feed_changed([battle.pk])
    return ping


def feed_changed(battle_ids: Any) -> None:
    """Open battle screens read their feed again once this commits: a ping, a map laid or
    re-aligned under a battle, its turn clock set or paused (none moves its version). The
    table's socket hears the same bare note as for a chat line (``{"type": "chat"}``); the page
    asks for what it may see."""
    label = Battle._meta.label_lower
    for pk in battle_ids:
        push.send_on_commit(push.table_group(label, pk), {"type": "table.chat"})


# --------------------------------------------------------------------------- the feed


def member_names(campaign_id: int) -> dict[int, str]:
    return {
        m.user_id: m.user.shown_name
        for m in Membership.objects.filter(campaign_id=campaign_id).select_related("user")
    }


def table_feed(
    *,
    battle: Battle,
    user: Any,
    access: CampaignAccess,
    chat_after: int | None,
    chat_before: int | None,
    pings_after: int,
) -> dict[str, Any]:
    """New chat lines from the table's chat (after ``chat_after``; none given: the last page;
    ``chat_before``: the page before it, for scrolling back) and the pings of the last few
    seconds."""
    from .services import BATTLE_GAME, engine_player

    # the access the caller read, where the battle's hooks look for it (no second query)
    battle.__dict__.setdefault("_access", {})[user.pk] = access
    member = member_of(BATTLE_GAME, battle, user, engine_player(access))
    chat, older = chat_lines(member, room_of(member), after=chat_after, before=chat_before)
    pings = list(
        _recent(
            TablePing.objects.filter(battle=battle, pk__gt=pings_after), PING_SHOW_SECONDS
        ).order_by("pk")[:50]
    )
    names = member_names(battle.campaign_id) if pings else {}
    return {
        "clock": clock_payload(battle),
        "chat": chat,
        "chat_older": older,
        "chat_muted": muted_at(member),
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
