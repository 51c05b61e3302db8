"""The tavern's API and pages (issue 12: "API for everything the pages do, in the OpenAPI
schema"; "Moves apply through the table core (lock, version, 409, per-seat views, log)";
"Spectators see only public information"; "When a human seat must act, a 'your turn'
notification goes out on commit"), and the secrets promise of BRIEF.md: no payload a seat
receives (page HTML, state API, poll, log API, notifications) holds anything from
``engine.hidden_from(state, seat)`` or the seed."""

from __future__ import annotations

import json
import random
import re

import pytest

from minigames import services
from minigames.engines.registry import get_engine
from minigames.models import TavernAction, TavernTable
from notifications.models import Notification
from tests.factories import UserFactory

from .conftest import one_open_seat, two_humans

pytestmark = pytest.mark.django_db


def test_create_join_start_play_through_the_api(api_for, player, other_player):
    """Everything the pages do, through the API: create, join, start, state, act, log."""
    host, guest = api_for(player), api_for(other_player)
    games = host.get("/api/tavern/games/").json()
    raigo = next(g for g in games if g["slug"] == "raigo")
    assert raigo["house_rules"][0]["key"] == "destroy_threshold"
    assert raigo["house_rules"][0]["default"] == 20  # RULINGS RAIGO: threshold X, default 20
    r = host.post(
        "/api/tavern/tables/",
        {"game": "raigo", "seats": [{"kind": "host"}, {"kind": "open"}]},
        format="json",
    )
    assert r.status_code == 201, r.content
    pk = r.json()["id"]
    assert guest.post(f"/api/tavern/tables/{pk}/start/").status_code == 403
    r = guest.post(f"/api/tavern/tables/{pk}/join/", {"seat": 1}, format="json")
    assert r.status_code == 200 and r.json()["you"] == 1
    assert host.post(f"/api/tavern/tables/{pk}/start/").status_code == 200
    state = host.get(f"/api/tavern/tables/{pk}/state/").json()
    assert state["game"] == "raigo" and state["seat"] == 0
    assert state["table"]["seats"][1]["name"] == other_player.shown_name
    assert host.get(f"/api/tavern/tables/{pk}/state/?since={state['version']}").status_code == 204
    mover = host if 0 in state["waiting_on"] else guest
    mine = mover.get(f"/api/tavern/tables/{pk}/state/").json()
    move = mine["moves"][0]
    assert move["label"] and "_" not in move["label"]  # words, not identifiers
    r = mover.post(
        f"/api/tavern/tables/{pk}/actions/",
        {"action": move["action"], "expected_version": mine["version"]},
        format="json",
    )
    assert r.status_code == 201, r.content
    assert r.json()["version"] == mine["version"] + 1
    log = host.get(f"/api/tavern/tables/{pk}/log/").json()
    assert log["results"][-1]["events"] and all(e["text"] for e in log["results"][-1]["events"])
    # The stale move (the same version again) is a 409 and changes nothing.
    again = mover.post(
        f"/api/tavern/tables/{pk}/actions/",
        {"action": move["action"], "expected_version": mine["version"]},
        format="json",
    )
    assert again.status_code == 409
    assert again.json()["version"] == mine["version"] + 1
    assert TavernTable.objects.get(pk=pk).version == mine["version"] + 1


def test_a_poll_ahead_of_the_table_gets_the_whole_payload(api_for, player, other_player):
    """A client holding a version the server no longer has (moves lost in a crash of
    PostgreSQL) gets the payload, as a first load would; only the table's own version is 204."""
    table = two_humans("raigo", player, other_player)
    api = api_for(player)
    url = f"/api/tavern/tables/{table.pk}/state/"
    first = api.get(url)
    assert first.status_code == 200 and first.json()["version"] == table.version
    for ahead in (table.version + 1, 1_000_000):
        response = api.get(f"{url}?since={ahead}")
        assert response.status_code == 200
        assert response.json() == first.json()
    assert api.get(f"{url}?since={table.version}").status_code == 204


