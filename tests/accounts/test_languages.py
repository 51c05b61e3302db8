"""The reader's language (accounts/languages.py, docs/i18n.md): a visitor's Accept-Language, the
header's switcher (Django's set_language, which also saves a signed-in user's choice), and an
account's preferred language, which wins over both on every device she signs in on."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from accounts.models import User

pytestmark = pytest.mark.django_db

#: The log-in page's heading and button in each language (locale/*/django.po).
LOG_IN = {"en": "Log in", "ja": "ログイン", "zh-hans": "登录"}


def html_lang(response) -> str:
    match = re.search(r'<html lang="([^"]+)"', response.content.decode())
    assert match, "the page names no language"
    return match.group(1)


def heading(response) -> str:
    match = re.search(r"<h1>([^<]*)</h1>", response.content.decode())
    assert match, "the page has no heading"
    return match.group(1)


@pytest.mark.parametrize(
    ("accept", "code"),
    [
        ("ja", "ja"),
        ("ja-JP,ja;q=0.9,en;q=0.8", "ja"),
        ("zh-CN,zh;q=0.9", "zh-hans"),
        ("zh-Hans", "zh-hans"),
        ("fr-FR,fr;q=0.9", "en"),  # a language the site does not have: English
        ("", "en"),
    ],
)
def test_a_visitor_reads_the_language_her_browser_asks_for(accept, code):
    response = Client().get("/accounts/login/", HTTP_ACCEPT_LANGUAGE=accept)
    assert response.status_code == 200
    assert html_lang(response) == code
    assert heading(response) == LOG_IN[code]
    assert response["Content-Language"] == code
    # a shared cache must keep one copy per language asked for
    assert "Accept-Language" in response["Vary"]


def test_the_switcher_sets_a_visitors_language_over_her_browsers():
    client = Client()
    page = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="ja")
    assert 'action="/i18n/setlang/"' in page.content.decode()
    response = client.post(
        "/i18n/setlang/",
        {"language": "zh-hans", "next": "/accounts/login/"},
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/"
    again = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="ja")
    assert html_lang(again) == "zh-hans"
    assert heading(again) == "登录"


def test_a_language_the_site_does_not_have_is_refused_and_changes_nothing(player, client_for):
    client = client_for(player)
    response = client.post("/i18n/setlang/", {"language": "fr", "next": "/"})
    assert response.status_code == 400
    assert "fr" in response.content.decode()
    assert "django_language" not in response.cookies
    player.refresh_from_db()
    assert player.language == ""
    assert Client().post("/i18n/setlang/", {"next": "/"}).status_code == 400


def test_a_signed_in_users_switch_is_saved_and_follows_her_to_another_device(player, client_for):
    phone = client_for(player)
    response = phone.post("/i18n/setlang/", {"language": "ja", "next": "/accounts/profile/"})
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.language == "ja"
    # the very next request on the same device
    assert html_lang(phone.get("/accounts/profile/")) == "ja"
    # another device, whose browser asks for Chinese and never saw the switcher's cookie
    laptop = client_for(player)
    page = laptop.get("/accounts/profile/", HTTP_ACCEPT_LANGUAGE="zh-CN")
    assert html_lang(page) == "ja"
    assert "あなたのプロフィール" in page.content.decode()


def test_a_user_without_a_preference_reads_her_browsers_language(player, client_for):
    page = client_for(player).get("/accounts/profile/", HTTP_ACCEPT_LANGUAGE="zh-CN")
    assert html_lang(page) == "zh-hans"
    assert "你的个人资料" in page.content.decode()


def test_her_preference_is_edited_on_the_profile_page(player, client_for):
    client = client_for(player)
    form = client.get("/accounts/profile/").content.decode()
    assert '<select name="language"' in form
    for code, name in (("ja", "日本語"), ("zh-hans", "简体中文")):
        assert f'<option value="{code}">{name}</option>' in form
    response = client.post(
        "/accounts/profile/", {"display_name": "Reimu", "language": "zh-hans", "time_zone": ""}
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.language == "zh-hans"
    # the note that it is saved is already in the language she chose
    after = client.get("/accounts/profile/", HTTP_ACCEPT_LANGUAGE="en")
    assert "个人资料已保存。" in after.content.decode()
    # back to her browser's language
    client.post("/accounts/profile/", {"display_name": "Reimu", "language": "", "time_zone": ""})
    player.refresh_from_db()
    assert player.language == ""
    assert html_lang(client.get("/accounts/profile/", HTTP_ACCEPT_LANGUAGE="ja")) == "ja"


def test_an_unknown_language_on_the_profile_is_a_field_error(player, client_for):
    response = client_for(player).post(
        "/accounts/profile/", {"display_name": "Reimu", "language": "klingon", "time_zone": ""}
    )
    assert response.status_code == 400
    assert response.context["form"].errors["language"]
    player.refresh_from_db()
    assert (player.display_name, player.language) == ("", "")


def test_the_api_reads_and_changes_her_language(player, api_for):
    api = api_for(player)
    assert api.get("/api/account/").json() == {
        "username": "player-one",
        "display_name": "",
        "language": "",
        "time_zone": "",
    }
    response = api.patch("/api/account/", {"language": "zh-hans"}, format="json")
    assert response.status_code == 200
    assert response.json()["language"] == "zh-hans"
    player.refresh_from_db()
    assert player.language == "zh-hans"
    # nothing half-applied: a bad field refuses the whole change
    bad = api.patch("/api/account/", {"language": "xx", "display_name": "Marisa"}, format="json")
    assert bad.status_code == 400
    assert set(bad.json()) >= {"language"} or "language" in str(bad.json())
    bad_zone = api.patch("/api/account/", {"time_zone": "Mars/Olympus"}, format="json")
    assert bad_zone.status_code == 400
    player.refresh_from_db()
    assert (player.display_name, player.language, player.time_zone) == ("", "zh-hans", "")
    assert api_for(None).get("/api/account/").status_code in (401, 403)


def test_the_scripts_catalog_is_the_pages_language():
    client = Client()
    ja = client.get("/jsi18n/?lang=ja")
    assert ja.status_code == 200
    assert ja["Content-Language"] == "ja"
    # the catalog is JSON inside the script: non-ASCII letters are escaped
    assert json.dumps("テーマ：システム")[1:-1] in ja.content.decode()
    zh = client.get("/jsi18n/?lang=zh-hans", HTTP_ACCEPT_LANGUAGE="ja")
    assert json.dumps("主题：跟随系统")[1:-1] in zh.content.decode()
    # the admin's script strings are not sent to every page
    assert "Available %s" not in zh.content.decode()
    # an unknown language: the request's own
    other = client.get("/jsi18n/?lang=xx", HTTP_ACCEPT_LANGUAGE="zh-CN")
    assert other["Content-Language"] == "zh-hans"


def test_the_lockout_wait_is_in_the_readers_words(player, settings):
    """django-axes' lockout answers in the reader's language, with the wait counted in it."""
    from django.utils import translation

    from accounts.lockout import wait_words

    with translation.override("ja"):
        assert wait_words(900) == "15 分"
    with translation.override("en"):
        assert wait_words(60) == "1 minute"
        assert wait_words(120) == "2 minutes"
    assert User.objects.filter(pk=player.pk).exists()


def test_a_request_leaves_no_language_behind_for_the_threads_next():
    """A Chinese reader's request does not leave Chinese active in its thread: the 500 page
    Django renders outside the middleware, or a page for the thread's next reader, would speak
    it (accounts.languages.FreshLanguageMiddleware)."""
    from django.test import RequestFactory
    from django.utils import translation
    from django.views.defaults import server_error

    page = Client().get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="zh-CN")
    assert html_lang(page) == "zh-hans"
    assert translation.get_language() == "en"
    html = server_error(RequestFactory().get("/")).content.decode()
    assert "Something went wrong" in html
    with translation.override("ja"):
        assert "問題が起きました" in server_error(RequestFactory().get("/")).content.decode()
