"""API tokens answered from the cache (accounts/token_cache.py): no database round trip for a
known token, and never a stale or borrowed answer — a deleted token, a deactivated or deleted
user is refused on the very next request, and each token gets its own user."""

from __future__ import annotations

import pickle

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed

from accounts.token_cache import CachedTokenAuthentication, token_cache_key
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

URL = "/api/campaigns/"


def _settled(user, key: str) -> None:
    """As if the user and token had been made a minute ago: their change marks expired."""
    cache.delete_many([token_cache_key(key), f"auth-user-changed:{user.pk}"])


def _auth(key: str):
    return CachedTokenAuthentication().authenticate_credentials(key)


def test_a_known_token_is_answered_without_the_database():
    user = UserFactory()
    token = Token.objects.create(user=user)
    _settled(user, token.key)
    assert _auth(token.key)[0].pk == user.pk  # fills the cache
    with CaptureQueriesContext(connection) as queries:
        cached, auth = _auth(token.key)
    assert len(queries) == 0
    assert cached.pk == user.pk and cached.is_authenticated and auth.key == token.key


def test_the_cache_holds_neither_the_token_nor_the_password_hash():
    user = UserFactory()
    token = Token.objects.create(user=user)
    _settled(user, token.key)
    _auth(token.key)
    assert token.key not in token_cache_key(token.key)
    stored = cache.get(token_cache_key(token.key))
    assert stored.pk == user.pk
    assert user.password.encode() not in pickle.dumps(stored)
    assert "password" in stored.get_deferred_fields()


def test_each_token_gets_its_own_user(api_for):
    alice, bob = UserFactory(), UserFactory()
    for user in (alice, bob):
        token = Token.objects.create(user=user)
        _settled(user, token.key)
        for _ in range(2):  # the miss, then the hit
            assert _auth(token.key)[0].pk == user.pk


def test_a_deleted_token_is_refused_on_the_next_request(api_for):
    user = UserFactory()
    client = api_for(user)
    token = Token.objects.get(user=user)
    _settled(user, token.key)
    assert client.get(URL).status_code == 200
    assert client.get(URL).status_code == 200  # from the cache
    token.delete()
    assert client.get(URL).status_code == 401


def test_a_deactivated_user_is_refused_on_the_next_request(api_for):
    user = UserFactory()
    client = api_for(user)
    _settled(user, Token.objects.get(user=user).key)
    assert client.get(URL).status_code == 200
    assert client.get(URL).status_code == 200
    user.is_active = False
    user.save()
    assert client.get(URL).status_code == 401


def test_a_deleted_user_is_refused_on_the_next_request(api_for):
    user = UserFactory()
    client = api_for(user)
    _settled(user, Token.objects.get(user=user).key)
    assert client.get(URL).status_code == 200
    assert client.get(URL).status_code == 200
    user.delete()
    assert client.get(URL).status_code == 401


def test_a_saved_user_is_read_again(api_for):
    user = UserFactory(display_name="Old")
    token = Token.objects.create(user=user)
    _settled(user, token.key)
    _auth(token.key)
    user.display_name = "New"
    user.save()
    assert _auth(token.key)[0].display_name == "New"
    assert _auth(token.key)[0].display_name == "New"


def test_an_unknown_token_is_refused():
    with pytest.raises(AuthenticationFailed):
        _auth("0" * 40)
