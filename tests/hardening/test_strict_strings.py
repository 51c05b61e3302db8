"""String fields take strings: a JSON number where the schema says ``type: string`` is a 400 on
the field, in every serializer of the API (``{"description": 0}`` created a campaign described
``"0"``). One module does it for every app (apibase/serializers.py): the walk below checks each
writable text field of each of the project's serializers, and that no API module builds its
serializers from DRF's module directly."""

from __future__ import annotations

import ast
import contextlib
import importlib
from pathlib import Path

import pytest
from django.apps import apps
from rest_framework import serializers as drf

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent.parent
APPS = [
    "accounts",
    "apibase",
    "battles",
    "campaign",
    "characters",
    "config",
    "decks",
    "minigames",
    "notifications",
    "spellcards",
    "tables",
]
NOT_STRINGS = [0, 1.5, -7, True, ["text"], {"text": "x"}]


def _project_modules() -> list[str]:
    names = []
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts or "engines" in path.parts or "bots" in path.parts:
                continue
            names.append(".".join(path.relative_to(ROOT).with_suffix("").parts))
    return names


def _all_subclasses(cls: type) -> set[type]:
    found = set()
    for sub in cls.__subclasses__():
        found |= {sub} | _all_subclasses(sub)
    return found


def _text_fields():
    """(serializer, field path, field) for every writable DRF string field of the project's
    serializers, list items included."""
    for app in APPS:
        for name in ("api", "serializers", "rest.serializers", "table_api", "map_api"):
            with contextlib.suppress(ModuleNotFoundError):
                importlib.import_module(f"{app}.{name}")
    assert apps.ready
    for cls in sorted(_all_subclasses(drf.Serializer), key=lambda c: c.__qualname__):
        if cls.__module__.split(".")[0] not in APPS:
            continue
        if issubclass(cls, drf.ModelSerializer) and not hasattr(cls, "Meta"):
            continue  # a base class (apibase.serializers.ModelSerializer)
        for name, field in cls().fields.items():
            if field.read_only:
                continue
            where = f"{cls.__module__}.{cls.__qualname__}.{name}"
            if isinstance(field, drf.CharField):
                yield where, field
            elif isinstance(field, drf.ListField | drf.DictField) and isinstance(
                field.child, drf.CharField
            ):
                yield f"{where}[]", field.child


def test_every_text_field_of_the_api_refuses_what_is_not_a_string():
    checked, lax = [], []
    for where, field in _text_fields():
        checked.append(where)
        for value in NOT_STRINGS:
            try:
                field.run_validation(value)
            except drf.ValidationError:
                continue
            lax.append((where, value))
    assert len(checked) > 100, checked  # the walk reaches the API's text fields
    assert lax == []


def test_a_text_field_still_takes_text_and_its_own_limits():
    from campaign.rest.serializers import CampaignSerializer

    serializer = CampaignSerializer(data={"name": "Scarlet Mist", "description": "A red fog."})
    assert serializer.is_valid(), serializer.errors


@pytest.mark.parametrize("value", [0, 12.5, ["A red fog."]])
def test_a_number_for_a_campaigns_description_is_a_400_and_nothing_is_made(api_for, player, value):
    from campaign.models import Campaign

    response = api_for(player).post(
        "/api/campaigns/", {"name": "Scarlet Mist", "description": value}, format="json"
    )
    assert response.status_code == 400, response.content
    assert response.json()["errors"] == {"description": ["Not a valid string."]}
    assert not Campaign.objects.exists()


def test_the_token_endpoint_refuses_a_number_for_a_name():
    from rest_framework.test import APIClient

    response = APIClient().post(
        "/api/auth/token/", {"username": 12345, "password": "x"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"]["username"] == ["Not a valid string."]


def test_no_api_module_takes_its_serializers_from_drf_directly():
    """Only apibase/serializers.py wraps DRF's module; every other module imports it."""
    offenders = []
    for module in _project_modules():
        if module == "apibase.serializers":
            continue
        path = ROOT / Path(*module.split(".")).with_suffix(".py")
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                names = {f"{node.module}.{alias.name}" for alias in node.names} | {node.module}
            elif isinstance(node, ast.Import):
                names = {alias.name for alias in node.names}
            else:
                continue
            if "rest_framework.serializers" in names:
                offenders.append(module)
    assert offenders == []
