"""The GM tools' rows that a campaign's texts may mention: sessions and handouts
(``campaign.registry.MentionKind``; the wiki stores ``@[[session:4]]`` and ``@[[handout:7]]``).

Every member sees the campaign's sessions; a handout is seen by the GMs and by whom it is
shared with (:func:`gmtools.handouts.visible_filter`), so a player is never offered, shown or
linked a handout that is not hers.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.urls import reverse

from campaign.registry import MentionKind, register_mention_kind

from .handouts import visible_filter
from .models import GameSession, Handout

if TYPE_CHECKING:
    from campaign.permissions import CampaignAccess


def _ids(ids: Iterable[int]) -> list[int]:
    return sorted({int(i) for i in ids})


def _prefix(prefix: str) -> str:
    return " ".join(prefix.replace("\x00", "").split())[:120]


def sessions_shown(*, access: CampaignAccess, ids: Iterable[int]) -> dict[int, tuple[str, str]]:
    if not access.is_member:
        return {}
    rows = GameSession.objects.filter(campaign_id=access.campaign_id, pk__in=_ids(ids))
    return {
        pk: (title, reverse("gmtools:session_detail", args=[access.campaign_id, pk]))
        for pk, title in rows.values_list("pk", "title")
    }


def session_named(*, campaign_id: int, name: str) -> int | None:
    return (
        GameSession.objects.filter(campaign_id=campaign_id, title__iexact=name.strip())
        .order_by("-starts_at", "pk")
        .values_list("pk", flat=True)
        .first()
    )


def sessions_starting(*, access: CampaignAccess, prefix: str, limit: int) -> list[tuple[int, str]]:
    if not access.is_member:
        return []
    rows = GameSession.objects.filter(
        campaign_id=access.campaign_id, title__istartswith=_prefix(prefix)
    ).order_by("title", "pk")
    return list(rows.values_list("pk", "title")[:limit])


def handouts_shown(*, access: CampaignAccess, ids: Iterable[int]) -> dict[int, tuple[str, str]]:
    if not access.is_member:
        return {}
    rows = (
        Handout.objects.filter(campaign_id=access.campaign_id, pk__in=_ids(ids))
        .filter(visible_filter(access))
        .distinct()
    )
    return {
        pk: (title, reverse("gmtools:handout_detail", args=[access.campaign_id, pk]))
        for pk, title in rows.values_list("pk", "title")
    }


def handout_named(*, campaign_id: int, name: str) -> int | None:
    return (
        Handout.objects.filter(campaign_id=campaign_id, title__iexact=name.strip())
        .order_by("pk")
        .values_list("pk", flat=True)
        .first()
    )


def handouts_starting(*, access: CampaignAccess, prefix: str, limit: int) -> list[tuple[int, str]]:
    if not access.is_member:
        return []
    rows = (
        Handout.objects.filter(campaign_id=access.campaign_id, title__istartswith=_prefix(prefix))
        .filter(visible_filter(access))
        .distinct()
        .order_by("title", "pk")
    )
    return list(rows.values_list("pk", "title")[:limit])


def sessions_in(*, campaign_id: int, ids: Iterable[int]) -> set[int]:
    rows = GameSession.objects.filter(campaign_id=campaign_id, pk__in=_ids(ids))
    return set(rows.values_list("pk", flat=True))


def handouts_in(*, campaign_id: int, ids: Iterable[int]) -> set[int]:
    rows = Handout.objects.filter(campaign_id=campaign_id, pk__in=_ids(ids))
    return set(rows.values_list("pk", flat=True))


def register() -> None:
    register_mention_kind(
        MentionKind(
            key="session",
            label="Session",
            shown=sessions_shown,
            named=session_named,
            starting=sessions_starting,
            in_campaign=sessions_in,
        )
    )
    register_mention_kind(
        MentionKind(
            key="handout",
            label="Handout",
            shown=handouts_shown,
            named=handout_named,
            starting=handouts_starting,
            in_campaign=handouts_in,
        )
    )
