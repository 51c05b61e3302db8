"""The tavern's pages (minigames/views.py): the new-table form keeps every choice a refused
form was sent with (so resubmitting it never drops the stake or the character), and the table
page's seat controls say who sits at a seat."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from minigames.models import TavernTable
from tests.minigames.conftest import character, one_open_seat

pytestmark = pytest.mark.django_db


class Form(HTMLParser):
    """The values a browser would send from the page's forms: each select's chosen option, each
    input's value, each tick box's state (by field id)."""

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[str, str | bool] = {}
        self.select: str | None = None
        self.first: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "select":
            self.select = a.get("id") or a.get("name") or ""
        elif tag == "option" and self.select is not None:
            self.first.setdefault(self.select, a.get("value") or "")
            if "selected" in a:
                self.values[self.select] = a.get("value") or ""
        elif tag == "input" and a.get("id"):
            if a.get("type") == "checkbox":
                self.values[a["id"] or ""] = "checked" in a
            else:
                self.values[a["id"] or ""] = a.get("value") or ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self.select is not None:
            self.values.setdefault(self.select, self.first.get(self.select, ""))
            self.select = None


def shown(html: str) -> dict[str, str | bool]:
    form = Form()
    form.feed(html)
    return form.values


def test_a_refused_new_table_keeps_every_choice(client_for, campaign, player):
    """Create RAIGO as a character with less yen than the stake: the form says why, and shows
    the game, the seats, the character, the house rules, the stake and the tick boxes as they
    were sent, so a second press sends the same table (and never a stake of 0)."""
    reimu = character(player, campaign, "Reimu", 450)
    sent = {
        "game": "raigo",
        "seat-0": "bot:heuristic",
        "seat-1": "host",
        "seat-2": "open",
        "character": str(reimu.pk),
        "opt-raigo-destroy_threshold": "25",
        "stake": "500",
    }
    r = client_for(player).post(f"/campaigns/{campaign.pk}/tavern/", sent)
    assert r.status_code == 400
    html = r.content.decode()
    assert "Reimu has 450 yen; the stake is 500 yen." in html
    values = shown(html)
    assert values["game"] == "raigo"
    assert (values["seat-0"], values["seat-1"], values["seat-2"], values["seat-3"]) == (
        "bot:heuristic",
        "host",
        "open",
        "",
    )
    assert values["character"] == str(reimu.pk)
    assert values["opt-raigo-destroy_threshold"] == "25"
    assert values["stake"] == "500"
    assert values["advisor"] is False and values["practice"] is False
    assert not TavernTable.objects.exists()


def test_a_refused_card_game_table_keeps_its_deck_and_house_rule(client_for, player):
    from minigames.services import deck_choices

    decks = [key for key, _ in deck_choices(player, "dbs")]
    sent = {"game": "dbs", "seat-0": "host", "deck": decks[-1], "practice": "on", "advisor": "on"}
    r = client_for(player).post("/tavern/", sent)  # one seat: refused
    assert r.status_code == 400
    values = shown(r.content.decode())
    assert values["game"] == "dbs" and values["deck-dbs"] == decks[-1]
    assert values["seat-0"] == "host" and values["seat-1"] == ""
    assert values["practice"] is True and values["advisor"] is True


def test_a_fresh_form_offers_the_defaults(client_for, player):
    values = shown(client_for(player).get("/tavern/").content.decode())
    assert (values["seat-0"], values["seat-1"], values["seat-2"]) == ("host", "open", "")
    assert values["opt-raigo-destroy_threshold"] == "20"
    assert values["practice"] is False
    assert not re.search(
        r'id="new-table-errors"', client_for(player).get("/tavern/").content.decode()
    )


def test_the_form_offers_every_house_rule_of_every_game_in_words(client_for, player):
    """The new-table form lists each engine's ``house_rules()`` by itself (RSO's and RAIGO's
    new ones included): each under its game, with its label, its default in words and a
    choice's every value by its label; the form never shows a key. A table made from it plays
    by the rules chosen."""
    from html import unescape

    from minigames.engines.registry import ENGINE_MODULES, get_engine

    page = client_for(player).get("/tavern/").content.decode()
    values = shown(page)
    for slug in ENGINE_MODULES:
        fieldset = re.search(
            rf'<fieldset class="tavern-rules" data-game="{slug}">(.*?)</fieldset>', page, re.S
        )
        assert fieldset, slug
        words = unescape(re.sub(r"<[^>]+>", " ", fieldset[1]))
        for rule in get_engine(slug).house_rules():
            field = f"opt-{slug}-{rule.key}"
            assert f'<label for="{field}">{rule.label} ' in unescape(fieldset[1]), field
            assert values[field] == str(rule.default)
            for value, label in rule.choices:
                assert f'<option value="{value}"' in fieldset[1] and str(label) in words
        assert not re.findall(r"\b[a-z]+_[a-z_]+\b", " ".join(words.split())), slug
    sent = {
        "game": "rso",
        "seat-0": "host",
        "seat-1": "open",
        "opt-rso-first_player": "second",
        "opt-rso-special_uses": "2",
        "opt-rso-border_order": "intercepting",
    }
    r = client_for(player).post("/tavern/", sent)
    assert r.status_code == 302
    table = TavernTable.objects.get()
    assert table.options["first_player"] == "second" and table.options["special_uses"] == 2
    assert table.options["border_order"] == "intercepting"


def _stake_line(client, table) -> str:
    html = client.get(f"/tavern/tables/{table.pk}/").content.decode()
    found = re.search(r"Stake: [^<]*?\.(?=<|\s)", html)
    assert found, "no stake line"
    return found.group(0)


def test_the_stake_line_says_held_only_while_the_game_is_played(
    client_for, campaign, player, other_player
):
    """During play the stakes are held; once the game is over the line says where the pot went,
    or that the stakes were returned, never "held"."""
    from minigames import services
    from tests.minigames.conftest import two_humans

    reimu = character(player, campaign, "Reimu", 200)
    marisa = character(other_player, campaign, "Marisa", 150)
    client = client_for(player)
    kw = {"campaign": campaign, "stake": 40, "host_character": reimu, "guest_character": marisa}
    table = two_humans("spirit_war", player, other_player, **kw)
    assert _stake_line(client, table) == "Stake: 40 yen per character (held)."
    services.tavern_resign(table_id=table.pk, by=other_player)
    assert (
        _stake_line(client, table)
        == "Stake: 40 yen per character; the pot of 80 yen went to Reimu."
    )
    table = two_humans("raigo", player, other_player, **kw)
    services.tavern_abandon(table_id=table.pk, by=player)
    assert _stake_line(client, table) == "Stake: 40 yen per character; the stakes were returned."


def test_the_stake_line_names_a_seat_that_plays_without_a_stake(
    client_for, campaign, player, other_player
):
    """Only seats played as a character stake (docs/tavern.md): a player seated as herself at
    a staked table risks and wins nothing, and the line says so, by name."""
    from tests.minigames.conftest import two_humans

    reimu = character(player, campaign, "Reimu", 200)
    table = two_humans(
        "spirit_war", player, other_player, campaign=campaign, stake=40, host_character=reimu
    )
    html = client_for(player).get(f"/tavern/tables/{table.pk}/").content.decode()
    found = re.search(r'<span id="tavern-stake">([^<]*)</span>', html)
    assert found, "no stake line"
    assert found.group(1) == (
        f"Stake: 40 yen per character (held). No stake from {other_player.shown_name}: a seat "
        "played without a character neither stakes nor wins yen."
    )


def _seat_control(client, table, index: int) -> dict[str, str | bool]:
    html = client.get(f"/tavern/tables/{table.pk}/").content.decode()
    found = re.search(rf'data-seat="{index}">(.*?)</li>', html, flags=re.S)
    assert found, f"no seat {index}"
    fragment = found.group(1)
    chosen = re.search(
        r'<select name="kind"[^>]*>.*?<option value="([^"]*)" selected>([^<]*)<',
        fragment,
        flags=re.S,
    )
    first = re.search(
        r'<select name="kind"[^>]*>\s*<option value="([^"]*)"[^>]*>([^<]*)<', fragment
    )
    option = chosen or first
    assert option, "no seat control"
    return {"value": option.group(1), "text": option.group(2)}


def test_the_hosts_seat_control_shows_who_sits_there(client_for, player, other_player):
    """A seat a player has taken shows her as the chosen option ("... (keep)"): pressing Set
    without changing it keeps her seated; unseating her is a choice of its own."""
    from minigames.models import TavernSeat
    from tests.minigames.conftest import two_humans

    table = two_humans("spirit_war", player, other_player, start=False)
    host = client_for(player)
    taken = _seat_control(host, table, 1)
    assert taken == {"value": "keep", "text": f"{other_player.shown_name} (keep)"}
    r = host.post(f"/tavern/tables/{table.pk}/seats/", {"seat": "1", "kind": taken["value"]})
    assert r.status_code == 302
    assert TavernSeat.objects.get(table=table, index=1).user_id == other_player.pk
    host.post(f"/tavern/tables/{table.pk}/seats/", {"seat": "1", "kind": "open"})
    assert TavernSeat.objects.get(table=table, index=1).user_id is None
    assert _seat_control(host, table, 1)["value"] == "open"


def test_the_house_rules_are_one_a_line(client_for, player):
    """The table page lists each house rule as a term and its value: a label that is a
    question ("When does an empty deck lose?") no longer runs into its answer as "lose?: When
    she must draw…" in one sentence of every rule."""
    table = one_open_seat(player, "rso")
    html = client_for(player).get(f"/tavern/tables/{table.pk}/").content.decode()
    assert "<dt>When does an empty deck lose?</dt>" in html
    assert "?:" not in html


