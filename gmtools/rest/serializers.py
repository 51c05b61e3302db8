"""API shapes for the GM tools: invitations, members' roles, sessions and attendance, GM notes,
handouts, awards, level-ups, the party's quick actions, the timeline and the dashboard. Input
serializers only parse; the services decide."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext
from rest_framework.fields import empty

from accounts.models import User
from apibase import serializers
from apibase.fields import ObjectIdField
from campaign.models import MAX_NAMED, MAX_PROSE, Role
from campaign.rest.serializers import MAX_DB_INT
from westernroses.catalog import get_catalog

from ..invitations import DEFAULT_EXPIRY_DAYS, MAX_EXPIRY_DAYS, invitation_path
from ..models import (
    Attendance,
    AttendanceStatus,
    Award,
    GameSession,
    GMNote,
    Handout,
    Invitation,
    LevelUp,
)

# --------------------------------------------------------------------------- invitations


class InvitationSerializer(serializers.ModelSerializer[Invitation]):
    url = serializers.SerializerMethodField(help_text="The link to share (absolute).")
    state = serializers.SerializerMethodField(help_text="active, revoked, expired or used")
    invited_user: serializers.SlugRelatedField[User] = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )

    class Meta:
        model = Invitation
        fields = (
            "id",
            "role",
            "token",
            "url",
            "state",
            "note",
            "invited_user",
            "expires_at",
            "max_uses",
            "uses",
            "revoked_at",
            "created_at",
        )
        read_only_fields = fields

    def get_url(self, obj: Invitation) -> str:
        request = self.context.get("request")
        path = invitation_path(obj)
        return request.build_absolute_uri(path) if request is not None else path

    def get_state(self, obj: Invitation) -> str:
        return obj.state()


class InvitationInputSerializer(serializers.Serializer[Any]):
    role = serializers.ChoiceField(choices=Role.choices, default=Role.PLAYER)
    expires_in_days = serializers.IntegerField(
        min_value=1, max_value=MAX_EXPIRY_DAYS, default=DEFAULT_EXPIRY_DAYS
    )
    max_uses = serializers.IntegerField(
        min_value=1, max_value=MAX_DB_INT, required=False, allow_null=True
    )
    username = serializers.CharField(
        max_length=150,
        required=False,
        allow_blank=True,
        help_text="Invite this existing user: they are notified, and only they may use it.",
    )
    note = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")

    def validate_username(self, value: str) -> Any:
        if not value:
            return None
        try:
            return get_user_model().objects.get(username=value)
        except get_user_model().DoesNotExist:
            raise serializers.ValidationError(
                gettext("No user called “%(name)s”.") % {"name": value}
            ) from None


class InvitationPreviewSerializer(serializers.Serializer[Any]):
    """What an invitation link shows before joining."""

    campaign = serializers.DictField(help_text="id and name")
    role = serializers.CharField()
    state = serializers.CharField()
    invited_by = serializers.CharField()
    expires_at = serializers.DateTimeField()


class JoinedSerializer(serializers.Serializer[Any]):
    campaign = serializers.IntegerField()
    role = serializers.CharField()
    already_member = serializers.BooleanField()


# --------------------------------------------------------------------------- members


class MemberRoleSerializer(serializers.Serializer[Any]):
    role = serializers.ChoiceField(choices=Role.choices)


# --------------------------------------------------------------------------- sessions


class AttendanceSerializer(serializers.ModelSerializer[Attendance]):
    username = serializers.CharField(source="user.username", read_only=True)

    class Meta:
        model = Attendance
        fields = ("user", "username", "status")
        read_only_fields = fields


class GameSessionSerializer(serializers.ModelSerializer[GameSession]):
    attendance = AttendanceSerializer(many=True, read_only=True)

    class Meta:
        model = GameSession
        fields = (
            "id",
            "title",
            "starts_at",
            "agenda",
            "summary",
            "attendance",
            "created_at",
            "updated_at",
        )
        read_only_fields = fields


class GameSessionInputSerializer(serializers.Serializer[Any]):
    title = serializers.CharField(max_length=120)
    starts_at = serializers.DateTimeField()
    agenda = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=MAX_PROSE
    )


class GameSessionUpdateSerializer(serializers.Serializer[Any]):
    title = serializers.CharField(max_length=120, required=False)
    starts_at = serializers.DateTimeField(required=False)
    agenda = serializers.CharField(required=False, allow_blank=True, max_length=MAX_PROSE)
    summary = serializers.CharField(required=False, allow_blank=True, max_length=MAX_PROSE)


class AttendanceLineSerializer(serializers.Serializer[Any]):
    user = ObjectIdField()
    status = serializers.ChoiceField(choices=AttendanceStatus.choices, allow_null=True)


class AttendanceInputSerializer(serializers.Serializer[Any]):
    attendance = serializers.ListField(
        child=AttendanceLineSerializer(), max_length=MAX_NAMED, help_text="One line per member."
    )


# --------------------------------------------------------------------------- notes, handouts


class GMNoteSerializer(serializers.ModelSerializer[GMNote]):
    author = serializers.CharField(source="author.username", read_only=True)

    class Meta:
        model = GMNote
        fields = ("id", "title", "body", "session", "author", "created_at", "updated_at")
        read_only_fields = fields


class GMNoteInputSerializer(serializers.Serializer[Any]):
    title = serializers.CharField(max_length=120)
    body = serializers.CharField(required=False, allow_blank=True, default="", max_length=MAX_PROSE)
    session = ObjectIdField(required=False, allow_null=True)


class GMNoteUpdateSerializer(serializers.Serializer[Any]):
    title = serializers.CharField(max_length=120, required=False)
    body = serializers.CharField(required=False, allow_blank=True, max_length=MAX_PROSE)
    session = ObjectIdField(required=False, allow_null=True)


class HandoutSerializer(serializers.ModelSerializer[Handout]):
    author = serializers.CharField(source="author.username", read_only=True)
    file_url = serializers.SerializerMethodField(help_text="Download link, if it has a file.")
    recipients = serializers.SerializerMethodField(
        help_text="Who it is shared with (GMs only; empty for others)."
    )

    class Meta:
        model = Handout
        fields = (
            "id",
            "title",
            "body",
            "author",
            "file_name",
            "file_url",
            "shared_with_all",
            "recipients",
            "created_at",
            "updated_at",
        )
        read_only_fields = fields

    def get_file_url(self, obj: Handout) -> str | None:
        if not obj.file:
            return None
        from django.urls import reverse

        return reverse("gmtools:handout_file", args=[obj.campaign_id, obj.pk])

    def get_recipients(self, obj: Handout) -> list[int]:
        # A player must not learn who else got a private handout.
        if not self.context.get("is_gm"):
            return []
        return sorted(u.pk for u in obj.recipients.all())


class OptionalBooleanField(serializers.BooleanField):
    """A boolean that may be left out of a form or multipart body too (DRF reads a missing
    checkbox there as false, which here would decide who sees a handout)."""

    default_empty_html = empty


class HandoutInputSerializer(serializers.Serializer[Any]):
    title = serializers.CharField(max_length=120)
    body = serializers.CharField(required=False, allow_blank=True, default="", max_length=MAX_PROSE)
    file = serializers.FileField(required=False, allow_null=True)
    shared_with_all = OptionalBooleanField(
        required=False,
        help_text="Left out: everyone when no recipients are given, else only the recipients. "
        "True together with recipients is refused.",
    )
    recipients = serializers.ListField(
        child=ObjectIdField(),
        required=False,
        default=list,
        max_length=MAX_NAMED,
        help_text="Members who may see it; giving any shares it only with them.",
    )


class HandoutUpdateSerializer(serializers.Serializer[Any]):
    title = serializers.CharField(max_length=120, required=False)
    body = serializers.CharField(required=False, allow_blank=True, max_length=MAX_PROSE)
    shared_with_all = OptionalBooleanField(
        required=False, help_text="True shares it with everyone and drops the recipients."
    )
    recipients = serializers.ListField(
        child=ObjectIdField(),
        required=False,
        max_length=MAX_NAMED,
        help_text="Share it only with these members (with shared_with_all left out or false).",
    )


# --------------------------------------------------------------------------- awards, levels


class AwardSerializer(serializers.ModelSerializer[Award]):
    awarded_by = serializers.CharField(source="awarded_by.username", read_only=True)
    characters = serializers.SerializerMethodField()

    class Meta:
        model = Award
        fields = (
            "id",
            "yen",
            "items",
            "reason",
            "session",
            "characters",
            "awarded_by",
            "created_at",
        )
        read_only_fields = fields

    def get_characters(self, obj: Award) -> list[dict[str, Any]]:
        return [{"id": r.character_id, "name": r.character_name} for r in obj.recipients.all()]


class AwardInputSerializer(serializers.Serializer[Any]):
    characters = serializers.ListField(
        child=ObjectIdField(), allow_empty=False, max_length=MAX_NAMED
    )
    yen = serializers.IntegerField(min_value=0, required=False, default=0)
    items = serializers.DictField(
        child=serializers.IntegerField(),
        required=False,
        default=dict,
        help_text="Catalog item slug → quantity, per character.",
    )
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    session = ObjectIdField(required=False, allow_null=True)


class LevelUpSerializer(serializers.ModelSerializer[LevelUp]):
    raised_by = serializers.CharField(source="raised_by.username", read_only=True)

    class Meta:
        model = LevelUp
        fields = (
            "id",
            "character",
            "character_name",
            "from_level",
            "to_level",
            "raised_by",
            "created_at",
        )
        read_only_fields = fields


class LevelUpInputSerializer(serializers.Serializer[Any]):
    character = ObjectIdField()
    levels = serializers.IntegerField(min_value=1, max_value=10, default=1)


class HealInputSerializer(serializers.Serializer[Any]):
    character = ObjectIdField()
    amount = serializers.IntegerField(
        min_value=1, required=False, allow_null=True, help_text="Empty: heal fully."
    )


class StatusInputSerializer(serializers.Serializer[Any]):
    character = ObjectIdField()
    status = serializers.CharField(
        max_length=40,
        help_text="A status effect's slug: "
        + ", ".join(sorted(get_catalog().status_effects))
        + ".",
    )
    action = serializers.ChoiceField(choices=["apply", "clear"], default="apply")


class PartyRowSerializer(serializers.Serializer[Any]):
    """One character at a glance (the dashboard's party row)."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    owner = serializers.CharField()
    is_npc = serializers.BooleanField()
    level = serializers.IntegerField()
    yen = serializers.IntegerField()
    hp = serializers.DictField(allow_null=True)
    spell_power = serializers.DictField()
    status_effects = serializers.ListField(child=serializers.DictField())
    drunkenness = serializers.DictField()
    items = serializers.ListField(child=serializers.DictField())
    can_act = serializers.BooleanField()
    complete = serializers.BooleanField()


# --------------------------------------------------------------------------- timeline, dashboard


class TimelineEntrySerializer(serializers.Serializer[Any]):
    kind = serializers.CharField()
    at = serializers.DateTimeField()
    title = serializers.CharField()
    body = serializers.CharField()
    url = serializers.CharField()
    actor = serializers.CharField()
    ref = serializers.CharField()
    # a declared field (the JSON key), not the Serializer attribute `data`
    data = serializers.DictField()  # type: ignore[assignment]


class TimelinePageSerializer(serializers.Serializer[Any]):
    page = serializers.IntegerField()
    per_page = serializers.IntegerField()
    has_next = serializers.BooleanField()
    results = TimelineEntrySerializer(many=True)


class DashboardSerializer(serializers.Serializer[Any]):
    version = serializers.CharField(help_text="Also the ETag: send it as If-None-Match.")
    party = PartyRowSerializer(many=True)
    rolls = serializers.ListField(child=serializers.DictField())
    invitations = serializers.ListField(child=serializers.DictField())
    upcoming_session = serializers.DictField(
        allow_null=True, help_text="With rsvp: the answers counted (yes, maybe, no, unanswered)."
    )
    world_date = serializers.DictField(
        allow_null=True, help_text="The in-world date: year, month, day and words."
    )
    notes = serializers.ListField(child=serializers.DictField())
    slots = serializers.DictField(help_text="active_battles, tavern_tables: registered panels")
