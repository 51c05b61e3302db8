"""A seat whose player or character goes away never leaves a staked table that cannot end.

Hardening finding (faults 2): a player left the campaign while her character sat at a staked
table; resign and abandon both answered 400 "Not every character is in this campaign", her
opponent's stake stayed held, and the campaign's backup answered 409 for ever (a game in
play). Every way a seat can lose its player or its character is driven here through the real
service: leaving, removal by the GM, the character deleted, the character moved out of the
campaign, the account deleted. Each resigns the seat first, while the character is still
there (docs/tavern.md, "Stakes"): at two seats the other wins the pot, as for any resignation;
with more the random bot plays on and the stake stays in the pot, for the characters still in
the campaign. Abandon works for the host and the GM whatever the seats hold.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from campaign.permissions import access_for, owned_access
from characters import services as character_services
from characters.models import Character
from gmtools import members
from gmtools.timeline import timeline_page
from minigames import services
from minigames.models import TavernSeat, TavernTable
from notifications.models import Notification, TurnWait
from tests.battles.conftest import build_battle, play_until
from tests.minigames.conftest import character, two_humans

pytestmark = pytest.mark.django_db

STAKE = 20


def _yen(c: Any) -> int:
    return int(Character.objects.get(pk=c.pk).yen)


def _staked(campaign, player, other_player, reimu, marisa, game: str = "spirit_war"):
    """Reimu (player) against Marisa (other_player), 20 yen each, started."""
    table = two_humans(
        game, player, other_player, campaign=campaign, stake=STAKE,
        host_character=reimu, guest_character=marisa,
    )  # fmt: skip
    assert table.stakes["held"] == {"0": STAKE, "1": STAKE}
    assert (_yen(reimu), _yen(marisa)) == (200 - STAKE, 150 - STAKE)
    return table


def _assert_marisa_left_and_reimu_won(table, reimu, marisa, *, why="left the campaign"):
    """The departure ended the two-seat game as a resignation: Reimu wins the whole pot."""
    table.refresh_from_db()
    assert table.status == "ended" and table.outcome["winners"] == [0]
    assert table.outcome["text"] == f"Marisa {why}."
    assert table.stakes["paid"] == {"0": 2 * STAKE}
    assert _yen(reimu) == 200 + STAKE


def _leave(campaign, user, gm):
    members.membership_leave(campaign=campaign, user=user)


def _removed(campaign, user, gm):
    members.membership_remove(campaign=campaign, user_id=user.pk, by=access_for(gm, campaign))


@pytest.mark.parametrize("goes", [_leave, _removed], ids=["leaves", "removed-by-the-gm"])
def test_a_player_leaving_resigns_her_staked_seat_first(
    campaign, gm, player, other_player, reimu, marisa, goes, api_for, client_for
):
    """Leaving (or being removed) resigns her seat while Marisa is still in the campaign: the
    game ends, Reimu wins the pot (20 + 20 yen), and the GM's backup no longer answers 409."""
    table = _staked(campaign, player, other_player, reimu, marisa)
    goes(campaign, other_player, gm)
    _assert_marisa_left_and_reimu_won(table, reimu, marisa)
    # Marisa left with her yen as the resignation left it (her stake is Reimu's).
    assert Character.objects.get(pk=marisa.pk).campaign_id is None
    assert _yen(marisa) == 150 - STAKE
    assert client_for(gm).get(f"/campaigns/{campaign.pk}/backup/").status_code == 200
    # Nothing is left for anyone to resign or abandon, and it says so in words (400, no 500).
    answer = api_for(player).post(f"/api/tavern/tables/{table.pk}/abandon/")
    assert answer.status_code == 400
    assert answer.json()["errors"] == {"status": ["This game is already over."]}


def test_a_deleted_character_resigns_her_seat_first(campaign, player, other_player, reimu, marisa):
    """Deleting Marisa (her owner, on her page) resigns her seat before she goes."""
    table = _staked(campaign, player, other_player, reimu, marisa)
    character_services.character_delete(
        character=marisa, by=owned_access(other_player, campaign, other_player.pk)
    )
    _assert_marisa_left_and_reimu_won(table, reimu, marisa)
    assert TavernSeat.objects.get(table=table, index=1).character_id is None


