"""Every tavern page and endpoint, for every role (issue 12: tables in a campaign's tavern are
for its members; open tables for anyone signed in; spectators see only public information).

Roles at a campaign table: the campaign's ``gm`` (not seated; manages: may abandon and set
seats), the ``host`` (a player, seat 0), the ``guest`` (another player, seat 1 once the game
runs), a ``watcher`` (a member who does not play), an ``outsider`` and ``anonymous``.

Policy (docs/tavern.md): outsiders 404; members see the table and its public payload; only the
host (or the GM) sets seats, starts and abandons; only seated players play, resign and ask for a
rematch (403 for others); anonymous visitors log in (pages 302, API 401). Each (row, role) runs
on the same fresh table (a savepoint rolled back after each).
:func:`test_every_tavern_route_has_a_row` fails when a tavern route has no
row, and the campaign-wide sweep (tests/campaign/test_permission_matrix.py) defers to this one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import transaction

from campaign.models import Membership, Role
from minigames import services
from minigames.engines.registry import get_engine
from minigames.invites import invite_token
from minigames.models import TavernSeat, TavernTable
from tests.campaign.test_permission_matrix import _routes
from tests.factories import CampaignFactory, UserFactory

pytestmark = pytest.mark.django_db

ROLES = ("gm", "host", "guest", "watcher", "outsider", "anonymous")


def expect(
    ok: int,
    *,
    gm: int | None = None,
    host: int | None = None,
    guest: int | None = None,
    watcher: int | None = None,
    outsider: int = 404,
    api: bool = True,
) -> dict[str, int]:
    return {
        "gm": ok if gm is None else gm,
        "host": ok if host is None else host,
        "guest": ok if guest is None else guest,
        "watcher": ok if watcher is None else watcher,
        "outsider": outsider,
        "anonymous": 401 if api else 302,
    }


def managers(ok: int, *, api: bool = True) -> dict[str, int]:
    """The host and the campaign's GM; players 403."""
    return expect(ok, guest=403, watcher=403, api=api)


def seated(ok: int, *, api: bool = True) -> dict[str, int]:
    """The players at the table; the GM and a watcher 403."""
    return expect(ok, gm=403, watcher=403, api=api)


class World:
    def __init__(self, kind: str) -> None:
        self.gm = UserFactory(username="gm-user")
        self.host = UserFactory(username="host")
        self.guest = UserFactory(username="guest")
        self.watcher = UserFactory(username="watcher")
        self.outsider = UserFactory(username="outsider")
        self.campaign = CampaignFactory(created_by=self.gm, name="Scarlet Mist")
        for user, role in (
            (self.gm, Role.GM),
            (self.host, Role.PLAYER),
            (self.guest, Role.PLAYER),
            (self.watcher, Role.PLAYER),
        ):
            Membership.objects.create(campaign=self.campaign, user=user, role=role)
        second = "bot" if kind == "ready" else "open"
        self.table = services.tavern_create(
            by=self.host,
            game="spirit_war",
            campaign=self.campaign,
            seats=[
                services.SeatSpec(kind="host"),
                services.SeatSpec(kind=second, strength="random" if second == "bot" else ""),
            ],
            practice=kind == "practice",
            advisor=kind == "practice",
        )
        if kind in ("active", "ended", "practice"):
            services.tavern_join(table_id=self.table.pk, by=self.guest, index=1)
            services.tavern_start(table_id=self.table.pk, by=self.host)
        if kind == "ended":
            services.tavern_resign(table_id=self.table.pk, by=self.guest)
        self.table = TavernTable.objects.get(pk=self.table.pk)

    def user(self, role: str) -> Any:
        return None if role == "anonymous" else getattr(self, role)

    def mover(self) -> str:
        engine = get_engine("spirit_war")
        seat = engine.waiting_on(engine.from_json(self.table.state))[0]
        return {0: "host", 1: "guest"}[seat]

    def move(self) -> dict[str, Any]:
        engine = get_engine("spirit_war")
        state = engine.from_json(self.table.state)
        seat = engine.waiting_on(state)[0]
        return {
            "action": engine.legal_actions(state, seat)[0],
            "expected_version": self.table.version,
        }


