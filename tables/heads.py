"""The unchanged poll answered from Redis: each table's current version (its *head*) and what the
game caches about the asking user beside it (her *grant*), read together in one round trip
(:func:`poll_head`).

**Heads.** A table's version and its *scope* are written to the cache before the commit of every
save that changes the version: the table core's one write
(:func:`tables.services.log_and_save` calls :func:`publish`) and any ``save()`` of a table (a
``post_save`` receiver, so a setup change or a GM override written by the game's own service is
not missed). The write only ever moves a head forward (a Redis script compares versions), so two
commits whose callbacks run out of order, or a poll that read the database before a move, can
never put an older version back: a head is at least the newest version committed (a version
being committed may already show: such a poll is answered by the database), or missing. A
deleted table leaves a tombstone that nothing overwrites. Heads are keyed under the database's
epoch (:mod:`tables.epoch`): a head written for a move that a crash of PostgreSQL then lost is
never read after the restart (the next poll asks the database). A miss, a tombstone or a cache that
is not Redis: the caller asks the database.

**Grants.** The core knows nothing of who may see a table: the game's permission hook
(:class:`tables.registry.Audience`) names a table's scope (a Redis key prefix of its own, or
"" for none), and the script reads ``<scope>:<user id>`` with the head. What is stored there,
who fills it and when it is forgotten is the game's (a campaign's tables: the viewer's role,
:mod:`campaign.table_access`); the core hands the raw entry to the hook, which says whether
she may see the table or that the database must answer.

Changes made behind the ORM's back (``QuerySet.update`` of a version, raw SQL other than
``log_and_save``) send no signal: call :func:`publish` after them.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any, Final, NamedTuple

from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from redis.exceptions import NoScriptError, RedisError

from apibase import push
from apibase.cache_redis import default_redis, lua
from apibase.throttles import WindowCounter

from . import epoch

#: How long a head stays without a newer commit or read moving it: short, so even a commit
#: whose publication was lost (Redis unreachable at that moment) is answered right within it.
HEAD_SECONDS: Final = 60
_TOMBSTONE_VERSION: Final = 2**62

# KEYS[1] the head; ARGV: version, value, seconds. Moves the head forward only.
_FORWARD = """
local cur = redis.call('GET', KEYS[1])
if cur then
  local v = tonumber(string.match(cur, '^(%d+):'))
  if v and v >= tonumber(ARGV[1]) then return 0 end
end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
return 1
"""
# KEYS[1] the head; ARGV[1]: the user id. The head ("<version>:<scope>"), and the user's grant
# under its scope, in one round trip.
_READ = """
local head = redis.call('GET', KEYS[1])
if not head then return {false, false} end
local scope = string.match(head, '^%d+:(.+)$')
if not scope then return {head, false} end
return {head, redis.call('GET', scope .. ':' .. ARGV[1])}
"""


# KEYS[1] the head, KEYS[2] a token's cached user, KEYS[3] that user's id; ARGV[1..3] the API
# rate's window counter (prefix, suffix, seconds; "" when the rate is not counted); ARGV[4] the
# token cache's revoked mark as stored. The poll's whole lookup (who asks, the head, her grant)
# and the count of her request in one round trip; a revoked token counts against nobody.
_POLL = """
local head = redis.call('GET', KEYS[1])
local entry = redis.call('GET', KEYS[2])
local uid = redis.call('GET', KEYS[3])
local grant = false
local count = false
if head and uid then
  local scope = string.match(head, '^%d+:(.+)$')
  if scope then grant = redis.call('GET', scope .. ':' .. uid) end
end
if uid and entry and entry ~= ARGV[4] and ARGV[1] ~= '' then
  local counter = ARGV[1] .. uid .. ARGV[2]
  count = redis.call('INCR', counter)
  if count == 1 then redis.call('EXPIRE', counter, tonumber(ARGV[3])) end
