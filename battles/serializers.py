"""API shapes for battles. Input serializers only parse; the services and the engine decide.

The view and legal-action shapes are the engine's (docs/battle.md "view", "legal_actions");
their serializers here exist to document them in the OpenAPI schema, never to serialise the
stored state.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from accounts.models import User
from apibase import serializers
from apibase.fields import ObjectIdField
from westernroses import stat_block as rules
from westernroses.elements import Element

from .maps import MAX_SQUARE_PX, MIN_SQUARE_PX, map_url
from .models import Battle, BattleMap, Combatant
from .services import MAX_SIDE, MIN_SIDE, TERRAINS, NpcSpec, battle_url

#: An NPC's bounds are the rules' for every NPC (westernroses/stat_block.py), the wiki's too.
STAT_MAX = rules.STAT_MAX


def _weapons() -> list[tuple[str, str]]:
    return [(rules.FISTS, "Bare Fists"), *rules.weapon_choices()]


class BattleSerializer(serializers.ModelSerializer[Battle]):
    created_by: serializers.SlugRelatedField[User] = serializers.SlugRelatedField(
        slug_field="username", read_only=True
    )
    url = serializers.SerializerMethodField(help_text="The battle screen (a site path).")

    class Meta:
        model = Battle
        fields: tuple[str, ...] = (
            "id",
            "campaign",
            "name",
            "status",
            "version",
            "turn_summary",
            "current_combatant",
            "created_by",
            "created_at",
            "updated_at",
            "started_at",
            "ended_at",
            "map",
            "url",
        )
        read_only_fields: tuple[str, ...] = fields

    def get_url(self, obj: Battle) -> str:
        return battle_url(obj)


class BattleCreateSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=120)
    width = serializers.IntegerField(min_value=MIN_SIDE, max_value=MAX_SIDE, default=12)
    height = serializers.IntegerField(min_value=MIN_SIDE, max_value=MAX_SIDE, default=8)


class ExpectedVersionMixin(serializers.Serializer[Any]):
    expected_version = serializers.IntegerField(
        min_value=0,
        required=False,
        help_text="The version you acted on; a newer battle answers 409 instead of changing.",
    )


class BattleUpdateSerializer(ExpectedVersionMixin):
    """Setup only: rename, resize the arena."""

    name = serializers.CharField(max_length=120, required=False)
    width = serializers.IntegerField(min_value=MIN_SIDE, max_value=MAX_SIDE, required=False)
    height = serializers.IntegerField(min_value=MIN_SIDE, max_value=MAX_SIDE, required=False)


class SquareField(serializers.ListField):
    """``[x, y]``: whole numbers, (0, 0) is the top-left square."""

    child = serializers.IntegerField(min_value=0, max_value=MAX_SIDE)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(min_length=2, max_length=2, **kwargs)


class SquareInputSerializer(ExpectedVersionMixin):
    square = SquareField()
    terrain = serializers.ChoiceField(choices=TERRAINS)


class NpcInputSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=120)
    pwr = serializers.IntegerField(min_value=rules.STAT_MIN, max_value=STAT_MAX)
    cha = serializers.IntegerField(min_value=rules.STAT_MIN, max_value=STAT_MAX)
    int = serializers.IntegerField(min_value=rules.STAT_MIN, max_value=STAT_MAX)
    ins = serializers.IntegerField(min_value=rules.STAT_MIN, max_value=STAT_MAX)
    hp = serializers.IntegerField(min_value=rules.HP_MIN, max_value=rules.HP_MAX)
    speed = serializers.IntegerField(min_value=0, max_value=rules.SPEED_MAX)
    range = serializers.IntegerField(min_value=0, max_value=rules.RANGE_MAX)
    element = serializers.ChoiceField(
        choices=[(e.value, e.value) for e in Element], required=False, allow_blank=True
    )
    weapons = serializers.ListField(
        child=serializers.ChoiceField(choices=_weapons()),
        required=False,
        max_length=rules.MAX_WEAPONS,
    )
    damage_reduction = serializers.IntegerField(
        min_value=0, max_value=rules.DAMAGE_REDUCTION_MAX, default=0
    )
    spell_power = serializers.IntegerField(
        min_value=0,
        max_value=rules.SPELL_POWER_MAX,
        required=False,
        allow_null=True,
        help_text="The spell power it starts with; without it the house rule's (ruling 8).",
    )


def npc_spec(data: dict[str, Any]) -> NpcSpec:
    """The service's NPC numbers from :class:`NpcInputSerializer`'s validated data."""
    return NpcSpec(
        name=data["name"],
        stats={k: data[k] for k in ("pwr", "cha", "int", "ins")},
        hp=data["hp"],
        speed=data["speed"],
        range=data["range"],
        element=data.get("element") or None,
        weapons=tuple(w for w in data.get("weapons", []) if w != "bare_fists"),
        damage_reduction=data.get("damage_reduction", 0),
        spell_power=data.get("spell_power"),
    )


class PlaceInputSerializer(ExpectedVersionMixin):
    """Place one of the campaign's characters (``character``), an NPC from typed-in numbers
    (``npc``) or an NPC from the campaign's wiki (``wiki_entry``: a Character or NPC entry with
    a stat block; its numbers come from the stat block, its name from the entry's title)."""

    character = ObjectIdField(required=False)
    npc = NpcInputSerializer(required=False)
    wiki_entry = ObjectIdField(
        required=False,
        help_text="A wiki entry of this campaign with a stat block (another campaign's: 404).",
    )
    name = serializers.CharField(
        max_length=120,
        required=False,
        help_text="wiki_entry only: the name it fights under (default: the entry's title).",
    )
    side = serializers.CharField(
        max_length=30,
        required=False,
        help_text=(
            "The side she fights on: a short name (letters, digits, - and _), e.g. heroes, "
            "enemies, neutral. Required with wiki_entry. Without it a character joins heroes "
            "and a typed-in NPC joins enemies; send it to choose (the battle screen always asks)."
        ),
    )
    position = SquareField(required=False, allow_null=True)
    controller = serializers.ChoiceField(
        choices=(("owner", "its owner"), ("gm", "the GMs")),
        default="owner",
        help_text="Characters only: who plays it.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        given = [key for key in ("character", "npc", "wiki_entry") if key in attrs]
        if len(given) != 1:
            raise serializers.ValidationError(
                {"non_field_errors": [gettext("Give one of a character, an npc or a wiki_entry.")]}
            )
        if "name" in attrs and "wiki_entry" not in attrs:
            raise serializers.ValidationError(
                {"name": [gettext("Only an NPC from the wiki takes a name here.")]}
            )
        return attrs


class CombatantUpdateSerializer(ExpectedVersionMixin):
    position = SquareField(required=False, allow_null=True)
    side = serializers.CharField(max_length=30, required=False)


class CombatantSerializer(serializers.ModelSerializer[Combatant]):
    controller = serializers.SerializerMethodField(
        help_text="The engine player who acts for it: a user id, or gm."
    )
    controller_name = serializers.SerializerMethodField()

    class Meta:
        model = Combatant
        fields = ("engine_id", "name", "kind", "side", "character", "controller", "controller_name")
        read_only_fields = fields

    def get_controller(self, obj: Combatant) -> str:
        return "gm" if obj.controller_id is None else str(obj.controller_id)

    def get_controller_name(self, obj: Combatant) -> str:
        return "the GM" if obj.controller is None else obj.controller.shown_name


class TurnSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    turn_number = serializers.IntegerField()
    order = serializers.ListField(child=serializers.CharField())
    current = serializers.CharField(allow_null=True)
    started_at = serializers.CharField(allow_null=True)
    acted_this_round = serializers.ListField(child=serializers.CharField())
    current_hidden = serializers.BooleanField(
        help_text="The current combatant stands in fog (the GM is acting): current is null."
    )


class MapViewSerializer(serializers.Serializer[Any]):
    """How the board draws a map: squares of ``square_px`` image pixels from the offset."""

    url = serializers.CharField(help_text="The image (campaign members only).")
    name = serializers.CharField()
    cols = serializers.IntegerField(help_text="Squares across (the arena's width).")
    rows = serializers.IntegerField(help_text="Squares down (the arena's height).")
    offset_x = serializers.IntegerField(help_text="Image pixels left of the first square.")
    offset_y = serializers.IntegerField(help_text="Image pixels above the first square.")
    square_px = serializers.IntegerField(help_text="A square's side in image pixels.")
    width_px = serializers.IntegerField()
    height_px = serializers.IntegerField()


class YouSerializer(serializers.Serializer[Any]):
    player = serializers.CharField(help_text="Your engine player: gm or your user id.")
    controls = serializers.ListField(child=serializers.CharField())
    legal_actions = serializers.ListField(child=serializers.DictField())


class LogEntrySerializer(serializers.Serializer[Any]):
    n = serializers.IntegerField(help_text="The version this action produced.")
    action = serializers.DictField()
    events = serializers.ListField(child=serializers.DictField())


class LogPageEntrySerializer(LogEntrySerializer):
    """An entry of the log endpoint: the view's entry, with who sent it and when."""

    seat = serializers.CharField(help_text='The engine player who acted: "gm" or a user id.')
    at = serializers.CharField()


class BattleViewSerializer(serializers.Serializer[Any]):
    """``engine.view(state, you)``: what you may see (no other hands, no seed while it runs)."""

    battle_id = serializers.CharField()
    version = serializers.IntegerField()
    phase = serializers.ChoiceField(choices=("setup", "active", "ended"))
    house_rules = serializers.DictField()
    arena = serializers.DictField(help_text="width, height, blocked, difficult, fog (if any)")
    fog = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="Fogged squares [x, y] (public). Players' views leave out whoever stands "
        "in fog (not theirs); the GM sees everyone.",
    )
    map = MapViewSerializer(allow_null=True, help_text="The map image under the grid, or null.")
    turn = TurnSerializer()
    combatants = serializers.DictField(
        child=serializers.DictField(),
        help_text="By id: position, hp, hp_max, spell_power, effects, hand (yours only) ...",
    )
    pending = serializers.DictField(allow_null=True)
    field_effects = serializers.ListField(child=serializers.DictField())
    drops = serializers.ListField(child=serializers.DictField())
    targets = serializers.DictField(child=serializers.IntegerField())
    winner = serializers.CharField(allow_null=True)
    ended_reason = serializers.CharField(allow_null=True)
    you = YouSerializer()
    log = LogEntrySerializer(many=True, help_text="Entries after since (at most the last 100).")
    rng = serializers.DictField(allow_null=True, help_text="Revealed when the battle ends.")


