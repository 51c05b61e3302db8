"""A line said at a table reaches the table's sockets as a note without its text (issue 39,
"Chat at every table"; docs/table-chat.md): on the real Redis channel layer, every socket open
on the table hears ``{"type": "chat"}``, and a whisper between RAIGO partners never reaches a
third seat, neither on her socket nor in what her page then reads."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from tests.push.test_sockets import _cookie, _run, _socket

from .conftest import chat_url

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _fresh_layer():
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


async def _notes(sock: Any) -> list[dict[str, Any]]:
    """Every message that arrives until the socket is quiet, other than who is here."""
    found = []
    while not await sock.receive_nothing(timeout=1):
        message = await sock.receive_json_from()
        if message["type"] != "presence":
            found.append(message)
    return found


def _say(user: Any, table: Any, body: dict[str, Any]) -> None:
    client = Client()
    client.force_login(user)
    url = chat_url("raigo", table.pk)
    answer = client.post(url, json.dumps(body), content_type="application/json")
    assert answer.status_code == 201, answer.content


def test_a_whisper_is_a_bare_note_on_every_socket_and_its_text_reaches_only_its_readers(four):
    from asgiref.sync import sync_to_async

    table, users, watcher = four
    reimu, _marisa, sakuya, youmu = users
    listeners = {"sakuya": sakuya, "youmu": youmu, "aya": watcher}
    cookies = {name: _cookie(user) for name, user in listeners.items()}
    heard: dict[str, list[dict[str, Any]]] = {}

    async def scenario() -> None:
        socks = {}
        for name, cookie in cookies.items():
            sock = _socket(f"/ws/tables/raigo/{table.pk}/", cookie)
            connected, _ = await sock.connect()
            assert connected, name
            socks[name] = sock
        for sock in socks.values():
            await _notes(sock)  # the version on connect and who is here
        await sync_to_async(_say)(reimu, table, {"text": "Hello all"})
        await sync_to_async(_say)(
            reimu, table, {"text": "PLAN-EIGHT-LEFT", "whisper_to": str(sakuya.pk)}
        )
        for name, sock in socks.items():
            heard[name] = await _notes(sock)
            await sock.disconnect()

    _run(scenario)
    for name in listeners:
        assert heard[name] == [{"type": "chat"}, {"type": "chat"}], name
    # what each then reads on the note: the whisper only where its reader is
    for name, user in listeners.items():
        client = Client()
        client.force_login(user)
        read = client.get(chat_url("raigo", table.pk)).content
        assert b"Hello all" in read
        assert (b"PLAN-EIGHT-LEFT" in read) == (name == "sakuya"), name
