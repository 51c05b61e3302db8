"""``undo/`` of every table (``tables.api.table_api_urls``): ``GET`` the waiting request and
whether you may ask; ``POST {"decision": "ask" | "approve" | "refuse" | "withdraw"}``."""

from __future__ import annotations

from typing import Any

from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from apibase import serializers

DECISIONS = [
    ("ask", "Ask to take back my last move"),
    ("approve", "Allow the move to be taken back"),
    ("refuse", "Refuse"),
    ("withdraw", "Withdraw my request"),
]


class UndoDecisionSerializer(serializers.Serializer[Any]):
    decision = serializers.ChoiceField(choices=DECISIONS)


class UndoRequestSerializer(serializers.Serializer[Any]):
    seat = serializers.CharField(help_text="The seat that asked.")
    move = serializers.IntegerField(help_text="The log entry (its version) to take back.")
    status = serializers.ChoiceField(
        choices=["pending", "approved", "refused", "withdrawn", "lapsed"]
    )
    status_words = serializers.CharField()
    votes = serializers.DictField(child=serializers.BooleanField(), help_text="Seat: approves.")
    waiting_for = serializers.ListField(
        child=serializers.CharField(), help_text="The seats still to decide."
    )


class UndoStateSerializer(serializers.Serializer[Any]):
    request = UndoRequestSerializer(allow_null=True)
    can_ask = serializers.BooleanField(help_text="You may ask to take back your last move now.")
    why_not = serializers.CharField(help_text="Why not, in words (empty when you may).")
    your_vote = serializers.BooleanField(help_text="The waiting request waits on you.")
    yours = serializers.BooleanField(help_text="The waiting request is yours.")


def undo_get(game: Any, request: Request, pk: int) -> Response:
    from .services import undo_state

    return Response(undo_state(game, table_id=pk, user=request.user))


def undo_post(game: Any, request: Request, pk: int) -> Response:
    from tables.api import check_body_size
    from tables.selectors import table_pk

    from .services import undo_ask, undo_state, undo_vote, undo_withdraw

    check_body_size(request, 1024)
    serializer = UndoDecisionSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    decision = serializer.validated_data["decision"]
    table_id = table_pk(game, pk)
    if decision == "ask":
        undo_ask(game, table_id=table_id, user=request.user)
    elif decision == "withdraw":
        undo_withdraw(game, table_id=table_id, user=request.user)
    else:
        undo_vote(game, table_id=table_id, user=request.user, approve=decision == "approve")
    code = status.HTTP_201_CREATED if decision == "ask" else status.HTTP_200_OK
    return Response(undo_state(game, table_id=table_id, user=request.user), status=code)
