"""Reads for battles: lookups through the permission layer, and what each viewer may see.

Everything a client receives about the game comes from ``engine.view(state, player)`` (or
``engine.legal_actions(state, player)``, which the view also carries) for the asking member:
the GM sees the GM's view, each player the view for her user id. Nothing here serialises the
stored state itself (hands, draw piles and the seed stay on the server; boardgame.io's
issue #1159 is the mistake this avoids).

The view, its poll and the log are the table core's (``tables.api``, ``tables.selectors``):
the battle gives it :func:`battle_payload`, which answers a changed battle from the cache under
its version, or builds the view from the state and the new log rows (a constant number of
queries whatever the number of combatants or the length of the log) and caches it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import get_language, gettext, pgettext

from apibase.engine_words import data_in_language, in_language
from apibase.numbers import object_id
from apibase.renderers import RenderedJSON
from campaign.permissions import CampaignAccess, access_for
from tables import store
from westernroses import battle as engine

from .maps import map_payload_of
from .models import Battle, BattleAction, Combatant
from .services import engine_player, fresh_with_history

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User

#: A first view carries at most this many log entries; older ones come from the log endpoint.
LOG_TAIL: Final = 100


def _pk(value: Any) -> int:
    pk = object_id(value) if isinstance(value, int | str) else None
    if pk is None:
        raise Http404("No such battle.")
    return pk


def _member(user: User | AnonymousUser, campaign_id: int, *, manage: bool) -> CampaignAccess:
    access = access_for(user, campaign_id)
    if not access.can_view:
        raise Http404("No such battle.")
    if manage and not access.can_manage:
        raise PermissionDenied(gettext("Only the campaign's game masters may do that."))
    return access


def battle_for(
    user: User | AnonymousUser, battle_id: Any, *, manage: bool = False
) -> tuple[Battle, CampaignAccess]:
    """A battle of a campaign ``user`` is in (404 otherwise, like the campaign itself);
    ``manage`` needs a GM (403). The state is not loaded."""
    battle = (
        Battle.objects.select_related("campaign", "created_by")
        .defer("state", "initial")
        .filter(pk=_pk(battle_id))
        .first()
    )
    if battle is None:
        raise Http404("No such battle.")
    return battle, _member(user, battle.campaign_id, manage=manage)


def battles_of(access: CampaignAccess) -> QuerySet[Battle]:
    """A campaign's battles, newest first (members see them all; what they see *in* one is
    the engine's view)."""
    if not access.can_view:
        return Battle.objects.none()
    return (
        Battle.objects.filter(campaign_id=access.campaign_id)
        .select_related("created_by")
        .defer("state", "initial")
        .order_by("-created_at", "-pk")
    )


def combatants_of(battle: Battle, access: CampaignAccess | None = None) -> QuerySet[Combatant]:
    """The battle's combatants index (who controls whom), in engine id order. With a
    player's ``access``, without whoever stands in fog out of her sight (``engine.fog``)."""
    rows = (
        Combatant.objects.filter(battle=battle).select_related("controller").order_by("engine_id")
    )
    if access is not None and not access.is_gm:
        hidden = engine.hidden_ids(_state(battle.pk, None), engine_player(access))
        if hidden:
            rows = rows.exclude(engine_id__in=hidden)
    return rows


def _state(battle_id: int, log_after: int | None) -> engine.BattleState:
    """The state without the initial snapshot, with the log rows after ``log_after`` (None:
    no log)."""
    row = Battle.objects.filter(pk=battle_id).values_list("state", flat=True).first()
    if row is None:
        raise Http404("No such battle.")
    state = engine.ENGINE.from_json(row)
    if log_after is not None:
        rows = BattleAction.objects.filter(battle_id=battle_id, seq__gt=log_after).order_by("seq")
        state = fresh_with_history(state, None, [r.log_entry() for r in rows])
    return state


@dataclass(frozen=True, slots=True)
class ViewResult:
    version: int
    player: str
    #: None: unchanged since the caller's version; bytes when asked ``rendered``
    data: Any


