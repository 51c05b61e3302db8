"""API shapes for campaigns, members and rolls (the GM tools' are in
``gmtools/rest/serializers.py``). Input serializers only parse; the services decide."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from apibase import serializers
from apibase.fields import ObjectIdField
from westernroses.house_rules import (
    DEFAULT_HOUSE_RULES,
    HOUSE_RULES_META,
    HouseRuleError,
    HouseRules,
)

from ..models import MAX_PROSE, Campaign, Membership, Roll
from ..services import DiceRequest, DiceRequestError, dice_request_from

#: The largest value a PostgreSQL integer column holds.
MAX_DB_INT = 2**31 - 1

# ------------------------------------------------------------------ campaigns, members, rolls


class MemberSerializer(serializers.ModelSerializer[Membership]):
    username = serializers.CharField(source="user.username", read_only=True)
    name = serializers.CharField(source="user.shown_name", read_only=True)

    class Meta:
        model = Membership
        fields = ("user", "username", "name", "role", "joined_at")
        read_only_fields = fields


class CampaignSerializer(serializers.ModelSerializer[Campaign]):
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


class CampaignUpdateSerializer(serializers.Serializer[Any]):
    """GM changes: any of name, description and a partial map of house rules."""

    name = serializers.CharField(max_length=120, required=False)
    description = serializers.CharField(required=False, allow_blank=True, max_length=MAX_PROSE)
    # No more keys than there are house rules: a larger map is refused before any key is read.
    house_rules = serializers.DictField(
        child=serializers.JSONField(), required=False, max_length=len(HOUSE_RULES_META)
    )
    reset_house_rules = serializers.BooleanField(required=False, default=False)

    def validate_house_rules(self, value: dict[str, Any]) -> dict[str, Any]:
        unknown = [k for k in value if k not in HOUSE_RULES_META]
        if unknown:
            raise serializers.ValidationError(
                {k: [gettext("Unknown house rule.")] for k in unknown}
            )
        try:
            campaign = self.context.get("campaign")
            current = campaign.rules() if campaign is not None else DEFAULT_HOUSE_RULES
            HouseRules.checked({**current.to_dict(), **value})
        except HouseRuleError as exc:
            raise serializers.ValidationError({k: [v] for k, v in exc.errors.items()}) from None
        return value


class RollSerializer(serializers.ModelSerializer[Roll]):
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


class DiceInputSerializer(serializers.Serializer[Any]):
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
                    {"check": [gettext("Not a check of a character you may roll for here.")]}
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
        request: DiceRequest = self.validated_data["dice_request"]  # set by validate()
        return request


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
    # a declared field (the JSON key), not the Serializer attribute `label`
    label = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")  # type: ignore[assignment]
    secret = serializers.BooleanField(required=False, default=False)


class OddsSerializer(serializers.Serializer[Any]):
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
