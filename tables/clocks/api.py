"""The clock's shapes in the API, and ``clock/`` of every table (``tables.api.table_api_urls``):
``GET`` the table's clock as anyone at it may see it; ``POST {"paused": true|false}`` pauses or
resumes it (its host, or the campaign's game master)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from rest_framework.request import Request
from rest_framework.response import Response

from apibase import serializers

from .controls import MODE_CHOICES, RULE_CHOICES


class ClockSeatSerializer(serializers.Serializer[Any]):
    seat = serializers.CharField(help_text='The engine seat, as text ("0", "1").')
    running = serializers.BooleanField(help_text="The table waits on this seat now.")
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="While it runs: when this seat's time runs out."
    )
    seconds_left = serializers.IntegerField(
        allow_null=True, help_text="While it does not run: the time this seat has left."
    )


class ClockSerializer(serializers.Serializer[Any]):
    mode = serializers.ChoiceField(choices=MODE_CHOICES)
    seconds = serializers.IntegerField(help_text="Per move, or in all per player.")
    rule = serializers.ChoiceField(
        choices=RULE_CHOICES,
        help_text="What happens when a seat's time runs out.",
    )  # fmt: skip
    words = serializers.CharField(help_text="The time control in words.")
    paused = serializers.BooleanField()
    seats = ClockSeatSerializer(many=True)


class ClockPauseSerializer(serializers.Serializer[Any]):
    """Either ``paused`` (pause or resume), or a time control to set (``mode`` "none" takes the
    clock off)."""

    paused = serializers.BooleanField(
        required=False, help_text="True pauses every clock; false resumes them."
    )
    mode = serializers.ChoiceField(
        choices=MODE_CHOICES,
        required=False,
        help_text="A time control to set instead (the host or the GM).",
    )
    seconds = serializers.IntegerField(
        required=False,
        min_value=60,
        max_value=30 * 86_400,
        help_text="With mode: per move up to 259200 (3 days), in all up to 2592000 (30 days).",
        error_messages={
            "min_value": "Give from 1 minute to 3 days per move (30 days in all), in seconds.",
            "max_value": "Give from 1 minute to 3 days per move (30 days in all), in seconds.",
            "invalid": "A whole number of seconds.",
        },
    )
    rule = serializers.ChoiceField(
        choices=RULE_CHOICES,
        required=False,
        help_text="With mode: what happens when a seat's time runs out.",
    )  # fmt: skip

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("paused" in attrs) == ("mode" in attrs):
            raise serializers.ValidationError(
                {
                    "paused": [
                        gettext("Send either paused, or a time control (mode, seconds, rule).")
                    ]
                }
            )
        if "mode" in attrs:
            from .controls import ControlError, check_control

            try:
                attrs["control"] = check_control(
                    attrs["mode"], attrs.get("seconds"), attrs.get("rule", "skip")
                )
            except ControlError as exc:
                raise serializers.ValidationError(
                    {k.removeprefix("clock_"): v for k, v in exc.errors.items()}
                ) from None
        return attrs


class ClockAnswerSerializer(serializers.Serializer[Any]):
    clock = ClockSerializer(allow_null=True, help_text="The table's clock (none: null).")


def clock_get(game: Any, request: Request, pk: int) -> Response:
    from tables import selectors

    from .services import clock_payload

    table, _ = selectors.table_for(game, request.user, pk)
    return Response({"clock": clock_payload(table)})


def clock_post(game: Any, request: Request, pk: int) -> Response:
    from tables import selectors
    from tables.api import check_body_size

    from .services import clock_change, clock_pause

    check_body_size(request, 1024)
    serializer = ClockPauseSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    data = serializer.validated_data
    table_id = selectors.table_pk(game, pk)
    if "mode" in data:
        clock = clock_change(game, table_id=table_id, user=request.user, control=data["control"])
    else:
        clock = clock_pause(game, table_id=table_id, user=request.user, pause=data["paused"])
    return Response({"clock": clock})
