"""GM notes: a GM's private notebook for the campaign.

Private to the campaign's GMs, every one of them (co-GMs run the same table). Players never
see a note anywhere: the pages and API answer 403 to them, the timeline has no note entries and
the dashboard (GM-only) is the only other place notes appear. Every read goes through
:func:`notes_visible_to`, which refuses anyone who is not a GM of the campaign.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext

from campaign.members import campaign_touch
from campaign.models import Campaign

from .models import GameSession, GMNote

if TYPE_CHECKING:
    from accounts.models import User
    from campaign.permissions import CampaignAccess


def _check_gm(campaign_id: int, by: CampaignAccess) -> None:
    if not by.is_gm or by.campaign_id != campaign_id:
        raise PermissionDenied(gettext("GM notes are for the campaign's game masters only."))


def _check_session(campaign_id: int, session: GameSession | None) -> None:
    if session is not None and session.campaign_id != campaign_id:
        raise ValidationError({"session": [gettext("That session is in another campaign.")]})


@transaction.atomic
def note_create(
    *,
    campaign: Campaign,
    by: CampaignAccess,
    author: User,
    title: str,
    body: str = "",
    session: GameSession | None = None,
) -> GMNote:
    _check_gm(campaign.pk, by)
    _check_session(campaign.pk, session)
    if not title.strip():
        raise ValidationError({"title": [gettext("Give the note a title.")]})
    note = GMNote.objects.create(
        campaign=campaign, author=author, title=title.strip(), body=body, session=session
    )
    campaign_touch(campaign.pk)
    return note


#: "Leave the session as it is" (None means "no session").
UNSET: object = object()


@transaction.atomic
def note_update(
    *,
    note: GMNote,
    by: CampaignAccess,
    title: str | None = None,
    body: str | None = None,
    session: GameSession | object | None = UNSET,
) -> GMNote:
    _check_gm(note.campaign_id, by)
    if title is not None:
        if not title.strip():
            raise ValidationError({"title": [gettext("Give the note a title.")]})
        note.title = title.strip()
    if body is not None:
        note.body = body
    if session is not UNSET:
        chosen = cast("GameSession | None", session)
        _check_session(note.campaign_id, chosen)
        note.session = chosen
    note.save()
    campaign_touch(note.campaign_id)
    return note


@transaction.atomic
def note_delete(*, note: GMNote, by: CampaignAccess) -> None:
    _check_gm(note.campaign_id, by)
    campaign_id = note.campaign_id
    note.delete()
    campaign_touch(campaign_id)


def notes_visible_to(access: CampaignAccess) -> QuerySet[GMNote]:
    """The campaign's notes, newest change first; anyone but a GM gets PermissionDenied."""
    _check_gm(access.campaign_id, access)
    return GMNote.objects.filter(campaign_id=access.campaign_id).select_related("author", "session")


def note_for(access: CampaignAccess, pk: int | str) -> GMNote:
    try:
        return notes_visible_to(access).get(pk=int(pk))
    except (GMNote.DoesNotExist, ValueError, TypeError):
        raise Http404(gettext("No such note.")) from None
