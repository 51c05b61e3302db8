"""How a tavern table ended ("Marisa resigned.", "Marisa abandoned the table.") is kept as
words and read in the reader's language on the table's page and in its API, the outcome's
keys left as they are; an outcome stored before it kept its words shows its English."""

from __future__ import annotations

from typing import Any

import pytest

from minigames import services
from minigames.models import TavernTable
from tests.minigames.conftest import two_humans

pytestmark = pytest.mark.django_db

RESIGNED = {"ja": "{name} が投了しました。", "zh-hans": "{name} 认输了。"}
ABANDONED = {"ja": "{name} が卓を放棄しました。", "zh-hans": "{name} 放弃了牌桌。"}


def _state(api_for: Any, user: Any, table: TavernTable, lang: str) -> dict[str, Any]:
    got = api_for(user).get(
        f"/api/tavern/tables/{table.pk}/state/", headers={"accept-language": lang}
    )
    assert got.status_code == 200
    return dict(got.json())


@pytest.mark.parametrize("lang", ["ja", "zh-hans"])
def test_a_rated_resignation_reads_in_her_language(player, other_player, api_for, lang):
    table = two_humans("raigo", player, other_player)
    assert table.rated
    services.tavern_resign(table_id=table.pk, by=other_player)
    table.refresh_from_db()
    name = table.outcome["text"].removesuffix(" resigned.")
    assert name and table.outcome["words"]  # kept as words, the English beside them
    state = _state(api_for, player, table, lang)
    expected = RESIGNED[lang].format(name=name)
    assert state["result"]["text"] == expected
    outcome = state["table"]["outcome"]
    assert outcome["text"] == expected
    # the keys a client reads are the ones it always read; the words stay on the server
    assert set(outcome) == {"winners", "text", "resigned"}
    assert outcome["winners"] == [0] and outcome["resigned"] == 1
    # English readers read the English, as it was written
    assert _state(api_for, player, table, "en")["result"]["text"] == f"{name} resigned."


@pytest.mark.parametrize("lang", ["ja", "zh-hans"])
def test_an_abandoned_table_says_who_abandoned_it_in_her_language(
    player, other_player, api_for, lang
):
    table = two_humans("raigo", player, other_player)
    services.tavern_abandon(table_id=table.pk, by=player)
    table.refresh_from_db()
    assert table.outcome["text"] == f"{player.shown_name} abandoned the table."
    state = _state(api_for, other_player, table, lang)
    expected = ABANDONED[lang].format(name=player.shown_name)
    assert state["result"]["text"] == expected
    assert state["result"]["abandoned_by"] == player.shown_name  # a name is never translated
    assert set(state["table"]["outcome"]) == {"winners", "text", "abandoned_by"}


def test_an_outcome_stored_in_english_still_shows(player, other_player, api_for):
    table = two_humans("raigo", player, other_player)
    services.tavern_resign(table_id=table.pk, by=other_player)
    table.refresh_from_db()
    old = {k: v for k, v in table.outcome.items() if k != "words"}
    TavernTable.objects.filter(pk=table.pk).update(outcome=old)
    for lang in ("ja", "zh-hans"):
        state = _state(api_for, player, table, lang)
        assert state["result"]["text"] == old["text"]
        assert state["table"]["outcome"] == old
