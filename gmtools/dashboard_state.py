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
:func:`dashboard_versions` gives the same query's party version too, so a page that needs both
asks once.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

from django.db import connection
from django.db.models import Count, Max
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe

from apibase.redis_down import soft_get, soft_set
from campaign.models import Campaign, Roll
from campaign.permissions import CampaignAccess
from campaign.registry import DASHBOARD_SLOTS, dashboard_panels
from campaign.selectors import rolls_visible_to
from characters.models import Character
from characters.selectors import characters_in_campaign
from characters.services import CharacterFormatError, character_to_draft
from westernroses.catalog import get_catalog
from westernroses.characters import SheetError, derive_sheet

from .invitations import invitation_path, invitations_pending
from .models import GameSession, GMNote, Invitation
from .rsvp import RsvpCounts, rsvp_counts
from .sessions import session_upcoming
from .world import WorldDate, world_date

LATEST_ROLLS: Final = 10
#: How a registered panel without a template of its own shows its items.
PANEL_TEMPLATE: Final = "gmtools/dashboard/_panel_items.html"
LATEST_NOTES: Final = 5


@dataclass(frozen=True, slots=True)
class SlotPanel:
    key: str
    title: str
    template: str
    items: list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Party:
    """The party at a glance: its rows (the API's and the selects'), its panel as HTML and the
    quick actions' choices of character as HTML (:func:`party_choices`)."""

    rows: list[dict[str, Any]]
    html: str
    choices: dict[str, str] = field(default_factory=dict)


def party_choices(rows: list[dict[str, Any]]) -> dict[str, str]:
    """The quick actions' character choices, rendered once with the party (their cost grows
    with it): ``checks`` (the award's tick boxes), ``options`` (every character) and
    ``npc_options`` (the NPCs)."""
    checks = format_html_join(
        "",
        '<label><input type="checkbox" name="characters" value="{}" '
        'id="award-character-{}"> {}</label>',
        ((r["id"], r["id"], r["name"]) for r in rows),
    ) or mark_safe('<span class="muted">No characters yet.</span>')
    options = format_html_join(
        "", '<option value="{}">{}</option>', ((r["id"], r["name"]) for r in rows)
    )
    npcs = format_html_join(
        "", '<option value="{}">{}</option>', ((r["id"], r["name"]) for r in rows if r["is_npc"])
    )
    return {"checks": checks, "options": options, "npc_options": npcs}


@dataclass(frozen=True, slots=True)
class DashboardState:
    party: list[dict[str, Any]]
    rolls: list[Roll]
    invitations: list[Invitation]
    upcoming_session: GameSession | None
    notes: list[GMNote]
    #: The answers to the next session (None without one) and the in-world date.
    rsvp: RsvpCounts | None = None
    world: WorldDate | None = None
    slots: dict[str, list[SlotPanel]] = field(default_factory=dict)
    #: The party panel, rendered once per party version (:func:`dashboard_party_cached`).
    party_html: str = ""


def party_row(character: Any, rules: Any) -> dict[str, Any]:
    """One character at a glance, derived by the engine (no queries: inventory prefetched)."""
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
    rules = campaign.rules()
    return [party_row(c, rules) for c in characters_in_campaign(access)]


#: How long a rendered party stays cached. Entries are keyed by the party's version, so they
#: are never stale; this only bounds the memory that versions no longer asked for take.
PARTY_CACHE_SECONDS: Final = 600
PARTY_TEMPLATE: Final = "gmtools/dashboard/_party.html"


def party_version(campaign: Campaign) -> str:
    """What the party panel depends on, in one aggregate query: the characters' latest change
    and their count (a sheet edit, an inventory change, a level, a new or removed character
    all save a character row) and the campaign row (house rules change the derived sheets;
    awards and every campaign write touch it)."""
    row = Character.objects.filter(campaign_id=campaign.pk).aggregate(
        changed=Max("updated_at"), count=Count("pk")
    )
    return _party_digest(campaign.pk, campaign.updated_at, row["changed"], row["count"])


def _party_digest(campaign_id: int, updated_at: datetime, changed: Any, count: Any) -> str:
    parts = [str(campaign_id), updated_at.isoformat(), repr(changed), str(count or 0)]
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:32]


#: Bumped when what :class:`Party` holds changes, so an entry an older release stored under
#: the same party version is not read as the new shape.
PARTY_CACHE_FORMAT: Final = 2


def party_cache_key(campaign: Campaign, access: CampaignAccess, version: str) -> str:
    """Where the party of ``version`` (:func:`party_version`) is cached for ``access``'s role,
    in the reader's language (the panel's words are rendered into it)."""
    language = translation.get_language()
    return (
        f"dashboard-party:{PARTY_CACHE_FORMAT}:{campaign.pk}:{access.role or ''}:{language}:"
        f"{version}"
    )