def test_a_saved_deck_named_like_a_ready_made_one_is_told_apart(client_for, player, other_player):
    """The walkthrough met "Shrine and Star" twice in the new-table form's deck list, the
    ready-made deck and her own saved copy, with nothing to tell them apart. The choices are
    grouped: "Ready-made decks", then "Your decks" (in the form and at an open seat)."""
    from decks.models import Deck
    from minigames.engines.dbs import preset_decks

    preset = preset_decks()[0]
    Deck.objects.create(owner=player, game="dbs", name=preset["name"], cards=preset["cards"])
    page = client_for(player).get("/tavern/").content.decode()
    form = re.search(r'<select name="deck" id="deck-dbs">(.*?)</select>', page, re.S)
    assert form is not None
    groups = re.findall(r'<optgroup label="([^"]+)">(.*?)</optgroup>', form.group(1), re.S)
    assert [label for label, _ in groups] == ["Ready-made decks", "Your decks"]
    assert preset["name"] in groups[0][1] and preset["name"] in groups[1][1]
    assert 'value="deck:' in groups[1][1] and 'value="deck:' not in groups[0][1]
    table = one_open_seat(other_player, "dbs")
    seat = client_for(player).get(f"/tavern/tables/{table.pk}/").content.decode()
    assert '<optgroup label="Ready-made decks">' in seat and '<optgroup label="Your decks">' in seat