def view_of(
    state: engine.BattleState, player: str, *, since: int, map_id: int | None = None
) -> dict[str, Any]:
    """``engine.view`` with at most :data:`LOG_TAIL` log entries (the rest: the log API), and
    the battle's ``map`` (``maps.map_payload``: None for a drawn grid). The engine's view
    already holds ``fog`` (the fogged squares, public) and leaves out whoever stands in it."""
    data = engine.view(state, player, since=max(since, state.version - LOG_TAIL, 0))
    if not _english():  # the data's status effect names in her language
        data = data_in_language(data)
        # the engine's words: a roll's purpose, an ability's name
        data["log"] = log_in_language(data.get("log") or [])
        you = data.get("you")
        if isinstance(you, dict) and isinstance(you.get("legal_actions"), list):
            you["legal_actions"] = options_in_language(you["legal_actions"])
    data["map"] = map_payload_of(map_id)
    return data


def options_in_language(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Legal actions with each ability's name (the engine's message id) in the active
    language; an attack's or a card's name is the player's and stays as written."""
    return [
        {**o, "name": gettext(o["name"])}
        if o.get("type") == "use_ability" and isinstance(o.get("name"), str) and o["name"]
        else o
        for o in options
    ]


def log_in_language(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Log entries with each roll's ``purpose`` in the active language, where the engine
    kept its words (``purpose_words``; an attack's or a card's name inside stays as written).
    Older entries keep their English purpose."""
    return [
        {**entry, "events": [_event_in_language(e) for e in entry["events"]]}
        if any(isinstance(e, dict) and "purpose_words" in e for e in entry.get("events") or [])
        else entry
        for entry in entries
    ]


def _event_in_language(event: Any) -> Any:
    if not isinstance(event, dict) or not isinstance(event.get("purpose_words"), dict):
        return event
    return {**event, "purpose": in_language(event["purpose_words"])}


def _english() -> bool:
    return (get_language() or "en").split("-")[0] == "en"


def battle_payload(
    battle: Battle,
    user: Any,
    seat: Any,
    state: engine.BattleState | None,
    since: int | None,
) -> Any:
    """What the table core's API answers ``user`` about ``battle`` (the game's ``payload``
    hook): ``{"version", "seat", "view"}``, the view being ``engine.view`` for her engine
    player (``seat``) with at most :data:`LOG_TAIL` log entries after ``since`` (older ones:
    the log endpoint) and the battle's ``map``.

    ``state``: a move's new state, in memory (its log holds the move's own entries). Without
    it (a read), the view is looked up in the cache under the battle's version, the viewer's
    engine player and the first log entry it carries (:func:`_cached_view`): a version is never
    reused, so an entry never needs invalidating and a changed battle always misses; the answer
    is then the encoded JSON, sent as it is (``apibase.renderers.RenderedJSON``)."""
    player = str(seat)
    if state is not None:
        view = view_of(state, player, since=since or 0, map_id=battle.map_id)
        return {"version": state.version, "seat": player, "view": view}
    version = battle.version
    log_after = max(since or 0, version - LOG_TAIL, 0)
    cached = _cached_view(battle, version, player, log_after)
    # the map is not part of the game's state (it changes without a new version): read
    # fresh, one query when there is one, so a cached view never shows an old map
    board = json.dumps(map_payload_of(battle.map_id), separators=(",", ":")).encode()
    head = b'{"version":%d,"seat":%s,"view":' % (cached.version, json.dumps(player).encode())
    # the view's closing brace is its last byte: the map goes in before it
    return RenderedJSON(head + cached.encoded[:-1] + b',"map":' + board + b"}}")


def battle_state(battle_id: Any, user: User | AnonymousUser) -> dict[str, Any]:
    """The core's answer about the battle for ``user`` (:func:`battle_payload`), decoded: for
    the pages and endpoints that show the view beside something else (404 for an outsider)."""
    from tables.selectors import table_view

    from .services import BATTLE_GAME

    data = table_view(BATTLE_GAME, table_id=battle_id, user=user).data
    return dict(json.loads(data) if isinstance(data, bytes) else data)


#: How long a rendered view stays in the cache (entries are per version: they go stale by
#: never being asked for again, so this only bounds the memory they take).
VIEW_CACHE_SECONDS: Final = 600


def view_cache_key(
    battle_id: int, version: int, player: str, log_after: int, at: str | None = None
) -> str:
    """Under the database's epoch too (``at``, default :func:`tables.store.epoch_now`): a
    version lost in a crash of PostgreSQL and written again with another state is never
    answered from the lost one's entry."""
    return f"battle-view:{at or store.epoch_now()}:{battle_id}:v{version}:{player}:after{log_after}"


