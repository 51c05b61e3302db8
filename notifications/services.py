"""Writes: raising notifications, reading them, and changing preferences.

:func:`notify` is what other features call. It stores the notification and one
:class:`~campaign.models.Delivery` per channel in the caller's transaction and enqueues the
deliveries only **on commit**: an event whose transaction rolls back sends nothing, and the
worker never looks for rows it cannot see yet.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from functools import partial
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from apibase import push
from campaign.models import Membership
from notifications.models import (
    CampaignNotificationSettings,
    Delivery,
    DeliveryStatus,
    EventType,
    Notification,
    NotificationChannel,
    NotificationPreference,
    PushSubscription,
)

from . import selectors, webpush
from .texts import Words, dump, english
from .webhooks import UnsafeWebhookURL, vet_url

if TYPE_CHECKING:
    from accounts.models import User
    from campaign.models import Campaign
    from campaign.permissions import CampaignAccess


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def checked_link(url: str) -> str:
    """A notification's link: a site path or an http(s) URL. Anything else (``javascript:``,
    ``//elsewhere``) would become a link in the list, an email and a webhook: refused."""
    url = (url or "").strip()
    if not url:
        return ""
    if len(url) > 500:
        raise ValueError("A notification link may be at most 500 characters.")
    if (url.startswith("/") and not url.startswith("//")) or url.startswith(
        ("http://", "https://")
    ):
        return url
    raise ValueError(f"A notification link must be a site path or an http(s) URL, not {url!r}.")


def _enqueue_on_commit(delivery_ids: list[int], *, urgent: bool) -> None:
    if not delivery_ids:
        return
    from .tasks import enqueue_deliveries

    # robust: a broker hiccup at commit must not turn a committed event into a 500; the
    # deliveries stay pending and requeue_stale_deliveries picks them up.
    transaction.on_commit(partial(enqueue_deliveries, delivery_ids, urgent=urgent), robust=True)


class _InAppBatch:
    """The in-app deliveries created in one transaction, published together when it commits
    (one task per :data:`notifications.tasks.IN_APP_BATCH` of them, not one each).

    Why: a burst (loot for the whole party, a thousand reminders) would otherwise be a
    thousand tasks, each a broker round trip and three queries; delivering a batch is one
    locked read and two updates. It is registered with ``on_commit`` once per transaction,
    so a rolled-back transaction drops it with everything else and publishes nothing.
    Urgent and other deliveries make separate batches: urgent ones go by the urgent queue
    (``settings.NOTIFICATION_URGENT_QUEUE``), never behind digests.
    """

    def __init__(self, *, urgent: bool) -> None:
        self.ids: list[int] = []
        self.urgent = urgent

    def __call__(self) -> None:
        from .tasks import enqueue_in_app

        enqueue_in_app(self.ids, urgent=self.urgent)


def _enqueue_in_app_on_commit(delivery_ids: list[int], *, urgent: bool) -> None:
    """Add in-app deliveries to this transaction's batch (publish at once outside one)."""
    if not delivery_ids:
        return
    connection = transaction.get_connection()
    # The batch still waiting for this transaction's commit, if one was registered and not
    # dropped by a savepoint's rollback (Django keeps the callbacks with their savepoints).
    # Outside a transaction on_commit runs at once: a batch of its own.
    waiting = (
        next(
            (
                f
                for _, f, _ in connection.run_on_commit
                if isinstance(f, _InAppBatch) and f.urgent == urgent
            ),
            None,
        )
        if connection.in_atomic_block
        else None
    )
    if waiting is not None:
        waiting.ids.extend(delivery_ids)
        return
    batch = _InAppBatch(urgent=urgent)
    batch.ids.extend(delivery_ids)
    transaction.on_commit(batch, robust=True)


def _hold(event: EventType, channel: str, *, quiet: bool, digest_minutes: int) -> bool:
    """Non-urgent email/webhook/push deliveries wait for the digest (or for quiet mode to end)."""
    if event.urgent or channel == NotificationChannel.IN_APP:
        return False
    return quiet or digest_minutes > 0