def test_a_character_moved_out_of_the_campaign_resigns_her_seat_first(
    campaign, player, other_player, reimu, marisa
):
    """Her owner takes Marisa out of the campaign (to no campaign) mid-game."""
    table = _staked(campaign, player, other_player, reimu, marisa)
    character_services.character_update(
        character=marisa,
        by=owned_access(other_player, campaign, other_player.pk),
        campaign=None,
    )
    _assert_marisa_left_and_reimu_won(table, reimu, marisa)
    assert _yen(marisa) == 150 - STAKE  # she took her sheet, and lost her stake


def test_a_deleted_account_resigns_her_seats_and_abandons_what_she_hosts(
    campaign, player, other_player, outsider, reimu, marisa
):
    """An administrator deletes Marisa's player: her seat resigns (Reimu wins the pot), and a
    staked table she hosts is abandoned (every stake back) before it goes with her."""
    table = _staked(campaign, player, other_player, reimu, marisa)
    from campaign.models import Membership

    Membership.objects.create(campaign=campaign, user=outsider, role="player")
    youmu = character(outsider, campaign, "Youmu", 100)
    sanae = character(player, campaign, "Sanae", 100)
    hosted = services.tavern_create(
        by=other_player, game="raigo", campaign=campaign, stake=STAKE,
        seats=[services.SeatSpec(kind="open")] * 3,
    )  # fmt: skip
    services.tavern_join(table_id=hosted.pk, by=player, index=0, character=sanae.pk)
    services.tavern_join(table_id=hosted.pk, by=outsider, index=1, character=youmu.pk)
    services.tavern_seat_set(table_id=hosted.pk, by=other_player, index=2, kind="bot",
                             strength="random")  # fmt: skip
    services.tavern_start(table_id=hosted.pk, by=other_player)
    assert (_yen(sanae), _yen(youmu)) == (100 - STAKE, 100 - STAKE)
    other_player.delete()
    _assert_marisa_left_and_reimu_won(table, reimu, marisa)
    assert not TavernTable.objects.filter(pk=hosted.pk).exists()
    assert (_yen(sanae), _yen(youmu)) == (100, 100)


def test_at_three_seats_the_bot_plays_on_and_only_those_still_there_share_the_pot(
    campaign, gm, player, other_player, outsider, reimu, marisa, client_for
):
    """With three seats the game goes on (the random bot plays Marisa's seat); however it
    ends, no yen goes to a character no longer in the campaign and none is made or lost: the
    two characters still there end with their own yen (200 and 100) plus Marisa's stake."""
    from campaign.models import Membership

    Membership.objects.create(campaign=campaign, user=outsider, role="player")
    youmu = character(outsider, campaign, "Youmu", 100)
    table = services.tavern_create(
        by=player, game="spirit_war", campaign=campaign, stake=STAKE,
        seats=[services.SeatSpec(kind="host", character=reimu.pk), services.SeatSpec(),
               services.SeatSpec()],
    )  # fmt: skip
    services.tavern_join(table_id=table.pk, by=other_player, index=1, character=marisa.pk)
    services.tavern_join(table_id=table.pk, by=outsider, index=2, character=youmu.pk)
    services.tavern_start(table_id=table.pk, by=player)
    members.membership_leave(campaign=campaign, user=other_player)
    seat = TavernSeat.objects.get(table=table, index=1)
    assert seat.resigned and seat.bot == "random"
    table.refresh_from_db()
    assert table.status == "active"
    _play_out_with_a_bot(table, {0: player, 2: outsider}, bot=1)
    table.refresh_from_db()
    assert table.status == "ended" and table.stakes["settled"]
    assert table.stakes["forfeited"] == {"1": STAKE}
    assert "1" not in table.stakes.get("paid", {})
    assert _yen(reimu) + _yen(youmu) == 200 + 100 + STAKE
    assert _yen(marisa) == 150 - STAKE
    # Said in words, on the table's page and in the campaign's timeline.
    page = client_for(player).get(f"/tavern/tables/{table.pk}/").content.decode()
    assert "Marisa left the campaign during the game and her stake stayed with the others." in page
    entries = timeline_page(access_for(gm, campaign), per_page=50).entries
    ended = next(e for e in entries if e.title == "Tavern game finished: Spirit War")
    assert "Marisa left the campaign during the game; the stakes stayed with the others." in (
        ended.body
    )


