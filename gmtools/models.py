"""The GM's tools' tables: invitations, game sessions and attendance, GM notes, handouts,
awards and level-ups. Each belongs to a campaign (``campaign.Campaign``).

They were part of the ``campaign`` app and keep its table names (``campaign_gamesession``, ...):
the move changed only where the code lives (``gmtools/migrations/0001_initial.py``). The writes
are in ``invitations.py``, ``members.py``, ``sessions.py``, ``notes.py``, ``handouts.py``,
``awards.py`` and ``party.py``; see docs/campaigns.md.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy

from campaign.models import Campaign, Role


class Invitation(models.Model):
    """A link that lets whoever holds it join a campaign with a role, until it expires.

    The token is the secret: 32 random bytes (``secrets.token_urlsafe``), never derived from
    the id. It is stored as is so the GMs can copy the link again from the dashboard; knowing
    it only ever lets someone *join*, which the GM can undo (remove, revoke).
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=64, unique=True)
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.PLAYER)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations_created"
    )
    invited_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="invitations_received",
        null=True,
        blank=True,
        help_text="Set when the GM invited someone by username; only they may use it then.",
    )
    note = models.CharField(max_length=120, blank=True, help_text="For the GMs: who it is for.")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    max_uses = models.PositiveIntegerField(
        null=True, blank=True, help_text="Empty: any number of people may join with it."
    )
    uses = models.PositiveIntegerField(default=0)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "campaign_invitation"
        ordering = ("-created_at", "-pk")
        indexes = [models.Index(fields=("campaign", "-created_at"), name="invitation_campaign")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(max_uses__isnull=True) | models.Q(max_uses__gte=1),
                name="invitation_max_uses_gte_1",
            )
        ]

    def __str__(self) -> str:
        return f"invitation to {self.campaign} ({self.get_role_display()})"

    def state(self, now: Any = None) -> str:
        """``active``, ``revoked``, ``expired`` or ``used``: why a link does or does not work."""
        now = now or timezone.now()
        if self.revoked_at is not None:
            return "revoked"
        if self.expires_at <= now:
            return "expired"
        if self.max_uses is not None and self.uses >= self.max_uses:
            return "used"
        return "active"


class InvitationAcceptance(models.Model):
    """Who joined with which invitation, and when (the GMs see it; a use is counted once)."""

    invitation = models.ForeignKey(Invitation, on_delete=models.CASCADE, related_name="acceptances")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitation_acceptances"
    )
    accepted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "campaign_invitationacceptance"
        ordering = ("accepted_at", "pk")
        constraints = [
            models.UniqueConstraint(
                fields=("invitation", "user"), name="one_acceptance_per_invitation_and_user"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} joined with {self.invitation}"


class GameSession(models.Model):
    """One evening of play: when, what is planned, and afterwards what happened and who came."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="game_sessions")
    title = models.CharField(max_length=120)
    starts_at = models.DateTimeField()
    agenda = models.TextField(blank=True)
    summary = models.TextField(blank=True, help_text="Written after play; every member reads it.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="game_sessions_created"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    rsvp_reminded_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the members who had not answered were asked (gmtools/rsvp.py).",
    )

    class Meta:
        db_table = "campaign_gamesession"
        ordering = ("-starts_at", "-pk")
        indexes = [models.Index(fields=("campaign", "-starts_at"), name="game_session_campaign")]

    def __str__(self) -> str:
        return f"{self.title} ({self.starts_at:%Y-%m-%d})"


class AttendanceStatus(models.TextChoices):
    PRESENT = "present", gettext_lazy("Present")
    ABSENT = "absent", gettext_lazy("Absent")
    EXCUSED = "excused", gettext_lazy("Excused")


class Attendance(models.Model):
    """Whether one member came to one session (set by the GMs)."""

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="attendance")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="attendance"
    )
    status = models.CharField(max_length=10, choices=AttendanceStatus.choices)

    class Meta:
        db_table = "campaign_attendance"
        ordering = ("session", "user__username")
        constraints = [
            models.UniqueConstraint(fields=("session", "user"), name="one_attendance_per_member")
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.status} at {self.session}"


class GMNote(models.Model):
    """A GM's private note. Players never see these: not in pages, the API or the dashboard."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="gm_notes")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="gm_notes"
    )
    session = models.ForeignKey(
        GameSession, on_delete=models.SET_NULL, related_name="gm_notes", null=True, blank=True
    )
    title = models.CharField(max_length=120)
    body = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "campaign_gmnote"
        verbose_name = "GM note"
        ordering = ("-updated_at", "-pk")

    def __str__(self) -> str:
        return self.title


def handout_upload_to(instance: Handout, filename: str) -> str:
    """Handout files live under an unguessable name: they are only ever served through the
    permission-checked download view, but a public media URL must not be guessable either."""
    extension = filename.rsplit(".", 1)[-1].lower() if "." in filename else "bin"
    return f"handouts/campaign-{instance.campaign_id}/{secrets.token_urlsafe(16)}.{extension}"


