"""API shapes for campaigns, members and rolls, and for campaign play. Input serializers only
parse; the services decide."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from rest_framework import serializers
from rest_framework.fields import empty

from apibase.fields import ObjectIdField
from westernroses.catalog import get_catalog
from westernroses.house_rules import (
    DEFAULT_HOUSE_RULES,
    HOUSE_RULES_META,
    HouseRuleError,
    HouseRules,
)

from ..invitations import DEFAULT_EXPIRY_DAYS, MAX_EXPIRY_DAYS, invitation_path
from ..models import (
    MAX_NAMED,
    MAX_PROSE,
    Attendance,
    AttendanceStatus,
    Award,
    Campaign,
    GameSession,
    GMNote,
    Handout,
    Invitation,
    LevelUp,
    Membership,
    Role,
    Roll,
)
from ..services import DiceRequest, DiceRequestError, dice_request_from

#: The largest value a PostgreSQL integer column holds.
MAX_DB_INT = 2**31 - 1

# ------------------------------------------------------------------ campaigns, members, rolls


class MemberSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username", read_only=True)
    name = serializers.CharField(source="user.shown_name", read_only=True)

    class Meta:
        model = Membership
        fields = ("user", "username", "name", "role", "joined_at")
        read_only_fields = fields


class CampaignSerializer(serializers.ModelSerializer):
    my_role = serializers.SerializerMethodField()
    house_rules = serializers.SerializerMethodField(
        help_text="Every house rule in force (defaults included)."
    )
    house_rules_changed = serializers.SerializerMethodField(
        help_text="Only the house rules that differ from the defaults."
    )

    class Meta:
        model = Campaign
        fields = (
            "id",
            "name",
            "description",
            "my_role",
            "house_rules",
            "house_rules_changed",
            "created_at",
        )
        read_only_fields = ("id", "my_role", "created_at")
        extra_kwargs = {"description": {"max_length": MAX_PROSE}}

    def get_my_role(self, obj: Campaign) -> str | None:
        return getattr(obj, "my_role", None)

    def get_house_rules(self, obj: Campaign) -> dict[str, int]:
        return obj.rules().to_dict()

    def get_house_rules_changed(self, obj: Campaign) -> dict[str, int]:
        return obj.rules().changed()


class CampaignUpdateSerializer(serializers.Serializer):
    """GM changes: any of name, description and a partial map of house rules."""

    name = serializers.CharField(max_length=120, required=False)
    description = serializers.CharField(required=False, allow_blank=True, max_length=MAX_PROSE)
    house_rules = serializers.DictField(child=serializers.JSONField(), required=False)
    reset_house_rules = serializers.BooleanField(required=False, default=False)

    def validate_house_rules(self, value: dict[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(value) - set(HOUSE_RULES_META))
        if unknown:
            raise serializers.ValidationError({k: ["Unknown house rule."] for k in unknown})
        try:
            campaign = self.context.get("campaign")
            current = campaign.rules() if campaign is not None else DEFAULT_HOUSE_RULES
            HouseRules.checked({**current.to_dict(), **value})
        except HouseRuleError as exc:
            raise serializers.ValidationError({k: [v] for k, v in exc.errors.items()}) from None
        return value


class RollSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username", read_only=True)
    dice = serializers.ListField(child=serializers.IntegerField(), read_only=True)

    class Meta:
        model = Roll
        fields = (
            "id",
            "campaign",
            "username",
            "label",
            "notation",
            "target",
            "dice",
            "total",
            "margin",
            "success",
            "critical",
            "secret",
            "detail",
            "created_at",
        )
        read_only_fields = fields


class DiceInputSerializer(serializers.Serializer):
    """Dice notation, or a stat whose pool the campaign's rules give, plus modifier and target."""

    notation = serializers.CharField(max_length=60, required=False, allow_blank=True)
    stat = serializers.IntegerField(required=False, min_value=0, max_value=300, allow_null=True)
    modifier = serializers.IntegerField(required=False, default=0, min_value=-1000, max_value=1000)
    target = serializers.IntegerField(
        required=False, allow_null=True, min_value=-1000, max_value=2000
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        chosen = None
        if attrs.get("check"):
            chosen = self.context.get("checks", {}).get(attrs["check"])
            if chosen is None:
                raise serializers.ValidationError(
                    {"check": ["Not a check of a character you may roll for here."]}
                )
            attrs["chosen_check"] = chosen
        try:
            attrs["dice_request"] = dice_request_from(
                notation=attrs.get("notation") or "",
                stat=attrs.get("stat"),
                modifier=(attrs.get("modifier") or 0) + (chosen.modifier if chosen else 0),
                target=attrs.get("target"),
                rules=self.context.get("rules"),
                pool=chosen.dice if chosen else None,
            )
        except DiceRequestError as exc:
            raise serializers.ValidationError({exc.field: [str(exc)]}) from None
        return attrs

    @property
    def dice_request(self) -> DiceRequest:
        return self.validated_data["dice_request"]


class RollInputSerializer(DiceInputSerializer):
    check = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=100,  # a 19-digit id, ":skill:" and a skill's slug fit many times over
        help_text=(
            "A character's check instead of notation: '<character id>:stat:<pwr|cha|int|ins>' "
            "or '<character id>:skill:<slug>'. Rolls the sheet's pool with its modifiers."
        ),
    )
    campaign = ObjectIdField(required=False, allow_null=True)
    label = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")
    secret = serializers.BooleanField(required=False, default=False)


