"""Whole numbers and ids the pages read from forms and query strings are written in the ASCII
digits 0-9 (apibase/numbers.py), as the API's are: ``str.isdigit()`` passed ``"²"``, which
``int()`` then refused (a 500 on the card list's cost, the dice page's roll and the
tavern's character), and ``int()`` read ``"٣"`` (Arabic-Indic three) as 3 (a seat, a house
rule, a stake)."""

from __future__ import annotations

import re

import pytest

from minigames.models import TavernSeat, TavernTable

pytestmark = pytest.mark.django_db

SUPERSCRIPT_TWO = "²"


def _arabic_indic(text: str) -> str:
    return "".join(chr(0x660 + int(d)) if d.isdigit() else d for d in text)


def _card_links(response) -> list[str]:
    return re.findall(r'href="/cards/dbs/(DBS-[0-9]+)/"', response.content.decode())


def test_the_card_list_ignores_a_cost_in_other_digits(client_for, player):
    page = client_for(player)
    for cost in (SUPERSCRIPT_TWO, _arabic_indic("2")):
        response = page.get("/cards/dbs/", {"cost": cost})
        assert response.status_code == 200
        assert _card_links(response) == _card_links(page.get("/cards/dbs/"))  # no filter


def test_the_dice_pages_ignore_a_roll_in_other_digits(client_for, player, campaign):
    page = client_for(player)
    for url in ("/dice/", f"/campaigns/{campaign.pk}/dice/"):
        unknown = page.get(url, {"roll": "999"})  # no such roll: the page without one
        assert unknown.status_code != 500
        assert page.get(url, {"roll": SUPERSCRIPT_TWO}).status_code == unknown.status_code


def test_a_new_tables_house_rule_and_stake_in_other_digits_are_refused(
    client_for, player, campaign
):
    page = client_for(player)
    url = f"/campaigns/{campaign.pk}/tavern/"
    base = {"game": "raigo", "seat-0": "host", "seat-1": "open"}
    rule = page.post(url, {**base, "opt-raigo-destroy_threshold": _arabic_indic("25")})
    assert rule.status_code == 400
    assert "give a whole number" in rule.content.decode()
    stake = page.post(url, {**base, "stake": _arabic_indic("5")})
    assert stake.status_code == 400
    assert "Give a whole number of yen." in stake.content.decode()
    character = page.post(url, {**base, "character": SUPERSCRIPT_TWO})
    assert character.status_code == 302  # no character: the host sits as herself
    assert not TavernTable.objects.exclude(pk=TavernTable.objects.get().pk).exists()
    assert page.post(url, {**base, "opt-raigo-destroy_threshold": "25"}).status_code == 302


def test_a_seat_in_other_digits_is_no_seat(client_for, gm, player, campaign):
    client_for(gm).post(
        f"/campaigns/{campaign.pk}/tavern/", {"game": "raigo", "seat-0": "host", "seat-1": "open"}
    )
    table = TavernTable.objects.get()
    joined = client_for(player).post(
        f"/tavern/tables/{table.pk}/join/", {"seat": _arabic_indic("1")}, follow=True
    )
    assert "There is no such seat." in joined.content.decode()
    assert not TavernSeat.objects.filter(table=table, user=player).exists()
    client_for(player).post(f"/tavern/tables/{table.pk}/join/", {"seat": "1"})
    assert TavernSeat.objects.filter(table=table, user=player, index=1).exists()
