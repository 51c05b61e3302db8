"""What tells an open GM dashboard to refresh (:mod:`gmtools.consumers`).

Every row the dashboard shows belongs to one campaign, so a save or a delete of one announces
that campaign on commit (:func:`apibase.push.announce_campaign`): characters, rolls, members,
invitations, sessions and the answers to them, GM notes, the in-world calendar and its events
and the campaign itself here; the battles
and tavern tables announce their own campaign after each new version (their models'
``announce_beyond``). The page then asks its live URL with its ETag, so a note that changed
nothing it shows costs one 304.
"""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_delete, post_save

from apibase import push
from campaign.models import Campaign, Membership, Roll
from characters.models import Character

from .models import GameSession, GMNote, Invitation, SessionRsvp, WorldCalendar, WorldEvent


def _campaign_row_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    if instance.campaign_id is not None:  # a character kept outside any campaign
        push.announce_campaign(instance.campaign_id)


def _answer_saved(sender: Any, instance: SessionRsvp, **kwargs: Any) -> None:
    # the answer's session is at hand (the service passes it). Answers go only with their
    # session (a cascade), whose own deletion announces the campaign.
    push.announce_campaign(instance.session.campaign_id)


def _campaign_changed(sender: Any, instance: Campaign, **kwargs: Any) -> None:
    push.announce_campaign(instance.pk)


def connect() -> None:
    """Called once from ``GMToolsConfig.ready``."""
    for when, signal in (("saved", post_save), ("deleted", post_delete)):
        for model in (
            Character,
            Roll,
            Membership,
            Invitation,
            GameSession,
            GMNote,
            WorldCalendar,
            WorldEvent,
        ):
            signal.connect(
                _campaign_row_changed,
                sender=model,
                dispatch_uid=f"dashboard-live-{model._meta.label_lower}-{when}",
            )
        signal.connect(
            _campaign_changed, sender=Campaign, dispatch_uid=f"dashboard-live-campaign-{when}"
        )
    post_save.connect(_answer_saved, sender=SessionRsvp, dispatch_uid="dashboard-live-rsvp-saved")