class OddsSerializer(serializers.Serializer):
    """Exact odds; every probability also as an exact fraction string."""

    notation = serializers.CharField()
    target = serializers.IntegerField(allow_null=True)
    min_total = serializers.IntegerField()
    max_total = serializers.IntegerField()
    mean = serializers.CharField()
    distribution = serializers.ListField(child=serializers.DictField())
    success = serializers.DictField(required=False)
    critical_success = serializers.DictField(required=False)
    critical_failure = serializers.DictField(required=False)
    failure = serializers.DictField(required=False)


# --------------------------------------------------------------------------- invitations


class InvitationSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField(help_text="The link to share (absolute).")
    state = serializers.SerializerMethodField(help_text="active, revoked, expired or used")
    invited_user = serializers.SlugRelatedField(
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


class InvitationInputSerializer(serializers.Serializer):
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
            raise serializers.ValidationError(f"No user called “{value}”.") from None


class InvitationPreviewSerializer(serializers.Serializer):
    """What an invitation link shows before joining."""

    campaign = serializers.DictField(help_text="id and name")
    role = serializers.CharField()
    state = serializers.CharField()
    invited_by = serializers.CharField()
    expires_at = serializers.DateTimeField()


class JoinedSerializer(serializers.Serializer):
    campaign = serializers.IntegerField()
    role = serializers.CharField()
    already_member = serializers.BooleanField()


# --------------------------------------------------------------------------- members


class MemberRoleSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=Role.choices)


# --------------------------------------------------------------------------- sessions


class AttendanceSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username", read_only=True)

    class Meta:
        model = Attendance
        fields = ("user", "username", "status")
        read_only_fields = fields


class GameSessionSerializer(serializers.ModelSerializer):
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


class GameSessionInputSerializer(serializers.Serializer):
    title = serializers.CharField(max_length=120)
    starts_at = serializers.DateTimeField()
    agenda = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=MAX_PROSE
    )


class GameSessionUpdateSerializer(serializers.Serializer):
    title = serializers.CharField(max_length=120, required=False)
    starts_at = serializers.DateTimeField(required=False)
    agenda = serializers.CharField(required=False, allow_blank=True, max_length=MAX_PROSE)
    summary = serializers.CharField(required=False, allow_blank=True, max_length=MAX_PROSE)