class Handout(models.Model):
    """Something the GMs share: with every member, or only with the chosen ones."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="handouts")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="handouts_written"
    )
    title = models.CharField(max_length=120)
    body = models.TextField(blank=True)
    file = models.FileField(upload_to=handout_upload_to, blank=True)
    file_name = models.CharField(max_length=200, blank=True, help_text="The uploaded name.")
    shared_with_all = models.BooleanField(
        default=True, help_text="Every member sees it; otherwise only the chosen recipients."
    )
    recipients = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="handouts_received", blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "campaign_handout"
        ordering = ("-created_at", "-pk")
        indexes = [models.Index(fields=("campaign", "-created_at"), name="handout_campaign")]

    def __str__(self) -> str:
        return self.title


class Award(models.Model):
    """Yen and/or items the GMs gave to one or more characters, and why.

    ``yen`` and ``items`` are *per character*. The characters' sheets were changed through the
    characters app's services in the same transaction that stored this row.
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="awards")
    awarded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="awards_given"
    )
    session = models.ForeignKey(
        GameSession, on_delete=models.SET_NULL, related_name="awards", null=True, blank=True
    )
    reason = models.CharField(max_length=200, blank=True)
    yen = models.PositiveIntegerField(default=0)
    items = models.JSONField(
        default=dict, blank=True, help_text="Catalog item slug → quantity, per character."
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        db_table = "campaign_award"
        ordering = ("-created_at", "-pk")

    def __str__(self) -> str:
        return f"award {self.pk}: {self.reason or 'loot'}"


class AwardRecipient(models.Model):
    """One character an award went to (its name kept, should the character be deleted)."""

    award = models.ForeignKey(Award, on_delete=models.CASCADE, related_name="recipients")
    character = models.ForeignKey(
        "characters.Character",
        on_delete=models.SET_NULL,
        related_name="awards_received",
        null=True,
        blank=True,
    )
    character_name = models.CharField(max_length=120)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        related_name="awards_received",
        null=True,
        blank=True,
    )

    class Meta:
        db_table = "campaign_awardrecipient"
        ordering = ("award", "character_name", "pk")

    def __str__(self) -> str:
        return f"{self.character_name} ← {self.award}"


class LevelUp(models.Model):
    """A level the GMs raised (through the characters app's level-up service)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="level_ups")
    character = models.ForeignKey(
        "characters.Character",
        on_delete=models.SET_NULL,
        related_name="level_ups",
        null=True,
        blank=True,
    )
    character_name = models.CharField(max_length=120)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        related_name="level_ups",
        null=True,
        blank=True,
    )
    raised_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="level_ups_given"
    )
    from_level = models.PositiveSmallIntegerField()
    to_level = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        db_table = "campaign_levelup"
        ordering = ("-created_at", "-pk")

    def __str__(self) -> str:
        return f"{self.character_name}: level {self.from_level} → {self.to_level}"


class RsvpAnswer(models.TextChoices):
    YES = "yes", gettext_lazy("Coming")
    MAYBE = "maybe", gettext_lazy("Maybe")
    NO = "no", gettext_lazy("Not coming")


class SessionRsvp(models.Model):
    """One member's answer to "will you come?" for one session, with a note."""

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="rsvps")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rsvps"
    )
    answer = models.CharField(max_length=5, choices=RsvpAnswer.choices)
    note = models.CharField(max_length=200, blank=True)
    answered_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "session RSVP"
        ordering = ("session", "user__username")
        constraints = [
            models.UniqueConstraint(fields=("session", "user"), name="one_rsvp_per_member")
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.answer} for {self.session}"


class WorldCalendar(models.Model):
    """A campaign's in-world calendar and its current date (gmtools/world_calendar.py).

    Empty ``months`` and ``weekdays`` are the Gregorian year with its seasons."""

    campaign = models.OneToOneField(
        Campaign, on_delete=models.CASCADE, related_name="world_calendar"
    )
    months = models.JSONField(default=list, blank=True, help_text='[{"name", "days", "season"}]')
    weekdays = models.JSONField(default=list, blank=True)
    year = models.IntegerField(default=1)
    month = models.PositiveSmallIntegerField(default=1)
    day = models.PositiveSmallIntegerField(default=1)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"calendar of {self.campaign_id}"


class WorldEvent(models.Model):
    """Something that happens in the world on an in-world date; on the campaign's timeline.

    ``session``: the evening of play it happened in, if any; ``wiki_entry``: the wiki entry it is
    about, if any, of the same campaign (named by string: the GM tools do not import the wiki;
    a player sees the link only when she may see the entry, ``gmtools.world.event_entries``)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="world_events")
    year = models.IntegerField()
    month = models.PositiveSmallIntegerField()
    day = models.PositiveSmallIntegerField()
    title = models.CharField(max_length=120)
    body = models.TextField(blank=True)
    gm_only = models.BooleanField(default=False, help_text="Only the GMs see it.")
    session = models.ForeignKey(
        GameSession, on_delete=models.SET_NULL, related_name="world_events", null=True, blank=True
    )
    wiki_entry = models.ForeignKey(
        "wiki.Entry",
        on_delete=models.SET_NULL,
        related_name="world_events",
        null=True,
        blank=True,
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        related_name="world_events_created",
        null=True,
        blank=True,
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("year", "month", "day", "pk")
        indexes = [
            models.Index(fields=("campaign", "year", "month", "day"), name="world_event_date")
        ]

    def __str__(self) -> str:
        return self.title


def feed_token() -> str:
    return secrets.token_urlsafe(32)


class CalendarFeed(models.Model):
    """A member's secret iCal address (her campaigns' sessions). Revoking deletes the row;
    renewing gives a new token, so the old address answers 404."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_feed"
    )
    token = models.CharField(max_length=64, unique=True, default=feed_token)
    created_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"calendar feed of {self.user}"
