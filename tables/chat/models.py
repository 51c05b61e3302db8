"""What is said at a game table: a room per table, its lines, reactions and mutes.

A room is keyed by the table's model (``label_lower``, "minigames.taverntable") and id, not by
a foreign key: every game's tables are rows of their own models, and one key serves them all
(the tavern's four games share one model, so its id alone names the table). The campaign is
kept beside it, so a campaign's backup and deletion take its tables' talk with them.

None of it is part of the game: nothing here changes a table's state or version.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ChatRoom(models.Model):
    """The talk of one table: its setting for spectators and a stamp every change moves (an
    unchanged poll is answered 204 from it)."""

    table_label = models.CharField(max_length=60, help_text="The table's model (label_lower).")
    table_id = models.PositiveBigIntegerField()
    campaign = models.ForeignKey(
        "campaign.Campaign", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    spectators_may_chat = models.BooleanField(
        default=False, help_text="Whether people watching, not playing, may say something."
    )
    stamp = models.PositiveIntegerField(default=0, help_text="Moves with every change.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "table chat"
        verbose_name_plural = "table chats"
        constraints = [
            models.UniqueConstraint(fields=["table_label", "table_id"], name="chat_room_table")
        ]

    def __str__(self) -> str:
        return f"chat of {self.table_label} {self.table_id}"


class ChatLine(models.Model):
    """A line said at a table: to everyone, or a whisper (to the GMs, or to one person).

    Who reads a line is decided in one place, :func:`tables.chat.selectors.readable`."""

    room = models.ForeignKey(ChatRoom, on_delete=models.CASCADE, related_name="lines")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    author_is_gm = models.BooleanField(default=False)
    spectator = models.BooleanField(default=False, help_text="Said by someone watching.")
    text = models.CharField(max_length=500)
    to_gms = models.BooleanField(default=False, help_text="A whisper to the GMs.")
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        help_text="A whisper to this one person.",
    )
    version = models.PositiveIntegerField(
        default=0, help_text="The table's version when it was said: its place in the log."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "chat line"
        verbose_name_plural = "chat lines"
        ordering = ("room", "pk")
        indexes = [models.Index(fields=("room", "id"), name="chat_line_room")]

    def __str__(self) -> str:
        return f"{self.author} in {self.room}: {self.text[:40]}"

    @property
    def whisper(self) -> bool:
        return self.to_gms or self.recipient_id is not None


class ChatReaction(models.Model):
    """One person's reaction (one of :data:`tables.chat.rules.REACTIONS`) to a line."""

    line = models.ForeignKey(ChatLine, on_delete=models.CASCADE, related_name="reactions")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    reaction = models.CharField(max_length=20)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "chat reaction"
        verbose_name_plural = "chat reactions"
        constraints = [
            models.UniqueConstraint(fields=["line", "user", "reaction"], name="chat_reaction_once")
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.reaction} {self.line_id}"


class ChatMute(models.Model):
    """A member the host (or a GM) muted at one table: she reads, but may not say anything."""

    room = models.ForeignKey(ChatRoom, on_delete=models.CASCADE, related_name="mutes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "chat mute"
        verbose_name_plural = "chat mutes"
        constraints = [models.UniqueConstraint(fields=["room", "user"], name="chat_mute_once")]

    def __str__(self) -> str:
        return f"{self.user} muted in {self.room}"