class AttendanceLineSerializer(serializers.Serializer):
    user = ObjectIdField()
    status = serializers.ChoiceField(choices=AttendanceStatus.choices, allow_null=True)


class AttendanceInputSerializer(serializers.Serializer):
    attendance = serializers.ListField(
        child=AttendanceLineSerializer(), max_length=MAX_NAMED, help_text="One line per member."
    )


# --------------------------------------------------------------------------- notes, handouts


class GMNoteSerializer(serializers.ModelSerializer):
    author = serializers.CharField(source="author.username", read_only=True)

    class Meta:
        model = GMNote
        fields = ("id", "title", "body", "session", "author", "created_at", "updated_at")
        read_only_fields = fields


class GMNoteInputSerializer(serializers.Serializer):
    title = serializers.CharField(max_length=120)
    body = serializers.CharField(required=False, allow_blank=True, default="", max_length=MAX_PROSE)
    session = ObjectIdField(required=False, allow_null=True)


class GMNoteUpdateSerializer(serializers.Serializer):
    title = serializers.CharField(max_length=120, required=False)
    body = serializers.CharField(required=False, allow_blank=True, max_length=MAX_PROSE)
    session = ObjectIdField(required=False, allow_null=True)


class HandoutSerializer(serializers.ModelSerializer):
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

        return reverse("campaign:handout_file", args=[obj.campaign_id, obj.pk])

    def get_recipients(self, obj: Handout) -> list[int]:
        # A player must not learn who else got a private handout.
        if not self.context.get("is_gm"):
            return []
        return sorted(u.pk for u in obj.recipients.all())


class OptionalBooleanField(serializers.BooleanField):
    """A boolean that may be left out of a form or multipart body too (DRF reads a missing
    checkbox there as false, which here would decide who sees a handout)."""

    default_empty_html = empty


class HandoutInputSerializer(serializers.Serializer):
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


class HandoutUpdateSerializer(serializers.Serializer):
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


class AwardSerializer(serializers.ModelSerializer):
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


class AwardInputSerializer(serializers.Serializer):
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


class LevelUpSerializer(serializers.ModelSerializer):
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


class LevelUpInputSerializer(serializers.Serializer):
    character = ObjectIdField()
    levels = serializers.IntegerField(min_value=1, max_value=10, default=1)


class HealInputSerializer(serializers.Serializer):
    character = ObjectIdField()
    amount = serializers.IntegerField(
        min_value=1, required=False, allow_null=True, help_text="Empty: heal fully."
    )


class StatusInputSerializer(serializers.Serializer):
    character = ObjectIdField()
    status = serializers.CharField(
        max_length=40,
        help_text="A status effect's slug: "
        + ", ".join(sorted(get_catalog().status_effects))
        + ".",
    )
    action = serializers.ChoiceField(choices=["apply", "clear"], default="apply")


class PartyRowSerializer(serializers.Serializer):
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


class TimelineEntrySerializer(serializers.Serializer):
    kind = serializers.CharField()
    at = serializers.DateTimeField()
    title = serializers.CharField()
    body = serializers.CharField()
    url = serializers.CharField()
    actor = serializers.CharField()
    ref = serializers.CharField()
    data = serializers.DictField()


class TimelinePageSerializer(serializers.Serializer):
    page = serializers.IntegerField()
    per_page = serializers.IntegerField()
    has_next = serializers.BooleanField()
    results = TimelineEntrySerializer(many=True)


class DashboardSerializer(serializers.Serializer):
    version = serializers.CharField(help_text="Also the ETag: send it as If-None-Match.")
    party = PartyRowSerializer(many=True)
    rolls = serializers.ListField(child=serializers.DictField())
    invitations = serializers.ListField(child=serializers.DictField())
    upcoming_session = serializers.DictField(allow_null=True)
    notes = serializers.ListField(child=serializers.DictField())
    slots = serializers.DictField(help_text="active_battles, tavern_tables: registered panels")