def test_a_rematch_asked_twice_is_the_same_table(
    api_for, client_for, campaign, player, other_player, reimu, marisa
):
    """A finished table has one rematch: the second player to ask gets the first one's table
    (200), the finished table links to it, and the page's button leads there."""
    table = two_humans("raigo", player, other_player, campaign=campaign, stake=10,
                       host_character=reimu, guest_character=marisa)  # fmt: skip
    services.tavern_resign(table_id=table.pk, by=player)
    first = api_for(other_player).post(f"/api/tavern/tables/{table.pk}/rematch/")
    assert first.status_code == 201
    rematch = first.json()["id"]
    again = api_for(player).post(f"/api/tavern/tables/{table.pk}/rematch/")
    assert again.status_code == 200
    assert again.json()["id"] == rematch
    assert list(TavernTable.objects.filter(rematch_of=table).values_list("pk", flat=True)) == [
        rematch
    ]
    assert api_for(player).get(f"/api/tavern/tables/{table.pk}/").json()["rematch"] == rematch
    page = client_for(player).get(f"/tavern/tables/{table.pk}/").content.decode()
    assert f'href="/tavern/tables/{rematch}/"' in page and 'id="tavern-rematch"' not in page
    sent = client_for(player).post(f"/tavern/tables/{table.pk}/rematch/")
    assert sent.status_code == 302 and sent["Location"] == f"/tavern/tables/{rematch}/"
    assert TavernTable.objects.filter(rematch_of=table).count() == 1


def test_the_table_list_pages_and_refuses_a_bad_limit(api_for, player):
    """Like every list (docs/api.md): paged with ``limit`` (at most 200) and ``offset``,
    newest first, and a limit or offset that is not a whole number is a 400 naming it."""
    made = [one_open_seat(player, "raigo").pk for _ in range(5)]
    api = api_for(player)
    first = api.get("/api/tavern/tables/?limit=2").json()
    assert first["count"] == 5 and [t["id"] for t in first["results"]] == made[::-1][:2]
    seen = [t["id"] for t in first["results"]]
    page = first
    while page["next"]:
        page = api.get(page["next"]).json()
        seen += [t["id"] for t in page["results"]]
    assert seen == made[::-1]
    assert len(api.get("/api/tavern/tables/?limit=1000").json()["results"]) == 5  # bounded, kept
    for query, field in (("limit=abc", "limit"), ("limit=0", "limit"), ("offset=x", "offset")):
        refused = api.get(f"/api/tavern/tables/?{query}")
        assert refused.status_code == 400
        assert list(refused.json()["errors"]) == [field]
    assert api.options("/api/tavern/tables/").status_code == 200


def test_someone_without_a_seat_is_told_so_before_the_games_state(
    api_for, campaign, player, other_player, outsider
):
    """At an open table any signed-in user may look on; one without a seat who asks to leave,
    resign or rematch is told she has no seat (403), whatever the game's state, never what
    a player would be told. At a campaign's table an outsider does not see it (404)."""
    started = two_humans("raigo", player, other_player)
    lobby = two_humans("raigo", player, other_player, start=False)
    stranger = api_for(outsider)
    for table, op in ((started, "leave"), (started, "rematch"), (lobby, "resign")):
        refused = stranger.post(f"/api/tavern/tables/{table.pk}/{op}/")
        assert refused.status_code == 403, (op, refused.content)
        assert refused.json()["detail"].startswith("You have no seat at this table."), op
    # the players themselves still hear about the game's state
    seated = api_for(other_player)
    assert seated.post(f"/api/tavern/tables/{started.pk}/leave/").json()["errors"]["seat"] == [
        "The game has started: resign instead."
    ]
    assert seated.post(f"/api/tavern/tables/{started.pk}/rematch/").status_code == 400
    private = two_humans("raigo", player, other_player, campaign=campaign)
    for op in ("leave", "rematch", "resign"):
        assert stranger.post(f"/api/tavern/tables/{private.pk}/{op}/").status_code == 404
    # a move at a table not in play: the same order (404, 403, then the game's state)
    move = {"action": {"type": "end_fetch"}, "expected_version": 0}
    url = f"/api/tavern/tables/{lobby.pk}/actions/"
    refused = stranger.post(url, move, format="json")
    assert (
        refused.status_code == 403 and refused.json()["detail"] == "You have no seat at this table."
    )
    refused = seated.post(url, move, format="json")
    assert refused.json()["errors"]["action"] == ["This game is not in progress."]
    lobby_private = two_humans("raigo", player, other_player, campaign=campaign, start=False)
    url = f"/api/tavern/tables/{lobby_private.pk}/actions/"
    assert stranger.post(url, move, format="json").status_code == 404


