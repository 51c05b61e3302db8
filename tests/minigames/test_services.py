"""The tavern's services (issue 12, "The tavern"): tables in a campaign's tavern or open,
the host's seats and house rules, start, resign, rematch, abandon, and the stakes (held at the
start, never more than she has, paid to the winner through the campaign's yen service, returned
on abandon, on the timeline, switchable off by the GM)."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404

from campaign.permissions import access_for
from characters.models import Character
from gmtools.timeline import timeline_page
from minigames import services
from minigames.engines.registry import get_engine
from minigames.models import TavernSeat, TavernTable
from tables.registry import game_for
from tables.services import table_replay

from .conftest import one_open_seat, play_out, play_to_an_end, three_humans_at_war, two_humans

pytestmark = pytest.mark.django_db


def yen(c: Character) -> int:
    return Character.objects.get(pk=c.pk).yen


def test_open_table_any_signed_in_user_joins(player, outsider):
    """Issue 12: open tables are for any signed-in user with the link."""
    table = two_humans("raigo", player, outsider)
    assert table.status == "active"
    assert [s.user_id for s in table.seats.order_by("index")] == [player.pk, outsider.pk]
    assert table.state and table.initial and table.version == 2  # a join, then the start


def test_campaign_table_only_members(campaign, player, outsider):
    """Issue 12: a campaign's tavern tables are for its members (outsiders: 404)."""
    table = one_open_seat(player, "spirit_war", campaign)
    with pytest.raises(Http404):
        services.tavern_join(table_id=table.pk, by=outsider, index=1)
    with pytest.raises(Http404):
        services.tavern_create(
            by=outsider, game="raigo", campaign=campaign, seats=[services.SeatSpec("host")] * 2
        )


def test_house_rules_are_checked_by_the_engine(player):
    """Issue 12: the host picks the game's options (every house rule, with its default)."""
    with pytest.raises(ValidationError) as exc:
        services.tavern_create(
            by=player,
            game="raigo",
            campaign=None,
            seats=[
                services.SeatSpec(kind="host"),
                services.SeatSpec(kind="bot", strength="random"),
            ],
            options={"destroy_threshold": 999},
        )
    assert "options" in exc.value.message_dict
    with pytest.raises(ValidationError):
        services.tavern_create(
            by=player, game="raigo", campaign=None, seats=[services.SeatSpec(kind="host")],
            options={"no_such_rule": 1},
        )  # fmt: skip
    table = services.tavern_create(
        by=player,
        game="raigo",
        campaign=None,
        seats=[services.SeatSpec(kind="host"), services.SeatSpec(kind="bot", strength="random")],
        options={"destroy_threshold": 12},
    )
    services.tavern_start(table_id=table.pk, by=player)
    table.refresh_from_db()
    assert table.state["options"]["destroy_threshold"] == 12


def test_seat_counts_follow_the_game(player):
    """RSO and DBS seat two; Spirit War 2-6; RAIGO 2-4 (issue 12, 13)."""
    for game, n in (("rso", 3), ("dbs", 1), ("raigo", 5), ("spirit_war", 7)):
        with pytest.raises(ValidationError):
            services.tavern_create(
                by=player, game=game, campaign=None, seats=[services.SeatSpec()] * n
            )


def test_only_the_host_sets_seats_and_starts(player, other_player):
    table = one_open_seat(player, "raigo")  # fmt: skip
    with pytest.raises(PermissionDenied):
        services.tavern_seat_set(table_id=table.pk, by=other_player, index=1, kind="bot",
                                 strength="search")  # fmt: skip
    with pytest.raises(ValidationError):
        services.tavern_start(table_id=table.pk, by=player)  # an open seat
    services.tavern_seat_set(table_id=table.pk, by=player, index=1, kind="bot", strength="search")
    with pytest.raises(PermissionDenied):
        services.tavern_start(table_id=table.pk, by=other_player)
    services.tavern_start(table_id=table.pk, by=player)
    with pytest.raises(ValidationError):
        services.tavern_start(table_id=table.pk, by=player)