end
return {entry, uid, head, grant, count}
"""
_FORWARD_SCRIPT: Final = lua(_FORWARD)
_READ_SCRIPT: Final = lua(_READ)
_POLL_SCRIPT: Final = lua(_POLL)


class Head(NamedTuple):
    version: int
    #: the table's scope as its game named it ("": none)
    scope: str
    #: what the game cached for the viewer under that scope (None: nothing, or no scope)
    grant: str | None


def _client() -> Any | None:
    """The redis-py client behind the default cache, or None when it is not Redis."""
    redis = default_redis()
    return redis.client if redis is not None else None


def head_key(label: str, pk: Any, at: str | None = None) -> str:
    """The head's key, under the database's epoch (``at``, default :func:`tables.epoch.
    current`): after a crash and restart of PostgreSQL, no head written before it (perhaps
    for a move that was lost) is read again."""
    return cache.make_key(f"table-head:{at or epoch.current()}:{label}:{pk}")


def scope_of(table: Any) -> str:
    """The scope the game of ``table`` names for it (:class:`tables.registry.Audience`), or
    "" (no game hook: nothing is read beside the head)."""
    from .registry import games_of

    for game in games_of(type(table)):
        if game.access.audience is not None:
            return game.access.audience.scope(table)
    return ""


def _forward(label: str, pk: Any, version: int, scope: str) -> bool:
    """Move the head forward (never back); False when Redis could not be told."""
    client = _client()
    if client is None:
        return True
    try:
        _FORWARD_SCRIPT(
            keys=[head_key(label, pk)],
            args=[version, f"{version}:{scope}", HEAD_SECONDS],
            client=client,
        )
    except RedisError:
        return False
    return True


def publish(table: Any) -> None:
    """Move ``table``'s cached head to its version now, before the commit.

    Before, not after: a head ahead of the database only sends a poll to the database (which
    answers with what is committed), while a head behind it would answer 204 for a changed
    table. Once moved, nothing can move it back, so nothing is left to do on commit (one Redis
    round trip per move), unless Redis could not be told now: then it is told on commit, and
    a rolled-back version only costs database reads until the next commit or the expiry."""
    label, pk, version = table._meta.label_lower, table.pk, int(table.version)
    scope = scope_of(table)
    if not _forward(label, pk, version, scope):
        transaction.on_commit(lambda: _forward(label, pk, version, scope), robust=True)


@contextlib.contextmanager
def publishing(table: Any) -> Iterator[None]:
    """:func:`publish` overlapped with the write it goes with: the script is sent to Redis
    before the caller's ``with`` block (the write) and its answer read after it, so a move
    waits for one round trip, PostgreSQL's, where it waited for two one after the other.

    The head still moves before the commit: Redis runs the script within microseconds of
    receiving it, while the write sent after it still has to be parsed, run and committed by
    PostgreSQL. (Were Redis ever that slow, a poll between the commit and the head would be
    answered 204, and the next poll would see the move, as a poll sent a moment earlier
    would.) A script Redis does not know yet (a new or flushed server) is loaded and run once
    the write is done; a head that could not be sent or answered is told on commit, as
    :func:`publish` does."""
    label, pk, version = table._meta.label_lower, table.pk, int(table.version)
    scope = scope_of(table)
    client = _client()
    if client is None:
        yield
        return
    pool = client.connection_pool
    sent = None
    try:
        sent = pool.get_connection()
        sent.send_command(
            "EVALSHA",
            _FORWARD_SCRIPT.sha,
            1,
            head_key(label, pk),
            version,
            f"{version}:{scope}",
            HEAD_SECONDS,
        )
    except RedisError:
        if sent is not None:
            pool.release(sent)
            sent = None
    try:
        yield
    finally:
        told = False
        if sent is not None:
            try:
                sent.read_response()
                told = True
            except NoScriptError:
                told = _forward(label, pk, version, scope)  # loads it, then runs it
            except RedisError:
                pass
            finally:
                pool.release(sent)
        if not told:
            transaction.on_commit(lambda: _forward(label, pk, version, scope), robust=True)


def remember(label: str, pk: Any, version: int, scope: str) -> None:
    """A read's head (moves the cached head forward only: never past a newer commit)."""
    _forward(label, pk, version, scope)


def poll_head(label: str, pk: Any, user_id: int) -> Head | None:
    """The cached head of table ``pk`` with ``user_id``'s grant, or None (ask the database)."""
    client = _client()
    if client is None:
        return None
    try:
        head, grant = _READ_SCRIPT(keys=[head_key(label, pk)], args=[user_id], client=client)
    except RedisError:
        return None  # the database answers
    return head_from(head, grant)


def head_from(head: bytes | None, grant: bytes | None) -> Head | None:
    """The head a script read as stored (``None``: missing or a tombstone), with the grant."""
    if head is None:
        return None
    version, _, scope = head.decode().partition(":")
    if int(version) >= _TOMBSTONE_VERSION:
        return None
    return Head(int(version), scope, grant.decode() if grant is not None else None)


class TokenPoll(NamedTuple):
    """What :func:`poll_with_token` read: the token's cache entry (raw: the token cache
    decides what it holds), the user id beside it, and the head with that user's grant."""

    entry: Any
    user_id: int | None
    head: Head | None
    #: the API rate's count of that user's requests in ``counter``'s window, this one included
    requests: int | None = None


def poll_with_token(
    label: str,
    pk: Any,
    token_keys: tuple[str, str],
    counter: WindowCounter | None = None,
    revoked: bytes = b"",
) -> TokenPoll | None:
    """A token's cached user and the head of table ``pk`` with her grant, in one round trip
    (``token_keys``: :func:`accounts.token_cache.token_entry_keys`), counting the request
    against the user's API rate in ``counter``'s window when given, unless the entry is the
    token cache's ``revoked`` mark; None without Redis."""
    redis = default_redis()
    if redis is None:
        return None
    rate = (counter.prefix, counter.suffix, counter.seconds) if counter else ("", "", 0)
    try:
        entry, uid, head, grant, count = _POLL_SCRIPT(
            keys=[head_key(label, pk), *token_keys],
            args=[*rate, revoked],
            client=redis.client,
        )
    except RedisError:
        return None
    user_id = int(uid) if uid is not None else None
    decoded = redis.serializer.loads(entry) if entry is not None else None
    return TokenPoll(
        decoded,
        user_id,
        head_from(head, grant) if user_id is not None else None,
        int(count) if count is not None else None,
    )


def _table_saved(sender: Any, instance: Any, update_fields: Any = None, **kwargs: Any) -> None:
    from .models import GameTable

    if isinstance(instance, GameTable) and (update_fields is None or "version" in update_fields):
        publish(instance)
        push.announce_table(instance._meta.label_lower, instance.pk, int(instance.version))
        instance.announce_beyond()


def _table_deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
    from .models import GameTable

    if isinstance(instance, GameTable):
        label, pk = instance._meta.label_lower, instance.pk

        def bury() -> None:
            client = _client()
            if client is not None:
                # Redis away: no tombstone, and a head left there expires within HEAD_SECONDS
                with contextlib.suppress(RedisError):
                    client.set(head_key(label, pk), f"{_TOMBSTONE_VERSION}:", ex=HEAD_SECONDS)

        bury()
        transaction.on_commit(bury, robust=True)


def connect() -> None:
    """Wire the tables' signals (``TablesConfig.ready``)."""
    post_save.connect(_table_saved, dispatch_uid="table-heads-saved")
    post_delete.connect(_table_deleted, dispatch_uid="table-heads-deleted")
