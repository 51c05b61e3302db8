"""The unchanged poll answered from Redis: each table's current version (its *head*) and each
user's role in a campaign, read together in one round trip (:func:`poll_head`).

**Heads.** A table's version and campaign are written to the cache before the commit of every
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

**Roles.** ``campaign-role:<campaign>:<user>`` holds the user's role (or ``-``: not a member),
filled only by a read that found it (``SET NX``). Every membership change (``post_save``,
``post_delete``: a role changed, a member removed, a campaign deleted) replaces the entry with a
short-lived mark at once and again on commit, so a filling request that read the database
before the change cannot store what it read, and the removed member's very next poll goes to
the database (404).

Changes made behind the ORM's back (``QuerySet.update`` of a version or a role, raw SQL other
than ``log_and_save``) send no signal: call :func:`publish` / :func:`forget_role` after them.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any, Final, NamedTuple

from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from redis.exceptions import NoScriptError, RedisError

from apibase.cache_redis import default_redis, lua
from apibase.throttles import WindowCounter

from . import epoch

#: How long a head stays without a newer commit or read moving it: short, so even a commit
#: whose publication was lost (Redis unreachable at that moment) is answered right within it.
HEAD_SECONDS: Final = 60
#: How long a role stays (bounds memory: every change replaces it at once).
ROLE_SECONDS: Final = 600
#: How long a membership change keeps its entry from being refilled.
ROLE_MARK_SECONDS: Final = 5
_TOMBSTONE_VERSION: Final = 2**62
_NOT_MEMBER: Final = "-"
_MARK: Final = "changed"

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
# KEYS[1] the head; ARGV: the role key's prefix, the user id. The head, and the role in its
# campaign, in one round trip.
_READ = """
local head = redis.call('GET', KEYS[1])
if not head then return {false, false} end
local campaign = string.match(head, ':(%d+)$')
if not campaign then return {head, false} end
return {head, redis.call('GET', ARGV[1] .. campaign .. ':' .. ARGV[2])}
"""


# KEYS[1] the head, KEYS[2] a token's cached user, KEYS[3] that user's id; ARGV[1] the role
# key's prefix; ARGV[2..4] the API rate's window counter (prefix, suffix, seconds; "" when the
# rate is not counted); ARGV[5] the token cache's revoked mark as stored. The poll's whole
# lookup (who asks, the head, her role) and the count of her request in one round trip; a
# revoked token counts against nobody.
_POLL = """
local head = redis.call('GET', KEYS[1])
local entry = redis.call('GET', KEYS[2])
local uid = redis.call('GET', KEYS[3])
local role = false
local count = false
if head and uid then
  local campaign = string.match(head, ':(%d+)$')
  if campaign then role = redis.call('GET', ARGV[1] .. campaign .. ':' .. uid) end
end
if uid and entry and entry ~= ARGV[5] and ARGV[2] ~= '' then
  local counter = ARGV[2] .. uid .. ARGV[3]
  count = redis.call('INCR', counter)
  if count == 1 then redis.call('EXPIRE', counter, tonumber(ARGV[4])) end
end
return {entry, uid, head, role, count}
"""
_FORWARD_SCRIPT: Final = lua(_FORWARD)
_READ_SCRIPT: Final = lua(_READ)
_POLL_SCRIPT: Final = lua(_POLL)


class Head(NamedTuple):
    version: int
    campaign_id: int
    #: the viewer's role in that campaign: a role, "" for none, None when not cached
    role: str | None


def _client() -> Any | None:
    """The redis-py client behind the default cache, or None when it is not Redis."""
    redis = default_redis()
    return redis.client if redis is not None else None


def head_key(label: str, pk: Any, at: str | None = None) -> str:
    """The head's key, under the database's epoch (``at``, default :func:`tables.epoch.
    current`): after a crash and restart of PostgreSQL, no head written before it (perhaps
    for a move that was lost) is read again."""
    return cache.make_key(f"table-head:{at or epoch.current()}:{label}:{pk}")


def role_key(campaign_id: Any, user_id: Any) -> str:
    return cache.make_key(f"campaign-role:{campaign_id}:{user_id}")


def _forward(label: str, pk: Any, version: int, campaign_id: int) -> bool:
    """Move the head forward (never back); False when Redis could not be told."""
    client = _client()
    if client is None:
        return True
    try:
        _FORWARD_SCRIPT(
            keys=[head_key(label, pk)],
            args=[version, f"{version}:{campaign_id}", HEAD_SECONDS],
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
    campaign_id = int(getattr(table, "campaign_id", None) or 0)
    if not _forward(label, pk, version, campaign_id):
        transaction.on_commit(lambda: _forward(label, pk, version, campaign_id), robust=True)


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
    campaign_id = int(getattr(table, "campaign_id", None) or 0)
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
            f"{version}:{campaign_id}",
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
                told = _forward(label, pk, version, campaign_id)  # loads it, then runs it
            except RedisError:
                pass
            finally:
                pool.release(sent)
        if not told:
            transaction.on_commit(lambda: _forward(label, pk, version, campaign_id), robust=True)


def remember(label: str, pk: Any, version: int, campaign_id: int) -> None:
    """A read's head (moves the cached head forward only: never past a newer commit)."""
    _forward(label, pk, version, campaign_id)


