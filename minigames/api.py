"""The tavern's API: everything the pages do, so bots written by others can play (docs/tavern.md).

* ``GET  /api/tavern/games/`` - the games, seat ranges, house rules with defaults, decks;
* ``GET/POST /api/tavern/tables/`` - tables you may see (``?campaign=<id>``); create one;
* ``GET  /api/tavern/tables/<id>/`` - the table (seats, stakes, what you may do);
* ``POST .../join/`` ``{"seat", "character"?, "deck"?}``, ``.../leave/``,
  ``.../seats/`` ``{"seat", "kind": "open"|"bot", "strength"?}`` (host), ``.../start/``,
  ``.../resign/``, ``.../rematch/`` (201 with the new table; 200 with the one made before),
  ``.../abandon/``;
* ``GET  .../state/?since=<version>``, ``POST .../actions/``, ``GET .../log/`` - the table
  core's endpoints (:mod:`tables.api`, mounted in ``urls.py``), answering the seat's payload
  (:func:`minigames.selectors.payload_of`: ``table_payload`` plus ``table``);
* ``GET  .../spectators/`` - who watches the table now (presence, unseated);
* ``GET/POST /api/tavern/invites/<token>/`` - an invite link's table; take a seat from it;
* ``GET  .../advice/`` - practice tables with the advisor: each legal move's chance of winning.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apibase import serializers
from apibase.fields import ObjectIdField
from minigames.engines.registry import ENGINE_MODULES
from tables.api import check_body_size
from tables.clocks.api import ClockSerializer
from tables.clocks.controls import MAX_TOTAL_SECONDS as CLOCK_MAX_TOTAL_SECONDS
from tables.clocks.controls import MIN_SECONDS as CLOCK_MIN_SECONDS
from tables.clocks.controls import MODE_CHOICES as CLOCK_MODES
from tables.clocks.controls import RULE_CHOICES as CLOCK_RULES
from tables.clocks.controls import ControlError, check_control

from . import advice, invites, selectors, services
from .models import BOT_STRENGTHS, TavernSeat, TavernTable

#: The tavern's games by slug (the schema names this choice set ``TavernGameEnum``).
TAVERN_GAME_CHOICES = list(ENGINE_MODULES)


class SeatInputSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=["open", "host", "bot"], default="open")
    strength = serializers.ChoiceField(
        choices=[k for k, _ in BOT_STRENGTHS], required=False, allow_blank=True, default=""
    )
    character = ObjectIdField(required=False, allow_null=True, default=None)
    deck = serializers.CharField(required=False, allow_blank=True, default="", max_length=80)


class TableCreateSerializer(serializers.Serializer[Any]):
    game = serializers.ChoiceField(choices=TAVERN_GAME_CHOICES)
    campaign = ObjectIdField(required=False, allow_null=True, default=None)
    seats = serializers.ListField(child=SeatInputSerializer(), max_length=services.MAX_SEATS)
    options = serializers.DictField(required=False, default=dict)
    stake = serializers.IntegerField(min_value=0, max_value=services.MAX_STAKE, default=0)
    practice = serializers.BooleanField(default=False)
    advisor = serializers.BooleanField(default=False)
    rated = serializers.BooleanField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Its result moves the players' ratings. Left out or null: rated at an open "
        "table, unrated in a campaign; never at a practice table.",
    )
    reaction_seconds = serializers.IntegerField(
        min_value=10, max_value=86_400, default=services.DEFAULT_REACTION_SECONDS
    )
    clock_mode = serializers.ChoiceField(
        choices=CLOCK_MODES,
        default="none",
        help_text="The turn clock: none, per move, or a total per player (docs/clocks.md).",
    )
    clock_seconds = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=CLOCK_MIN_SECONDS,
        max_value=CLOCK_MAX_TOTAL_SECONDS,
        help_text="Per move: 60 s to 3 days; a total per player: 60 s to 30 days.",
    )
    clock_rule = serializers.ChoiceField(
        choices=CLOCK_RULES,
        default="skip",
        help_text="When a seat's time runs out: skipped, a bot's move, or she forfeits.",
    )

    undo_allowed = serializers.BooleanField(
        default=False,
        help_text="Allow undo requests at a staked table (they are on at any other table).",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        try:
            attrs["clock"] = check_control(
                attrs["clock_mode"], attrs.get("clock_seconds"), attrs["clock_rule"]
            )
        except ControlError as exc:
            raise serializers.ValidationError(exc.errors) from None
        return attrs


class JoinSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField(min_value=0, max_value=10)
    character = ObjectIdField(required=False, allow_null=True, default=None)
    deck = serializers.CharField(required=False, allow_blank=True, default="", max_length=80)


class SeatSetSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField(min_value=0, max_value=10)
    kind = serializers.ChoiceField(choices=["open", "bot"])
    strength = serializers.ChoiceField(
        choices=[k for k, _ in BOT_STRENGTHS], required=False, allow_blank=True, default=""
    )
    deck = serializers.CharField(required=False, allow_blank=True, default="", max_length=80)


class InviteJoinSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField(
        min_value=0, max_value=10, required=False, allow_null=True, default=None,
        help_text="The seat to take; left out: the first open one.",
    )  # fmt: skip
    character = ObjectIdField(required=False, allow_null=True, default=None)
    deck = serializers.CharField(required=False, allow_blank=True, default="", max_length=80)


class SpectatorSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    since = serializers.DateTimeField(help_text="Watching since (UTC).")


class SpectatorsSerializer(serializers.Serializer[Any]):
    spectators = SpectatorSerializer(many=True, help_text="Who has the table open, unseated.")


class TavernStaleSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField()
    version = serializers.IntegerField()


class HouseRuleSerializer(serializers.Serializer[Any]):
    """``westernroses.protocol.HouseRule.to_json``."""

    key = serializers.CharField()
    # a declared field (the JSON key), not the Serializer attribute `label`
    label = serializers.CharField()  # type: ignore[assignment]
    default = serializers.JSONField(help_text="A number, or one of the choices' values.")
    help = serializers.CharField()
    minimum = serializers.IntegerField(allow_null=True)
    maximum = serializers.IntegerField(allow_null=True)
    choices = serializers.ListField(
        child=serializers.ListField(child=serializers.JSONField(), min_length=2, max_length=2),
        help_text="[value, label] pairs for a choice; empty for a number.",
    )


class DeckChoiceSerializer(serializers.Serializer[Any]):
    key = serializers.CharField()
    name = serializers.CharField()


class GameSerializer(serializers.Serializer[Any]):
    """One of the tavern's games (``minigames.selectors.games``)."""

    slug = serializers.CharField()
    title = serializers.CharField()
    min_seats = serializers.IntegerField()
    max_seats = serializers.IntegerField()
    house_rules = HouseRuleSerializer(many=True)
    decks = DeckChoiceSerializer(many=True, help_text="The preset decks (RSO, DBS).")


