"""Where the apps above the campaign core plug into it: the timeline, the GM dashboard, status
effects, departures, level-ups and the dice roller's character checks.

The campaign core imports no app above it (``tests/test_import_graph.py``), yet a campaign's
timeline lists sessions, battles and tavern games, its dashboard shows the active battles and
open tavern tables, and its dice roller offers the characters' checks. So it owns small
registries and the apps above fill them from their ``AppConfig.ready()`` (the GM tools' own
timeline sources included: ``gmtools/apps.py``)::

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

Both contracts carry the rules that keep the GM tools' promises:

* a timeline source filters for the viewer itself (``access``: secret rolls, private hands) and
  returns at most ``limit`` entries, newest first, in a constant number of queries;
* a dashboard panel's ``items`` runs a constant number of queries however many characters or
  battles there are (the dashboard's query count is pinned by a test), returns JSON-safe data
  (it is also the API's dashboard state), and ``version`` changes whenever ``items`` would, so
  the dashboard's cheap ETag check sees the change.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from django.utils.translation import gettext_noop as _

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
#: the section says while no app has registered a panel for it (in English: the page shows
#: them in the reader's language).
DASHBOARD_SLOTS: dict[str, tuple[str, str]] = {
    "active_battles": (_("Active battles"), _("Battles arrive with the battle feature.")),
    "tavern_tables": (_("Open tavern tables"), _("Tavern games arrive with the tavern feature.")),
}


@dataclass(frozen=True, slots=True)
class DashboardPanel:
    """A panel in one of the dashboard's :data:`DASHBOARD_SLOTS`.

    ``items(campaign=, access=)`` returns JSON-safe dicts (the API's dashboard state carries
    them as they are) in a constant number of queries; ``template`` renders them as an HTML
    fragment with ``panel``, ``items``, ``campaign`` and ``access`` in its context, and may hold
    the panel's quick actions (e.g. "Start battle" forms). Without one (``""``), the dashboard
    lists each item's ``title`` (linked to its ``url``) and ``detail``, e.g. ``{"title":
    "Battle at the gate", "detail": "Reimu's turn", "url": "/battles/3/"}``.
    ``version(campaign=)`` is one cheap query whose result changes whenever ``items`` would.
    """

    key: str
    slot: str
    title: str
    items: Callable[..., list[dict[str, Any]]]
    template: str = ""
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


# --------------------------------------------------------------------------- character statuses

#: ``listener(*, character, status, applied, by)``: told when a GM applies (``applied=True``)
#: or clears a status effect on a character's sheet, inside the same transaction. Battles use
#: it to give the character's combatant in a running battle the same status, as the GM's
#: logged override (issue 10: a stun from the dashboard showed on the sheet, not in the battle).
StatusListener = Callable[..., None]
_STATUS_LISTENERS: list[StatusListener] = []


def register_status_listener(listener: StatusListener) -> None:
    """Called from an app's ``ready()``; registering the same function twice is harmless."""
    if listener not in _STATUS_LISTENERS:
        _STATUS_LISTENERS.append(listener)


def character_status_changed(
    *, character: Any, status: str, applied: bool, by: CampaignAccess
) -> None:
    """Tell every listener that ``status`` was applied to (or cleared from) ``character``."""
    for listener in _STATUS_LISTENERS:
        listener(character=character, status=status, applied=applied, by=by)


# --------------------------------------------------------------------------- departures
# A member leaves a campaign (or is removed, or her account is deleted), or a character leaves
# it (deleted, moved to another campaign): whatever she was playing in the campaign's games must
# not wait on her for ever, nor hold her yen where nobody can settle it. The campaign and
# characters apps sit below the games, so they announce the departure through here, before it
# happens (her characters are still in the campaign, so a stake can still be settled), and the
# game apps register what to do in their ``ready()``.

#: ``handler(*, campaign_id, user_id, character_ids)``: ``user_id`` is the member leaving (None
#: when only characters leave), ``character_ids`` the characters of the campaign leaving with
#: her or alone. Runs inside the transaction of the change.
DepartureHandler = Callable[..., None]
_DEPARTURE_HANDLERS: dict[str, DepartureHandler] = {}


def register_departure_handler(key: str, handler: DepartureHandler) -> None:
    """Called from an app's ``ready()``; registering the same key again replaces it."""
    _DEPARTURE_HANDLERS[key] = handler


def departing(
    *, campaign_id: int, user_id: int | None = None, character_ids: Iterable[int] = ()
) -> None:
    """Tell every game that ``user_id`` (and/or ``character_ids``) is about to leave the
    campaign: each resigns or hands over what she was playing there."""
    ids = sorted({int(pk) for pk in character_ids})
    if user_id is None and not ids:
        return
    for key in sorted(_DEPARTURE_HANDLERS):
        _DEPARTURE_HANDLERS[key](campaign_id=campaign_id, user_id=user_id, character_ids=ids)


