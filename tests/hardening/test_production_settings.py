"""Finding 8: a Content-Security-Policy on every response with no inline script allowed (the
API docs included), and a production SECRET_KEY checked for strength, not only length."""

from __future__ import annotations

import re
import secrets

import pytest
from django.test import Client

from config.secret_key import secret_key_problems
from tests.test_settings import _run


def test_every_page_carries_a_csp_that_forbids_inline_scripts(db):
    response = Client().get("/accounts/login/")
    policy = response["Content-Security-Policy"]
    script_src = re.search(r"script-src ([^;]*)", policy).group(1)
    assert script_src.split() == ["'self'"]
    assert "frame-ancestors 'none'" in policy
    assert "object-src 'none'" in policy


def test_the_api_docs_need_no_inline_script(db):
    html = Client().get("/api/docs/").content.decode()
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, flags=re.S)
    assert scripts
    for attributes, body in scripts:
        assert "src=" in attributes and not body.strip(), attributes


@pytest.mark.parametrize(
    ("key", "problem"),
    [
        ("short-key", "at least 50"),
        ("a" * 60, "different characters"),
        ("Ab3$" * 15, "different characters"),
        ("dev-only-insecure-key-change-me-in-production" + "Zx9!Qw2@Er4#", "placeholder"),
        ("django-insecure-" + "Qz8#Lm2!Wx5@Rt7$Yp4%Kb6^Nc3&Hd9*Fg1(Js0)Ve", "placeholder"),
        ("0123456789abcdefghijklmnopqrstuvwxyz" * 2, "repeated"),
    ],
)
def test_weak_secret_keys_are_refused(key, problem):
    assert any(problem in p for p in secret_key_problems(key))


def test_a_random_key_is_strong():
    assert secret_key_problems(secrets.token_urlsafe(50)) == []


def test_production_refuses_to_start_with_a_long_but_weak_key():
    out = _run(
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings.production';"
        "django.setup()",
        ALLOWED_HOSTS="roses.example.com",
        SECRET_KEY="x" * 64,
    )
    assert out.returncode != 0
    assert "too weak" in out.stderr
