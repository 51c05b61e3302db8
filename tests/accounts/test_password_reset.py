"""Password reset by email (Django's views, the site's pages): the whole way from the request
to logging in with the new password, the same answer whether or not an account has the
address, and its own limits per client address and per email address."""

from __future__ import annotations

import re
import uuid

import pytest
from django.core import mail
from django.test import Client

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

OLD = "old-lantern-path-41"
NEW = "new-moonlit-garden-72"


@pytest.fixture
def marisa():
    user = UserFactory(username="marisa", email="marisa@example.org")
    user.set_password(OLD)
    user.save()
    return user


def _ask(client: Client, email: str, address: str = "10.4.0.1"):
    return client.post("/accounts/password/reset/", {"email": email}, REMOTE_ADDR=address)


def test_the_login_page_links_to_the_reset_page():
    page = Client().get("/accounts/login/").content.decode()
    assert '<a href="/accounts/password/reset/">Forgot your password?</a>' in page
    reset = Client().get("/accounts/password/reset/")
    assert reset.status_code == 200
    assert "Reset your password" in reset.content.decode()


def test_the_whole_way_from_the_request_to_logging_in(marisa, settings):
    settings.SITE_URL = "https://roses.example"
    client = Client()
    asked = _ask(client, "Marisa@Example.org")
    assert asked.status_code == 302 and asked["Location"] == "/accounts/password/reset/sent/"
    assert "Check your email" in client.get(asked["Location"]).content.decode()

    assert len(mail.outbox) == 1
    email = mail.outbox[0]
    assert email.to == ["marisa@example.org"]
    assert email.subject == "Western Roses: choose a new password"
    link = re.search(r"https://roses\.example(/accounts/password/reset/\S+/\S+/)", email.body)
    assert link, email.body
    assert "Hello marisa," in email.body

    form = client.get(link.group(1), follow=True)
    assert form.status_code == 200
    assert "Choose a new password" in form.content.decode()
    set_url = form.redirect_chain[-1][0]
    done = client.post(set_url, {"new_password1": NEW, "new_password2": NEW})
    assert done.status_code == 302 and done["Location"] == "/accounts/password/reset/done/"
    assert "Password set" in client.get(done["Location"]).content.decode()

    fresh = Client()
    old = fresh.post("/accounts/login/", {"username": "marisa", "password": OLD})
    assert old.status_code == 200  # the form again: the old password is gone
    logged_in = fresh.post("/accounts/login/", {"username": "marisa", "password": NEW})
    assert logged_in.status_code == 302
    assert fresh.get("/accounts/profile/").status_code == 200

    again = Client().get(link.group(1), follow=True)  # the link worked once
    assert "This link no longer works" in again.content.decode()


def test_the_same_answer_whether_or_not_an_account_has_the_address(marisa):
    known = _ask(Client(), "marisa@example.org", "10.4.1.1")
    unknown = _ask(Client(), "nobody@example.org", "10.4.1.2")
    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    assert known.content == unknown.content
    # the same page but for the header's switcher form's tokens, fresh in every page
    tokens = re.compile(rb'name="(csrfmiddlewaretoken|once_token)" value="[^"]*"')
    pages = [tokens.sub(b"", Client().get(r["Location"]).content) for r in (known, unknown)]
    assert pages[0] == pages[1]
    assert [m.to for m in mail.outbox] == [["marisa@example.org"]]


def test_reset_requests_are_limited_per_address_and_per_email(settings):
    email = f"alice-{uuid.uuid4().hex[:8]}@example.org"  # no other test of this process asked
    UserFactory(username="alice", email=email)
    settings.PASSWORD_RESET_RATE = "3/hour"
    answers = [_ask(Client(), f"x{i}@example.org", "10.4.2.1").status_code for i in range(4)]
    assert answers == [302, 302, 302, 429]
    refused = _ask(Client(), "y@example.org", "10.4.2.1")
    assert "Too many password resets asked for from your address." in refused.content.decode()
    assert int(refused["Retry-After"]) > 0
    by_email = [_ask(Client(), email, f"10.4.3.{i}").status_code for i in range(4)]
    assert by_email == [302, 302, 302, 429]
    assert len(mail.outbox) == 3
