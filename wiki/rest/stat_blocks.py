"""A wiki entry's stat block in the API (GMs only: players 403, outsiders 404):
``PUT …/wiki/entries/<id>/stat-block/`` gives a Character or NPC entry its numbers for
battles, ``DELETE`` takes them away. Both answer the entry as the GM sees it."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.typing import signed_in
from campaign.permissions import campaign_for

from .. import selectors
from ..stat_blocks import stat_block_set
from .serializers import EntrySerializer, StatBlockSerializer, entry_data


class StatBlockView(APIView):
    """GMs set a Character or NPC entry's stat block (PUT, the whole block) or remove it
    (DELETE); one new version in its history each time. A number outside the rules is a 400
    naming the part."""

    def _write(self, request: Request, pk: int, entry_id: int, remove: bool) -> Response:
        _, access = campaign_for(request.user, pk, manage=True)
        entry = selectors.entry_for(access, entry_id)
        data = None
        if not remove:
            serializer = StatBlockSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            data = dict(serializer.validated_data)
        stat_block_set(entry=entry, by=access, author=signed_in(request), data=data)
        entry = selectors.entry_for(access, entry_id)
        return Response(EntrySerializer(entry_data(access, entry)).data)

    @extend_schema(request=StatBlockSerializer, responses=EntrySerializer)
    def put(self, request: Request, pk: int, entry_id: int) -> Response:
        return self._write(request, pk, entry_id, remove=False)

    @extend_schema(request=None, responses=EntrySerializer)
    def delete(self, request: Request, pk: int, entry_id: int) -> Response:
        return self._write(request, pk, entry_id, remove=True)
