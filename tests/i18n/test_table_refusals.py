"""The table core's refusals (chat, undo, clocks, replays: tables/) speak the reader's language,
as the pages that show them do: the chat panel and the undo and clock panels put the API's
words on the page as they come. They were English on Japanese and Chinese pages."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.models import Membership, Role
from tests.factories import UserFactory
from tests.minigames.conftest import two_humans

pytestmark = pytest.mark.django_db


def _refusal(answer: Any, field: str | None = None) -> str:
    body = answer.json()
    return str(body["errors"][field][0] if field else body["detail"])


def test_the_tables_refusals_speak_the_readers_language(campaign, player, other_player, api_for):
    table = two_humans("raigo", player, other_player, campaign=campaign, rated=False)
    base = f"/api/tavern/tables/{table.pk}"
    host, guest = api_for(player), api_for(other_player)

    empty = host.post(f"{base}/chat/", {"text": " "}, format="json", HTTP_ACCEPT_LANGUAGE="ja")
    assert empty.status_code == 400
    assert _refusal(empty, "text") == "何か書いてください。"
    whisper = host.post(
        f"{base}/chat/",
        {"text": "psst", "whisper_to": "1"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    assert whisper.status_code == 400
    assert _refusal(whisper, "whisper_to") == "这个游戏不允许私聊：请对全桌说。"

    vote = guest.post(
        f"{base}/undo/", {"decision": "approve"}, format="json", HTTP_ACCEPT_LANGUAGE="zh-hans"
    )
    assert vote.status_code == 400
    assert _refusal(vote, "undo") == "没有等待中的撤回请求。"
    watcher = UserFactory(username="aya")  # a member at no seat: she may watch, not ask
    Membership.objects.create(campaign=campaign, user=watcher, role=Role.PLAYER)
    ask = api_for(watcher).post(
        f"{base}/undo/", {"decision": "ask"}, format="json", HTTP_ACCEPT_LANGUAGE="ja"
    )
    assert ask.status_code == 403
    assert _refusal(ask) == "あなたはこのテーブルに席がありません。"

    pause = host.post(f"{base}/clock/", {"paused": True}, format="json", HTTP_ACCEPT_LANGUAGE="ja")
    assert pause.status_code == 400
    assert _refusal(pause, "paused") == "このテーブルには持ち時間がありません。"
    clock = guest.post(f"{base}/clock/", {"paused": True}, format="json", HTTP_ACCEPT_LANGUAGE="ja")
    assert clock.status_code == 403
    assert _refusal(clock) == "時計を止められるのはホストかゲームマスターだけです。"

    step = host.get(f"{base}/replay/?step=999", HTTP_ACCEPT_LANGUAGE="ja")
    assert step.status_code == 400
    assert _refusal(step, "step").startswith("999 手目はありません。")