def _create_once(
    *,
    recipient: User | None,
    campaign: Campaign | None,
    event: EventType,
    title: Words,
    body: Words,
    url: str,
    dedupe_key: str | None,
) -> Notification | None:
    """Create the notification row; None when ``dedupe_key`` was already used for it. Words
    given as :class:`~notifications.texts.Text` are kept as message ids for each reader's
    language, and in English in ``title`` and ``body``."""
    texts = {name: data for name, data in (("title", dump(title)), ("body", dump(body))) if data}
    try:
        with transaction.atomic():  # a savepoint, so a duplicate leaves the caller's tx usable
            return Notification.objects.create(
                recipient=recipient,
                campaign=campaign,
                event=event,
                title=_clip(english(title), 200),
                body=english(body),
                texts=texts,
                url=url,
                dedupe_key=dedupe_key,
            )
    except IntegrityError:
        if dedupe_key is None:
            raise
        return None


def notify(
    *,
    recipient: User,
    event: EventType | str,
    campaign: Campaign | None = None,
    title: Words,
    body: Words = "",
    url: str = "",
    dedupe_key: str | None = None,
) -> Notification | None:
    """Notify one user of ``event`` on the channels their preferences switch on.

    ``title`` and ``body``: a :class:`~notifications.texts.Text` (``texts.gettext_lazy(…)``),
    so each channel and page shows them in the reader's language, or a plain string shown as
    it is (what a user wrote).

    ``url`` is a site path (``/campaigns/3/``) or an absolute URL. With ``dedupe_key``, raising
    the same event for the same user again is a no-op that returns None (a retried request or
    a redelivered task cannot notify twice). Call it inside the transaction that makes the
    event happen: nothing is enqueued unless that transaction commits. Urgent events (see
    :data:`campaign.models.URGENT_EVENTS`) go out at once; others on email and webhook are
    held for the user's digest when they use one or are in quiet mode.
    """
    event = EventType(event)
    url = checked_link(url)
    pref = selectors.preference_for(recipient)
    channels = set(selectors.enabled_channels(pref, event))
    if not recipient.email:
        channels.discard(NotificationChannel.EMAIL)
    if not pref.webhook_url:
        channels.discard(NotificationChannel.WEBHOOK)
    if NotificationChannel.PUSH in channels and not selectors.push_ready(recipient):
        channels.discard(NotificationChannel.PUSH)
    with transaction.atomic():
        notification = _create_once(
            recipient=recipient,
            campaign=campaign,
            event=event,
            title=title,
            body=body,
            url=url,
            dedupe_key=dedupe_key,
        )
        if notification is None:
            return None
        deliveries = Delivery.objects.bulk_create(
            [
                Delivery(
                    notification=notification,
                    channel=channel,
                    status=DeliveryStatus.HELD
                    if _hold(event, channel, quiet=pref.quiet, digest_minutes=pref.digest_minutes)
                    else DeliveryStatus.PENDING,
                )
                for channel in sorted(channels)
            ]
        )
        pending = [d for d in deliveries if d.status == DeliveryStatus.PENDING]
        _enqueue_in_app_on_commit(
            [d.pk for d in pending if d.channel == NotificationChannel.IN_APP],
            urgent=event.urgent,
        )
        _enqueue_on_commit(
            [d.pk for d in pending if d.channel != NotificationChannel.IN_APP],
            urgent=event.urgent,
        )
    return notification


def notify_campaign(
    *,
    campaign: Campaign,
    event: EventType | str,
    title: Words,
    body: Words = "",
    url: str = "",
    dedupe_key: str | None = None,
    exclude: Iterable[User] = (),
) -> list[Notification]:
    """Notify every member of ``campaign`` (but ``exclude``), and post once to its webhook.

    Each member gets :func:`notify` with their own preferences; the campaign's webhook (set by
    its GMs) gets one message, if it takes this event type, instead of one per member.
    """
    event = EventType(event)
    url = checked_link(url)
    excluded = {user.pk for user in exclude}
    created: list[Notification] = []
    with transaction.atomic():
        members = Membership.objects.filter(campaign=campaign).select_related("user")
        for membership in members.order_by("pk"):
            if membership.user_id in excluded:
                continue
            notification = notify(
                recipient=membership.user,
                event=event,
                campaign=campaign,
                title=title,
                body=body,
                url=url,
                dedupe_key=dedupe_key,
            )
            if notification is not None:
                created.append(notification)
        _notify_campaign_webhook(
            campaign=campaign, event=event, title=title, body=body, url=url, dedupe_key=dedupe_key
        )
    return created


