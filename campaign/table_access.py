"""Who may see a campaign's game table from its cached head alone: the permission hook the
campaign's games (battles, the tavern) give the table core for its fast poll
(``tables.registry.Audience``; the core's side is ``tables/heads.py``).

A table of a campaign names the campaign's role prefix as its head's scope, and the core
reads ``campaign-role:<campaign>:<user>`` with the head in the same Redis round trip: the
user's role (or ``-``: not a member). A table outside any campaign names no scope: anyone
signed in may watch it. The role is filled only by a read that found it (``SET NX``, after
the core's read of the row with :func:`campaign.permissions.role_column`). Every membership
change (``pre_save``, ``pre_delete``: a role changed, a member added or removed, a campaign
deleted) replaces the entry with a short-lived mark before it is written and again on commit,
so a filling request that read the database before the change cannot store what it read, and
the removed member's very next poll goes to the database (404). A change Redis cannot be told
of is refused (503). A role changed behind the ORM's back (``QuerySet.update``) sends no
signal: call :func:`forget_role` after it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Any, Final

from django.core.cache import cache
from django.db import transaction
from redis.exceptions import RedisError

from apibase.cache_redis import default_redis

from .permissions import CampaignAccess, access_from_row

if TYPE_CHECKING:
    from .models import Campaign

#: How long a role stays (bounds memory: every change replaces it at once).
ROLE_SECONDS: Final = 600
#: How long a membership change keeps its entry from being refilled.
ROLE_MARK_SECONDS: Final = 5
_NOT_MEMBER: Final = "-"
_MARK: Final = "changed"


def role_scope(campaign_id: Any) -> str:
    """The head's scope for a table of ``campaign_id`` ("" for none)."""
    return cache.make_key(f"campaign-role:{campaign_id}") if campaign_id else ""


def role_key(campaign_id: Any, user_id: Any) -> str:
    """Where ``user_id``'s role in ``campaign_id`` is kept (read by the core's head script)."""
    return f"{role_scope(campaign_id)}:{user_id}"


def _client() -> Any | None:
    redis = default_redis()
    return redis.client if redis is not None else None


def remember_role(campaign_id: int, user_id: int, role: str | None) -> None:
    """Store a role read from the database, unless a change's mark holds the entry."""
    client = _client()
    if client is not None:
        with contextlib.suppress(RedisError):
            client.set(
                role_key(campaign_id, user_id), role or _NOT_MEMBER, nx=True, ex=ROLE_SECONDS
            )


def forget_role(campaign_id: Any, user_id: Any) -> None:
    client = _client()
    if client is not None:
        client.set(role_key(campaign_id, user_id), _MARK, ex=ROLE_MARK_SECONDS)


class CampaignAudience:
    """The fast poll's permission hook for tables with a ``campaign_id`` column: a campaign's
    members see its tables (``CampaignAccess.can_view``); a table outside any campaign is
    seen by anyone signed in."""

    def scope(self, table: Any) -> str:
        return role_scope(getattr(table, "campaign_id", None))

    def sees(self, user: Any, head: Any) -> bool | None:
        if not getattr(user, "is_authenticated", False):
            return False
        if not head.scope:
            return True
        if head.grant is None or head.grant == _MARK:
            return None  # not cached, or changing: the database answers
        role = None if head.grant == _NOT_MEMBER else head.grant
        return CampaignAccess(campaign_id=0, user_id=user.pk, role=role).can_view

    def remember(self, user: Any, table: Any) -> None:
        campaign_id = getattr(table, "campaign_id", None)
        if not campaign_id or not getattr(user, "is_authenticated", False):
            return
        access = access_from_row(table, user, campaign_id)
        if access is not None:  # read with the row (the game's seat columns)
            remember_role(campaign_id, user.pk, access.role)


#: The one hook every campaign game registers (``TableGame.audience``).
CAMPAIGN_AUDIENCE: Final = CampaignAudience()


def membership_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A membership's ``pre_save``/``pre_delete`` receiver: the cached role is replaced by the
    mark before the change is written, so a change Redis cannot be told of is refused (the
    ``redis`` error: a 503) rather than made behind a cached role; and again on commit (what
    Redis misses then expires with the first mark)."""
    campaign_id, user_id = instance.campaign_id, instance.user_id
    forget_role(campaign_id, user_id)

    def again() -> None:
        with contextlib.suppress(RedisError):
            forget_role(campaign_id, user_id)

    transaction.on_commit(again, robust=True)


def campaign_notice(
    campaign_of: Callable[[Any], Campaign | None],
) -> Callable[[Any, Collection[int]], tuple[Campaign | None, set[int]]]:
    """The game's ``notice`` hook (``tables.registry.TableHooks``) for tables that may belong
    to a campaign (``campaign_of``): a campaign's table tells only its current members, and
    files the notice under the campaign (its reminder delay); a table outside any campaign
    tells everyone named."""

    def notice(table: Any, user_ids: Collection[int]) -> tuple[Campaign | None, set[int]]:
        campaign = campaign_of(table)
        if campaign is None:
            return None, set(user_ids)
        members = campaign.memberships.filter(user_id__in=list(user_ids))
        return campaign, set(members.values_list("user_id", flat=True))

    return notice
