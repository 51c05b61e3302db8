"""The signed-in user answered from the cache (``accounts/backends.py``): a signed-in request
reads neither its session nor its user from PostgreSQL once both are cached, and every change
that must sign someone out does so on the very next request (a new password elsewhere, a
deactivated user), while the person who changed her own password stays signed in."""

from __future__ import annotations

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import BACKEND_SESSION_KEY
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

PAGE = "/campaigns/"


def _user_reads(client: Client) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(PAGE)
    assert response.status_code == 200
    return sum(
        1
        for q in ctx.captured_queries
        if 'FROM "accounts_user"' in q["sql"] or 'FROM "django_session"' in q["sql"]
    )


def _signed_in(username: str = "reimu") -> tuple[object, Client]:
    user = UserFactory(username=username)
    client = Client()
    assert client.post("/accounts/login/", {"username": username, "password": PASSWORD})["Location"]
    assert client.get(PAGE).status_code == 200  # the user is read once and kept
    return user, client


def test_a_signed_in_request_reads_neither_session_nor_user_from_the_database():
    _, client = _signed_in()
    assert client.session[BACKEND_SESSION_KEY] == "accounts.backends.CachedModelBackend"
    assert _user_reads(client) == 0


def test_a_new_password_signs_out_the_other_sessions_on_their_next_request():
    _, elsewhere = _signed_in()
    here = Client()
    here.post("/accounts/login/", {"username": "reimu", "password": PASSWORD})
    assert _user_reads(elsewhere) == 0 and _user_reads(here) == 0  # both kept
    response = here.post(
        "/accounts/password/",
        {
            "old_password": PASSWORD,
            "new_password1": "a-brand-new-secret-9",
            "new_password2": "a-brand-new-secret-9",
        },
    )
    assert response.status_code == 302
    assert here.get(PAGE).status_code == 200  # the one who changed it stays signed in
    assert elsewhere.get(PAGE).status_code == 302  # signed out: to the log-in page


def test_a_deactivated_user_is_signed_out_at_once():
    user, client = _signed_in()
    assert _user_reads(client) == 0
    user.is_active = False
    user.save()
    assert client.get(PAGE).status_code == 302


def test_a_wrong_password_counts_once():
    UserFactory(username="reimu")
    client = Client()
    response = client.post("/accounts/login/", {"username": "reimu", "password": "nope"})
    assert response.status_code == 200 and response.context["form"].errors
    assert AccessAttempt.objects.get(username="reimu").failures_since_start == 1


def test_a_session_signed_by_djangos_own_backend_still_works():
    """Sessions signed before the cached backend was listed name Django's."""
    user = UserFactory(username="reimu")
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    assert client.get(PAGE).status_code == 200