def test_stakes_held_paid_and_on_the_timeline(campaign, gm, player, other_player, reimu, marisa):
    """Issue 12: each character's stake is held when the game starts; the pot goes to the
    winner when it ends; both show on the timeline."""
    table = two_humans(
        "raigo", player, other_player, campaign=campaign, stake=50,
        host_character=reimu, guest_character=marisa,
    )  # fmt: skip
    assert (yen(reimu), yen(marisa)) == (150, 100)
    assert table.stakes["held"] == {"0": 50, "1": 50}
    state = play_out(table, {0: player, 1: other_player})
    table.refresh_from_db()
    winners = [i for i, r in enumerate(get_engine("raigo").returns(state)) if r > 0]
    if len(winners) == 1:
        expected = {0: (250, 100), 1: (150, 200)}[winners[0]]
        assert (yen(reimu), yen(marisa)) == expected
        assert table.stakes["paid"] == {str(winners[0]): 100}
    assert yen(reimu) + yen(marisa) == 350  # the pot moved, nothing made or lost
    assert table.ended_at is not None and table.status == "ended"
    titles = [e.title for e in timeline_page(access_for(gm, campaign), per_page=50).entries]
    assert "Tavern stakes held: 50 yen each at RAIGO" in titles
    assert "Tavern game finished: RAIGO" in titles
    # The log replays to the stored state (the table core's promise).
    assert get_engine("raigo").to_json(table_replay(game_for("raigo"), table)) == table.state


def test_the_winner_gains_what_the_loser_loses(campaign, player, other_player, reimu, marisa):
    """Issue 12: the pot (both stakes, held at the start) goes to the one winner at the end:
    the winner's character gains exactly the stake the loser's loses. (The table's end pays
    the pot whatever the game: Spirit War, the shorter whole game.)"""
    table = two_humans("spirit_war", player, other_player, campaign=campaign, stake=50,
                       host_character=reimu, guest_character=marisa)  # fmt: skip
    state = play_to_an_end(table, {0: player, 1: other_player}, winners=1)
    (winner,) = [s for s, r in enumerate(get_engine("spirit_war").returns(state)) if r > 0]
    table.refresh_from_db()
    assert table.stakes["held"] == {"0": 50, "1": 50}
    assert table.stakes["paid"] == {str(winner): 100} and "returned" not in table.stakes
    assert (yen(reimu), yen(marisa)) == {0: (250, 100), 1: (150, 200)}[winner]


def test_a_game_won_by_nobody_returns_every_stake(campaign, player, other_player, reimu, marisa):
    """Issue 12: a finished game without a winner (RAIGO's end can leave every side out)
    returns each character's stake, and pays nobody."""
    table = two_humans("raigo", player, other_player, campaign=campaign, stake=50,
                       host_character=reimu, guest_character=marisa)  # fmt: skip
    assert (yen(reimu), yen(marisa)) == (150, 100)
    play_to_an_end(table, {0: player, 1: other_player}, winners=0)
    table.refresh_from_db()
    assert table.status == "ended"
    assert table.stakes["returned"] is True and "paid" not in table.stakes
    assert (yen(reimu), yen(marisa)) == (200, 150)


def test_never_more_than_she_has(campaign, player, other_player, reimu, marisa):
    """Issue 12: a stake is never more than the character has: a character with less cannot
    sit, and if her yen fell below the stake before the start, the start is refused and
    nothing is held."""
    table = two_humans("spirit_war", player, other_player, campaign=campaign, stake=180,
                       host_character=reimu, start=False)  # fmt: skip
    services.tavern_leave(table_id=table.pk, by=other_player)
    with pytest.raises(ValidationError) as exc:
        services.tavern_join(table_id=table.pk, by=other_player, index=1, character=marisa.pk)
    services.tavern_join(table_id=table.pk, by=other_player, index=1)
    assert "Marisa has 150 yen; the stake is 180 yen." in exc.value.messages
    # Reimu spends yen after sitting down: the start is refused, nobody pays anything.
    from characters.party import yen_move

    yen_move(campaign=campaign, changes={reimu.pk: -100})
    with pytest.raises(ValidationError) as exc:
        services.tavern_start(table_id=table.pk, by=player)
    assert "Reimu has 100 yen; the stake is 180 yen." in exc.value.messages
    assert (yen(reimu), yen(marisa)) == (100, 150)
    assert TavernTable.objects.get(pk=table.pk).status == "setup"


def test_resign_two_seats_ends_and_pays(campaign, player, other_player, reimu, marisa):
    """Issue 12: resign; at a two-player table the other seat wins (docs/tavern.md)."""
    table = two_humans("spirit_war", player, other_player, campaign=campaign, stake=40,
                       host_character=reimu, guest_character=marisa)  # fmt: skip
    services.tavern_resign(table_id=table.pk, by=other_player)
    table.refresh_from_db()
    assert table.status == "ended" and table.outcome["winners"] == [0]
    assert (yen(reimu), yen(marisa)) == (240, 110)
    with pytest.raises(ValidationError):
        services.tavern_resign(table_id=table.pk, by=player)