class BattleDetailSerializer(BattleSerializer):
    view = BattleViewSerializer(read_only=True)

    class Meta(BattleSerializer.Meta):
        fields: tuple[str, ...] = (*BattleSerializer.Meta.fields, "view")
        read_only_fields: tuple[str, ...] = fields


class ChangeResultSerializer(serializers.Serializer[Any]):
    """The table core's answer about a battle (``state/``, a move, a setup change)."""

    version = serializers.IntegerField()
    seat = serializers.CharField(help_text='Your engine player: "gm" or your user id.')
    view = BattleViewSerializer()


class LegalActionsSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    player = serializers.CharField()
    legal_actions = serializers.ListField(child=serializers.DictField())


class LogPageSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    results = LogPageEntrySerializer(many=True)
    next_after = serializers.IntegerField(
        allow_null=True, help_text="Ask again with after=this for more; null: that was all."
    )


class StaleSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField()
    version = serializers.IntegerField(help_text="The battle's current version.")


# --------------------------------------------------------------------------- maps


class BattleMapSerializer(serializers.ModelSerializer[BattleMap]):
    """A map of the campaign's library and how the grid lies on it (image pixels)."""

    url = serializers.SerializerMethodField(help_text="The image (campaign members only).")

    class Meta:
        model = BattleMap
        fields: tuple[str, ...] = (
            "id",
            "campaign",
            "name",
            "url",
            "content_type",
            "width_px",
            "height_px",
            "cols",
            "rows",
            "offset_x",
            "offset_y",
            "square_px",
            "created_at",
            "updated_at",
        )
        read_only_fields: tuple[str, ...] = fields

    def get_url(self, obj: BattleMap) -> str:
        return map_url(obj)


class AlignmentInputSerializer(serializers.Serializer[Any]):
    cols = serializers.IntegerField(
        min_value=MIN_SIDE, max_value=MAX_SIDE, required=False, help_text="Squares across."
    )
    rows = serializers.IntegerField(
        min_value=MIN_SIDE, max_value=MAX_SIDE, required=False, help_text="Squares down."
    )
    offset_x = serializers.IntegerField(min_value=0, max_value=8192, required=False)
    offset_y = serializers.IntegerField(min_value=0, max_value=8192, required=False)
    square_px = serializers.IntegerField(
        min_value=MIN_SQUARE_PX, max_value=MAX_SQUARE_PX, required=False
    )


class MapCreateSerializer(AlignmentInputSerializer):
    """``multipart/form-data``: the image and its name; the grid defaults to 12 squares
    across the image's width."""

    name = serializers.CharField(max_length=120)
    image = serializers.FileField(help_text="PNG, JPEG or WebP (checked by content); 8 MB at most.")


class MapUpdateSerializer(AlignmentInputSerializer):
    name = serializers.CharField(max_length=120, required=False)


class BattleMapChoiceSerializer(ExpectedVersionMixin):
    map = ObjectIdField(allow_null=True, help_text="A map of the campaign's library; null: none.")
