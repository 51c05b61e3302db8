"""A campaign's timeline: sessions, awards, level-ups, rolls and handouts, newest first, as one
viewer may see them, plus whatever later apps register (battles, tavern games).

One selector, :func:`timeline_page`, merges every registered source (see
:mod:`campaign.registry`). Each source filters for the viewer itself (secret rolls only for
their roller and the GMs, handouts only for those they were shared with) and returns at most
the entries the page needs, so a page costs a fixed number of queries per source, whatever the
campaign's size. GM notes are never a timeline entry.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from django.urls import reverse
from django.utils.translation import gettext

from apibase.engine_words import data_text, in_language
from campaign.registry import TimelineEntry, register_timeline_source, timeline_sources
from campaign.selectors import rolls_visible_to
from westernroses.checks import verdict

from .awards import award_items_known, awards_of
from .handouts import handouts_visible_to
from .models import GameSession, LevelUp
from .sessions import session_path
from .world import world_event_entries

if TYPE_CHECKING:
    from campaign.permissions import CampaignAccess

PER_PAGE: Final = 25
#: Deeper pages would ask every source for thousands of rows; nobody reads that far back here.
MAX_PAGE: Final = 200


@dataclass(frozen=True, slots=True)
class TimelinePage:
    entries: list[TimelineEntry]
    page: int
    per_page: int
    has_next: bool

    @property
    def has_previous(self) -> bool:
        return self.page > 1


def timeline_page(
    access: CampaignAccess, page: int = 1, per_page: int = PER_PAGE, kinds: set[str] | None = None
) -> TimelinePage:
    """Page ``page`` (from 1) of the timeline as ``access`` may see it, newest first.

    Every source is asked for the newest ``page × per_page + 1`` entries it has: the page's
    entries are among them whatever the mix, and the one extra tells whether a next page
    exists. Ties at the same instant are ordered by the entries' ``ref``.
    """
    page = max(1, min(page, MAX_PAGE))
    limit = page * per_page + 1
    streams = [
        sorted(source(access=access, limit=limit), key=TimelineEntry.sort_key, reverse=True)[:limit]
        for kind, source in timeline_sources().items()
        if kinds is None or kind in kinds
    ]
    merged = list(heapq.merge(*streams, key=TimelineEntry.sort_key, reverse=True))
    start = (page - 1) * per_page
    return TimelinePage(
        entries=merged[start : start + per_page],
        page=page,
        per_page=per_page,
        has_next=len(merged) > start + per_page,
    )


# --------------------------------------------------------------------------- built-in sources


def session_entries(*, access: CampaignAccess, limit: int) -> list[TimelineEntry]:
    sessions = GameSession.objects.filter(campaign_id=access.campaign_id).order_by(
        "-starts_at", "-pk"
    )[:limit]
    return [
        TimelineEntry(
            kind="session",
            at=s.starts_at,
            title=gettext("Session: %(title)s") % {"title": s.title},
            body=s.summary or s.agenda,
            url=session_path(s),
            ref=f"session:{s.pk}",
            data={"id": s.pk, "summary": s.summary, "agenda": s.agenda},
        )
        for s in sessions
    ]


def award_entries(*, access: CampaignAccess, limit: int) -> list[TimelineEntry]:
    out = []
    for award in awards_of(access.campaign_id).order_by("-created_at", "-pk")[:limit]:
        names = [r.character_name for r in award.recipients.all()]
        what = _award_words(award.yen, award.items)
        out.append(
            TimelineEntry(
                kind="award",
                at=award.created_at,
                title=gettext("Loot for %(names)s: %(what)s")
                % {"names": ", ".join(names), "what": what},
                body=award.reason,
                actor=award.awarded_by.shown_name,
                ref=f"award:{award.pk}",
                data={"id": award.pk, "yen": award.yen, "items": award.items, "characters": names},
            )
        )
    return out


def _award_words(yen: int, items: dict[str, int]) -> str:
    """ "100 yen, 2 × Sword" in the reader's language (the items' names as the data has them)."""
    parts = [gettext("%(yen)s yen") % {"yen": yen}] if yen else []
    names = award_items_known() if items else {}
    for slug, quantity in sorted(items.items()):
        name = data_text(names.get(slug, slug))
        parts.append(f"{quantity} × {name}" if quantity > 1 else name)
    return ", ".join(parts) or gettext("nothing")


def level_up_entries(*, access: CampaignAccess, limit: int) -> list[TimelineEntry]:
    level_ups = (
        LevelUp.objects.filter(campaign_id=access.campaign_id)
        .select_related("raised_by")
        .order_by("-created_at", "-pk")[:limit]
    )
    return [
        TimelineEntry(
            kind="level_up",
            at=lv.created_at,
            title=gettext("%(name)s reached level %(level)s")
            % {"name": lv.character_name, "level": lv.to_level},
            actor=lv.raised_by.shown_name,
            url=reverse("characters:sheet", args=[lv.character_id]) if lv.character_id else "",
            ref=f"level_up:{lv.pk}",
            data={"character": lv.character_id, "from": lv.from_level, "to": lv.to_level},
        )
        for lv in level_ups
    ]


def roll_entries(*, access: CampaignAccess, limit: int) -> list[TimelineEntry]:
    """Rolls the viewer may see (secret rolls: the roller and the GMs only)."""
    out = []
    for roll in rolls_visible_to(access).order_by("-created_at", "-pk")[:limit]:
        what = f"{roll.label}: " if roll.label else ""
        against = (
            " " + gettext("vs %(target)s") % {"target": roll.target}
            if roll.target is not None
            else ""
        )
        words = verdict(success=roll.success, margin=roll.margin, critical=roll.critical)
        said = f" — {in_language(words)}" if words else ""
        out.append(
            TimelineEntry(
                kind="roll",
                at=roll.created_at,
                title=f"{what}{roll.notation}{against} = {roll.total}{said}",
                actor=roll.user.shown_name,
                ref=f"roll:{roll.pk}",
                data={
                    "id": roll.pk,
                    "total": roll.total,
                    "dice": roll.dice,
                    "secret": roll.secret,
                    "critical": roll.critical,
                },
            )
        )
    return out


def handout_entries(*, access: CampaignAccess, limit: int) -> list[TimelineEntry]:
    """Handouts shared with the viewer (all of them for GMs)."""
    return [
        TimelineEntry(
            kind="handout",
            at=h.created_at,
            title=gettext("Handout: %(title)s") % {"title": h.title},
            actor=h.author.shown_name,
            url=reverse("gmtools:handout_detail", args=[h.campaign_id, h.pk]),
            ref=f"handout:{h.pk}",
            data={"id": h.pk, "shared_with_all": h.shared_with_all},
        )
        for h in handouts_visible_to(access)[:limit]
    ]


BUILT_IN_SOURCES = {
    "session": session_entries,
    "award": award_entries,
    "level_up": level_up_entries,
    "roll": roll_entries,
    "handout": handout_entries,
    "world_event": world_event_entries,
}


def register_built_in_sources() -> None:
    """Called from ``CampaignConfig.ready()``; later apps register theirs the same way."""
    for kind, source in BUILT_IN_SOURCES.items():
        register_timeline_source(kind, source)
