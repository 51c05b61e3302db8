"""Sign up, log in, log out and password change, through the real pages."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def test_sign_up_creates_the_user_and_logs_them_in(client):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "sakuya",
            "display_name": "Sakuya",
            "email": "sakuya@example.com",
            "password1": "knives-and-tea-42",
            "password2": "knives-and-tea-42",
        },
    )
    assert response.status_code == 302
    user = get_user_model().objects.get(username="sakuya")
    assert user.shown_name == "Sakuya"
    home = client.get("/")
    assert "Sakuya" in home.content.decode()


@pytest.mark.parametrize("target", ["a b", "home", "https://elsewhere.example/", "//evil/"])
def test_a_next_that_is_no_path_here_goes_home(client, target):
    """``next=a b`` passed the host check and reached ``redirect()``, which took it for a URL
    name: a 500 (the form fuzz found it). Only a path on this site is followed."""
    signed_up = client.post(
        f"/accounts/signup/?next={target}",
        {
            "username": "sakuya",
            "email": "sakuya@example.com",
            "password1": "knives-and-tea-42",
            "password2": "knives-and-tea-42",
        },
    )
    assert signed_up.status_code == 302 and signed_up["Location"] == "/"
    again = client.get(f"/accounts/signup/?next={target}")
    assert again.status_code == 302 and again["Location"] == "/"


def test_sign_up_with_mismatched_passwords_shows_field_errors_and_creates_nothing(client):
    response = client.post(
        "/accounts/signup/",
        {"username": "sakuya", "password1": "knives-and-tea-42", "password2": "other-one-42"},
    )
    assert response.status_code == 400
    assert "password2" in response.context["form"].errors
    assert not get_user_model().objects.filter(username="sakuya").exists()


def test_a_password_longer_than_the_token_endpoint_takes_is_refused(client):
    """Sign-up refuses a password over 1,024 characters: the API's token endpoint would never
    take it (accounts/passwords.py); 1,024 itself is fine."""
    long = "roses-" * 171  # 1,026 characters
    response = client.post(
        "/accounts/signup/", {"username": "sakuya", "password1": long, "password2": long}
    )
    assert response.status_code == 400
    assert response.context["form"].errors["password2"] == [
        "This password is too long: at most 1,024 characters."
    ]
    assert not get_user_model().objects.filter(username="sakuya").exists()
    fits = long[:1024]
    response = client.post(
        "/accounts/signup/", {"username": "sakuya", "password1": fits, "password2": fits}
    )
    assert response.status_code == 302
    token = client.post(
        "/api/auth/token/",
        {"username": "sakuya", "password": fits},
        content_type="application/json",
    )
    assert token.status_code == 200 and token.json()["token"]


def test_log_in_and_out(client):
    UserFactory(username="reimu")
    response = client.post("/accounts/login/", {"username": "reimu", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get("/campaigns/").status_code == 200
    client.post("/accounts/logout/")
    assert client.get("/campaigns/").status_code == 302


def test_wrong_password_does_not_log_in(client):
    UserFactory(username="reimu")
    response = client.post("/accounts/login/", {"username": "reimu", "password": "nope"})
    assert response.status_code == 200
    assert response.context["form"].errors
    assert client.get("/campaigns/").status_code == 302


def test_password_change(client):
    user = UserFactory(username="reimu")
    client.force_login(user)
    response = client.post(
        "/accounts/password/",
        {
            "old_password": PASSWORD,
            "new_password1": "a-brand-new-secret-9",
            "new_password2": "a-brand-new-secret-9",
        },
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("a-brand-new-secret-9")


def test_every_page_uses_the_base_template_with_navigation(client):
    for url in ("/", "/accounts/login/", "/accounts/signup/", "/dice/"):
        html = client.get(url).content.decode()
        assert 'class="topbar"' in html, url
        assert 'href="/dice/"' in html, url