def test_resign_at_three_seats_hands_the_seat_to_the_random_bot(
    player, other_player, outsider, django_capture_on_commit_callbacks
):
    """Issue 12: a resigned seat is played by the random bot where the game goes on."""
    table = three_humans_at_war(player, other_player, outsider)
    with django_capture_on_commit_callbacks(execute=True):
        services.tavern_resign(table_id=table.pk, by=outsider)
    seat = TavernSeat.objects.get(table=table, index=2)
    assert seat.resigned and seat.bot == "random"
    assert TavernTable.objects.get(pk=table.pk).status == "active"


def test_abandon_returns_the_stakes(campaign, gm, player, other_player, reimu, marisa):
    """Issue 12: an abandoned table returns the stakes (and says so on the timeline); the
    campaign's GM may abandon a player's table."""
    table = two_humans("raigo", player, other_player, campaign=campaign, stake=30,
                       host_character=reimu, guest_character=marisa)  # fmt: skip
    assert (yen(reimu), yen(marisa)) == (170, 120)
    with pytest.raises(PermissionDenied):
        services.tavern_abandon(table_id=table.pk, by=other_player)
    services.tavern_abandon(table_id=table.pk, by=gm)
    assert (yen(reimu), yen(marisa)) == (200, 150)
    table.refresh_from_db()
    assert table.abandoned and table.stakes["returned"]
    entries = timeline_page(access_for(player, campaign), per_page=50).entries
    ended = next(e for e in entries if e.title == "Tavern game abandoned: RAIGO")
    assert ended.body == "The stakes were returned."  # the title says it was abandoned


def test_gm_turns_stakes_off(campaign, player, other_player, reimu):
    """Issue 12: the GM can turn stakes off for the campaign (the tavern_stakes house rule)."""
    campaign.house_rules = {"tavern_stakes": 0}
    campaign.save()
    with pytest.raises(ValidationError) as exc:
        two_humans("raigo", player, other_player, campaign=campaign, stake=10,
                   host_character=reimu, start=False)  # fmt: skip
    assert "The game master has turned stakes off in this campaign." in exc.value.messages
    # Practice tables never play for yen, and open tables never do.
    with pytest.raises(ValidationError):
        services.tavern_create(by=player, game="raigo", campaign=None,
                               seats=[services.SeatSpec("host")] * 2, stake=5)  # fmt: skip


def test_stakes_switched_off_after_seating_play_for_nothing_and_the_page_says_so_first(
    campaign, player, other_player, reimu, marisa, client_for
):
    """The start was refused, and the table could never start (its stake cannot be changed):
    now its page says, before the start, that it will play for nothing, and it does."""
    table = two_humans("raigo", player, other_player, campaign=campaign, stake=10,
                       host_character=reimu, guest_character=marisa, start=False)  # fmt: skip
    page = client_for(player).get(f"/tavern/tables/{table.pk}/").content.decode()
    assert "will play for nothing" not in page
    purses = yen(reimu), yen(marisa)
    campaign.house_rules = {"tavern_stakes": 0}
    campaign.save()
    page = client_for(other_player).get(f"/tavern/tables/{table.pk}/").content.decode()
    assert (
        "Stake: 10 yen per character, but the game master has turned stakes off in this "
        "campaign: this table will play for nothing."
    ) in page
    started = services.tavern_start(table_id=table.pk, by=player)
    started.refresh_from_db()
    assert started.status == "active" and started.stake == 0 and started.stakes == {}
    assert (yen(reimu), yen(marisa)) == purses  # nothing held
    page = client_for(player).get(f"/tavern/tables/{table.pk}/").content.decode()
    assert "Stake:" not in page


def test_rematch_same_seats(campaign, player, other_player, reimu, marisa):
    """Issue 12: rematch with the same seats (and characters, options and stake)."""
    table = two_humans("raigo", player, other_player, campaign=campaign, stake=10,
                       host_character=reimu, guest_character=marisa,
                       options={"destroy_threshold": 15})  # fmt: skip
    with pytest.raises(ValidationError):
        services.tavern_rematch(table_id=table.pk, by=player)  # not finished yet
    services.tavern_resign(table_id=table.pk, by=player)
    again, created = services.tavern_rematch(table_id=table.pk, by=other_player)
    assert created
    seats = list(again.seats.order_by("index"))
    assert [(s.user_id, s.character_id) for s in seats] == [
        (player.pk, reimu.pk),
        (other_player.pk, marisa.pk),
    ]
    assert again.rematch_of_id == table.pk and again.options == {"destroy_threshold": 15}
    assert again.stake == 10 and again.status == "setup" and again.host_id == other_player.pk


