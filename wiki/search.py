"""Full-text search across a campaign's wiki, as one viewer may see it.

On PostgreSQL (production and the tests) it is PostgreSQL's full-text search: the entry's
title, tags and body, and the body of every section the viewer may see, matched with
``websearch_to_tsquery`` (words, "quoted phrases", -excluded) and ranked, title first. On
SQLite (``make run``) it is a plain case-insensitive substring match of the same fields,
newest change first: no ranking nor stemming, enough for a demo. Either way a match in a
section she may not see, or in an entry she may not see, finds nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Literal

from django.db import connection
from django.db.models import Q
from django.utils.translation import gettext

from .models import Entry, Section
from .selectors import entries_visible_to, section_filter

if TYPE_CHECKING:
    from campaign.permissions import CampaignAccess

MAX_QUERY: Final = 200
MAX_RESULTS: Final = 50
Method = Literal["full_text", "substring"]


@dataclass(frozen=True, slots=True)
class Found:
    entry: Entry
    excerpt: str


def default_method() -> Method:
    return "full_text" if connection.vendor == "postgresql" else "substring"


def search(access: CampaignAccess, query: str, method: Method | None = None) -> list[Found]:
    """The entries matching ``query`` that ``access`` may see, best first (at most 50)."""
    from .render import Renderer, plain

    query = " ".join(query.replace("\x00", "").split())[:MAX_QUERY]
    if not query:
        return []
    method = method or default_method()
    visible = entries_visible_to(access)
    sections = Section.objects.filter(entry__in=visible).filter(section_filter(access))
    if method == "full_text":
        from django.contrib.postgres.search import SearchQuery, SearchRank, SearchVector

        terms = SearchQuery(query, search_type="websearch", config="english")
        vector = (
            SearchVector("title", weight="A", config="english")
            + SearchVector("tags", weight="B", config="english")
            + SearchVector("body", weight="C", config="english")
        )
        matched = (
            sections.annotate(v=SearchVector("heading", "body", config="english"))
            .filter(v=terms)
            .values("entry_id")
        )
        entries: list[Entry] = list(
            visible.annotate(rank=SearchRank(vector, terms))
            .filter(Q(rank__gt=0) | Q(pk__in=matched))
            .order_by("-rank", "title", "pk")[:MAX_RESULTS]
        )
    else:
        match = Q(title__icontains=query) | Q(body__icontains=query) | Q(tags__icontains=query)
        in_sections = sections.filter(
            Q(heading__icontains=query) | Q(body__icontains=query)
        ).values("entry_id")
        entries = list(
            visible.filter(match | Q(pk__in=in_sections)).order_by("-updated_at", "pk")[
                :MAX_RESULTS
            ]
        )
    renderer = Renderer(access, [e.body for e in entries])
    return [Found(entry=e, excerpt=plain(renderer.html(e.body))) for e in entries]


def mention_candidates(
    access: CampaignAccess, prefix: str, limit: int = 10
) -> list[dict[str, str]]:
    """What ``@[[`` may complete to for this viewer: visible entries, campaign characters,
    sessions and the handouts she may see whose name starts with ``prefix`` (the mention
    preview). ``insert`` is what goes between the brackets: the name, or the stored id when the
    name would find something else first (two things of one title)."""
    from campaign.registry import mention_kind
    from characters.models import Character

    from .render import OTHER_KINDS, resolve_mentions

    if not access.is_member:
        return []
    prefix = " ".join(prefix.replace("\x00", "").split())[:MAX_QUERY]
    entries = entries_visible_to(access).filter(title__istartswith=prefix).order_by("title")
    characters = Character.objects.filter(
        campaign_id=access.campaign_id, name__istartswith=prefix
    ).order_by("name")
    out = [
        {"kind": e.kind.label, "name": e.title, "ref": f"entry:{e.pk}", "insert": e.title}
        for e in entries[:limit]
    ]
    out += [
        {"kind": gettext("Character"), "name": c.name, "ref": f"character:{c.pk}", "insert": c.name}
        for c in characters[:limit]
    ]
    for key in OTHER_KINDS:
        other = mention_kind(key)
        if other is None or len(out) >= limit:
            continue
        for pk, name in other.starting(access=access, prefix=prefix, limit=limit - len(out)):
            ref = f"{key}:{pk}"
            named = resolve_mentions(access.campaign_id, f"@[[{name}]]") == f"@[[{ref}]]"
            insert = name if named and "]" not in name and "[" not in name else ref
            out.append({"kind": gettext(other.label), "name": name, "ref": ref, "insert": insert})
    return out[:limit]