def _notify_campaign_webhook(
    *,
    campaign: Campaign,
    event: EventType,
    title: Words,
    body: Words,
    url: str,
    dedupe_key: str | None,
) -> Notification | None:
    config = selectors.campaign_settings_for(campaign)
    if not config.webhook_url or event not in (config.events or []):
        return None
    notification = _create_once(
        recipient=None,
        campaign=campaign,
        event=event,
        title=title,
        body=body,
        url=url,
        dedupe_key=dedupe_key,
    )
    if notification is None:
        return None
    held = _hold(
        event, NotificationChannel.WEBHOOK, quiet=False, digest_minutes=config.digest_minutes
    )
    delivery = Delivery.objects.create(
        notification=notification,
        channel=NotificationChannel.WEBHOOK,
        status=DeliveryStatus.HELD if held else DeliveryStatus.PENDING,
    )
    if not held:
        _enqueue_on_commit([delivery.pk], urgent=event.urgent)
    return notification


# --------------------------------------------------------------------------- reading


def notification_mark_read(*, user: User, notification_id: int) -> Notification:
    """Mark one of the user's notifications read; someone else's raises DoesNotExist (404)."""
    notification = selectors.inbox(user).get(pk=notification_id)
    if notification.read_at is None:
        notification.read_at = timezone.now()
        notification.save(update_fields=["read_at"])
        push.announce_unread(user.pk)
    return notification


def notifications_mark_all_read(*, user: User) -> int:
    """Mark every unread notification of the user read; returns how many changed."""
    changed = selectors.inbox(user).filter(read_at__isnull=True).update(read_at=timezone.now())
    if changed:
        push.announce_unread(user.pk)
    return changed


# --------------------------------------------------------------------------- preferences


def _checked_webhook(url: str) -> str:
    """The URL as it will be stored and sent (ASCII: IDNA host, percent-encoded path), or a
    field error: a URL that is saved can always be sent."""
    url = (url or "").strip()
    if url:
        try:
            return vet_url(url).url
        except UnsafeWebhookURL as exc:
            raise ValidationError({"webhook_url": [str(exc)]}) from None
    return url


def _checked_channels(channels: Mapping[str, Iterable[str]]) -> dict[str, list[str]]:
    errors: list[str] = []
    cleaned: dict[str, list[str]] = {}
    for event, chosen in channels.items():
        if event not in EventType.values:
            errors.append(f"Unknown event type “{event}”.")
            continue
        chosen = list(chosen)
        unknown = [c for c in chosen if c not in NotificationChannel.values]
        if unknown:
            errors.append(f"Unknown channel “{unknown[0]}” for {event}.")
            continue
        cleaned[event] = sorted(set(chosen))
    if errors:
        raise ValidationError({"channels": errors})
    return cleaned


def preferences_update(
    *,
    user: User,
    channels: Mapping[str, Iterable[str]] | None = None,
    quiet: bool | None = None,
    digest_minutes: int | None = None,
    webhook_url: str | None = None,
) -> NotificationPreference:
    """Change what the user receives; only the given fields change. Bad input raises a
    ``ValidationError`` keyed by field (the webhook URL is checked for SSRF here too)."""
    pref = selectors.preference_for(user)
    if channels is not None:
        pref.channels = {**(pref.channels or {}), **_checked_channels(channels)}
    if quiet is not None:
        pref.quiet = bool(quiet)
    if digest_minutes is not None:
        allowed = {
            value
            for value, _ in NotificationPreference._meta.get_field("digest_minutes").choices or ()
        }
        if digest_minutes not in allowed:
            choices = ", ".join(str(m) for m in sorted(allowed))
            words = gettext("Choose one of %(choices)s.") % {"choices": choices}
            raise ValidationError({"digest_minutes": [words]})
        pref.digest_minutes = digest_minutes
    if webhook_url is not None:
        pref.webhook_url = _checked_webhook(webhook_url)
    pref.save()
    return pref


def campaign_settings_update(
    *,
    campaign: Campaign,
    by: CampaignAccess,
    webhook_url: str,
    events: Iterable[str],
    digest_minutes: int,
) -> CampaignNotificationSettings:
    """Set the campaign's webhook. Only its GMs may (the caller's access is checked here)."""
    if not by.can_manage or by.campaign_id != campaign.pk:
        raise PermissionDenied(gettext("Only the campaign's game masters may change its webhook."))
    events = sorted(set(events))
    unknown = [e for e in events if e not in EventType.values]
    if unknown:
        words = gettext("Unknown event type “%(event)s”.") % {"event": unknown[0]}
        raise ValidationError({"events": [words]})
    config = selectors.campaign_settings_for(campaign)
    config.webhook_url = _checked_webhook(webhook_url)
    config.events = events
    config.digest_minutes = digest_minutes
    config.save()
    return config


