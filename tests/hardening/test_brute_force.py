"""Hardening finding 2: the log-in page and the token endpoint accepted unlimited wrong passwords.
Now five failures for one user name from one address lock that pair out (django-axes) with a
clear message and Retry-After; the token endpoint is also throttled per address."""

from __future__ import annotations

import uuid

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


# --- The same limits on the log-in page and the token endpoint, per address and per user name


def _page(address: str, username: str, password: str = "wrong"):  # noqa: S107
    return Client().post(
        "/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address
    )


def _token(address: str, username: str, password: str = "wrong"):  # noqa: S107
    return APIClient(REMOTE_ADDR=address).post(
        "/api/auth/token/", {"username": username, "password": password}
    )


def test_one_password_against_many_names_is_limited_per_address_on_the_page(settings):
    """The attack: one password against 40 user names from one address, 200 times each, went
    through the page unlimited (axes counts a name and address pair, so each name got its own
    five). Now the address's attempts are counted whatever name they try."""
    settings.API_AUTH_RATE = "10/minute"
    answers = [_page("10.1.0.1", f"player-{i}").status_code for i in range(40)]
    assert answers == [200] * 10 + [429] * 30
    refused = _page("10.1.0.1", "player-99")
    assert "Too many log-in attempts from your address. Try again in 1 minute." in (
        refused.content.decode()
    )
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert _page("10.1.0.2", "player-0").status_code == 200  # another address is not held


def test_the_page_and_the_token_endpoint_share_the_addresss_count(settings):
    settings.API_AUTH_RATE = "6/minute"
    assert [_page("10.1.1.1", f"a-{i}").status_code for i in range(3)] == [200] * 3
    assert [_token("10.1.1.1", f"b-{i}").status_code for i in range(3)] == [400] * 3
    assert _page("10.1.1.1", "c").status_code == 429
    assert _token("10.1.1.1", "d").status_code == 429


def test_guesses_at_one_name_from_many_addresses_are_limited_per_user_on_both(settings):
    """Axes locks a name and address pair; guesses spread over many addresses are counted per
    user name, the name's case and spaces aside, on the page and the token endpoint alike."""
    name = f"koakuma-{uuid.uuid4().hex[:8]}"  # a name no other test of this process tried
    user = UserFactory(username=name)
    user.set_password(PASSWORD)
    user.save()
    settings.AUTH_USER_RATE = "6/hour"
    assert [_page(f"10.2.0.{i}", f" {name.upper()}").status_code for i in range(3)] == [200] * 3
    assert [_token(f"10.2.1.{i}", name).status_code for i in range(3)] == [400] * 3
    page = _page("10.2.2.1", name, PASSWORD)  # even the right password, from a new address
    assert page.status_code == 429
    assert "Too many log-in attempts for this account." in page.content.decode()
    assert _token("10.2.2.2", name, PASSWORD).status_code == 429
    assert _page("10.2.2.3", "someone-else").status_code == 200  # other names are not held


def test_signups_are_limited_per_address(settings):
    settings.SIGNUP_RATE = "3/hour"

    def signup(address: str, name: str):
        return Client().post(
            "/accounts/signup/",
            {"username": name, "password1": PASSWORD, "password2": PASSWORD},
            REMOTE_ADDR=address,
        )

    answers = [signup("10.3.0.1", f"new-{i}").status_code for i in range(4)]
    assert answers == [302, 302, 302, 429]
    assert "Too many sign-ups from your address." in signup("10.3.0.1", "new-9").content.decode()
    assert signup("10.3.0.2", "new-5").status_code == 302