def _marked(client, table) -> tuple[list[int], int]:
    """The seats the page marks "to move" as it is served, and how many marks it shows."""
    html = client.get(f"/tavern/tables/{table.pk}/").content.decode()
    seats = re.findall(r'class="tavern-seat[^"]*tavern-seat--to-move[^"]*" data-seat="(\d)"', html)
    return [int(s) for s in seats], html.count('<span class="tavern-seat-turn">')


def test_the_page_marks_whose_move_it_is_as_the_state_api_says(client_for, player, other_player):
    """The seats' "to move" marks come with the page, not only with table.js's first drawing:
    on a phone the mark wraps the seats' strip, so a page drawn without it moved its table menu
    under a tap. They are the state API's ``waiting_on`` for every seat, and gone at the end."""
    from minigames.engines.registry import get_engine
    from tests.minigames.conftest import play_first_move, play_out, two_humans

    table = two_humans("raigo", player, other_player)
    users = {0: player, 1: other_player}
    engine = get_engine("raigo")
    for _ in range(3):  # the first position, and after each of two moves
        table.refresh_from_db()
        state = engine.from_json(table.state)
        waiting = list(engine.waiting_on(state))
        for user in users.values():
            client = client_for(user)
            shown = client.get(f"/api/tavern/tables/{table.pk}/state/").json()["waiting_on"]
            assert shown == waiting and _marked(client, table) == (waiting, len(waiting))
        play_first_move(table, users, state)
    play_out(table, users)
    assert _marked(client_for(player), table) == ([], 0)
