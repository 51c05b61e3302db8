"""Reveals on the campaign's timeline: shown to a viewer only when she may now see what was
revealed (the entry and, for a section, the section too), so the timeline never names a
secret she does not know."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.urls import reverse
from django.utils.translation import gettext as _

from campaign.registry import TimelineEntry

from .models import Reveal, Section
from .selectors import entries_visible_to, section_filter

if TYPE_CHECKING:
    from campaign.permissions import CampaignAccess


def reveal_entries(*, access: CampaignAccess, limit: int) -> list[TimelineEntry]:
    reveals = (
        Reveal.objects.filter(entry__in=entries_visible_to(access))
        .exclude(section__isnull=False, section__in=Section.objects.exclude(section_filter(access)))
        .select_related("entry", "section", "by")
        .order_by("-at", "-pk")[:limit]
    )
    out = []
    for r in reveals:
        what = r.entry.title + (f": {r.section.heading}" if r.section is not None else "")
        out.append(
            TimelineEntry(
                kind="wiki_reveal",
                at=r.at,
                title=_("Revealed: %(what)s") % {"what": what},
                actor=r.by.shown_name if r.by is not None else "",
                url=reverse("wiki:detail", args=[r.entry.campaign_id, r.entry_id]),
                ref=f"wiki_reveal:{r.pk}",
                data={"entry": r.entry_id, "section": r.section_id, "to_everyone": r.to_all},
            )
        )
    return out
