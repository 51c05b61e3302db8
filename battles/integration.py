"""Battles in the campaign's timeline and on the GM dashboard (:mod:`campaign.registry`).

:func:`register` is called once from ``CampaignConfig.ready()``. Both contributions keep the
registry's promises: a constant number of queries however many battles there are, newest
first, JSON-safe items, and a version that changes whenever the items would.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any, Final, cast

from django.db.models import Count, Max
from django.utils.translation import gettext

from campaign.registry import (
    DashboardPanel,
    TimelineEntry,
    register_dashboard_panel,
    register_status_listener,
    register_timeline_source,
)

from .models import Battle, BattleStatus

if TYPE_CHECKING:
    from campaign.models import Campaign
    from campaign.permissions import CampaignAccess

#: The dashboard lists at most this many running (or being set up) battles.
DASHBOARD_BATTLES: Final = 10


def battle_timeline(*, access: CampaignAccess, limit: int) -> list[TimelineEntry]:
    """A battle's start and end, for every member (two queries)."""
    from .services import battle_url

    if not access.can_view:
        return []
    battles = Battle.objects.filter(campaign_id=access.campaign_id).only(
        "pk", "name", "started_at", "ended_at", "summary", "summary_words", "campaign_id"
    )
    entries = [
        TimelineEntry(
            kind="battle",
            at=cast(datetime, b.started_at),  # filtered: started
            title=gettext("Battle started: %(name)s") % {"name": b.name},
            ref=f"battle:{b.pk}:started",
            url=battle_url(b),
            data={"battle": b.pk, "event": "started"},
        )
        for b in battles.filter(started_at__isnull=False).order_by("-started_at", "-pk")[:limit]
    ]
    entries += [
        TimelineEntry(
            kind="battle",
            at=cast(datetime, b.ended_at),  # filtered: ended
            title=gettext("Battle ended: %(name)s") % {"name": b.name},
            body=b.turn_summary,
            ref=f"battle:{b.pk}:ended",
            url=battle_url(b),
            data={"battle": b.pk, "event": "ended"},
        )
        for b in battles.filter(ended_at__isnull=False).order_by("-ended_at", "-pk")[:limit]
    ]
    return entries


def _open_battles(campaign: Campaign) -> Any:
    return Battle.objects.filter(
        campaign=campaign, status__in=(BattleStatus.SETUP, BattleStatus.ACTIVE)
    )


def dashboard_items(*, campaign: Campaign, access: CampaignAccess) -> list[dict[str, Any]]:
    """Running battles and battles being set up, with whose turn it is (one query)."""
    from .services import battle_url

    rows = (
        _open_battles(campaign)
        .only("pk", "name", "status", "summary", "summary_words", "campaign_id")
        .order_by("-updated_at", "-pk")[:DASHBOARD_BATTLES]
    )
    return [
        {
            "title": b.name,
            "detail": b.turn_summary,
            "url": battle_url(b),
            "status": b.status,
            "id": b.pk,
        }
        for b in rows
    ]


def dashboard_version(*, campaign: Campaign) -> str:
    """Changes whenever an open battle changes (its row's ``updated_at``) or one opens or
    closes (one query)."""
    row = _open_battles(campaign).aggregate(n=Count("pk"), last=Max("updated_at"))
    return f"{row['n']}:{row['last'].isoformat() if row['last'] else '-'}"


def status_to_running_battles(
    *, character: Any, status: str, applied: bool, by: CampaignAccess
) -> None:
    """A status the GM applies to (or clears from) a character's sheet reaches her combatant in
    every running battle, as the GM's override: logged like any action, with the GM as actor.

    Statuses the battle engine does not track, and a combatant who cannot take it (a doll is
    immune, she has no such effect to clear), leave the battle as it is: the sheet still changes.
    """
    from django.contrib.auth import get_user_model
    from django.core.exceptions import ValidationError

    from westernroses.battle import STATUS_KEYS

    from .models import Combatant
    from .services import StaleVersion, battle_action_apply

    if status not in STATUS_KEYS or by.user_id is None:
        return
    rows = list(
        Combatant.objects.filter(character=character, battle__status=BattleStatus.ACTIVE)
        .select_related("battle")
        .order_by("battle_id")
    )
    if not rows:
        return
    gm = get_user_model().objects.get(pk=by.user_id)
    for row in rows:
        action = {
            "type": "gm_add_status" if applied else "gm_remove_status",
            "combatant": row.engine_id,
            "status": status,
        }
        for _attempt in range(3):  # someone moved first: read the version again
            version = Battle.objects.values_list("version", flat=True).get(pk=row.battle_id)
            try:
                battle_action_apply(
                    battle_id=row.battle_id, actor=gm, action=action, expected_version=version
                )
            except StaleVersion:
                continue
            except ValidationError:
                pass  # the engine refused (immune, nothing to clear): the battle stays as is
            break


def register() -> None:
    from campaign.registry import register_departure_handler

    from .services import battle_departure

    register_departure_handler("battles", battle_departure)
    register_timeline_source("battle", battle_timeline)
    register_status_listener(status_to_running_battles)
    register_dashboard_panel(
        DashboardPanel(
            key="battles",
            slot="active_battles",
            title="Battles",
            items=dashboard_items,
            template="battles/_dashboard.html",
            version=dashboard_version,
        )
    )