class TableStakesSerializer(serializers.Serializer[Any]):
    held = serializers.DictField(child=serializers.IntegerField(), help_text="Yen by seat.")
    paid = serializers.DictField(child=serializers.IntegerField(), help_text="Yen by seat.")
    returned = serializers.BooleanField()
    forfeited = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="Yen by seat: stakes of characters that left the campaign mid-game.",
    )


class TableOptionSerializer(serializers.Serializer[Any]):
    key = serializers.CharField()
    # a declared field (the JSON key), not the Serializer attribute `label`
    label = serializers.CharField()  # type: ignore[assignment]
    value = serializers.JSONField(help_text="In words for a choice, else the number.")
    default = serializers.JSONField()


class TableSeatSerializer(serializers.Serializer[Any]):
    index = serializers.IntegerField()
    name = serializers.CharField()
    portrait = serializers.CharField(help_text="The character's portrait URL, or empty.")
    bot = serializers.CharField(allow_null=True, help_text="The bot's strength, or null.")
    human = serializers.BooleanField()
    open = serializers.BooleanField()
    resigned = serializers.BooleanField()
    you = serializers.BooleanField()
    deck = serializers.CharField(help_text="The deck's name, or empty.")


class TableCanSerializer(serializers.Serializer[Any]):
    join = serializers.BooleanField()
    leave = serializers.BooleanField()
    set_seats = serializers.BooleanField()
    start = serializers.BooleanField()
    resign = serializers.BooleanField()
    abandon = serializers.BooleanField()
    rematch = serializers.BooleanField()
    advice = serializers.BooleanField()


