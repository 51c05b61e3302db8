"""Every read of the wiki for one viewer: what she may see, and nothing else.

GMs see everything. A player sees an entry (or a section) shown to everyone or to her; for
anyone else an entry she may not see does not exist (404), in pages, the API, search, mention
previews, backlinks and the timeline alike, because each of them reads through this module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet
from django.http import Http404
from django.utils.translation import gettext as _

from apibase.numbers import object_id

from .models import BUILT_IN_KINDS, Entry, Kind, Link, Section, Visibility

if TYPE_CHECKING:
    from campaign.permissions import CampaignAccess


def _visible_q(access: CampaignAccess, through: Any, owner: str) -> Q:
    if access.is_gm:
        return Q()
    if not access.is_member:
        return Q(pk__in=[])
    chosen = through.objects.filter(**{owner: OuterRef("pk")}, user_id=access.user_id)
    return Q(visibility=Visibility.ALL) | Q(Exists(chosen), visibility=Visibility.CHOSEN)


def entry_filter(access: CampaignAccess) -> Q:
    return _visible_q(access, Entry.viewers.through, "entry_id")


def section_filter(access: CampaignAccess) -> Q:
    return _visible_q(access, Section.viewers.through, "section_id")


def kinds_of(campaign_id: int) -> list[Kind]:
    """The campaign's kinds, the built-in six made on first use."""
    kinds = list(Kind.objects.filter(campaign_id=campaign_id))
    have = {k.key for k in kinds}
    missing = [
        Kind(campaign_id=campaign_id, key=key, name=name, built_in=True)
        for key, name in BUILT_IN_KINDS
        if key not in have
    ]
    if missing:
        Kind.objects.bulk_create(missing, ignore_conflicts=True)
        kinds = list(Kind.objects.filter(campaign_id=campaign_id))
    return kinds


def entries_visible_to(access: CampaignAccess) -> QuerySet[Entry]:
    return (
        Entry.objects.filter(campaign_id=access.campaign_id)
        .filter(entry_filter(access))
        .select_related("kind")
    )


def sections_visible_to(access: CampaignAccess) -> QuerySet[Section]:
    return Section.objects.filter(section_filter(access)).prefetch_related("viewers")


def entry_for(access: CampaignAccess, entry_id: Any) -> Entry:
    """One entry ``access`` may see, with what its page shows of it, else 404."""
    pk = object_id(entry_id) if isinstance(entry_id, int | str) else None
    visible = entries_visible_to(access)
    entry = (
        visible.filter(pk=pk)
        .select_related("parent", "created_by")
        .prefetch_related(
            "viewers",
            Prefetch("sections", queryset=sections_visible_to(access)),
            Prefetch("members", queryset=visible),
            Prefetch("children", queryset=visible),
        )
        .first()
        if pk is not None
        else None
    )
    if entry is None:
        raise Http404(_("No such entry."))
    if entry.parent_id is not None and not visible.filter(pk=entry.parent_id).exists():
        entry.parent = None  # a secret parent place stays secret
    return entry


def section_for(access: CampaignAccess, entry: Entry, section_id: Any) -> Section:
    pk = object_id(section_id) if isinstance(section_id, int | str) else None
    section = None
    if pk is not None:
        section = sections_visible_to(access).filter(entry=entry, pk=pk).first()
    if section is None:
        raise Http404(_("No such section."))
    return section


def backlinks(access: CampaignAccess, entry: Entry) -> list[Entry]:
    """The entries that mention ``entry`` where ``access`` may see the mention: the linking
    entry visible, and the section holding the mention (if any) visible too."""
    links = Link.objects.filter(target_entry=entry).filter(
        Q(source__in=entries_visible_to(access))
        & (Q(section__isnull=True) | Q(section__in=Section.objects.filter(section_filter(access))))
    )
    return list(
        Entry.objects.filter(pk__in=links.values("source_id"))
        .exclude(pk=entry.pk)
        .select_related("kind")
        .order_by("title", "pk")
    )


#: The Link column of each kind a text may mention.
LINK_TARGET = {
    "entry": "target_entry_id",
    "character": "target_character_id",
    "session": "target_session_id",
    "handout": "target_handout_id",
}


def linked_from(access: CampaignAccess, key: str, pk: int) -> list[Entry]:
    """The entries that mention row ``pk`` of kind ``key`` (a session, a handout, a character)
    where ``access`` may see the mention, as :func:`backlinks` does for entries."""
    links = Link.objects.filter(**{LINK_TARGET[key]: pk}).filter(
        Q(source__in=entries_visible_to(access))
        & (Q(section__isnull=True) | Q(section__in=Section.objects.filter(section_filter(access))))
    )
    return list(
        Entry.objects.filter(pk__in=links.values("source_id"))
        .select_related("kind")
        .order_by("title", "pk")
    )


def mentioned_in(*, access: CampaignAccess, key: str, pk: int) -> list[tuple[str, str]]:
    """``campaign.registry``'s "what links here" for the GM tools' pages: (title, url)."""
    from django.urls import reverse

    if key not in LINK_TARGET or not access.is_member:
        return []
    return [
        (e.title, reverse("wiki:detail", args=[e.campaign_id, e.pk]))
        for e in linked_from(access, key, pk)
    ]


def entries_shown(*, access: CampaignAccess, ids: Any) -> dict[int, tuple[str, str]]:
    """The entry mention kind's ``shown``: what a calendar event may link for this viewer."""
    from django.urls import reverse

    wanted = sorted({int(i) for i in ids})
    rows = entries_visible_to(access).filter(pk__in=wanted).values_list("pk", "title")
    return {
        pk: (title, reverse("wiki:detail", args=[access.campaign_id, pk])) for pk, title in rows
    }


def entry_named(*, campaign_id: int, name: str) -> int | None:
    return (
        Entry.objects.filter(campaign_id=campaign_id, title__iexact=name.strip())
        .order_by("pk")
        .values_list("pk", flat=True)
        .first()
    )


def entries_starting(*, access: CampaignAccess, prefix: str, limit: int) -> list[tuple[int, str]]:
    rows = entries_visible_to(access).filter(title__istartswith=prefix).order_by("title", "pk")
    return list(rows.values_list("pk", "title")[:limit])


def entries_in(*, campaign_id: int, ids: Any) -> set[int]:
    wanted = sorted({int(i) for i in ids})
    rows = Entry.objects.filter(campaign_id=campaign_id, pk__in=wanted)
    return set(rows.values_list("pk", flat=True))