def test_characters_only_the_players_own_in_the_campaign(campaign, player, other_player, marisa):
    """Issue 12: a seat plays as one of *her* characters, in a campaign tavern only."""
    table = two_humans("raigo", player, other_player, campaign=campaign, start=False)
    services.tavern_leave(table_id=table.pk, by=other_player)
    with pytest.raises(ValidationError):
        services.tavern_join(table_id=table.pk, by=player, index=1, character=marisa.pk)
    open_table = services.tavern_create(
        by=other_player, game="raigo", campaign=None, seats=[services.SeatSpec()] * 2
    )
    with pytest.raises(ValidationError):
        services.tavern_join(table_id=open_table.pk, by=other_player, index=0, character=marisa.pk)


def test_practice_advisor_rules(player):
    """Issue 12: the advisor is for practice tables (no stakes), off by default."""
    with pytest.raises(ValidationError):
        services.tavern_create(by=player, game="raigo", campaign=None,
                               seats=[services.SeatSpec("host")] * 2, advisor=True)  # fmt: skip
    table = services.tavern_create(
        by=player, game="raigo", campaign=None, seats=[services.SeatSpec()] * 2
    )
    assert table.advisor is False and table.practice is False


def test_dashboard_panel_lists_open_tables_live(campaign, gm, player, other_player, client_for):
    """Issue 12: the GM dashboard's "Open tavern tables" panel lists the campaign's tables
    live: its version (the dashboard's cheap ETag) moves on with every move, and a finished
    table leaves the panel."""
    client = client_for(gm)
    url = f"/campaigns/{campaign.pk}/dashboard/live/"
    empty = client.get(url)
    table = two_humans("raigo", player, other_player, campaign=campaign, stake=0)
    live = client.get(url, HTTP_IF_NONE_MATCH=empty["ETag"])
    assert live.status_code == 200 and live["ETag"] != empty["ETag"]
    page = client.get(f"/campaigns/{campaign.pk}/dashboard/").content.decode()
    assert "Open tavern tables" in page and f"/tavern/tables/{table.pk}/" in page
    services.tavern_resign(table_id=table.pk, by=player)
    page = client.get(f"/campaigns/{campaign.pk}/dashboard/").content.decode()
    assert f"/tavern/tables/{table.pk}/" not in page


def test_a_seat_is_offered_each_preset_once_then_her_own_decks(player):
    """The new-table form and "Sit here" list the presets, then the user's own legal decks; the
    decks app's seat_decks lists the presets too, which were offered twice before."""
    from decks.models import Deck
    from minigames.engines.dbs import preset_decks

    presets = [(f"preset:{d['key']}", d["name"]) for d in preset_decks()]
    deck = Deck.objects.create(
        owner=player, game="dbs", name="Mine", cards=preset_decks()[0]["cards"]
    )
    assert services.deck_choices(player, "dbs") == [*presets, (f"deck:{deck.pk}", "Mine")]
    assert services.deck_choices(None, "dbs") == presets


def test_seats_that_would_read_alike_are_told_apart_by_their_number(player):
    """Two random bots were both "Random bot", so a finished game read "Random bot ran out
    of Yang balls: Random bot wins". Seats whose names are alike carry their number, at
    the table, in the engine's texts and in the result; a name used once stays as it is."""
    from minigames.selectors import table_info

    table = services.tavern_create(
        by=player, game="raigo", campaign=None,
        seats=[services.SeatSpec(kind="bot", strength="random"), services.SeatSpec(kind="host"),
               services.SeatSpec(kind="bot", strength="random")],
    )  # fmt: skip
    shown = player.shown_name
    names = [s["name"] for s in table_info(table, player)["seats"]]
    assert names == ["Random bot (seat 1)", shown, "Random bot (seat 3)"]
    services.tavern_start(table_id=table.pk, by=player)
    table.refresh_from_db()
    assert table.state["names"] == names
    assert [s["name"] for s in table_info(table, player)["seats"]] == names


def test_a_player_who_resigns_is_named_once(player, other_player):
    """The result says "Marisa resigned.", not "Marisa (resigned) resigned."."""
    table = two_humans("spirit_war", player, other_player)
    services.tavern_resign(table_id=table.pk, by=other_player)
    table.refresh_from_db()
    assert table.outcome["text"] == f"{other_player.shown_name} resigned."
    assert table.summary == f"{other_player.shown_name} resigned."


