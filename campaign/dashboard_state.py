"""The GM dashboard's data: one selector for the page, its live refresh and the API.

:func:`dashboard_state` gathers the party at a glance (each character's HP, spell power,
status effects, drunkenness and level, derived by the engine from the stored draft), the latest
rolls, pending invitations, the next session, recent GM notes and the panels later apps
registered for the "active battles" and "tavern tables" slots (:mod:`campaign.registry`). It
runs a fixed number of queries however many characters the campaign has (the characters and
their inventories are two queries; the engine derives each sheet in memory); a test pins that.

:func:`dashboard_version` is the cheap part of a poll: one query whose answer changes whenever
anything the dashboard shows does (the campaign row is touched by every campaign write; the
characters' latest change and count, the latest roll, and each registered panel's version),
plus the current minute so links expire and sessions start on screen. The page polls with
``If-None-Match`` and an unchanged dashboard answers 304 without building the state.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final

from django.db.models import Count, Max, OuterRef, Subquery
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe

from westernroses.catalog import get_catalog

from .invitations import invitation_path, invitations_pending
from .models import Campaign, GameSession, GMNote, Invitation, Roll
from .registry import DASHBOARD_SLOTS, dashboard_panels
from .selectors import rolls_visible_to
from .sessions import session_upcoming

if TYPE_CHECKING:
    from .permissions import CampaignAccess

LATEST_ROLLS: Final = 10
LATEST_NOTES: Final = 5


@dataclass(frozen=True, slots=True)
class SlotPanel:
    key: str
    title: str
    template: str
    items: list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Party:
    """The party at a glance: its rows (the API's and the selects') and its panel as HTML."""

    rows: list[dict[str, Any]]
    html: str


@dataclass(frozen=True, slots=True)
class DashboardState:
    party: list[dict[str, Any]]
    rolls: list[Roll]
    invitations: list[Invitation]
    upcoming_session: GameSession | None
    notes: list[GMNote]
    slots: dict[str, list[SlotPanel]] = field(default_factory=dict)
    #: The party panel, rendered once per party version (:func:`dashboard_party_cached`).
    party_html: str = ""


def party_row(character: Any, rules: Any) -> dict[str, Any]:
    """One character at a glance, derived by the engine (no queries: inventory prefetched)."""
    from characters.services import CharacterFormatError, character_to_draft
    from westernroses.characters import SheetError, derive_sheet

    catalog = get_catalog()
    statuses = catalog.status_effects
    row: dict[str, Any] = {
        "id": character.pk,
        "name": character.name,
        "owner": character.owner.shown_name,
        "owner_id": character.owner_id,
        "is_npc": character.is_npc,
        "level": character.level,
        "yen": character.yen,
        "url": reverse("characters:sheet", args=[character.pk]),
        "status_effects": [
            {"slug": s, "name": statuses[s].name if s in statuses else s}
            for s in character.status_effects
        ],
        "drunkenness": {"slug": character.drunkenness, "name": character.drunkenness.title()},
        "items": [
            {
                "slug": i.item,
                "name": catalog.items[i.item].name if i.item in catalog.items else i.item,
                "quantity": i.quantity,
                "equipped": i.equipped,
            }
            for i in character.inventory.all()
        ],
        "hp": None,
        "spell_power": {"held": character.spell_power, "cap": None},
        "can_act": True,
        "complete": False,
    }
    try:
        sheet = derive_sheet(character_to_draft(character), rules)
    except (SheetError, CharacterFormatError):
        return row
    hp = sheet.hp
    row.update(
        hp={
            "current": hp.current,
            "max": hp.maximum.total,
            "state": hp.state,
            "mortal_wound_below": hp.mortal_wound_below,
        },
        spell_power={"held": sheet.spell_power.held, "cap": sheet.spell_power.cap},
        drunkenness={"slug": character.drunkenness, "name": sheet.drunkenness.name},
        can_act=sheet.can_act,
        complete=True,
    )
    return row


def dashboard_party(campaign: Campaign, access: CampaignAccess) -> list[dict[str, Any]]:
    """Every character and NPC in the campaign, players' characters first (two queries)."""
    from characters.selectors import characters_in_campaign

    rules = campaign.rules()
    return [party_row(c, rules) for c in characters_in_campaign(access)]


#: How long a rendered party stays cached. Entries are keyed by the party's version, so they
#: are never stale; this only bounds the memory that versions no longer asked for take.
PARTY_CACHE_SECONDS: Final = 600
PARTY_TEMPLATE: Final = "campaign/dashboard/_party.html"


def party_version(campaign: Campaign) -> str:
    """What the party panel depends on, in one aggregate query: the characters' latest change
    and their count (a sheet edit, an inventory change, a level, a new or removed character
    all save a character row) and the campaign row (house rules change the derived sheets;
    awards and every campaign write touch it)."""
    from characters.models import Character

    row = Character.objects.filter(campaign_id=campaign.pk).aggregate(
        changed=Max("updated_at"), count=Count("pk")
    )
    parts = [
        str(campaign.pk),
        campaign.updated_at.isoformat(),
        repr(row["changed"]),
        str(row["count"]),
    ]
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:32]