def dashboard_party_cached(
    campaign: Campaign, access: CampaignAccess, version: str | None = None, found: Any = None
) -> Party:
    """The party rows and the rendered party panel, from the cache under the party's version
    (:func:`party_version`, or ``version`` when the caller read it already) or built and
    stored; ``found``: what the caller already read from the cache under that key. Why:
    deriving each sheet and rendering its row is the only part of the dashboard whose cost
    grows with the party; between two writes it is the same every time. A write changes the
    version, so the next request misses and rebuilds: the cache never answers with a party
    older than its version."""
    key = party_cache_key(campaign, access, version or party_version(campaign))
    party = found if found is not None else soft_get(key)  # Redis away: built, as on a miss
    if not isinstance(party, Party):
        rows = dashboard_party(campaign, access)
        party = Party(
            rows=rows,
            html=render_to_string(PARTY_TEMPLATE, {"party": rows}),
            choices=party_choices(rows),
        )
        soft_set(key, party, PARTY_CACHE_SECONDS)
    # Our own output, escaped when it was rendered (a cache may hand back a str).
    choices: dict[str, str] = {k: mark_safe(v) for k, v in party.choices.items()}  # noqa: S308
    return Party(rows=party.rows, html=mark_safe(party.html), choices=choices)  # noqa: S308


def party_row_for(campaign: Campaign, character_id: int) -> dict[str, Any]:
    """One character's party row, fresh from the database (the API's quick-action answer)."""
    everyone = CampaignAccess(campaign_id=campaign.pk, user_id=None, role=None)
    return party_row(characters_in_campaign(everyone).get(pk=character_id), campaign.rules())


def dashboard_state(
    campaign: Campaign,
    access: CampaignAccess,
    now: datetime | None = None,
    party: Party | None = None,
) -> DashboardState:
    """Everything the dashboard shows (GMs only: the callers checked ``can_manage``);
    ``party``: the party the caller holds already (:func:`dashboard_party_cached`)."""
    slots = {
        slot: [
            SlotPanel(
                key=p.key,
                title=p.title,
                template=p.template or PANEL_TEMPLATE,
                items=list(p.items(campaign=campaign, access=access)),
            )
            for p in dashboard_panels(slot)
        ]
        for slot in DASHBOARD_SLOTS
    }
    party = party or dashboard_party_cached(campaign, access)
    upcoming = session_upcoming(campaign.pk, now)
    return DashboardState(
        party=party.rows,
        party_html=party.html,
        rolls=list(rolls_visible_to(access)[:LATEST_ROLLS]),
        invitations=list(invitations_pending(campaign.pk, now)),
        upcoming_session=upcoming,
        rsvp=rsvp_counts(upcoming) if upcoming else None,
        world=world_date(campaign.pk),
        notes=list(
            GMNote.objects.filter(campaign=campaign).select_related("author")[:LATEST_NOTES]
        ),
        slots=slots,
    )


@functools.cache
def _versions_sql() -> str:
    """The version's one statement, written out: it runs on every dashboard request and poll,
    and building it through the ORM (three subqueries) cost more CPU than the round trip."""
    character, roll = Character._meta.db_table, Roll._meta.db_table
    campaign = Campaign._meta.db_table
    # the tables' names come from the models; the id is a parameter
    sql = (
        "SELECT c.updated_at,"  # noqa: S608
        f" (SELECT MAX(updated_at) FROM {character} WHERE campaign_id = c.id),"
        f" (SELECT COUNT(*) FROM {character} WHERE campaign_id = c.id),"
        f" (SELECT MAX(id) FROM {roll} WHERE campaign_id = c.id)"
        f" FROM {campaign} c WHERE c.id = %s"
    )
    return sql


@dataclass(frozen=True, slots=True)
class Versions:
    """The dashboard's ETag as one viewer sees it, and the party panel's version."""

    etag: str
    party: str


def dashboard_versions(
    campaign: Campaign, access: CampaignAccess, now: datetime | None = None
) -> Versions:
    """The dashboard's ETag for ``access`` and the party's version (:func:`party_version`),
    in one query (plus one per panel that declares a version)."""
    with connection.cursor() as cursor:
        cursor.execute(_versions_sql(), [campaign.pk])
        row = cursor.fetchone()
    minute = (now or timezone.now()).replace(second=0, microsecond=0)
    parts = [str(access.user_id), access.role or "", repr(row), minute.isoformat()]
    parts += [f"{p.key}={p.version(campaign=campaign)}" for p in dashboard_panels() if p.version]
    digest = hashlib.sha256("|".join(parts).encode()).hexdigest()[:32]
    updated_at, changed, count = row[:3] if row else (campaign.updated_at, None, 0)
    return Versions(
        etag=f'W/"dashboard-{digest}"',
        party=_party_digest(campaign.pk, updated_at, changed, count),
    )


def dashboard_version(
    campaign: Campaign, access: CampaignAccess, now: datetime | None = None
) -> str:
    """An ETag for the dashboard as ``access`` sees it, in one query (plus one per panel
    that declares a version)."""
    return dashboard_versions(campaign, access, now).etag


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
            "rsvp": state.rsvp.as_dict() if state.rsvp else None,
        },
        "world_date": None
        if state.world is None
        else {
            "year": state.world.year,
            "month": state.world.month,
            "day": state.world.day,
            "words": state.world.words,
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
