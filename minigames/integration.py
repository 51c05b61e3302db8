"""The tavern in the campaign's timeline and on the GM dashboard (:mod:`campaign.registry`).

Timeline: stakes held when a game starts, and each finished game with its result and where
the pot went (or that the stakes were returned). Dashboard: the "Open tavern tables" panel,
the campaign's tables waiting for players or in play. Both keep the registry's promises: a
constant number of queries, newest first, JSON-safe items, a version that moves with them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from django.db.models import Count, Exists, Max, OuterRef, Q
from django.db.models.functions import Coalesce
from django.utils.translation import gettext

from campaign.registry import (
    DashboardPanel,
    TimelineEntry,
    register_dashboard_panel,
    register_timeline_source,
)
from minigames.engines.registry import get_engine
from tables.models import TableStatus

from .models import TavernSeat, TavernTable

if TYPE_CHECKING:
    from campaign.models import Campaign
    from campaign.permissions import CampaignAccess

DASHBOARD_TABLES: Final = 10


def _url(table: TavernTable) -> str:
    return f"/tavern/tables/{table.pk}/"


def _names(table: TavernTable, seats: list[str]) -> str:
    names = table.stakes.get("names") or {}
    return ", ".join(
        str(names.get(s, gettext("seat %(number)s") % {"number": int(s) + 1})) for s in seats
    )


def tavern_timeline(*, access: CampaignAccess, limit: int) -> list[TimelineEntry]:
    """Stakes held, and finished games with their result and stakes (one query: a table's
    newest entry is at its end, or its start while it runs, so the ``limit`` newest tables
    by that instant hold the ``limit`` newest entries)."""
    if not access.can_view:
        return []
    tables = (
        TavernTable.objects.filter(campaign_id=access.campaign_id)
        .filter(Q(ended_at__isnull=False) | Q(stake__gt=0, started_at__isnull=False))
        .only(
            "pk", "game", "summary", "summary_words", "stake", "stakes", "started_at",
            "ended_at", "abandoned", "campaign_id",
        )
        .annotate(last=Coalesce("ended_at", "started_at"))
        .order_by("-last", "-pk")[:limit]
    )  # fmt: skip
    entries = []
    for t in tables:
        title = get_engine(t.game).title
        held = t.stakes.get("held") or {}
        if held and t.started_at is not None:
            entries.append(
                TimelineEntry(
                    kind="tavern",
                    at=t.started_at,
                    title=gettext("Tavern stakes held: %(stake)s yen each at %(game)s")
                    % {"stake": t.stake, "game": title},
                    body=gettext("Staking: %(names)s.") % {"names": _names(t, sorted(held))},
                    ref=f"tavern:{t.pk}:stakes",
                    url=_url(t),
                    data={"table": t.pk, "event": "stakes_held", "held": held},
                )
            )
        if t.ended_at is None:
            continue
        paid = t.stakes.get("paid") or {}
        # "Abandoned." is in the title; the summary in the reader's language
        lines = [] if t.abandoned else [t.summary_in_language]
        if paid:
            winners = ", ".join(
                gettext("%(name)s (%(yen)s yen)") % {"name": _names(t, [s]), "yen": y}
                for s, y in sorted(paid.items())
            )
            lines.append(gettext("The pot went to %(winners)s.") % {"winners": winners})
        elif t.stakes.get("returned"):
            lines.append(gettext("The stakes were returned."))
        forfeited = sorted(t.stakes.get("forfeited") or {})
        if forfeited:
            lines.append(
                gettext(
                    "%(names)s left the campaign during the game; the stakes stayed with the "
                    "others."
                )
                % {"names": _names(t, forfeited)}
            )
        event = "abandoned" if t.abandoned else "finished"
        heading = (
            gettext("Tavern game abandoned: %(game)s")
            if t.abandoned
            else gettext("Tavern game finished: %(game)s")
        )
        entries.append(
            TimelineEntry(
                kind="tavern",
                at=t.ended_at,
                title=heading % {"game": title},
                body=" ".join(x for x in lines if x),
                ref=f"tavern:{t.pk}:ended",
                url=_url(t),
                data={"table": t.pk, "event": event, "paid": paid},
            )
        )
    return entries


def _open(campaign: Campaign) -> Any:
    return TavernTable.objects.filter(
        campaign=campaign, status__in=(TableStatus.SETUP, TableStatus.ACTIVE)
    )


def dashboard_items(*, campaign: Campaign, access: CampaignAccess) -> list[dict[str, Any]]:
    """The campaign's tables waiting for players or in play (one query)."""
    open_seat = TavernSeat.objects.filter(table=OuterRef("pk"), user__isnull=True, bot="")
    rows = (
        _open(campaign)
        .only("pk", "game", "status", "summary", "summary_words", "stake", "campaign_id")
        .annotate(open_seat=Exists(open_seat))
        .order_by("-updated_at", "-pk")[:DASHBOARD_TABLES]
    )
    return [
        {
            "title": gettext("%(game)s for %(stake)s yen")
            % {"game": get_engine(t.game).title, "stake": t.stake}
            if t.stake
            else get_engine(t.game).title,
            # a table in setup has no game yet: its summary says only what this says
            "detail": t.summary_in_language
            if t.status == TableStatus.ACTIVE
            else gettext("Waiting for players.")
            if t.open_seat
            else gettext("Ready to start."),
            "url": _url(t),
            "status": t.status,
            "id": t.pk,
        }
        for t in rows
    ]


def dashboard_version(*, campaign: Campaign) -> str:
    row = _open(campaign).aggregate(n=Count("pk"), last=Max("updated_at"))
    return f"{row['n']}:{row['last'].isoformat() if row['last'] else '-'}"


def register() -> None:
    register_timeline_source("tavern", tavern_timeline)
    register_dashboard_panel(
        DashboardPanel(
            key="tavern",
            slot="tavern_tables",
            title="Open tavern tables",
            items=dashboard_items,
            version=dashboard_version,
        )
    )
