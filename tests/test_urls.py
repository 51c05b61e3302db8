"""The top-level URLs (config/urls.py): the API's include comes first, so resolving an API path
never searches the pages' includes, and no page lives under /api/, so putting it first
changes which view answers nothing."""

from __future__ import annotations

import pytest
from django.urls import resolve

from config import urls
from tests.url_walk import walk

pytestmark = pytest.mark.django_db


def test_the_api_is_tried_first_and_no_page_lives_under_it():
    api, schema, docs = urls.urlpatterns[:3]
    assert [str(p.pattern) for p in (api, schema, docs)] == ["api/", "api/schema/", "api/docs/"]
    pages = [served.path for served in walk(urls.urlpatterns[3:-1])]
    assert len(pages) > 100  # the walk reached the pages' includes
    assert [r for r in pages if r.startswith("api")] == []
    # the API's own 404 for an unknown API path stays the last pattern
    assert urls.urlpatterns[-1].name == "api-no-such-route"


def test_api_and_page_paths_resolve_to_their_views(client):
    assert resolve("/api/health/").url_name == "api-health"
    assert resolve("/api/schema/").url_name == "api-schema"
    assert resolve("/health/").url_name == "health"
    assert resolve("/api/no/such/thing/").url_name == "api-no-such-route"
    response = client.get("/api/no/such/thing/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