# --------------------------------------------------------------------------- push devices

#: Devices one user may subscribe (a phone, a tablet, a few browsers).
MAX_PUSH_DEVICES = 20


def session_digest(session_key: str | None) -> str:
    """What a device keeps of the session it subscribed from: a digest, never the key."""
    return hashlib.sha256(session_key.encode()).hexdigest() if session_key else ""


def push_subscription_add(
    *,
    user: User,
    endpoint: str,
    p256dh: str,
    auth: str,
    name: str = "",
    session_key: str | None = None,
) -> PushSubscription:
    """Subscribe a device (its browser's push endpoint and keys) to the user's push channel.

    The endpoint is vetted like a webhook URL (it is an address the server will post to), and
    must be https outside the tests. Subscribing the same endpoint again updates it; an
    endpoint another account subscribed moves to this one (the browser belongs to whoever is
    signed in on it now). ``session_key``: the sign-in session it subscribed from, whose
    sign-out removes it (:func:`push_subscriptions_signed_out`). Bad input raises a
    ``ValidationError`` keyed by field.
    """
    if not webpush.available():
        raise ValidationError(
            {"endpoint": [gettext("Push notifications are not set up on this site.")]}
        )
    endpoint = (endpoint or "").strip()
    errors: dict[str, list[str]] = {}
    try:
        vetted = vet_url(endpoint)
    except UnsafeWebhookURL as exc:
        errors["endpoint"] = [str(exc)]
    else:
        if vetted.scheme != "https" and not getattr(settings, "WEBHOOK_ALLOW_LOOPBACK", False):
            errors["endpoint"] = ["A push service's address starts with https://."]
        endpoint = vetted.url
    if not webpush.valid_keys(p256dh or "", auth or ""):
        errors["keys"] = ["The device's keys are not a P-256 public key and a 16-byte secret."]
    if errors:
        raise ValidationError(errors)
    name = _clip((name or "").strip() or "A device", 100)
    with transaction.atomic():
        existing = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
        if existing is None:
            count = PushSubscription.objects.filter(user=user).count()
            if count >= MAX_PUSH_DEVICES:
                raise ValidationError(
                    {
                        "endpoint": [
                            gettext("At most %(most)s devices; remove one first.")
                            % {"most": MAX_PUSH_DEVICES}
                        ]
                    }
                )
            if count == 0:
                _push_on_where_never_chosen(user)
            return PushSubscription.objects.create(
                user=user,
                endpoint=endpoint,
                p256dh=p256dh,
                auth=auth,
                name=name,
                session_digest=session_digest(session_key),
            )
        existing.user = user
        existing.p256dh = p256dh
        existing.auth = auth
        existing.name = name
        existing.session_digest = session_digest(session_key)
        existing.save(update_fields=["user", "p256dh", "auth", "name", "session_digest"])
        return existing


def _push_on_where_never_chosen(user: User) -> None:
    """Her first device: saved preferences that never named push (saved before push existed,
    or with push off everywhere while no device could take it) would keep the new device
    silent, so push goes on for every event, as for someone who never chose. The grid's Push
    column turns it off again per event."""
    pref = NotificationPreference.objects.filter(user=user).first()
    if pref is None or not pref.channels:
        return  # the defaults already include push
    if any(NotificationChannel.PUSH in chosen for chosen in pref.channels.values()):
        return
    pref.channels = {
        event: sorted({*chosen, NotificationChannel.PUSH})
        for event, chosen in pref.channels.items()
    }
    pref.save(update_fields=["channels", "updated_at"])


def push_subscriptions_signed_out(*, user: User, session_key: str | None) -> int:
    """Remove the devices ``user`` subscribed from the session she is signing out of (the
    browser may be shared: the next person on it must not receive her notifications)."""
    if not session_key:
        return 0
    found = PushSubscription.objects.filter(user=user, session_digest=session_digest(session_key))
    return found.delete()[0]


def push_subscription_remove(*, user: User, subscription_id: int) -> None:
    """Remove one of the user's devices; someone else's raises DoesNotExist (404)."""
    PushSubscription.objects.filter(user=user).get(pk=subscription_id).delete()