# --------------------------------------------------------------------------- level-ups
# A GM raises a character's level from the character's own page (the characters app) or from
# the dashboard (the GM tools); both must record it for the timeline and tell the table. The
# characters app sits below the GM tools, so it reaches the grant through here; the GM tools
# register it in their ``ready()``.

_LEVEL_UP_GRANT: list[Callable[..., Any]] = []


def register_level_up_grant(grant: Callable[..., Any]) -> None:
    _LEVEL_UP_GRANT[:] = [grant]


def level_up_grant(**kwargs: Any) -> Any:
    """Raise a character's level through the registered grant (``gmtools.party``)."""
    if not _LEVEL_UP_GRANT:
        raise RuntimeError("No level-up grant is registered (the GM tools are not ready).")
    return _LEVEL_UP_GRANT[0](**kwargs)


# --------------------------------------------------------------------------- roll checks
# The dice roller offers the checks of the characters a user may roll for ("Cirno:
# Intelligence (6d)", the pool and modifier from the sheet). Characters sit above the campaign
# core, so the characters app registers where the checks come from in its ``ready()``.


class RollCheck(Protocol):
    """One roll the dice page offers: ``value`` names it in forms, ``label`` in a select box,
    ``name`` in the roll log; ``dice`` and ``modifier`` are the pool the sheet gives."""

    @property
    def value(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def label(self) -> str: ...
    @property
    def dice(self) -> int: ...
    @property
    def modifier(self) -> int: ...


#: ``source(user, access)``: the checks ``user`` may roll, in the campaign of ``access`` (None:
#: outside any campaign).
RollCheckSource = Callable[[Any, "CampaignAccess | None"], Sequence[RollCheck]]
_ROLL_CHECKS: list[RollCheckSource] = []


def register_roll_checks(source: RollCheckSource) -> None:
    """Called from the characters app's ``ready()``; registering again replaces it."""
    _ROLL_CHECKS[:] = [source]


def roll_checks(user: Any, access: CampaignAccess | None) -> list[RollCheck]:
    """The checks ``user`` may roll (none while no app registered a source)."""
    return list(_ROLL_CHECKS[0](user, access)) if _ROLL_CHECKS else []


# --------------------------------------------------------------------------- mentions
# A campaign's texts name its rows by id (the wiki stores ``@[[handout:4]]``, so a renamed
# handout keeps its links), and a calendar event names a wiki entry. The apps that own the rows
# sit side by side (the GM tools beside the wiki), so each registers its kinds here in its
# ``ready()`` and the others ask through here, never importing each other. Every answer is cut
# to what the viewer may see: a player is never told the name of a handout or entry she may not
# see, in a suggestion, a preview or a link.


@dataclass(frozen=True, slots=True)
class MentionKind:
    """One kind of row a text may mention: ``key`` as stored (``handout``), ``label`` in words.

    * ``shown(access=, ids=)``: ``{id: (name, url)}`` for the ids of the campaign ``access``
      may see (one query); an id hidden from her, or of another campaign, is not in it.
    * ``named(campaign_id=, name=)``: the id of the campaign's row of that name (case does not
      matter), or None. Called while a GM writes, so it does not filter.
    * ``starting(access=, prefix=, limit=)``: ``[(id, name)]`` of rows ``access`` may see whose
      name starts with ``prefix``, at most ``limit``, in name order (the suggestions).
    * ``in_campaign(campaign_id=, ids=)``: the ids that are rows of the campaign (a mention of a
      deleted row, or of another campaign's, is not kept).
    """

    key: str
    label: str
    shown: Callable[..., dict[int, tuple[str, str]]]
    named: Callable[..., int | None]
    starting: Callable[..., list[tuple[int, str]]]
    in_campaign: Callable[..., set[int]]


_MENTION_KINDS: dict[str, MentionKind] = {}
#: ``source(access=, key=, pk=)``: ``[(name, url)]`` of what mentions the row where ``access``
#: may see the mention (the wiki's "Linked from", for a handout's or a session's page).
_MENTIONED_IN: list[Callable[..., list[tuple[str, str]]]] = []


def register_mention_kind(kind: MentionKind) -> None:
    """Called from an app's ``ready()``; registering a key again replaces it."""
    _MENTION_KINDS[kind.key] = kind


def mention_kinds() -> dict[str, MentionKind]:
    return dict(_MENTION_KINDS)


def mention_kind(key: str) -> MentionKind | None:
    return _MENTION_KINDS.get(key)


def register_mentioned_in(source: Callable[..., list[tuple[str, str]]]) -> None:
    _MENTIONED_IN[:] = [source]


def mentioned_in(*, access: CampaignAccess, key: str, pk: int) -> list[tuple[str, str]]:
    """What mentions row ``pk`` of kind ``key``, as ``access`` may see it (empty while no app
    registered a source)."""
    return list(_MENTIONED_IN[0](access=access, key=key, pk=pk)) if _MENTIONED_IN else []
