"""DRF's ``serializers`` module for every app's API, with string fields that take strings.

DRF's ``CharField`` turns a JSON number into text (``{"description": 0}`` saved ``"0"``), and
so do its subclasses (email, slug, URL, regex, IP address), although the OpenAPI schema says
``type: string``. Every API module imports ``serializers`` from here instead of from
``rest_framework`` (``tests/hardening/test_strict_strings.py`` holds them to it), so each text
field of every serializer, declared or built from a model, refuses anything but a string with
a 400 on the field. Form posts (the token endpoint takes them) are strings already.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from django.db import models
from django.utils.translation import gettext
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from rest_framework import serializers as drf
from rest_framework.serializers import (
    BooleanField,
    ChoiceField,
    DateTimeField,
    FileField,
    FloatField,
    IntegerField,
    JSONField,
    ListField,
    Serializer,
    SerializerMethodField,
    SlugRelatedField,
    ValidationError,
)

__all__ = [
    "BooleanField",
    "CharField",
    "ChoiceField",
    "DateTimeField",
    "DictField",
    "EmailField",
    "FileField",
    "FloatField",
    "IPAddressField",
    "IntegerField",
    "JSONField",
    "ListField",
    "ModelSerializer",
    "RegexField",
    "Serializer",
    "SerializerMethodField",
    "SlugField",
    "SlugRelatedField",
    "URLField",
    "ValidationError",
]


class _TextOnly(drf.CharField):
    """A DRF string field that refuses anything but a string, in DRF's own words."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class CharField(_TextOnly):
    pass


class EmailField(_TextOnly, drf.EmailField):
    pass


class RegexField(_TextOnly, drf.RegexField):
    pass


class SlugField(_TextOnly, drf.SlugField):
    pass


class URLField(_TextOnly, drf.URLField):
    pass


class IPAddressField(_TextOnly, drf.IPAddressField):
    pass


class DictField(drf.DictField):
    """DRF's, with ``max_length``: the most keys the map may hold, checked before any value is
    read (200,000 unknown keys took seconds to check one by one, then to list)."""

    def __init__(self, *args: Any, max_length: int | None = None, **kwargs: Any) -> None:
        self.max_length = max_length
        super().__init__(*args, **kwargs)

    def to_internal_value(self, data: Any) -> Any:
        if self.max_length is not None and isinstance(data, dict) and len(data) > self.max_length:
            raise drf.ValidationError(
                gettext("At most %(most)s entries; this map has %(count)s.")
                % {"most": self.max_length, "count": f"{len(data):,}"}
            )
        return super().to_internal_value(data)


class DictFieldSchema(OpenApiSerializerFieldExtension):
    """The schema shows :class:`DictField`'s bound as ``maxProperties``."""

    target_class = DictField

    def map_serializer_field(self, auto_schema: Any, direction: Any) -> Any:
        schema = auto_schema._map_serializer_field(self.target, direction, bypass_extensions=True)
        if self.target.max_length is not None:
            schema["maxProperties"] = self.target.max_length
        return schema


_M = TypeVar("_M", bound=models.Model)


class ModelSerializer(drf.ModelSerializer[_M]):
    """DRF's, building the text fields above for a model's text columns."""

    serializer_field_mapping = {
        **drf.ModelSerializer.serializer_field_mapping,
        models.CharField: CharField,
        models.TextField: CharField,
        models.EmailField: EmailField,
        models.SlugField: SlugField,
        models.URLField: URLField,
        models.GenericIPAddressField: IPAddressField,
    }


if not TYPE_CHECKING:

    def __getattr__(name: str) -> Any:
        """Every other name is DRF's own, as it is at run time (mypy knows only ``__all__``)."""
        return getattr(drf, name)