def poll_head(label: str, pk: Any, user_id: int) -> Head | None:
    """The cached head of table ``pk`` with ``user_id``'s role, or None (ask the database)."""
    client = _client()
    if client is None:
        return None
    try:
        head, role = _READ_SCRIPT(
            keys=[head_key(label, pk)], args=[role_key("", "")[:-1], user_id], client=client
        )
    except RedisError:
        return None  # the database answers
    return _head(head, role)


def _head(head: bytes | None, role: bytes | None) -> Head | None:
    if head is None:
        return None
    version, campaign = head.decode().split(":")
    if int(version) >= _TOMBSTONE_VERSION or campaign == "0":
        return None
    shown = None
    if role is not None:
        shown = role.decode()
        shown = None if shown == _MARK else ("" if shown == _NOT_MEMBER else shown)
    return Head(int(version), int(campaign), shown)


class TokenPoll(NamedTuple):
    """What :func:`poll_with_token` read: the token's cache entry (raw: the token cache
    decides what it holds), the user id beside it, and the head with that user's role."""

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
    """A token's cached user and the head of table ``pk`` with her role, in one round trip
    (``token_keys``: :func:`accounts.token_cache.token_entry_keys`), counting the request
    against the user's API rate in ``counter``'s window when given, unless the entry is the
    token cache's ``revoked`` mark; None without Redis."""
    redis = default_redis()
    if redis is None:
        return None
    rate = (counter.prefix, counter.suffix, counter.seconds) if counter else ("", "", 0)
    try:
        entry, uid, head, role, count = _POLL_SCRIPT(
            keys=[head_key(label, pk), *token_keys],
            args=[role_key("", "")[:-1], *rate, revoked],
            client=redis.client,
        )
    except RedisError:
        return None
    user_id = int(uid) if uid is not None else None
    decoded = redis.serializer.loads(entry) if entry is not None else None
    return TokenPoll(
        decoded,
        user_id,
        _head(head, role) if user_id is not None else None,
        int(count) if count is not None else None,
    )


def remember_role(campaign_id: int, user_id: int, role: str | None) -> None:
    """Store a role read from the database, unless a change's mark holds the entry."""
    client = _client()
    if client is not None:
        value = role or _NOT_MEMBER
        with contextlib.suppress(RedisError):
            client.set(role_key(campaign_id, user_id), value, nx=True, ex=ROLE_SECONDS)


def forget_role(campaign_id: Any, user_id: Any) -> None:
    client = _client()
    if client is not None:
        client.set(role_key(campaign_id, user_id), _MARK, ex=ROLE_MARK_SECONDS)


def _table_saved(sender: Any, instance: Any, update_fields: Any = None, **kwargs: Any) -> None:
    from .models import GameTable

    if isinstance(instance, GameTable) and (update_fields is None or "version" in update_fields):
        publish(instance)


def _table_deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
    from .models import GameTable

    if isinstance(instance, GameTable):
        label, pk = instance._meta.label_lower, instance.pk

        def bury() -> None:
            client = _client()
            if client is not None:
                client.set(head_key(label, pk), f"{_TOMBSTONE_VERSION}:0", ex=HEAD_SECONDS)

        bury()
        transaction.on_commit(bury, robust=True)


def membership_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A membership's ``post_save``/``post_delete`` receiver (wired by the campaign app)."""
    campaign_id, user_id = instance.campaign_id, instance.user_id
    forget_role(campaign_id, user_id)
    transaction.on_commit(lambda: forget_role(campaign_id, user_id), robust=True)


def connect() -> None:
    """Wire the tables' signals (``TablesConfig.ready``)."""
    post_save.connect(_table_saved, dispatch_uid="table-heads-saved")
    post_delete.connect(_table_deleted, dispatch_uid="table-heads-deleted")
