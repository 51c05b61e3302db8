"""Hardening finding 2: the log-in page and the token endpoint accepted unlimited wrong passwords.
Now five failures for one user name from one address lock that pair out (django-axes) with a
clear message and Retry-After; the token endpoint is also throttled per address."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery"


@pytest.fixture
def victim():
    user = UserFactory(username="victim")
    user.set_password(PASSWORD)
    user.save()
    return user


def _login(client: Client, password: str, *, address: str = "10.0.0.7"):
    return client.post(
        "/accounts/login/",
        {"username": "victim", "password": password},
        REMOTE_ADDR=address,
    )


def test_the_login_page_locks_out_after_five_wrong_passwords(victim, settings):
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _login(client, "wrong").status_code == 200  # the form again, with its error
    locked = _login(client, "wrong")
    assert locked.status_code == 429
    assert int(locked["Retry-After"]) == 15 * 60
    assert "Too many failed log-in attempts" in locked.content.decode()
    # Even the right password is refused while locked out...
    assert _login(client, PASSWORD).status_code == 429
    # ...but only for that address: the player logs in from her own.
    assert _login(Client(), PASSWORD, address="10.0.0.8").status_code == 302


def test_a_success_resets_the_count(victim, settings):
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        _login(client, "wrong")
    assert _login(client, PASSWORD).status_code == 302
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _login(Client(), "wrong").status_code == 200


def test_the_token_endpoint_locks_out_too_with_the_api_error_shape(victim, settings):
    api = APIClient(REMOTE_ADDR="10.0.0.9")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = api.post("/api/auth/token/", {"username": "victim", "password": "x"})
        assert response.status_code == 400
    locked = api.post("/api/auth/token/", {"username": "victim", "password": "x"})
    assert locked.status_code == 429
    assert "Try again in 15 minutes" in locked.json()["detail"]
    assert locked["Retry-After"] == "900"
    refused = api.post("/api/auth/token/", {"username": "victim", "password": PASSWORD})
    assert refused.status_code == 429


def test_the_token_endpoint_is_throttled_per_address(victim, settings):
    settings.API_AUTH_RATE = "3/minute"
    api = APIClient(REMOTE_ADDR="10.0.0.10")
    answers = [
        api.post("/api/auth/token/", {"username": "victim", "password": PASSWORD}).status_code
        for _ in range(4)
    ]
    assert answers == [200, 200, 200, 429]
    other = APIClient(REMOTE_ADDR="10.0.0.11")
    assert (
        other.post("/api/auth/token/", {"username": "victim", "password": PASSWORD}).status_code
        == 200
    )