def dashboard_party_cached(campaign: Campaign, access: CampaignAccess) -> Party:
    """The party rows and the rendered party panel, from the cache under the party's version
    (:func:`party_version`) or built and stored. Why: deriving each sheet and rendering its
    row is the only part of the dashboard whose cost grows with the party; between two
    writes it is the same every time. A write changes the version, so the next request
    misses and rebuilds: the cache never answers with a party older than its version."""
    from django.core.cache import cache
    from django.template.loader import render_to_string

    key = f"dashboard-party:{campaign.pk}:{access.role or ''}:{party_version(campaign)}"
    party = cache.get(key)
    if not isinstance(party, Party):
        rows = dashboard_party(campaign, access)
        party = Party(rows=rows, html=render_to_string(PARTY_TEMPLATE, {"party": rows}))
        cache.set(key, party, PARTY_CACHE_SECONDS)
    # Our own template's output, escaped when it was rendered (a cache may hand back a str).
    return Party(rows=party.rows, html=mark_safe(party.html))  # noqa: S308


def party_row_for(campaign: Campaign, character_id: int) -> dict[str, Any]:
    """One character's party row, fresh from the database (the API's quick-action answer)."""
    from characters.selectors import characters_in_campaign

    from .permissions import CampaignAccess

    everyone = CampaignAccess(campaign_id=campaign.pk, user_id=None, role=None)
    return party_row(characters_in_campaign(everyone).get(pk=character_id), campaign.rules())


def dashboard_state(
    campaign: Campaign, access: CampaignAccess, now: datetime | None = None
) -> DashboardState:
    """Everything the dashboard shows (GMs only: the callers checked ``can_manage``)."""
    slots = {
        slot: [
            SlotPanel(
                key=p.key,
                title=p.title,
                template=p.template,
                items=list(p.items(campaign=campaign, access=access)),
            )
            for p in dashboard_panels(slot)
        ]
        for slot in DASHBOARD_SLOTS
    }
    party = dashboard_party_cached(campaign, access)
    return DashboardState(
        party=party.rows,
        party_html=party.html,
        rolls=list(rolls_visible_to(access)[:LATEST_ROLLS]),
        invitations=list(invitations_pending(campaign.pk, now)),
        upcoming_session=session_upcoming(campaign.pk, now),
        notes=list(
            GMNote.objects.filter(campaign=campaign).select_related("author")[:LATEST_NOTES]
        ),
        slots=slots,
    )


def dashboard_version(
    campaign: Campaign, access: CampaignAccess, now: datetime | None = None
) -> str:
    """An ETag for the dashboard as ``access`` sees it, in one query (plus one per panel
    that declares a version)."""
    from characters.models import Character

    characters = (
        Character.objects.filter(campaign_id=OuterRef("pk")).order_by().values("campaign_id")
    )
    row = (
        Campaign.objects.filter(pk=campaign.pk)
        .annotate(
            characters_changed=Subquery(characters.annotate(m=Max("updated_at")).values("m")[:1]),
            characters_count=Subquery(characters.annotate(n=Count("pk")).values("n")[:1]),
            last_roll=Subquery(
                Roll.objects.filter(campaign_id=OuterRef("pk")).order_by("-pk").values("pk")[:1]
            ),
        )
        .values_list("updated_at", "characters_changed", "characters_count", "last_roll")
        .first()
    )
    minute = (now or timezone.now()).replace(second=0, microsecond=0)
    parts = [str(access.user_id), access.role or "", repr(row), minute.isoformat()]
    parts += [f"{p.key}={p.version(campaign=campaign)}" for p in dashboard_panels() if p.version]
    digest = hashlib.sha256("|".join(parts).encode()).hexdigest()[:32]
    return f'W/"dashboard-{digest}"'


# --------------------------------------------------------------------------- API shape


def dashboard_data(state: DashboardState) -> dict[str, Any]:
    """The state as JSON-safe data (the API's dashboard and the page's live refresh)."""
    session = state.upcoming_session
    return {
        "party": state.party,
        "rolls": [
            {
                "id": r.pk,
                "user": r.user.shown_name,
                "label": r.label,
                "notation": r.notation,
                "target": r.target,
                "dice": r.dice,
                "total": r.total,
                "success": r.success,
                "critical": r.critical,
                "secret": r.secret,
                "created_at": r.created_at.isoformat(),
            }
            for r in state.rolls
        ],
        "invitations": [
            {
                "id": i.pk,
                "role": i.role,
                "url": invitation_path(i),
                "expires_at": i.expires_at.isoformat(),
                "uses": i.uses,
                "max_uses": i.max_uses,
                "invited_user": i.invited_user.username if i.invited_user else None,
                "note": i.note,
            }
            for i in state.invitations
        ],
        "upcoming_session": None
        if session is None
        else {
            "id": session.pk,
            "title": session.title,
            "starts_at": session.starts_at.isoformat(),
            "agenda": session.agenda,
        },
        "notes": [
            {"id": n.pk, "title": n.title, "body": n.body, "updated_at": n.updated_at.isoformat()}
            for n in state.notes
        ],
        "slots": {
            slot: [{"key": p.key, "title": p.title, "items": p.items} for p in panels]
            for slot, panels in state.slots.items()
        },
    }