def test_refused_move_says_why_and_spectators_cannot_act(api_for, player, other_player, outsider):
    table = two_humans("spirit_war", player, other_player)
    engine = get_engine("spirit_war")
    state = engine.from_json(table.state)
    waiting = engine.waiting_on(state)[0]
    idle = {0: other_player, 1: player}[waiting]
    r = api_for(idle).post(
        f"/api/tavern/tables/{table.pk}/actions/",
        {"action": {"type": "draw"}, "expected_version": table.version},
        format="json",
    )
    assert r.status_code == 400
    assert r.json()["errors"]["action"][0].endswith(".")
    r = api_for(outsider).post(
        f"/api/tavern/tables/{table.pk}/actions/",
        {"action": {"type": "draw"}, "expected_version": table.version},
        format="json",
    )
    assert r.status_code == 403  # an open table: outsiders watch, they do not play
    # in the same words as at a table not in play (docs/tavern.md, "Who may do what")
    assert r.json()["detail"] == "You have no seat at this table."
    spectator = api_for(outsider).get(f"/api/tavern/tables/{table.pk}/state/").json()
    assert spectator["seat"] is None and spectator["moves"] == []


def test_a_huge_unknown_key_is_refused(api_for, player, other_player):
    """BRIEF: a 4 MB unknown-key action to a tavern table gets 400/413, nothing stored."""
    table = two_humans("raigo", player, other_player)
    client = api_for(player)
    url = f"/api/tavern/tables/{table.pk}/actions/"
    huge = {"action": {"type": "end_fetch", "note": "x" * (4 * 1024 * 1024)}, "expected_version": 2}
    r = client.post(url, huge, format="json")
    assert r.status_code == 413
    small = {"action": {"type": "end_fetch", "note": "hello"}, "expected_version": table.version}
    r = client.post(url, small, format="json")
    assert r.status_code == 400
    assert "note" in r.json()["errors"]["action"][0]
    assert not table.actions.exists()


def test_your_turn_on_commit(player, other_player, django_capture_on_commit_callbacks):
    """Issue 12: when a human seat must act, "your turn" goes out on commit (in-app)."""
    with django_capture_on_commit_callbacks(execute=True):
        table = two_humans("raigo", player, other_player)
    engine = get_engine("raigo")
    first = engine.waiting_on(engine.from_json(table.state))[0]
    user = {0: player, 1: other_player}[first]
    note = Notification.objects.get(recipient=user, event="your_turn")
    assert note.url == f"/tavern/tables/{table.pk}/"


def test_openapi_lists_the_tavern(api_for, player):
    schema = api_for(player).get("/api/schema/?format=json")
    paths = json.loads(schema.content)["paths"]
    for suffix in ("", "join/", "start/", "resign/", "rematch/", "abandon/", "state/",
                   "actions/", "log/", "advice/"):  # fmt: skip
        assert f"/api/tavern/tables/{{id}}/{suffix}" in paths, suffix
    assert "/api/tavern/tables/" in paths and "/api/tavern/games/" in paths


def test_pages(client_for, campaign, player, other_player, outsider):
    """The tavern page lists tables (open, in play, finished) with the new-table form showing
    every house rule with its default; the table page is the shell for table.js."""
    page = client_for(player).get("/tavern/")
    html = page.content.decode()
    assert "New table" in html and "Destroy threshold (X)" in html and "(default: 20)" in html
    assert "Choosing Support cards" in html  # Spirit War's house rules too
    assert "When does an empty deck lose?" in html and "Who goes first" in html  # RSO, DBS
    assert "Random bot" in html and "Search bot" in html and "Heuristic bot" in html
    r = client_for(player).post(
        f"/campaigns/{campaign.pk}/tavern/",
        {
            "game": "raigo",
            "seat-0": "host",
            "seat-1": "bot:random",
            "opt-raigo-destroy_threshold": "25",
        },
    )
    assert r.status_code == 302
    table = TavernTable.objects.get(campaign=campaign)
    assert table.options == {"destroy_threshold": 25}
    html = client_for(player).get(f"/tavern/tables/{table.pk}/").content.decode()
    assert "js/tavern/table.js" in html and "Random bot" in html
    assert client_for(outsider).get(f"/tavern/tables/{table.pk}/").status_code == 404
    assert client_for(outsider).get(f"/campaigns/{campaign.pk}/tavern/").status_code == 404


# --------------------------------------------------------------------------- secrets


def contains_id(text: str, item: str) -> bool:
    """Whether ``item`` appears as a whole id ("raigo-token-3" is not in "raigo-token-30")."""
    return re.search(rf"(?<![\w-]){re.escape(item)}(?![\w-])", text) is not None


#: RAIGO at every seat count (2-4) and Spirit War at every seat count (2-6), issue 12.
CONFIGS = [*[("raigo", n) for n in range(2, 5)], *[("spirit_war", n) for n in range(2, 7)],
           ("rso", 2), ("dbs", 2)]  # fmt: skip


