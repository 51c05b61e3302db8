"""Play-by-post's tables: threads of a campaign, their posts, the rolls made in them, the
reactions and how far each member has read (docs/play-by-post.md)."""

from __future__ import annotations

from typing import Final

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from campaign.models import Campaign, Roll

#: The reactions a member may leave on a post, by the word stored for each.
REACTIONS: Final = {
    "like": "👍",
    "laugh": "😄",
    "wow": "😮",
    "sad": "😢",
    "heart": "❤️",
}
#: Each reaction's name, for its button's tooltip.
REACTION_NAMES: Final = {
    "like": _("Like"),
    "laugh": _("Laugh"),
    "wow": _("Wow"),
    "sad": _("Sad"),
    "heart": _("Love"),
}


def reaction_label(kind: str) -> str:
    """The reaction's name in the reader's language (the stored word for an unknown one)."""
    name = REACTION_NAMES.get(kind)
    return str(name) if name is not None else kind


class Thread(models.Model):
    """One scene or topic of a campaign, where its members post between sessions."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="threads")
    title = models.CharField(max_length=120)
    category = models.CharField(
        max_length=60, blank=True, help_text="The scene or topic the GMs file it under."
    )
    position = models.PositiveIntegerField(default=0, help_text="Order within its category.")
    pinned = models.BooleanField(default=False, help_text="Shown first.")
    locked = models.BooleanField(default=False, help_text="Only the GMs may post.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="threads_started"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    last_post_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-pinned", "category", "position", "-last_post_at", "pk")
        indexes = [models.Index(fields=("campaign", "category", "position"), name="thread_order")]

    def __str__(self) -> str:
        return self.title


class Post(models.Model):
    """One post: by a member as herself, or in character (one of her characters there)."""

    thread = models.ForeignKey(Thread, on_delete=models.CASCADE, related_name="posts")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="thread_posts"
    )
    character = models.ForeignKey(
        "characters.Character",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="thread_posts",
        help_text="Empty: the member posts as herself.",
    )
    body = models.TextField(blank=True, help_text="Markdown; the /roll lines are taken out.")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    edited_at = models.DateTimeField(null=True, blank=True, help_text="Last edit, if any.")

    class Meta:
        ordering = ("created_at", "pk")
        indexes = [models.Index(fields=("thread", "created_at"), name="post_thread_time")]

    def __str__(self) -> str:
        return f"post {self.pk} in {self.thread_id}"


class PostRoll(models.Model):
    """A roll made by a ``/roll`` line of a post: logged in the campaign's roll log, with the
    exact odds worked out when it was rolled. An edit of the post never changes it."""

    post = models.ForeignKey(Post, on_delete=models.CASCADE, related_name="post_rolls")
    roll = models.OneToOneField(Roll, on_delete=models.CASCADE, related_name="post_roll")
    position = models.PositiveSmallIntegerField(default=0)
    odds = models.JSONField(default=dict, blank=True, help_text="Exact chances, as rolled.")

    class Meta:
        ordering = ("post", "position", "pk")

    def __str__(self) -> str:
        return f"roll {self.roll_id} of post {self.post_id}"


class Reaction(models.Model):
    """One member's reaction to a post (at most one of each kind)."""

    post = models.ForeignKey(Post, on_delete=models.CASCADE, related_name="reactions")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="post_reactions"
    )
    kind = models.CharField(max_length=10, choices=[(k, k) for k in REACTIONS])

    class Meta:
        ordering = ("post", "kind", "pk")
        constraints = [
            models.UniqueConstraint(fields=("post", "user", "kind"), name="one_reaction_per_kind")
        ]

    def __str__(self) -> str:
        return f"{self.kind} on {self.post_id}"


class ReadMark(models.Model):
    """How far one member has read one thread (its unread count is what came after)."""

    thread = models.ForeignKey(Thread, on_delete=models.CASCADE, related_name="read_marks")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="thread_read_marks"
    )
    read_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=("thread", "user"), name="one_read_mark_per_member")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} read {self.thread_id}"
