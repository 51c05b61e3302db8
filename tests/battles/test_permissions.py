"""Every battle page and endpoint, for every role: the GM, the player whose character is in the
battle (``owner``), another player of the campaign (``other``: her character is in it too, but
it is not her turn and the row does not act for her), an ``outsider`` and ``anonymous``.

Policy (docs/battles.md): outsiders 404 (the campaign does not exist for them); members see
the battle (what they see in it is the engine's view); setup and overrides are GM-only (403
for players); a player acts only for her own combatants (403 for another's); anonymous
visitors log in (pages 302, API 401). Each (row, role) runs on a fresh database.
:func:`test_every_battle_route_has_a_row` fails when a battle route has no row.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from tests.battles.conftest import BattleSetup, play_until

pytestmark = pytest.mark.django_db

ROLES = ("gm", "owner", "other", "outsider", "anonymous")


def expect(gm: int, owner: int | None = None, other: int | None = None, *, api: bool) -> dict:
    owner = gm if owner is None else owner
    other = owner if other is None else other
    return {
        "gm": gm,
        "owner": owner,
        "other": other,
        "outsider": 404,
        "anonymous": 401 if api else 302,
    }


def members(ok: int, *, api: bool = True) -> dict:
    return expect(ok, api=api)


def gms(ok: int, *, api: bool = True) -> dict:
    return expect(ok, 403, api=api)


@dataclass(frozen=True)
class Row:
    name: str
    method: str
    url: str
    expected: dict[str, int]
    world: str = "setup"  # setup | turn (started, the owner's character's turn)
    data: Callable[[BattleSetup], Any] | dict | None = None

    @property
    def id(self) -> str:
        return f"{self.method.upper()} {self.name} {self.world}"


NPC = {"name": "F", "pwr": 3, "cha": 3, "int": 3, "ins": 3, "hp": 9, "speed": 1, "range": 1}

TABLE = [
    # pages
    Row("battles:list", "get", "/campaigns/{campaign}/battles/", members(200, api=False)),
    Row(
        "battles:list",
        "post",
        "/campaigns/{campaign}/battles/",
        gms(302, api=False),
        data={"name": "New", "width": "8", "height": "6"},
    ),
    Row("battles:detail", "get", "/battles/{battle}/", members(200, api=False)),
    Row("battles:detail", "get", "/battles/{battle}/", members(200, api=False), world="turn"),
    # API
    Row("api-campaign-battles", "get", "/api/campaigns/{campaign}/battles/", members(200)),
    Row(
        "api-campaign-battles",
        "post",
        "/api/campaigns/{campaign}/battles/",
        gms(201),
        data={"name": "New"},
    ),
    Row("api-battle", "get", "/api/battles/{battle}/", members(200)),
    Row("api-battle", "patch", "/api/battles/{battle}/", gms(200), data={"name": "Renamed"}),
    Row("api-battle", "delete", "/api/battles/{battle}/", gms(204)),
    Row("api-battle-state", "get", "/api/battles/{battle}/state/", members(200), world="turn"),
    # the unchanged poll (204 only at the battle's own version)
    Row("api-battle-state", "get", "/api/battles/{battle}/state/?since={version}", members(204)),
    Row(
        "api-battle-legal-actions",
        "get",
        "/api/battles/{battle}/legal-actions/",
        members(200),
        world="turn",
    ),
    Row(
        "api-battle-actions",
        "post",
        "/api/battles/{battle}/actions/",
        expect(201, 201, 403, api=True),
        world="turn",
        data=lambda s: {
            "action": {"type": "do_nothing", "combatant": s.pc},
            "expected_version": s.version,
        },
    ),
    Row(
        "api-battle-actions",
        "post",
        "/api/battles/{battle}/actions/",
        gms(201),
        world="turn",
        data=lambda s: {
            "action": {"type": "gm_adjust", "combatant": s.pc, "hp": -1},
            "expected_version": s.version,
        },
    ),
    Row(
        "api-battle-actions",
        "post",
        "/api/battles/{battle}/actions/",
        gms(201),
        data=lambda s: {"action": {"type": "start"}, "expected_version": s.version},
    ),
    Row("api-battle-log", "get", "/api/battles/{battle}/log/", members(200), world="turn"),
    Row("api-battle-replay", "get", "/api/battles/{battle}/replay/", members(200), world="turn"),
    # the turn clock (tables/clocks): members read it; the GMs pause it (none set: 400)
    Row("api-battle-clock", "get", "/api/battles/{battle}/clock/", members(200), world="turn"),
    Row(
        "api-battle-clock",
        "post",
        "/api/battles/{battle}/clock/",
        gms(400),
        world="turn",
        data={"paused": True},
    ),
    # undo requests (tables/undo): members read; a battle keeps the GM's own undo action
    Row("api-battle-undo", "get", "/api/battles/{battle}/undo/", members(200), world="turn"),
    Row(
        "api-battle-undo",
        "post",
        "/api/battles/{battle}/undo/",
        members(400),
        world="turn",
        data={"decision": "ask"},
    ),
    Row(
        "tables:replay",
        "get",
        "/tables/battle/{battle}/replay/",
        members(200, api=False),
        world="turn",
    ),
    Row(
        "api-battle-squares",
        "post",
        "/api/battles/{battle}/squares/",
        gms(200),
        data={"square": [4, 4], "terrain": "blocked"},
    ),
    Row("api-battle-combatants", "get", "/api/battles/{battle}/combatants/", members(200)),
    Row(
        "api-battle-combatants",
        "post",
        "/api/battles/{battle}/combatants/",
        gms(201),
        data={"npc": NPC, "position": [4, 4]},
    ),
    Row(
        "api-battle-combatants",
        "post",
        "/api/battles/{battle}/combatants/",
        gms(201),
        world="turn",
        data={"npc": NPC, "position": [4, 4]},
    ),
    Row(
        "api-battle-combatant",
        "patch",
        "/api/battles/{battle}/combatants/npc1/",
        gms(200),
        data={"position": [5, 5]},
    ),
    Row("api-battle-combatant", "delete", "/api/battles/{battle}/combatants/npc1/", gms(200)),
    # the map library (issue 14): members read, GMs write
    Row("battles:map-image", "get", "/battles/maps/{map}/image/", members(200, api=False)),
    Row("api-campaign-maps", "get", "/api/campaigns/{campaign}/maps/", members(200)),
    Row(
        "api-campaign-maps",
        "post",
        "/api/campaigns/{campaign}/maps/",
        gms(201),
        data=lambda s: {"name": "Cave", "image": _map_upload()},
    ),
    Row("api-map", "get", "/api/maps/{map}/", members(200)),
    Row("api-map", "patch", "/api/maps/{map}/", gms(200), data={"offset_x": 1}),
    Row("api-map", "delete", "/api/maps/{map}/", gms(204)),
    Row("api-battle-map", "put", "/api/battles/{battle}/map/", gms(200), data={"map": None}),
    # the table around the battle: chat, pings, portraits (docs/battles.md "The table log")
    Row("api-battle-table", "get", "/api/battles/{battle}/table/", members(200), world="turn"),
    Row(
        "api-battle-chat", "post", "/api/battles/{battle}/chat/", members(201), data={"text": "hi"}
    ),
    Row("api-battle-chat", "get", "/api/battles/{battle}/chat/", members(200)),
    Row(
        "api-battle-chat-reactions",
        "post",
        "/api/battles/{battle}/chat/reactions/",
        members(400),  # no such line: the reaction's line is checked after who may see it
        data={"line": 1, "reaction": "clap"},
    ),
    Row(
        "api-battle-chat-mutes",
        "post",
        "/api/battles/{battle}/chat/mutes/",
        gms(400),  # nobody has spoken yet: nobody to mute, but only a GM gets that far
        data={"user": 1, "muted": True},
    ),
    Row(
        "api-battle-chat-settings",
        "patch",
        "/api/battles/{battle}/chat/settings/",
        gms(200),
        data={"spectators_may_chat": True},
    ),
    Row(
        "api-battle-pings",
        "post",
        "/api/battles/{battle}/pings/",
        members(201),
        data={"square": [1, 1]},
    ),
    Row("api-battle-portraits", "get", "/api/battles/{battle}/portraits/", members(200)),
]


def _map_png() -> bytes:
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (128, 96), (50, 90, 60)).save(buffer, format="PNG")
    return buffer.getvalue()


def _map_upload() -> Any:
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("cave.png", _map_png())


@pytest.fixture
def users(gm, player, other_player, outsider):
    return {"gm": gm, "owner": player, "other": other_player, "outsider": outsider}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("row", TABLE, ids=[r.id for r in TABLE])
def test_route_per_role(
    row, role, request, users, campaign, gm, client_for, api_for, settings, tmp_path
):
    setup: BattleSetup = request.getfixturevalue(
        "started" if row.world == "turn" else "setup_battle"
    )
    if row.world == "turn":
        play_until(setup, gm, setup.pc)
    map_id = 0
    if "{map}" in row.url:
        from battles import maps

        settings.MEDIA_ROOT = str(tmp_path / "media")
        map_id = maps.battle_map_create(
            campaign_id=campaign.pk, by=gm, name="Lake", image=_map_upload()
        ).pk
    url = row.url.format(
        campaign=campaign.pk, battle=setup.battle.pk, map=map_id, version=setup.battle.version
    )
    data = row.data(setup) if callable(row.data) else row.data
    user = users.get(role)
    if row.name.startswith("api"):
        client = api_for(user)
        files = isinstance(data, dict) and any(hasattr(v, "read") for v in data.values())
        if files:
            settings.MEDIA_ROOT = str(tmp_path / "media")
        response = getattr(client, row.method)(url, data, format="multipart" if files else "json")
    else:
        client = client_for(user)
        response = getattr(client, row.method)(url, data or {})
    if response.streaming:
        b"".join(response.streaming_content)  # closes the file it streamed
    assert response.status_code == row.expected[role], (
        f"{row.id} as {role}: {response.status_code}, expected {row.expected[role]}: "
        f"{response.content[:300]!r}"
    )
    if role == "anonymous" and not row.name.startswith("api"):
        assert response["Location"].startswith("/accounts/login/")


def _battle_routes() -> dict[str, set[str]]:
    """Route name → methods, for every battle page and endpoint."""
    from battles.urls import api_urlpatterns, urlpatterns

    found: dict[str, set[str]] = {}
    for p in urlpatterns:
        found[f"battles:{p.name}"] = {"get", "post"} if p.name == "list" else {"get"}
    for p in api_urlpatterns:
        view = p.callback.view_class
        found[p.name] = {m for m in ("get", "post", "put", "patch", "delete") if hasattr(view, m)}
    return found


def test_every_battle_route_has_a_row():
    covered: dict[str, set[str]] = {}
    for row in TABLE:
        covered.setdefault(row.name, set()).add(row.method)
    missing = {
        name: methods - covered.get(name, set())
        for name, methods in _battle_routes().items()
        if methods - covered.get(name, set())
    }
    assert missing == {}
