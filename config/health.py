"""The health check: liveness for load balancers, and the benchmarks' minimal endpoint."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView


class HealthView(APIView):
    """Liveness check for load balancers; also the benchmarks' minimal-endpoint baseline."""

    permission_classes = [permissions.AllowAny]
    authentication_classes: list[type] = []

    @extend_schema(responses={200: dict})
    def get(self, request: Request) -> Response:
        return Response({"status": "ok"})