def _cached_view(battle: Battle, version: int, player: str, log_after: int) -> _CachedView:
    """The view of version ``version`` for ``player`` with the log after ``log_after``, from
    the cache or built (and stored) from the state, as JSON (the map left out: the caller's,
    read fresh). The state (read now when the row was read without it) is checked against the
    version: a move that landed in between is served as what it is, under its own key."""
    from tables.selectors import table_state

    # one entry per language the view is read in (English keeps the plain key)
    key = view_cache_key(
        battle.pk, version, player if _english() else f"{player}:{get_language()}", log_after
    )
    encoded = store.cached(key)  # Redis away (or fast paths off): built every time
    if encoded is None:
        state = engine.ENGINE.from_json(table_state(battle))
        rows = BattleAction.objects.filter(battle_id=battle.pk, seq__gt=log_after).order_by("seq")
        state = fresh_with_history(state, None, [r.log_entry() for r in rows])
        data = view_of(state, player, since=log_after)
        data.pop("map", None)
        encoded = json.dumps(data, separators=(",", ":")).encode()
        if state.version == version:
            store.cache(key, encoded, VIEW_CACHE_SECONDS)
        version = state.version
    return _CachedView(version, encoded)


class _CachedView(NamedTuple):
    version: int
    #: the view as a JSON object, without its ``map``
    encoded: bytes


def battle_legal_actions(*, battle_id: Any, user: User | AnonymousUser) -> ViewResult:
    """What ``user`` may do now (``engine.legal_actions`` for her engine player)."""
    battle, access = battle_for(user, battle_id)
    player = engine_player(access)
    state = _state(battle.pk, None)
    return ViewResult(
        version=state.version,
        player=player,
        data={"legal_actions": options_in_language(engine.legal_actions(state, player))},
    )


def setup_characters(access: CampaignAccess) -> list[dict[str, Any]]:
    """The campaign's characters for the GMs' setup panel (one query); the screen hides those
    already on the board (engine id ``pc<id>``)."""
    from characters.models import Character

    rows = (
        Character.objects.filter(campaign_id=access.campaign_id)
        .select_related("owner")
        .order_by("is_npc", "name", "pk")
    )
    return [
        {
            "id": c.pk,
            "engine_id": f"pc{c.pk}",
            "name": c.name,
            "owner": c.owner.shown_name,
            "is_npc": c.is_npc,
        }
        for c in rows
    ]


def member_names(campaign_id: int) -> dict[str, str]:
    """Engine player id → shown name, so the board can say who plays whom."""
    from campaign.models import Membership

    names = {"gm": pgettext("who plays a combatant", "the GM")}
    for m in Membership.objects.filter(campaign_id=campaign_id).select_related("user"):
        names[str(m.user_id)] = m.user.shown_name
    return names


def player_names(campaign_id: int) -> list[list[object]]:
    """[[user id, shown name], ...] of the campaign's players: whom a GM may whisper to."""
    from campaign.models import Membership, Role

    rows = Membership.objects.filter(campaign_id=campaign_id, role=Role.PLAYER).select_related(
        "user"
    )
    return [[m.user_id, m.user.shown_name] for m in rows.order_by("user__username")]