@pytest.mark.parametrize(("slug", "seats"), CONFIGS)
def test_no_payload_holds_a_secret(
    slug, seats, client_for, api_for, django_capture_on_commit_callbacks
):
    """BRIEF "Secrets": for every seat of a random game (and a spectator), the page HTML, the
    state API, the poll, the log API and the notifications hold nothing hidden from that seat
    and never the seed, at several points of the game."""
    engine = get_engine(slug)
    users = [UserFactory(username=f"{slug}-{seats}-{i}") for i in range(seats)]
    watcher = UserFactory(username=f"{slug}-{seats}-watcher")
    table = services.tavern_create(
        by=users[0], game=slug, campaign=None,
        seats=[services.SeatSpec("host")] + [services.SeatSpec()] * (seats - 1),
    )  # fmt: skip
    for i in range(1, seats):
        services.tavern_join(table_id=table.pk, by=users[i], index=i)
    with django_capture_on_commit_callbacks(execute=True):
        services.tavern_start(table_id=table.pk, by=users[0])
    rng = random.Random(seats)
    clients = [(i, api_for(u), client_for(u), u) for i, u in enumerate(users)]
    clients.append((None, api_for(watcher), client_for(watcher), watcher))

    def check() -> None:
        table.refresh_from_db()
        state = engine.from_json(table.state)
        seed = str(table.initial["rng"]["seed"])
        state_after = {}
        replayed = engine.from_json(table.initial)
        for row in TavernAction.objects.filter(table=table).order_by("seq"):
            replayed, _ = engine.apply(replayed, int(row.seat), row.action)
            state_after[row.seq] = replayed
        for seat, api, web, user in clients:
            hidden = engine.hidden_from(state, seat)
            texts = {
                "state": api.get(f"/api/tavern/tables/{table.pk}/state/").content.decode(),
                "poll": api.get(
                    f"/api/tavern/tables/{table.pk}/state/?since={max(table.version - 1, 0)}"
                ).content.decode(),
                "log": api.get(f"/api/tavern/tables/{table.pk}/log/?limit=200").content.decode(),
                "page": web.get(f"/tavern/tables/{table.pk}/").content.decode(),
                "notifications": json.dumps(
                    list(
                        Notification.objects.filter(recipient=user).values(
                            "event", "title", "body", "url", "dedupe_key"
                        )
                    )
                ),
                "notifications page": web.get("/notifications/").content.decode(),
            }
            for where, text in texts.items():
                assert seed not in text, f"the seed in {where} of seat {seat}"
                if where == "log":
                    continue  # checked entry by entry below, against the state of its time
                leaked = [item for item in hidden if contains_id(text, item)]
                assert not leaked, f"{where} of seat {seat} holds hidden {leaked[:5]}"
            # A log entry may name what was public when it happened (a card later shuffled
            # back into a deck): each entry holds nothing hidden from the seat right after it.
            log = json.loads(texts["log"])["results"]
            for entry in log:
                after = state_after[entry["n"]]
                text = json.dumps(entry["events"])
                leaked = [
                    item for item in engine.hidden_from(after, seat) if contains_id(text, item)
                ]
                assert not leaked, f"log entry {entry['n']} of seat {seat} holds {leaked[:5]}"

    check()
    for step in range(1, 31):
        table.refresh_from_db()
        state = engine.from_json(table.state)
        if engine.is_terminal(state):
            break
        seat = rng.choice(list(engine.waiting_on(state)))
        action = rng.choice(engine.legal_actions(state, seat))
        with django_capture_on_commit_callbacks(execute=True):
            services.tavern_action_apply(
                table_id=table.pk, by=users[seat], action=action, expected_version=table.version
            )
        if step == 15:
            check()
    check()


def test_the_advisor_at_a_practice_table(api_for, player, other_player):
    """Issue 12: at a practice table with the advisor on, beside each legal move the search
    bot's estimated chance of winning after it (a fraction from 0 to 1)."""
    table = two_humans("spirit_war", player, other_player, practice=True, advisor=True)
    engine = get_engine("spirit_war")
    seat = engine.waiting_on(engine.from_json(table.state))[0]
    client = api_for({0: player, 1: other_player}[seat])
    moves = client.get(f"/api/tavern/tables/{table.pk}/state/").json()["moves"]
    advice = client.get(f"/api/tavern/tables/{table.pk}/advice/").json()
    assert advice["version"] == table.version
    assert [a["action"] for a in advice["advice"]] == [m["action"] for m in moves]
    assert all(0 <= a["win_chance"] <= 1 and a["label"] for a in advice["advice"])
    # Not at a table without the advisor.
    plain = two_humans("spirit_war", player, other_player)
    assert client.get(f"/api/tavern/tables/{plain.pk}/advice/").status_code == 400
