"""Where later features plug into a campaign's timeline and the GM dashboard.

The campaign app cannot know about battles or tavern games (they come later, in their own
apps), yet its timeline must list them and its dashboard must show the active battles and open
tavern tables. So it owns two small registries and the apps fill them from their
``AppConfig.ready()``::

    from campaign.registry import DashboardPanel, TimelineEntry, register_dashboard_panel
    from campaign.registry import register_timeline_source

    def battle_entries(*, access, limit):          # newest first, at most ``limit``
        return [TimelineEntry(kind="battle", at=b.started_at, title=..., ref=f"battle:{b.pk}")
                for b in Battle.objects.filter(campaign_id=access.campaign_id)
                                       .order_by("-started_at")[:limit]]

    register_timeline_source("battle", battle_entries)
    register_dashboard_panel(DashboardPanel(
        key="battles", slot="active_battles", title="Active battles",
        items=lambda *, campaign, access: [         # JSON-safe, a constant number of queries
            {"title": "Battle at the gate", "detail": "Reimu's turn", "url": "/battles/3/"}],
        template="battles/_dashboard.html",         # optional: gets ``items``, ``campaign``
        version=lambda *, campaign: str(...),       # one cheap query: changes when items change
    ))

Both contracts carry the rules that keep the campaign features' promises:

* a timeline source filters for the viewer itself (``access``: secret rolls, private hands) and
  returns at most ``limit`` entries, newest first, in a constant number of queries;
* a dashboard panel's ``items`` runs a constant number of queries however many characters or
  battles there are (the dashboard's query count is pinned by a test), returns JSON-safe data
  (it is also the API's dashboard state), and ``version`` changes whenever ``items`` would, so
  the dashboard's cheap ETag check sees the change.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .models import Campaign
    from .permissions import CampaignAccess


# --------------------------------------------------------------------------- timeline


@dataclass(frozen=True, slots=True)
class TimelineEntry:
    """One thing that happened in a campaign, as one viewer may see it.

    ``ref`` is unique across the timeline (``"award:12"``) and breaks ties between entries at
    the same instant, so pages never shuffle. ``data`` holds kind-specific details for the API.
    """

    kind: str
    at: datetime
    title: str
    ref: str
    body: str = ""
    url: str = ""
    actor: str = ""
    data: dict[str, Any] = field(default_factory=dict)

    def sort_key(self) -> tuple[datetime, str]:
        return (self.at, self.ref)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "at": self.at.isoformat(),
            "title": self.title,
            "body": self.body,
            "url": self.url,
            "actor": self.actor,
            "ref": self.ref,
            "data": self.data,
        }


class TimelineSource(Protocol):
    """Entries of one kind that ``access`` may see, newest first, at most ``limit``."""

    def __call__(self, *, access: CampaignAccess, limit: int) -> Iterable[TimelineEntry]: ...


_timeline_sources: dict[str, TimelineSource] = {}


def register_timeline_source(kind: str, source: TimelineSource) -> None:
    """Add (or replace, for tests and reloads) the source of ``kind`` entries."""
    _timeline_sources[kind] = source


def unregister_timeline_source(kind: str) -> None:
    _timeline_sources.pop(kind, None)


def timeline_sources() -> dict[str, TimelineSource]:
    """Registered sources by kind (a copy: iterate freely)."""
    return dict(_timeline_sources)


# --------------------------------------------------------------------------- dashboard

#: The dashboard's sections that later apps fill, in page order, with their headings and what
#: the section says while no app has registered a panel for it.
DASHBOARD_SLOTS: dict[str, tuple[str, str]] = {
    "active_battles": ("Active battles", "Battles arrive with the battle feature."),
    "tavern_tables": ("Open tavern tables", "Tavern games arrive with the tavern feature."),
}


@dataclass(frozen=True, slots=True)
class DashboardPanel:
    """A panel in one of the dashboard's :data:`DASHBOARD_SLOTS`.

    ``items(campaign=, access=)`` returns JSON-safe dicts (the API's dashboard state carries
    them as they are) in a constant number of queries; ``template`` renders them as an HTML
    fragment with ``panel``, ``items``, ``campaign`` and ``access`` in its context, and may hold
    the panel's quick actions (e.g. "Start battle" forms). The default template lists each
    item's ``title`` (linked to its ``url``) and ``detail``, e.g. ``{"title": "Battle at the
    gate", "detail": "Reimu's turn", "url": "/battles/3/"}``.
    ``version(campaign=)`` is one cheap query whose result changes whenever ``items`` would.
    """

    key: str
    slot: str
    title: str
    items: Callable[..., list[dict[str, Any]]]
    template: str = "campaign/dashboard/_panel_items.html"
    version: Callable[..., str] | None = None
    order: int = 100


_dashboard_panels: dict[str, DashboardPanel] = {}


def register_dashboard_panel(panel: DashboardPanel) -> None:
    if panel.slot not in DASHBOARD_SLOTS:
        raise ValueError(
            f"Unknown dashboard slot {panel.slot!r}; use one of {list(DASHBOARD_SLOTS)}."
        )
    _dashboard_panels[panel.key] = panel


def unregister_dashboard_panel(key: str) -> None:
    _dashboard_panels.pop(key, None)


def dashboard_panels(slot: str | None = None) -> list[DashboardPanel]:
    """Registered panels (of one slot), in order."""
    panels = [p for p in _dashboard_panels.values() if slot is None or p.slot == slot]
    return sorted(panels, key=lambda p: (p.order, p.key))


def panel_items(panel: DashboardPanel, *, campaign: Campaign, access: CampaignAccess) -> list[Any]:
    return list(panel.items(campaign=campaign, access=access))


# --------------------------------------------------------------------------- level-ups
# A GM raises a character's level from the character's own page (the characters app) or from
# the dashboard (campaign features); both must record it for the timeline and tell the table.
# The characters app sits below the campaign features, so it reaches the grant through here;
# the campaign app registers it in its ``ready()``.

_LEVEL_UP_GRANT: list[Callable[..., Any]] = []


def register_level_up_grant(grant: Callable[..., Any]) -> None:
    _LEVEL_UP_GRANT[:] = [grant]


def level_up_grant(**kwargs: Any) -> Any:
    """Raise a character's level through the registered grant (``campaign.party``)."""
    if not _LEVEL_UP_GRANT:
        raise RuntimeError("No level-up grant is registered (the campaign app is not ready).")
    return _LEVEL_UP_GRANT[0](**kwargs)