@dataclass(frozen=True)
class Row:
    name: str
    method: str
    url: str
    expected: dict[str, int] | Callable[[World], dict[str, int]]
    world: str = "active"  # setup | ready (seat 1 a bot) | active | ended | practice
    data: Callable[[World], Any] | dict[str, Any] | None = None
    api: bool = True

    @property
    def id(self) -> str:
        return f"{self.method.upper()} {self.name} {self.world}"


def _actions_expected(w: World) -> dict[str, int]:
    mover = w.mover()
    return expect(201, gm=403, watcher=403, **{"guest" if mover == "host" else "host": 400})


T = "/tavern/tables/{table}/"
A = "/api/tavern/tables/{table}/"
NEW = {"game": "raigo", "seat-0": "host", "seat-1": "open"}

TABLE = [
    # pages
    Row("tavern:list", "get", "/tavern/", expect(200, outsider=200, api=False), api=False),
    Row("tavern:list", "post", "/tavern/", expect(302, outsider=302, api=False), data=NEW,
        api=False),
    Row("tavern:campaign", "get", "/campaigns/{campaign}/tavern/", expect(200, api=False),
        api=False),
    Row("tavern:campaign", "post", "/campaigns/{campaign}/tavern/", expect(302, api=False),
        data=NEW, api=False),
    # public: someone sent an invite link reads the rules before signing up
    Row("tavern:rules", "get", "/tavern/rules/spirit_war/",
        expect(200, outsider=200, api=False) | {"anonymous": 200}, api=False),
    Row("tavern:invite", "get", "/tavern/invite/{invite}/", expect(200, host=302, api=False),
        world="setup", api=False),
    # the host sits already (to her table); the others take seat 1 (the watcher too: a member)
    Row("tavern:invite", "post", "/tavern/invite/{invite}/", expect(302, api=False),
        world="setup", api=False),
    Row("tavern:invite", "post", "/tavern/invite/{invite}/", expect(400, host=302, api=False),
        world="ready", api=False),
    Row("tavern:table", "get", T, expect(200, api=False), api=False),
    Row("tavern:table", "get", T, expect(200, api=False), world="setup", api=False),
    Row("tavern:op", "post", T + "join/", expect(302, api=False), world="setup", api=False,
        data={"seat": "1"}),
    Row("tavern:op", "post", T + "start/", managers(302, api=False), world="ready", api=False),
    Row("tavern:op", "post", T + "seats/", managers(302, api=False), world="setup", api=False,
        data={"seat": "1", "kind": "bot:random"}),
    Row("tavern:op", "post", T + "resign/", seated(302, api=False), api=False),
    Row("tavern:op", "post", T + "abandon/", managers(302, api=False), api=False),
    Row("tavern:op", "post", T + "rematch/", seated(302, api=False), world="ended", api=False),
    Row("tavern:op", "post", T + "leave/", expect(403, host=302, api=False), world="setup",
        api=False),
    # API
    Row("api-tavern-games", "get", "/api/tavern/games/", expect(200, outsider=200)),
    Row("api-tavern-tables", "get", "/api/tavern/tables/", expect(200, outsider=200)),
    Row("api-tavern-tables", "get", "/api/tavern/tables/?campaign={campaign}", expect(200)),
    Row("api-tavern-tables", "post", "/api/tavern/tables/", expect(201, outsider=201),
        data={"game": "raigo", "seats": [{"kind": "host"}, {"kind": "open"}]}),
    Row("api-tavern-tables", "post", "/api/tavern/tables/", expect(201),
        data=lambda w: {"game": "raigo", "campaign": w.campaign.pk,
                        "seats": [{"kind": "host"}, {"kind": "bot", "strength": "search"}]}),
    Row("api-tavern-table", "get", A, expect(200)),
    Row("api-tavern-join", "post", A + "join/", expect(200, host=400), world="setup",
        data={"seat": 1}),
    Row("api-tavern-leave", "post", A + "leave/", expect(403, host=200), world="setup"),
    Row("api-tavern-leave", "post", A + "leave/", seated(400)),  # started: resign instead
    Row("api-tavern-seats", "post", A + "seats/", managers(200), world="setup",
        data={"seat": 1, "kind": "bot", "strength": "heuristic"}),
    Row("api-tavern-start", "post", A + "start/", managers(200), world="ready"),
    Row("api-tavern-resign", "post", A + "resign/", seated(200)),
    Row("api-tavern-resign", "post", A + "resign/", expect(403, host=400), world="setup"),
    Row("api-tavern-rematch", "post", A + "rematch/", seated(201), world="ended"),
    Row("api-tavern-rematch", "post", A + "rematch/", seated(400)),  # not finished yet
    Row("api-tavern-abandon", "post", A + "abandon/", managers(200)),
    Row("api-tavern-abandon", "post", A + "abandon/", managers(400), world="ended"),
    Row("api-tavern-state", "get", A + "state/", expect(200)),
    Row("api-tavern-state", "get", A + "state/", expect(200), world="setup"),
    Row("api-tavern-actions", "post", A + "actions/", _actions_expected, data=World.move),
    Row("api-tavern-log", "get", A + "log/", expect(200)),
    # the table's chat (tables.chat): a watcher reads; she speaks where the host allows it
    Row("api-tavern-chat", "get", A + "chat/", expect(200)),
    Row("api-tavern-chat", "post", A + "chat/", expect(201, watcher=403), data={"text": "hi"}),
    Row("api-tavern-chat-reactions", "post", A + "chat/reactions/", expect(400),
        data={"line": 1, "reaction": "clap"}),  # no such line, once she may see the table
    Row("api-tavern-chat-mutes", "post", A + "chat/mutes/", managers(400),
        data={"user": 1, "muted": True}),  # nobody has spoken: nobody to mute
    Row("api-tavern-chat-settings", "patch", A + "chat/settings/", managers(200),
        data={"spectators_may_chat": True}),
    # the replay (tables/replay.py): as the table, and a 400 in words before the game starts
    Row("api-tavern-replay", "get", A + "replay/", expect(200)),
    Row("api-tavern-replay", "get", A + "replay/", expect(200), world="ended"),
    Row("api-tavern-replay", "get", A + "replay/", expect(400), world="setup"),
    Row("tables:replay", "get", "/tables/spirit_war/{table}/replay/", expect(200, api=False),
        world="ended", api=False),
    # the turn clock (tables/clocks): anyone who sees the table reads it; the host or GM
    # pauses it (this table has none: 400 in words)
    Row("api-tavern-clock", "get", A + "clock/", expect(200)),
    Row("api-tavern-clock", "post", A + "clock/", managers(400), data={"paused": True}),
    # undo requests (tables/undo): anyone who sees the table reads; a seated player asks
    Row("api-tavern-undo", "get", A + "undo/", expect(200)),
    Row("api-tavern-undo", "post", A + "undo/", seated(400), data={"decision": "ask"}),
    Row("api-tavern-advice", "get", A + "advice/", expect(400)),
    Row("api-tavern-spectators", "get", A + "spectators/", expect(200)),
    Row("api-tavern-invite", "get", "/api/tavern/invites/{invite}/", expect(200), world="setup"),
    Row("api-tavern-invite", "post", "/api/tavern/invites/{invite}/", expect(200, host=400),
        world="setup", data={}),
    Row("api-tavern-invite", "post", "/api/tavern/invites/{invite}/", expect(400),
        data={}),  # started: its seats are taken
    Row("api-tavern-advice", "get", A + "advice/", seated(200, api=True) | {"gm": 400,
        "watcher": 400}, world="practice"),
]  # fmt: skip


