"""The threads API's shapes. Output is built from what :mod:`threads.services` already cut to
the reader: a roll she may not see is only ``{"id", "visible": false, "secret": true}``."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from apibase import serializers
from apibase.fields import ObjectIdField
from campaign.models import MAX_NAMED, MAX_PROSE

from .models import REACTIONS, Thread
from .services import MAX_CATEGORY, MAX_EXCERPT, MAX_POSITION, MAX_TITLE, ShownPost, ShownRoll


class ThreadSerializer(serializers.ModelSerializer[Thread]):
    created_by = serializers.CharField(source="created_by.username", read_only=True)
    post_count = serializers.IntegerField(read_only=True, default=0)
    unread = serializers.IntegerField(
        read_only=True, default=0, help_text="Posts by others you have not read."
    )

    class Meta:
        model = Thread
        fields = (
            "id",
            "title",
            "category",
            "position",
            "pinned",
            "locked",
            "created_by",
            "created_at",
            "last_post_at",
            "post_count",
            "unread",
        )
        read_only_fields = fields


class ThreadInputSerializer(serializers.Serializer[Any]):
    title = serializers.CharField(max_length=MAX_TITLE)
    category = serializers.CharField(
        max_length=MAX_CATEGORY, required=False, allow_blank=True, default=""
    )
    body = serializers.CharField(
        max_length=MAX_PROSE,
        required=False,
        allow_blank=True,
        default="",
        help_text="An optional first post (Markdown, /roll lines).",
    )
    character = ObjectIdField(required=False, allow_null=True, default=None)


class ThreadUpdateSerializer(serializers.Serializer[Any]):
    title = serializers.CharField(max_length=MAX_TITLE, required=False)
    category = serializers.CharField(max_length=MAX_CATEGORY, required=False, allow_blank=True)
    position = serializers.IntegerField(min_value=0, max_value=MAX_POSITION, required=False)
    pinned = serializers.BooleanField(required=False)
    locked = serializers.BooleanField(required=False)


class ThreadPostInputSerializer(serializers.Serializer[Any]):
    body = serializers.CharField(
        max_length=MAX_PROSE,
        help_text="Markdown; @name mentions; a line “/roll 4d > 12” (or “/roll secret ...”) "
        "is rolled by the server.",
    )
    character = ObjectIdField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Post as this character of yours in the campaign; empty: as yourself.",
    )


class ThreadPostEditSerializer(serializers.Serializer[Any]):
    body = serializers.CharField(max_length=MAX_PROSE, allow_blank=True)


class ThreadReactionInputSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=list(REACTIONS))


class _PostExcerptSerializer(serializers.Serializer[Any]):
    """A title and a passage of a post: what a handout or a wiki entry made from it starts
    with."""

    title = serializers.CharField(max_length=120)
    excerpt = serializers.CharField(
        max_length=MAX_EXCERPT,
        required=False,
        allow_blank=True,
        default="",
        help_text="A passage of the post's text; empty: the whole post.",
    )


class ThreadHandoutFromPostSerializer(_PostExcerptSerializer):
    recipients = serializers.ListField(
        child=ObjectIdField(), required=False, default=list, max_length=MAX_NAMED
    )


class ThreadWikiEntryFromPostSerializer(_PostExcerptSerializer):
    kind = serializers.CharField(
        max_length=40, required=False, default="lore", help_text="A kind of the campaign's wiki."
    )
    visibility = serializers.ChoiceField(
        choices=[
            ("gm", _("Game masters only")),
            ("all", _("Everyone in the campaign")),
            ("chosen", _("Chosen players")),
        ],
        required=False,
        default="gm",
    )
    viewers = serializers.ListField(
        child=ObjectIdField(),
        required=False,
        default=list,
        max_length=MAX_NAMED,
        help_text="The players who see it, with visibility “chosen”.",
    )


class ThreadRollSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    visible = serializers.BooleanField(help_text="False: rolled in secret, result not yours.")
    secret = serializers.BooleanField()
    hidden_from_roller = serializers.BooleanField()
    label = serializers.CharField(required=False)  # type: ignore[assignment]  # a field named label
    notation = serializers.CharField(required=False)
    target = serializers.IntegerField(required=False, allow_null=True)
    dice = serializers.ListField(child=serializers.IntegerField(), required=False)
    total = serializers.IntegerField(required=False, allow_null=True)
    margin = serializers.IntegerField(required=False, allow_null=True)
    success = serializers.BooleanField(required=False, allow_null=True)
    critical = serializers.CharField(required=False)
    odds = serializers.JSONField(required=False, help_text="Exact chances, as rolled.")

    def to_representation(self, instance: ShownRoll) -> dict[str, Any]:
        if not instance.visible:
            return {
                "id": instance.id,
                "visible": False,
                "secret": True,
                "hidden_from_roller": instance.hidden_from_roller,
            }
        return dict(super().to_representation(instance))


class ThreadReactionSerializer(serializers.Serializer[Any]):
    kind = serializers.CharField()
    emoji = serializers.CharField()
    count = serializers.IntegerField()
    mine = serializers.BooleanField()


class ThreadPostSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="post.pk")
    author = serializers.CharField(source="post.author.username")
    character = serializers.IntegerField(source="post.character_id", allow_null=True)
    speaker = serializers.CharField(help_text="The character's name, or the member's.")
    portrait_url = serializers.SerializerMethodField()
    body = serializers.CharField(source="post.body", help_text="Markdown, without /roll lines.")
    html = serializers.CharField(help_text="The body rendered and sanitized.")
    created_at = serializers.DateTimeField(source="post.created_at")
    edited_at = serializers.DateTimeField(source="post.edited_at", allow_null=True)
    rolls = ThreadRollSerializer(many=True)
    reactions = serializers.SerializerMethodField()

    def get_portrait_url(self, obj: ShownPost) -> str | None:
        from django.urls import reverse

        character = obj.post.character
        if character is None or not character.portrait:
            return None
        return reverse("characters:portrait", args=[character.pk])

    def get_reactions(self, obj: ShownPost) -> list[dict[str, Any]]:
        return [
            {"kind": kind, "emoji": emoji, "count": count, "mine": mine}
            for kind, emoji, count, mine in obj.reactions
        ]
