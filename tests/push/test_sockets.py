"""Pushed updates over WebSockets (issue 39, "Pushed updates"; apibase/push.py): who may open a
table's or a bell's socket, what it receives (a version, never a state), and a removed member's
socket closing. The consumers run on the real Redis channel layer (config/settings/test.py)."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connections
from django.test import Client
from rest_framework.authtoken.models import Token

from campaign.models import Membership
from config.websockets import websocket_application
from minigames import services
from notifications.services import notify
from tests.minigames.conftest import two_humans
from tests.push.moves import next_move

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = (b"origin", b"http://testserver")


def _cookie(user: Any) -> tuple[bytes, bytes]:
    """The session cookie of ``user`` signed in (as a browser's socket carries it)."""
    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return (b"cookie", f"{name}={client.cookies[name].value}".encode())


def _run(scenario: Any) -> None:
    """Run the async ``scenario`` on an event loop of its own thread: a process's browser tests
    keep Playwright's loop running on the main thread, where ``async_to_sync`` refuses to."""
    import asyncio
    import threading

    failed: list[BaseException] = []

    async def closing() -> None:
        try:
            await scenario()
        finally:
            # every socket the scenario opened is told it went away, refused ones included: a
            # consumer waits on the channel layer until its socket disconnects, as a server
            # tells it (config/settings/base.py CHANNEL_REDIS_HOST)
            while _OPENED:
                with contextlib.suppress(Exception):
                    await _OPENED.pop().disconnect(timeout=5)
            # the consumers' database thread lets go of its connection (test teardown)
            await database_sync_to_async(connections.close_all)()

    def main() -> None:
        try:
            asyncio.run(closing())
        except BaseException as exc:  # re-raised on the test's thread
            failed.append(exc)

    thread = threading.Thread(target=main)
    thread.start()
    thread.join(timeout=120)
    assert not thread.is_alive(), "the scenario did not end"
    if failed:
        raise failed[0]


#: The sockets the running scenario opened (:func:`_run` disconnects them at its end).
_OPENED: list[WebsocketCommunicator] = []


def _socket(path: str, *headers: tuple[bytes, bytes]) -> WebsocketCommunicator:
    sock = WebsocketCommunicator(websocket_application(), path, headers=[ORIGIN, *headers])
    _OPENED.append(sock)
    return sock


def _any_move(table: Any, user: Any) -> None:
    """``user`` plays a legal move (it must be her turn)."""
    mover, _other, action, version = next_move(table, _SEATED[table.pk])
    assert mover == user, "her turn"
    services.tavern_action_apply(
        table_id=table.pk, by=user, action=action, expected_version=version
    )


async def _next(sock: WebsocketCommunicator, kind: str) -> dict[str, Any]:
    """The next message of ``kind`` (others, such as who is here, are passed over)."""
    while True:
        message = await sock.receive_json_from(timeout=5)
        if message["type"] == kind:
            return message


async def _no_version(sock: WebsocketCommunicator) -> bool:
    """Nothing but news of who is here arrives for a moment."""
    while not await sock.receive_nothing(timeout=0.5):
        if (await sock.receive_json_from())["type"] != "presence":
            return False
    return True


@pytest.fixture(autouse=True)
def _fresh_layer():
    """A channel layer of this test's own: each test's sockets run on an event loop of their
    own, and the layer's receive lock belongs to the loop that first took it."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def _nobody_at_tables():
    """Presence is kept in Redis by table id, and ids come back after each test's flush."""
    from apibase.cache_redis import default_redis

    redis = default_redis()
    assert redis is not None
    pattern = redis.backend.make_key("presence:*")
    for key in redis.client.scan_iter(match=pattern):
        redis.client.delete(key)


def _mover(table: Any, *users: Any) -> Any:
    """Whichever of ``users`` the table waits on."""
    return next_move(table, _SEATED[table.pk])[0]


#: each table's seats, as two_humans seated them (host, guest)
_SEATED: dict[int, tuple[Any, Any]] = {}


@pytest.fixture
def raigo(campaign, player, other_player):
    table = two_humans("raigo", player, other_player, campaign=campaign)
    _SEATED[table.pk] = (player, other_player)
    return table


def test_a_seat_hears_each_new_version_and_nothing_else(raigo, player, other_player):
    mover = _mover(raigo, player, other_player)
    watcher = other_player if mover == player else player
    version, cookie = raigo.version, _cookie(watcher)

    async def scenario() -> None:
        sock = _socket(f"/ws/tables/raigo/{raigo.pk}/", cookie)
        connected, _ = await sock.connect()
        assert connected
        first = await sock.receive_json_from(timeout=5)
        assert first == {"type": "version", "version": version}
        await sync_to_async(_any_move)(raigo, mover)
        note = await _next(sock, "version")
        # only the version: her page fetches her own view (no state, no view, no event)
        assert note == {"type": "version", "version": version + 1}
        assert await _no_version(sock)
        await sock.disconnect()

    _run(scenario)


def test_a_token_opens_a_socket_as_the_api_does(raigo, player):
    token, _ = Token.objects.get_or_create(user=player)

    async def scenario() -> None:
        sock = _socket(
            f"/ws/tables/raigo/{raigo.pk}/", (b"authorization", f"Token {token.key}".encode())
        )
        connected, _ = await sock.connect()
        assert connected
        assert (await sock.receive_json_from(timeout=5))["type"] == "version"
        await sock.disconnect()

    _run(scenario)


@pytest.mark.parametrize(
    ("who", "code"),
    [("anonymous", 4401), ("outsider", 4404), ("wrong token", 4401)],
)
def test_who_may_not_see_the_table_gets_no_socket(raigo, outsider, who, code):
    headers = {
        "anonymous": [],
        "outsider": [_cookie(outsider)],
        "wrong token": [(b"authorization", b"Token not-a-token")],
    }[who]

    async def scenario() -> None:
        sock = _socket(f"/ws/tables/raigo/{raigo.pk}/", *headers)
        connected, closed = await sock.connect()
        assert not connected and closed == code

    _run(scenario)


@pytest.mark.parametrize(
    "path", ["/ws/tables/raigo/999999/", "/ws/tables/no-such-game/1/", "/ws/tables/raigo/x/"]
)
def test_no_such_table_is_a_4404(player, path):
    cookie = _cookie(player)

    async def scenario() -> None:
        connected, closed = await _socket(path, cookie).connect()
        assert not connected and closed == 4404

    _run(scenario)


def test_a_socket_from_another_site_is_refused(raigo, player):
    cookie = _cookie(player)

    async def scenario() -> None:
        sock = WebsocketCommunicator(
            websocket_application(),
            f"/ws/tables/raigo/{raigo.pk}/",
            headers=[(b"origin", b"https://evil.example"), cookie],
        )
        _OPENED.append(sock)
        connected, _ = await sock.connect()
        assert not connected

    _run(scenario)


def test_a_removed_member_has_her_socket_closed(raigo, campaign, player, other_player):
    cookie = _cookie(other_player)

    async def scenario() -> None:
        sock = _socket(f"/ws/tables/raigo/{raigo.pk}/", cookie)
        assert (await sock.connect())[0]
        await sock.receive_json_from(timeout=5)
        await sync_to_async(
            lambda: Membership.objects.filter(campaign=campaign, user=other_player).delete()
        )()
        closed = await sock.receive_output(timeout=5)
        while closed["type"] == "websocket.send":  # who is here, before the check
            closed = await sock.receive_output(timeout=5)
        assert closed["type"] == "websocket.close" and closed["code"] in (4403, 4404)

    # still seated at a campaign table she can no longer see: the table is the campaign's
    _run(scenario)


def test_a_member_who_stays_keeps_her_socket(raigo, campaign, player, other_player, outsider):
    cookie = _cookie(player)

    async def scenario() -> None:
        sock = _socket(f"/ws/tables/raigo/{raigo.pk}/", cookie)
        assert (await sock.connect())[0]
        await sock.receive_json_from(timeout=5)
        await sync_to_async(
            lambda: Membership.objects.create(campaign=campaign, user=outsider, role="player")
        )()
        assert await _no_version(sock)
        await sock.disconnect()

    _run(scenario)


def test_the_bell_hears_her_own_notifications_only(player, other_player):
    mine_cookie, their_cookie = _cookie(player), _cookie(other_player)

    async def scenario() -> None:
        mine = _socket("/ws/notifications/", mine_cookie)
        theirs = _socket("/ws/notifications/", their_cookie)
        assert (await mine.connect())[0] and (await theirs.connect())[0]
        assert await mine.receive_json_from(timeout=5) == {"type": "notifications"}
        assert await theirs.receive_json_from(timeout=5) == {"type": "notifications"}
        await sync_to_async(
            lambda: notify(recipient=player, event="level_up", title="A secret title")
        )()
        # no text: the page fetches its own list
        assert await mine.receive_json_from(timeout=5) == {"type": "notifications"}
        assert await theirs.receive_nothing(timeout=0.5)
        await mine.disconnect()
        await theirs.disconnect()

    _run(scenario)


def test_a_signed_out_bell_is_closed():
    async def scenario() -> None:
        connected, closed = await _socket("/ws/notifications/").connect()
        assert not connected and closed == 4401

    _run(scenario)


def test_presence_says_who_is_here_and_who_went_away(raigo, player, other_player):
    mine, theirs = _cookie(player), _cookie(other_player)
    path = f"/ws/tables/raigo/{raigo.pk}/"

    async def next_presence(sock: WebsocketCommunicator) -> list[dict[str, Any]]:
        while True:
            message = await sock.receive_json_from(timeout=5)
            if message["type"] == "presence":
                return message["people"]

    async def scenario() -> None:
        a = _socket(path, mine)
        assert (await a.connect())[0]
        people = await next_presence(a)
        assert [(p["name"], p["here"]) for p in people] == [(str(player), True)]
        b = _socket(path, theirs)
        assert (await b.connect())[0]
        people = await next_presence(a)
        assert sorted((p["name"], p["here"]) for p in people) == sorted(
            [(str(player), True), (str(other_player), True)]
        )
        await b.send_json_to({"type": "visibility", "visible": False})
        people = await next_presence(a)
        assert {p["name"]: p["here"] for p in people} == {
            str(player): True,
            str(other_player): False,
        }
        assert people[0]["name"] == str(player)  # here first
        await b.disconnect()
        people = await next_presence(a)
        assert {p["name"]: p["here"] for p in people}[str(other_player)] is False
        # a page may say nothing else: anything else is ignored, and nothing breaks
        await a.send_to(text_data="x" * 10_000)
        await a.send_to(text_data="not json")
        await a.send_json_to({"type": "move", "action": {}})
        assert await a.receive_nothing(timeout=0.3)
        await a.disconnect()

    _run(scenario)


def _moves_until(table: Any, mover: Any, other: Any) -> None:
    """``mover`` moves until the table waits on ``other``."""
    for _ in range(50):
        if _mover(table, mover, other) == other:
            return
        _any_move(table, mover)
    raise AssertionError("the turn never passed")


def test_no_turn_alert_for_a_seat_looking_at_the_table(raigo, player, other_player):
    from notifications.models import Notification

    mover = _mover(raigo, player, other_player)
    watcher = other_player if mover == player else player
    cookie = _cookie(watcher)
    before = Notification.objects.filter(recipient=watcher, event="your_turn").count()

    async def scenario() -> None:
        sock = _socket(f"/ws/tables/raigo/{raigo.pk}/", cookie)
        assert (await sock.connect())[0]
        await sock.receive_json_from(timeout=5)
        await sock.receive_json_from(timeout=5)  # her own presence
        await sync_to_async(_moves_until)(raigo, mover, watcher)
        await sock.disconnect()

    _run(scenario)
    # it is her turn now, and she was looking: no alert (the wait is still kept for reminders)
    assert Notification.objects.filter(recipient=watcher, event="your_turn").count() == before
    # with the table closed, her next turn is told
    _moves_until(raigo, watcher, mover)
    _moves_until(raigo, mover, watcher)
    assert Notification.objects.filter(recipient=watcher, event="your_turn").count() == before + 1


def test_an_idle_socket_stays_open_past_the_layers_blocking_wait(player):
    """The consumer waits on Redis in blocking pops of 5 s; an idle socket must outlive several
    of them (config/settings/base.py CHANNEL_REDIS_HOST) and still hear what comes next."""
    cookie = _cookie(player)

    async def scenario() -> None:
        bell = _socket("/ws/notifications/", cookie)
        assert (await bell.connect())[0]
        assert await bell.receive_json_from(timeout=5) == {"type": "notifications"}
        assert await bell.receive_nothing(timeout=12)  # idle through two blocking pops
        await sync_to_async(lambda: notify(recipient=player, event="level_up", title="Later"))()
        assert await bell.receive_json_from(timeout=10) == {"type": "notifications"}
        await bell.disconnect()

    _run(scenario)