class TableInfoSerializer(serializers.Serializer[Any]):
    """``minigames.selectors.table_info``: the table around the game."""

    id = serializers.IntegerField()
    game = serializers.ChoiceField(choices=TAVERN_GAME_CHOICES)
    title = serializers.CharField()
    status = serializers.CharField(help_text="setup, active or ended (status_text in words).")
    status_text = serializers.CharField()
    campaign = serializers.IntegerField(allow_null=True)
    campaign_name = serializers.CharField(allow_blank=True)
    host = serializers.CharField(help_text="The host's user name.")
    host_at_table = serializers.CharField(
        help_text="The host as her seat shows her: her character's name if she plays one, "
        "else her user name."
    )
    practice = serializers.BooleanField()
    advisor = serializers.BooleanField()
    rated = serializers.BooleanField(help_text="Its result moves the players' ratings.")
    invite = serializers.CharField(
        allow_blank=True,
        help_text="While a seat is open before the start: the invite link's path (following it "
        "signed in takes a seat); empty otherwise.",
    )
    stake = serializers.IntegerField()
    stakes = TableStakesSerializer()
    options = TableOptionSerializer(many=True)
    outcome = serializers.DictField(
        allow_null=True, help_text="How the game ended outside the engine: winners, text."
    )
    rematch_of = serializers.IntegerField(allow_null=True)
    rematch = serializers.IntegerField(allow_null=True)
    ready = serializers.BooleanField(
        help_text="Every seat is taken and the game has not started: the host may start it."
    )
    seats = TableSeatSerializer(many=True)
    you = serializers.IntegerField(allow_null=True, help_text="Your seat, or null.")
    can = TableCanSerializer()


class PayloadSerializer(serializers.Serializer[Any]):
    """minigames/payload.py's shape plus ``table``."""

    game = serializers.CharField()
    version = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    names = serializers.ListField(child=serializers.CharField())
    view = serializers.JSONField(allow_null=True)
    waiting_on = serializers.JSONField()
    moves = serializers.JSONField()
    summary = serializers.CharField()
    finished = serializers.BooleanField()
    result = serializers.JSONField(allow_null=True)
    public_view = serializers.BooleanField(
        help_text="The view is what everyone sees (a spectator, or a seat the bot plays on "
        "after she resigned), not the seat's own."
    )
    resigned = serializers.BooleanField(help_text="You resigned at this table.")
    table = TableInfoSerializer()
    clock = ClockSerializer(allow_null=True, help_text="The turn clock (none: null).")


class TavernLogEntrySerializer(serializers.Serializer[Any]):
    n = serializers.IntegerField(help_text="The version this move produced.")
    seat = serializers.CharField(allow_blank=True, help_text="The seat that moved.")
    events = serializers.ListField(
        child=serializers.DictField(), help_text="Only the events your seat may see."
    )
    at = serializers.DateTimeField()


class TavernLogSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    results = TavernLogEntrySerializer(many=True)
    next_after = serializers.IntegerField(
        allow_null=True, help_text="Ask again with after=this for more; null at the end."
    )


#: The tavern's answers as the table core's endpoints give them (``tables.api.table_api_urls``,
#: mounted in ``minigames/urls.py``): the seat's payload with the table around it.
TABLE_SCHEMAS = {
    "state": PayloadSerializer,
    "stale": TavernStaleSerializer,
    "log": TavernLogSerializer,
}


class AdviceSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    advice = serializers.JSONField(
        allow_null=True,
        help_text="One entry per legal move, in the moves' order: action, label, win_chance "
        "(0 to 1), visits. Null while a worker searches (202).",
    )


def _campaign(user: Any, campaign_id: int | str | None) -> Any:
    if campaign_id is None:
        return None
    from campaign.permissions import campaign_for

    campaign, _ = campaign_for(user, campaign_id)
    return campaign


class GameListView(APIView):
    """The tavern's games, each with its seat range, every house rule (label, default,
    limits) and, for the card games, the preset decks."""

    @extend_schema(responses={200: GameSerializer(many=True)})
    def get(self, request: Request) -> Response:
        return Response(selectors.games())


