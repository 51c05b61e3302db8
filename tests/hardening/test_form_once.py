"""Hardening finding 9: every state-changing form carries a one-time token, so a form posted
twice (a double click, a re-sent request) applies once (apibase/form_once.py)."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client

from campaign.models import Campaign
from tests.hardening.test_form_fuzz import _crawl, _Forms

pytestmark = pytest.mark.django_db


def _token(html: str) -> str:
    match = re.search(r'name="once_token" value="([0-9a-f]{32})"', html)
    assert match, "the form carries no one-time token"
    return match.group(1)


def test_a_form_posted_twice_applies_once(gm):
    client = Client()
    client.force_login(gm)
    token = _token(client.get("/campaigns/new/").content.decode())
    data = {"name": "Twice Told", "description": "", "once_token": token}
    first = client.post("/campaigns/new/", data)
    assert first.status_code == 302
    again = client.post("/campaigns/new/", data, HTTP_REFERER="http://testserver/campaigns/new/")
    assert again.status_code == 303
    assert again["Location"] == "http://testserver/campaigns/new/"
    assert Campaign.objects.filter(name="Twice Told").count() == 1
    page = client.get(again["Location"]).content.decode()
    assert "already sent" in page


def test_each_rendering_of_the_form_may_be_sent_once(gm):
    client = Client()
    client.force_login(gm)
    for name in ("First", "Second"):
        token = _token(client.get("/campaigns/new/").content.decode())
        client.post("/campaigns/new/", {"name": name, "description": "", "once_token": token})
    assert Campaign.objects.filter(name__in=["First", "Second"]).count() == 2


def test_a_refused_form_can_be_corrected_and_sent_again(gm):
    client = Client()
    client.force_login(gm)
    token = _token(client.get("/campaigns/new/").content.decode())
    refused = client.post("/campaigns/new/", {"name": "", "once_token": token})
    assert refused.status_code == 400
    assert not Campaign.objects.filter(created_by=gm).exists()
    fixed = client.post("/campaigns/new/", {"name": "Fixed", "once_token": token})
    assert fixed.status_code == 302
    assert Campaign.objects.filter(name="Fixed").count() == 1


def test_every_post_form_of_the_demo_carries_a_token(db):
    from accounts.models import User

    call_command("seed_demo", stdout=StringIO())
    for who in ("gm", "reimu"):
        client = Client()
        client.force_login(User.objects.get(username=who))
        forms = _crawl(client)
        assert len(forms) >= 5
        for url, fields in forms.items():
            assert "once_token" in fields, (who, url)


def test_the_token_is_written_only_where_csrf_is(db):
    parser = _Forms()
    parser.feed(Client().get("/accounts/login/").content.decode())
    _action, fields = parser.forms[-1]
    assert "once_token" in fields
