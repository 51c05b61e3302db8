"""Paging for every API list: a bounded ``limit`` (a huge one would load a whole table), and
``limit``/``offset`` that are not whole numbers (an empty one included) refused with a 400
instead of silently ignored; left out, they take their defaults."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request

from apibase.numbers import whole_number

MAX_LIMIT = 200


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    max_limit = MAX_LIMIT

    def paginate_queryset(self, queryset: Any, request: Request, view: Any = None) -> Any:
        errors: dict[str, list[str]] = {}
        for name, low in ((self.limit_query_param, 1), (self.offset_query_param, 0)):
            raw = request.query_params.get(name)
            if raw is None:
                continue
            value = whole_number(raw)
            if value is None or value < low or len(raw) > 12:
                errors[name] = [f"Must be a whole number from {low} up."]
        if errors:
            raise ValidationError(errors)
        return super().paginate_queryset(queryset, request, view)