class TableListView(GenericAPIView[TavernTable]):
    """Tables you may see (your campaigns' taverns, open tables), newest first, paged like
    every list (``limit``, at most 200, and ``offset``); POST creates one (you are its
    host)."""

    #: what OPTIONS describes for POST (every answer's schema is written out below)
    serializer_class = TableCreateSerializer

    @extend_schema(
        parameters=[OpenApiParameter("campaign", int, description="One campaign's tavern.")],
        responses={200: TableInfoSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        # given but empty or malformed names no campaign: a 404, never "no filter" (docs/api.md)
        named = request.query_params.get("campaign")
        campaign = _campaign(request.user, named) if named is not None else None
        campaign_id = campaign.pk if campaign is not None else None
        tables = selectors.tavern_tables(request.user, campaign_id=campaign_id).order_by(
            "-updated_at", "-pk"
        )
        page = self.paginate_queryset(tables)
        data = [selectors.table_info(t, request.user) for t in (tables if page is None else page)]
        return self.get_paginated_response(data) if page is not None else Response(data)

    @extend_schema(request=TableCreateSerializer, responses={201: TableInfoSerializer})
    def post(self, request: Request) -> Response:
        check_body_size(request)
        serializer = TableCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        table = services.tavern_create(
            by=request.user,  # type: ignore[arg-type]
            game=data["game"],
            campaign=_campaign(request.user, data["campaign"]),
            seats=[services.SeatSpec(**s) for s in data["seats"]],
            options=data["options"],
            stake=data["stake"],
            practice=data["practice"],
            advisor=data["advisor"],
            reaction_seconds=data["reaction_seconds"],
            clock=data["clock"],
            undo_allowed=data["undo_allowed"],
            rated=data["rated"],
        )
        return Response(selectors.table_info(table, request.user), status=status.HTTP_201_CREATED)


class TableDetailView(APIView):
    """One table: its seats, options, stakes and what you may do with it."""

    @extend_schema(responses={200: TableInfoSerializer})
    def get(self, request: Request, pk: int) -> Response:
        table = selectors.table_get(request.user, pk)
        return Response(selectors.table_info(table, request.user))


class _TableOp(APIView):
    """A POST that changes a table and answers its new info."""

    def reply(self, request: Request, pk: int, code: int = 200) -> Response:
        table = selectors.table_get(request.user, pk)
        return Response(selectors.table_info(table, request.user), status=code)


class JoinView(_TableOp):
    """Sit at an open seat, optionally as one of your characters (campaign taverns), with a
    deck (RSO, DBS)."""

    @extend_schema(request=JoinSerializer, responses={200: TableInfoSerializer})
    def post(self, request: Request, pk: int) -> Response:
        check_body_size(request)
        s = JoinSerializer(data=request.data)
        s.is_valid(raise_exception=True)
        services.tavern_join(
            table_id=selectors.table_pk_safe(pk),
            by=request.user,  # type: ignore[arg-type]
            index=s.validated_data["seat"],
            character=s.validated_data["character"],
            deck=s.validated_data["deck"],
        )
        return self.reply(request, pk)


class LeaveView(_TableOp):
    """Stand up from your seat before the game starts."""

    @extend_schema(request=None, responses={200: TableInfoSerializer})
    def post(self, request: Request, pk: int) -> Response:
        services.tavern_leave(table_id=selectors.table_pk_safe(pk), by=request.user)  # type: ignore[arg-type]
        return self.reply(request, pk)


class SeatSetView(_TableOp):
    """The host makes a seat open or a bot (random, heuristic or search) before the start."""

    @extend_schema(request=SeatSetSerializer, responses={200: TableInfoSerializer})
    def post(self, request: Request, pk: int) -> Response:
        check_body_size(request)
        s = SeatSetSerializer(data=request.data)
        s.is_valid(raise_exception=True)
        services.tavern_seat_set(
            table_id=selectors.table_pk_safe(pk),
            by=request.user,  # type: ignore[arg-type]
            index=s.validated_data["seat"],
            kind=s.validated_data["kind"],
            strength=s.validated_data["strength"],
            deck=s.validated_data["deck"],
        )
        return self.reply(request, pk)


class StartView(_TableOp):
    """The host starts the game: stakes are held and the first moves are asked for."""

    @extend_schema(request=None, responses={200: TableInfoSerializer})
    def post(self, request: Request, pk: int) -> Response:
        services.tavern_start(table_id=selectors.table_pk_safe(pk), by=request.user)  # type: ignore[arg-type]
        return self.reply(request, pk)


class ResignView(_TableOp):
    """Resign your seat (two seats: the other wins; more: the random bot takes over)."""

    @extend_schema(request=None, responses={200: TableInfoSerializer})
    def post(self, request: Request, pk: int) -> Response:
        services.tavern_resign(table_id=selectors.table_pk_safe(pk), by=request.user)  # type: ignore[arg-type]
        return self.reply(request, pk)


class AbandonView(_TableOp):
    """The host (or the campaign's GM) abandons the table; stakes are returned."""

    @extend_schema(request=None, responses={200: TableInfoSerializer})
    def post(self, request: Request, pk: int) -> Response:
        services.tavern_abandon(table_id=selectors.table_pk_safe(pk), by=request.user)  # type: ignore[arg-type]
        return self.reply(request, pk)


class RematchView(_TableOp):
    """A new table with the same game, options, stake and seats; you are its host (201). A
    finished table has one rematch: asking again answers it (200)."""

    @extend_schema(request=None, responses={201: TableInfoSerializer, 200: TableInfoSerializer})
    def post(self, request: Request, pk: int) -> Response:
        table, created = services.tavern_rematch(
            table_id=selectors.table_pk_safe(pk),
            by=request.user,  # type: ignore[arg-type]
        )
        return self.reply(request, table.pk, status.HTTP_201_CREATED if created else 200)


class InviteView(_TableOp):
    """An invite link's table (GET), and taking a seat from it (POST): the given seat or the
    first open one. A campaign's table is its members' (404 for others); a table whose game
    has started or ended, or whose seats are all taken, is a 400 saying so."""

    @extend_schema(responses={200: TableInfoSerializer})
    def get(self, request: Request, token: str) -> Response:
        table = selectors.table_get(request.user, invites.table_id_of(token))
        return Response(selectors.table_info(table, request.user))

    @extend_schema(request=InviteJoinSerializer, responses={200: TableInfoSerializer})
    def post(self, request: Request, token: str) -> Response:
        check_body_size(request)
        table = selectors.table_get(request.user, invites.table_id_of(token))
        s = InviteJoinSerializer(data=request.data)
        s.is_valid(raise_exception=True)
        invites.take_seat(
            table=table,
            by=request.user,
            seat=s.validated_data["seat"],
            character=s.validated_data["character"],
            deck=s.validated_data["deck"],
        )
        return self.reply(request, table.pk)


class SpectatorsView(APIView):
    """Who watches the table now: people with its page open who play no seat at it."""

    #: pages ask again when presence changes: counted in the API's poll scope
    live_reads = True

    @extend_schema(responses={200: SpectatorsSerializer})
    def get(self, request: Request, pk: int) -> Response:
        table = selectors.table_get(request.user, pk)
        return Response({"spectators": selectors.spectators_of(table)})


class AdviceView(APIView):
    """At a practice table with the advisor on: beside each of your legal moves, the search
    bot's estimated chance of winning after it (computed by a worker, kept per version:
    ``minigames.advice``). 202 while the worker searches: ask again in a second."""

    #: pages poll it: counted in the API's poll scope (apibase.throttles.POLL_SCOPE)
    live_reads = True

    @extend_schema(responses={200: AdviceSerializer, 202: AdviceSerializer})
    def get(self, request: Request, pk: int) -> Response:
        table = selectors.table_get(request.user, pk)
        seat = selectors.seat_index_of(request.user, table)
        if not (table.practice and table.advisor) or seat is None or table.status != "active":
            raise ValidationError(
                {"advice": [gettext("The advisor helps seated players at practice tables.")]}
            )
        found = advice.advice_for(table, seat)
        if found is None:
            return Response(
                {"version": table.version, "advice": None}, status=status.HTTP_202_ACCEPTED
            )
        return Response({"version": table.version, "advice": found})


__all__ = ["TavernSeat"]