@pytest.mark.parametrize("row", TABLE, ids=[r.id for r in TABLE])
def test_route_per_role(row: Row, client_for, api_for) -> None:
    """One world per row; each role's request runs in a savepoint that is rolled back, so
    every role meets the same fresh table (and the sweep stays quick)."""
    w = World(row.world)
    url = row.url.format(table=w.table.pk, campaign=w.campaign.pk, invite=invite_token(w.table))
    expected = row.expected(w) if callable(row.expected) else row.expected
    wrong = []
    for role in ROLES:
        with transaction.atomic():
            data = row.data(w) if callable(row.data) else row.data
            user = w.user(role)
            if row.api:
                response = getattr(api_for(user), row.method)(url, data, format="json")
            else:
                response = getattr(client_for(user), row.method)(url, data or {})
            if response.status_code != expected[role]:
                wrong.append(
                    f"{role}: {response.status_code}, expected {expected[role]}"
                    f" {getattr(response, 'content', b'')[:300]!r}"
                )
            transaction.set_rollback(True)
    assert not wrong, f"{row.id}:\n" + "\n".join(wrong)


def test_every_tavern_route_has_a_row() -> None:
    covered: dict[str, set[str]] = {}
    for row in TABLE:
        covered.setdefault(row.name, set()).add(row.method)
    missing = []
    for route in _routes():
        name = route.name or ""
        if not (name.startswith("tavern:") or name.startswith("api-tavern-")):
            continue
        if name not in covered:
            missing.append(name)
        else:
            missing += [f"{m} {name}" for m in sorted(route.methods - covered[name])]
    assert not missing, missing


