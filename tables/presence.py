"""Who is at a table now: each open socket of a table's page (:mod:`tables.consumers`) says
whether its tab is visible, and a person is *here* while one of her sockets is visible,
*away* (since when) once none is. A turn alert is not sent to a seat that is here
(:func:`tables.services.table_waits_sync`): she is looking at the table already.

Kept in Redis (one hash per table, a field per socket) so every web process sees the same
people; without Redis (``make run``: one process) in this process's memory. A socket's entry
is refreshed by its page's heartbeat; one not refreshed for :data:`STALE_SECONDS` (its
process died without saying goodbye) no longer counts.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Collection
from typing import Any, Final, NamedTuple

from redis.exceptions import RedisError

from apibase.cache_redis import default_redis

#: A page's heartbeat (static/js/push.js) comes every 30 s: three missed, the socket is gone.
STALE_SECONDS: Final = 90
#: How long a table remembers when someone left it.
LEFT_SECONDS: Final = 86_400


class Person(NamedTuple):
    user_id: int
    here: bool
    since: float


def _key(label: str, pk: Any) -> str:
    redis = default_redis()
    key = f"presence:{label}:{pk}"
    # under the cache's own prefix: deployments (and test processes) sharing a Redis apart
    return redis.backend.make_key(key) if redis is not None else key


_local: dict[str, dict[str, str]] = {}
_local_lock = threading.Lock()


def _write(label: str, pk: Any, field: str, value: str | None) -> None:
    key = _key(label, pk)
    redis = default_redis()
    if redis is None:
        with _local_lock:
            entries = _local.setdefault(key, {})
            if value is None:
                entries.pop(field, None)
            else:
                entries[field] = value
        return
    try:
        pipe = redis.client.pipeline()
        if value is None:
            pipe.hdel(key, field)
        else:
            pipe.hset(key, field, value)
        pipe.expire(key, LEFT_SECONDS)
        pipe.execute()
    except RedisError:
        pass  # presence is a courtesy: a move never waits on it


def _read(label: str, pk: Any) -> dict[str, str]:
    key = _key(label, pk)
    redis = default_redis()
    if redis is None:
        with _local_lock:
            return dict(_local.get(key, {}))
    try:
        raw = redis.client.hgetall(key)
    except RedisError:
        return {}
    return {k.decode(): v.decode() for k, v in raw.items()}


def seen(label: str, pk: Any, channel: str, user_id: int, *, visible: bool) -> bool:
    """A socket of ``user_id`` is open on the table, its tab visible or not (also the
    heartbeat: the entry keeps when its visibility last changed). Whether that changed."""
    now = time.time()
    old = _read_one(label, pk, f"s:{channel}")
    same = old is not None and old[1] == visible
    since = old[2] if old is not None and same else now
    _write(label, pk, f"s:{channel}", f"{user_id}|{int(visible)}|{since}|{now}")
    return not same


def _read_one(label: str, pk: Any, field: str) -> tuple[int, bool, float] | None:
    """One socket's entry (one field, not the table's whole hash)."""
    key = _key(label, pk)
    redis = default_redis()
    if redis is None:
        with _local_lock:
            value = _local.get(key, {}).get(field)
    else:
        try:
            raw = redis.client.hget(key, field)
        except RedisError:
            raw = None
        value = raw.decode() if raw is not None else None
    if value is None:
        return None
    user, visible, since, _beat = value.split("|")
    return int(user), visible == "1", float(since)


def gone(label: str, pk: Any, channel: str, user_id: int) -> None:
    """A socket closed: its user is away from now, unless another of her sockets is open."""
    _write(label, pk, f"s:{channel}", None)
    _write(label, pk, f"u:{user_id}", str(time.time()))


def people(label: str, pk: Any, now: float | None = None) -> list[Person]:
    """Everyone who has had the table open, here first, each with since when."""
    now = time.time() if now is None else now
    sockets: dict[int, list[tuple[bool, float]]] = {}
    left: dict[int, float] = {}
    for field, value in _read(label, pk).items():
        if field.startswith("s:"):
            owner, shown, changed, beat = value.split("|")
            if now - float(beat) <= STALE_SECONDS:
                sockets.setdefault(int(owner), []).append((shown == "1", float(changed)))
        elif field.startswith("u:"):
            left[int(field[2:])] = float(value)
    found = []
    for user in sockets.keys() | left.keys():
        mine = sockets.get(user, [])
        visible = [since for shown, since in mine if shown]
        if visible:
            found.append(Person(user, True, min(visible)))
        else:
            hidden = [since for _, since in mine]
            found.append(Person(user, False, max([*hidden, left.get(user, 0.0)])))
    return sorted(found, key=lambda p: (not p.here, p.since))


def in_words(label: str, pk: Any) -> list[dict[str, Any]]:
    """:func:`people` as a page shows them: each person's name, here or away, and since when
    (ISO 8601, UTC). Who has a table open is public to everyone who may see the table."""
    from datetime import UTC, datetime

    from django.contrib.auth import get_user_model

    found = people(label, pk)
    users = get_user_model()._default_manager.in_bulk([p.user_id for p in found])
    return [
        {
            "name": str(users[p.user_id]),
            "here": p.here,
            "since": datetime.fromtimestamp(p.since, UTC).isoformat(timespec="seconds"),
        }
        for p in found
        if p.user_id in users
    ]


def watchers(label: str, pk: Any, seated: Collection[int]) -> list[dict[str, Any]]:
    """The spectators: people here now (a visible tab) who are not in ``seated`` (the game's
    players), each with her name and since when, the longest here first."""
    from datetime import UTC, datetime

    from django.contrib.auth import get_user_model

    found = [p for p in people(label, pk) if p.here and p.user_id not in seated]
    users = get_user_model()._default_manager.in_bulk([p.user_id for p in found])
    return [
        {
            "name": str(users[p.user_id]),
            "since": datetime.fromtimestamp(p.since, UTC).isoformat(timespec="seconds"),
        }
        for p in found
        if p.user_id in users
    ]


def watching(label: str, pk: Any, user_id: int) -> bool:
    """Whether ``user_id`` has the table open in a visible tab now."""
    return any(p.user_id == user_id and p.here for p in people(label, pk))