def test_lists_say_a_table_s_status_once(
    campaign, gm, player, other_player, reimu, client_for, api_for
):
    """The GM dashboard read "RAIGO for 20 yen — Waiting for players. RAIGO: waiting for
    players" and the tavern's Finished list "Spirit War: Abandoned. [abandoned]"."""
    waiting = services.tavern_create(
        by=player,
        game="raigo",
        campaign=campaign,
        seats=[services.SeatSpec(kind="host", character=reimu.pk), services.SeatSpec()],
        stake=20,
    )
    abandoned = two_humans("spirit_war", player, other_player, campaign=campaign)
    services.tavern_abandon(table_id=abandoned.pk, by=player)
    api = api_for(gm).get(f"/api/campaigns/{campaign.pk}/dashboard/").json()
    items = [i for p in api["slots"]["tavern_tables"] for i in p["items"]]
    (item,) = [i for i in items if i["id"] == waiting.pk]
    said = f"{item['title']} — {item['detail']}"
    assert said == "RAIGO for 20 yen — Waiting for players."
    html = client_for(player).get(f"/campaigns/{campaign.pk}/tavern/").content.decode()
    finished = html[html.index('id="tables-finished"') :]
    finished = finished[: finished.index("</ul>")]
    assert f"/tavern/tables/{abandoned.pk}/" in finished
    assert finished.lower().count("abandoned") == 1


def test_the_guest_waits_for_the_host_by_the_name_her_seat_shows(
    campaign, player, other_player, reimu, client_for
):
    """A host who plays a character is named as the seats name her: the guest waited for
    "Reimu" (the user) while the seats said "Reimu Hakurei" (her character)."""
    reimu.name = "Reimu Hakurei"
    reimu.save(update_fields=["name"])
    table = services.tavern_create(
        by=player,
        game="raigo",
        campaign=campaign,
        seats=[services.SeatSpec(kind="host", character=reimu.pk), services.SeatSpec()],
    )
    services.tavern_join(table_id=table.pk, by=other_player, index=1)
    page = client_for(other_player).get(f"/tavern/tables/{table.pk}/").content.decode()
    assert "waiting for the host, Reimu Hakurei, to start the game." in page


def test_a_full_table_reads_ready_to_start_and_the_host_sees_it_is_hers(
    campaign, gm, player, other_player, client_for, api_for
):
    """A table whose seats are all taken waits only for its Start: it was listed under "Open:
    waiting for players" as "RAIGO: waiting for players"."""
    table = one_open_seat(player, "raigo", campaign)

    def open_row(user):
        html = client_for(user).get(f"/campaigns/{campaign.pk}/tavern/").content.decode()
        rows = html[html.index('id="tables-open"') :]
        rows = rows[: rows.index("</ul>")]
        (row,) = [r for r in rows.split("<li") if f"/tavern/tables/{table.pk}/" in r]
        return row

    def dashboard_detail():
        api = api_for(gm).get(f"/api/campaigns/{campaign.pk}/dashboard/").json()
        items = [i for p in api["slots"]["tavern_tables"] for i in p["items"]]
        return next(i["detail"] for i in items if i["id"] == table.pk)

    assert "RAIGO: waiting for players" in open_row(player)
    assert "yours to start" not in open_row(player)
    assert dashboard_detail() == "Waiting for players."

    services.tavern_join(table_id=table.pk, by=other_player, index=1)
    host_row, guest_row = open_row(player), open_row(other_player)
    assert "RAIGO: ready to start" in host_row and "waiting for players" not in host_row
    assert "yours to start" in host_row and "yours to start" not in guest_row
    assert dashboard_detail() == "Ready to start."
    page = client_for(player).get(f"/tavern/tables/{table.pk}/").content.decode()
    assert "Every seat is taken: it is up to you to start the game." in page
    guest_page = client_for(other_player).get(f"/tavern/tables/{table.pk}/").content.decode()
    assert f"Every seat is taken: waiting for the host, {player.shown_name}, to start" in guest_page
    state = api_for(other_player).get(f"/api/tavern/tables/{table.pk}/state/").json()
    assert state["summary"] == "RAIGO: ready to start"

    services.tavern_leave(table_id=table.pk, by=other_player)
    assert "RAIGO: waiting for players" in open_row(player)
    assert dashboard_detail() == "Waiting for players."
    services.tavern_seat_set(table_id=table.pk, by=player, index=1, kind="bot", strength="random")
    assert "RAIGO: ready to start" in open_row(player)