def _play_out_with_a_bot(table, users: dict[int, Any], *, bot: int) -> None:
    """Random legal moves for the humans, the bot's through its own service, to the end."""
    import random

    from minigames.engines.registry import get_engine

    engine = get_engine(table.game)
    rng = random.Random(4)
    for _ in range(5000):
        table.refresh_from_db()
        state = engine.from_json(table.state)
        if engine.is_terminal(state):
            return
        seat = rng.choice(list(engine.waiting_on(state)))
        if seat == bot:
            services.tavern_bot_play(table.pk, bot)
            continue
        services.tavern_action_apply(
            table_id=table.pk,
            by=users[seat],
            action=rng.choice(engine.legal_actions(state, seat)),
            expected_version=table.version,
        )
    raise AssertionError("the game did not end")


def test_abandon_always_works_for_the_host_and_the_gm(
    campaign, gm, player, other_player, reimu, marisa, api_for
):
    """Even when a character left behind the services' back (an update no hook saw), the GM's
    abandon ends the table: every stake that can go back goes back (Reimu's), and the one that
    cannot stays with those still in the campaign."""
    table = _staked(campaign, player, other_player, reimu, marisa)
    Character.objects.filter(pk=marisa.pk).update(campaign=None)  # no service, no hook
    answer = api_for(gm).post(f"/api/tavern/tables/{table.pk}/abandon/")
    assert answer.status_code == 200, answer.content
    table.refresh_from_db()
    assert table.status == "ended" and table.abandoned
    assert table.stakes["forfeited"] == {"1": STAKE}
    assert _yen(reimu) == 200 + STAKE


def test_in_setup_her_seat_opens_again(campaign, player, other_player, reimu, marisa):
    """Before the start nothing is held: the leaver's seat is open again for someone else, and
    the table can still start."""
    table = two_humans(
        "raigo", player, other_player, campaign=campaign, stake=STAKE,
        host_character=reimu, guest_character=marisa, start=False,
    )  # fmt: skip
    members.membership_leave(campaign=campaign, user=other_player)
    seat = TavernSeat.objects.get(table=table, index=1)
    assert seat.is_open and seat.character_id is None
    assert TavernTable.objects.get(pk=table.pk).summary == "RAIGO: waiting for players"


# --------------------------------------------------------------------------- battles


def test_a_battle_hands_a_leaving_players_combatant_to_the_gm(
    campaign, gm, player, other_player, django_capture_on_commit_callbacks
):
    """A battle never waits on someone who can no longer act: when the player whose turn it is
    leaves, her open turn ends, she is told of no later turn, the combatants index names the
    GMs, and the GM plays the combatant on."""
    from battles import services as battle_services
    from battles.models import Combatant
    from tests.battles.conftest import BattleSetup

    cirno = character(player, campaign, "Cirno", 10)
    daiyousei = character(other_player, campaign, "Daiyousei", 10)
    battle = build_battle(campaign, gm, [cirno, daiyousei])
    setup = BattleSetup(battle, f"pc{cirno.pk}", f"pc{daiyousei.pk}", ["npc1", "npc2"])
    battle_services.battle_action_apply(
        battle_id=battle.pk, actor=gm, action={"type": "start"}, expected_version=battle.version
    )
    play_until(setup, gm, setup.other_pc)
    with django_capture_on_commit_callbacks(execute=True):
        play_until(setup, gm, setup.pc)
    assert TurnWait.objects.filter(user=player, ended_at__isnull=True).count() == 1
    told = Notification.objects.filter(recipient=player, event="your_turn").count()
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        members.membership_leave(campaign=campaign, user=player)
    assert not TurnWait.objects.filter(user=player, ended_at__isnull=True).exists()
    assert Combatant.objects.get(battle=battle, engine_id=setup.pc).controller_id is None
    battle = setup.refresh()
    with django_capture_on_commit_callbacks(execute=True):
        battle_services.battle_action_apply(
            battle_id=battle.pk,
            actor=gm,
            action={"type": "end_turn", "combatant": setup.pc},
            expected_version=battle.version,
        )
        play_until(setup, gm, setup.pc)
    assert Notification.objects.filter(recipient=player, event="your_turn").count() == told
    assert not TurnWait.objects.filter(user=player, ended_at__isnull=True).exists()
