"""Telling players about the wiki: an entry written, revealed to them, or changed in a part
they may see (the ``wiki_update`` event of :mod:`notifications`, on each player's channels,
held for her digest or quiet hours like any other non-urgent event).

Each change stores a revision with the whole entry (:func:`wiki.services.snapshot`), so what a
player could see before and after is known exactly: her view of an entry is its title, kind,
text, tags and the sections she may see, or nothing when she may not see the entry. She is told
only when that view changed, so a change inside a section hidden from her, or to an entry she
may not see, tells her nothing. The notice names only the entry's title (which she may now see)
and links to its page: never a section, a text or who else knows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.urls import reverse

from campaign.models import Membership, Role
from notifications import EventType, notify, texts

from .models import Visibility

if TYPE_CHECKING:
    from .models import Entry, Revision


def _sees(part: dict[str, Any], user_id: int) -> bool:
    visibility = part.get("visibility")
    return visibility == Visibility.ALL or (
        visibility == Visibility.CHOSEN and user_id in (part.get("viewers") or [])
    )


def player_view(snapshot: dict[str, Any], user_id: int) -> dict[str, Any] | None:
    """What player ``user_id`` sees of the entry a revision saved (None: not the entry)."""
    if not snapshot or not _sees(snapshot, user_id):
        return None
    return {
        "title": snapshot.get("title"),
        "kind": snapshot.get("kind"),
        "body": snapshot.get("body"),
        "tags": snapshot.get("tags"),
        "sections": [
            (s.get("heading"), s.get("body"))
            for s in snapshot.get("sections") or []
            if isinstance(s, dict) and _sees(s, user_id)
        ],
    }


def tell_players(entry: Entry, before: dict[str, Any], revision: Revision) -> int:
    """Notify every player whose view of ``entry`` the revision changed; how many were told.
    Called inside the change's transaction (nothing goes out unless it commits); the dedupe key
    is the revision's, so a retried change tells nobody twice."""
    now = revision.snapshot
    created = not before
    url = reverse("wiki:detail", args=[entry.campaign_id, entry.pk])
    players = Membership.objects.filter(
        campaign_id=entry.campaign_id, role=Role.PLAYER
    ).select_related("user", "campaign")
    told = 0
    for membership in players:
        user_id = membership.user_id
        after = player_view(now, user_id)
        if after is None or after == player_view(before, user_id):
            continue
        name = str(after["title"])[:150]
        if created:
            title = texts.gettext_lazy("New in the wiki: %(title)s", title=name)
        elif player_view(before, user_id) is None:
            title = texts.gettext_lazy("Revealed to you in the wiki: %(title)s", title=name)
        else:
            title = texts.gettext_lazy("Changed in the wiki: %(title)s", title=name)
        notify(
            recipient=membership.user,
            event=EventType.WIKI_UPDATE,
            campaign=membership.campaign,
            title=title,
            body=texts.gettext_lazy("Open the entry in the campaign's wiki."),
            url=url,
            dedupe_key=f"wiki:{entry.pk}:{revision.number}",
        )
        told += 1
    return told