@pytest.fixture
def media(settings, tmp_path):
    """Uploaded files go to a temporary folder."""
    settings.MEDIA_ROOT = str(tmp_path / "media")
    return tmp_path / "media"


def test_seat_portraits_are_the_members_only_portrait(
    player, other_player, outsider, campaign, reimu, marisa, client_for, api_for, media
):
    """A seat played as a character shows her portrait through the character's own
    members-only URL (never the raw media file, which production does not serve), to those
    who may see that character; the others get no portrait."""
    import io

    from django.core.files.uploadedfile import SimpleUploadedFile
    from PIL import Image

    from campaign.permissions import owned_access
    from characters.services import character_portrait_set, character_update

    png = io.BytesIO()
    Image.new("RGB", (32, 32)).save(png, format="PNG")
    upload = SimpleUploadedFile("p.png", png.getvalue(), content_type="image/png")
    character_portrait_set(
        character=reimu, by=owned_access(player, campaign, player.pk), file=upload
    )
    table = services.tavern_create(
        by=player,
        game="raigo",
        campaign=campaign,
        seats=[services.SeatSpec(kind="host", character=reimu.pk), services.SeatSpec(kind="open")],
    )
    protected = f"/characters/{reimu.pk}/portrait/"
    page = client_for(other_player).get(f"/tavern/tables/{table.pk}/").content.decode()
    assert f'class="tavern-portrait" src="{protected}"' in page
    assert "/media/" not in page
    seats = api_for(other_player).get(f"/api/tavern/tables/{table.pk}/state/").json()
    assert seats["table"]["seats"][0]["portrait"] == protected
    seen = client_for(other_player).get(protected)
    assert seen.status_code == 200
    b"".join(seen.streaming_content)  # reading it all lets the test client close the file
    assert client_for(outsider).get(protected).status_code == 404

    # Reimu leaves the campaign: its members no longer see her sheet, nor her portrait here;
    # the seat lets her go (docs/tavern.md, "Someone goes away") and her player sits as herself.
    character_update(character=reimu, by=owned_access(player, campaign, player.pk), campaign=None)
    page = client_for(other_player).get(f"/tavern/tables/{table.pk}/").content.decode()
    assert "tavern-portrait" not in page
    assert client_for(other_player).get(protected).status_code == 404
    seat = TavernSeat.objects.get(table=table, index=0)
    assert (seat.user_id, seat.character_id) == (player.pk, None)
