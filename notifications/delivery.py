"""Sending: one attempt at a delivery or a digest, the digest builder and the stale sweeper.

The row is the source of truth, so a task can run any number of times for one delivery:

1. **Claim** (its own short transaction): lock the row; anything but ``pending`` means another
   run finished it, so return. Count the attempt and commit, so a message that keeps killing
   its worker (redelivered by ``reject_on_worker_lost``) still runs out of attempts.
2. **Send** (second transaction): lock the row again and re-check it is ``pending``, send, and
   store ``sent``/``failed``/``skipped`` before committing. The lock is held across the send, so
   a duplicate message that arrives meanwhile waits, then sees ``sent`` and does nothing.

A worker killed in step 2 rolls its transaction back (PostgreSQL drops the dead connection and
its lock); the broker redelivers the unacknowledged message and the next run sends again. For
email, webhooks and push the receiver may see the message twice if the kill falls between its
arrival and the commit; the idempotency key (``delivery-<id>``) the channel sends lets it drop
the repeat (a push carries it as its ``tag``, so the repeat replaces the first one on screen).
The in-app channel sends nothing outside the database, so it skips the claim and is delivered in
one transaction: exactly once.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Literal

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import ngettext

from apibase import push
from notifications.models import (
    CampaignNotificationSettings,
    Delivery,
    DeliveryStatus,
    Digest,
    Notification,
    NotificationChannel,
    NotificationPreference,
)

from . import channels, texts

if TYPE_CHECKING:
    from accounts.models import User

Outcome = Literal["sent", "skipped", "failed", "retry", "noop"]


@dataclass(frozen=True, slots=True)
class AttemptResult:
    """What one attempt did; ``retry_in`` is the backoff in seconds when ``outcome`` is retry."""

    outcome: Outcome
    retry_in: float | None = None
    error: str = ""


def max_attempts() -> int:
    return int(settings.NOTIFICATION_MAX_ATTEMPTS)


def backoff_seconds(
    attempt: int, retry_after: float | None = None, *, rng: random.Random | None = None
) -> float:
    """Exponential backoff with jitter: base·2^(attempt-1), capped, then a random point in its
    upper half so many failed deliveries do not retry in lockstep. A receiver's Retry-After
    (e.g. Discord's 429) is honoured up to the cap."""
    base = float(settings.NOTIFICATION_RETRY_BASE_SECONDS)
    cap = float(settings.NOTIFICATION_RETRY_MAX_SECONDS)
    ceiling = min(cap, base * 2.0 ** max(0, attempt - 1))
    uniform = rng.uniform if rng is not None else random.uniform
    delay = ceiling / 2 + uniform(0, ceiling / 2)
    if retry_after:
        delay = max(delay, min(retry_after, cap))
    return delay


def _error(exc: BaseException) -> str:
    return str(exc)[:1000] or type(exc).__name__


# --------------------------------------------------------------------------- messages


def _item(notification: Notification) -> channels.MessageItem:
    """The notification's words in the active language (the recipient's)."""
    return channels.MessageItem(
        event=notification.event,
        title=notification.shown_title,
        body=notification.shown_body,
        url=channels.absolute_url(notification.url),
    )


def _webhook_target(recipient_id: int | None, campaign_id: int | None) -> str:
    """The webhook URL as it stands now (it may have been removed since the event)."""
    if recipient_id is not None:
        found = NotificationPreference.objects.filter(user_id=recipient_id).first()
        return found.webhook_url if found else ""
    if campaign_id is None:
        return ""
    config = CampaignNotificationSettings.objects.filter(campaign_id=campaign_id).first()
    return config.webhook_url if config else ""


def _send(
    channel: str,
    *,
    email: str,
    webhook_url: str,
    recipient_id: int | None,
    message: channels.Message,
) -> str:
    """Send on an external channel; returns a reason to skip, or "" when sent."""
    if channel == NotificationChannel.EMAIL:
        if not email:
            return "The recipient has no email address."
        channels.send_email(to=email, message=message)
    elif channel == NotificationChannel.WEBHOOK:
        if not webhook_url:
            return "No webhook URL is set any more."
        channels.send_webhook(url=webhook_url, message=message)
    elif channel == NotificationChannel.PUSH:
        if recipient_id is None:
            return "Push goes to a person's devices; this has no recipient."
        return channels.send_push(user_id=recipient_id, message=message)
    else:
        return f"Unknown channel {channel}."
    return ""


# --------------------------------------------------------------------------- deliveries


def _claim(model: type[Delivery] | type[Digest], pk: int) -> bool:
    """Step 1: count an attempt on a pending row; False when there is nothing to do."""
    with transaction.atomic():
        row = model.objects.select_for_update().filter(pk=pk).first()
        return _claim_locked(row)


def _claim_locked(row: Delivery | Digest | None) -> bool:
    if row is None or row.status != DeliveryStatus.PENDING:
        return False
    if row.attempts >= max_attempts():
        row.status = DeliveryStatus.FAILED
        row.last_error = row.last_error or (
            f"Gave up after {row.attempts} attempts that did not finish (worker lost?)."
        )
        row.save(update_fields=["status", "last_error", "updated_at"])
        if isinstance(row, Digest):
            row.deliveries.update(status=DeliveryStatus.FAILED, last_error=row.last_error)
        return False
    row.attempts += 1
    row.save(update_fields=["attempts", "updated_at"])
    return True


def delivery_attempt(*, delivery_id: int) -> AttemptResult:
    """One attempt at one delivery; safe to call again for the same id at any time."""
    with transaction.atomic():
        delivery = Delivery.objects.select_for_update().filter(pk=delivery_id).first()
        if delivery is not None and delivery.channel == NotificationChannel.IN_APP:
            return _deliver_in_app(delivery)
        if not _claim_locked(delivery):
            return AttemptResult("noop")
    with transaction.atomic():
        delivery = (
            Delivery.objects.select_for_update(of=("self",))
            .select_related("notification", "notification__recipient")
            .filter(pk=delivery_id)
            .first()
        )
        if delivery is None or delivery.status != DeliveryStatus.PENDING:
            return AttemptResult("noop")
        notification = delivery.notification
        now = timezone.now()
        # her language and time zone for every word of it (the site's for a campaign's webhook)
        with texts.recipient(notification.recipient):
            message = channels.Message(
                subject=notification.shown_title,
                items=(_item(notification),),
                idempotency_key=f"delivery-{delivery.pk}",
            )
            result = _attempt_send(
                delivery,
                message,
                recipient=notification.recipient,
                recipient_id=notification.recipient_id,
                campaign_id=notification.campaign_id,
            )
        _save_attempt(delivery, result, now)
    return result


def _deliver_in_app(delivery: Delivery) -> AttemptResult:
    """The in-app channel under the caller's lock: nothing leaves the database, so marking the
    notification delivered and the delivery sent in one transaction is exactly once."""
    if delivery.status != DeliveryStatus.PENDING:
        return AttemptResult("noop")
    now = timezone.now()
    delivered = Notification.objects.filter(pk=delivery.notification_id, in_app_at__isnull=True)
    recipient = delivered.values_list("recipient_id", flat=True).first()
    if delivered.update(in_app_at=now) and recipient is not None:
        push.announce_unread(recipient)
    delivery.attempts += 1
    delivery.status = DeliveryStatus.SENT
    delivery.sent_at = now
    delivery.last_error = ""
    delivery.save(update_fields=["attempts", "status", "sent_at", "last_error", "updated_at"])
    return AttemptResult("sent")


def in_app_batch_attempt(*, delivery_ids: list[int]) -> AttemptResult:
    """Deliver every still-pending in-app delivery of ``delivery_ids`` in one transaction:
    lock them (in id order, so two overlapping batches never deadlock), mark their
    notifications delivered, mark them sent. Safe to run again, and beside a single
    ``deliver`` of one of them: whichever locks a row first sends it, the other finds it sent.
    A worker killed mid-batch rolls all of it back and the redelivered message sends it all.
    """
    from django.db.models import F

    with transaction.atomic():
        rows = list(
            Delivery.objects.select_for_update(of=("self",))
            .filter(
                pk__in=delivery_ids,
                channel=NotificationChannel.IN_APP,
                status=DeliveryStatus.PENDING,
            )
            .order_by("pk")
            .values_list("pk", "notification_id", "notification__recipient_id")
        )
        if not rows:
            return AttemptResult("noop")
        now = timezone.now()
        Notification.objects.filter(
            pk__in={notification for _, notification, _ in rows}, in_app_at__isnull=True
        ).update(in_app_at=now)
        for recipient in {recipient for _, _, recipient in rows if recipient is not None}:
            push.announce_unread(recipient)
        Delivery.objects.filter(pk__in=[pk for pk, _, _ in rows]).update(
            attempts=F("attempts") + 1,
            status=DeliveryStatus.SENT,
            sent_at=now,
            last_error="",
            updated_at=now,
        )
    return AttemptResult("sent")


def _attempt_send(
    row: Delivery | Digest,
    message: channels.Message,
    *,
    recipient: User | None,
    recipient_id: int | None,
    campaign_id: int | None,
) -> AttemptResult:
    """Send for ``row`` (to the recipient's email, or the user's or campaign's webhook as it
    stands now) and set its status on failure or skip; the caller saves it."""
    email = recipient.email if recipient else ""
    webhook_url = (
        _webhook_target(recipient_id, campaign_id)
        if row.channel == NotificationChannel.WEBHOOK
        else ""
    )
    try:
        skip = _send(
            row.channel,
            email=email,
            webhook_url=webhook_url,
            recipient_id=recipient_id,
            message=message,
        )
    except channels.ChannelTransientError as exc:
        row.last_error = _error(exc)
        if row.attempts >= max_attempts():
            row.status = DeliveryStatus.FAILED
            return AttemptResult("failed", error=row.last_error)
        return AttemptResult(
            "retry", retry_in=backoff_seconds(row.attempts, exc.retry_after), error=row.last_error
        )
    except channels.ChannelPermanentError as exc:
        row.last_error = _error(exc)
        row.status = DeliveryStatus.FAILED
        return AttemptResult("failed", error=row.last_error)
    if skip:
        row.last_error = skip
        row.status = DeliveryStatus.SKIPPED
        return AttemptResult("skipped", error=skip)
    return AttemptResult("sent")


def _save_attempt(row: Delivery | Digest, result: AttemptResult, now: datetime) -> None:
    """Mark ``row`` sent when the attempt sent it, and save what the attempt changed."""
    if result.outcome == "sent":
        row.status = DeliveryStatus.SENT
        row.sent_at = now
        row.last_error = ""
    # A scheduled retry is not a lost message: the sweeper waits until it is due.
    row.retry_at = (
        now + timedelta(seconds=result.retry_in)
        if result.outcome == "retry" and result.retry_in is not None
        else None
    )
    row.save(update_fields=["status", "sent_at", "last_error", "retry_at", "updated_at"])


# --------------------------------------------------------------------------- digests


def _digest_message(digest: Digest, items: list[Notification]) -> channels.Message:
    """The digest in the active language (the caller's ``texts.recipient``)."""
    count = len(items)
    if digest.campaign_id and digest.campaign:
        subject = ngettext(
            "%(count)s update in %(campaign)s", "%(count)s updates in %(campaign)s", count
        ) % {"count": count, "campaign": digest.campaign.name}
    else:
        subject = ngettext("%(count)s update", "%(count)s updates", count) % {"count": count}
    return channels.Message(
        subject=subject,
        items=tuple(_item(n) for n in items),
        idempotency_key=f"digest-{digest.pk}",
        digest=True,
    )


def digest_attempt(*, digest_id: int) -> AttemptResult:
    """One attempt at one digest: the held deliveries attached to it go out as one message."""
    if not _claim(Digest, digest_id):
        return AttemptResult("noop")
    with transaction.atomic():
        digest = (
            Digest.objects.select_for_update(of=("self",))
            .select_related("recipient", "campaign")
            .filter(pk=digest_id)
            .first()
        )
        if digest is None or digest.status != DeliveryStatus.PENDING:
            return AttemptResult("noop")
        deliveries = list(
            digest.deliveries.filter(status=DeliveryStatus.HELD)
            .select_related("notification")
            .order_by("notification__created_at", "pk")
        )
        now = timezone.now()
        if not deliveries:
            result = AttemptResult("skipped", error="Nothing left to send.")
            digest.status = DeliveryStatus.SKIPPED
        else:
            with texts.recipient(digest.recipient):
                message = _digest_message(digest, [d.notification for d in deliveries])
                result = _attempt_send(
                    digest,
                    message,
                    recipient=digest.recipient,
                    recipient_id=digest.recipient_id,
                    campaign_id=digest.campaign_id,
                )
        _save_attempt(digest, result, now)
        if digest.status != DeliveryStatus.PENDING and deliveries:
            Delivery.objects.filter(pk__in=[d.pk for d in deliveries]).update(
                status=digest.status,
                sent_at=digest.sent_at,
                last_error=digest.last_error,
                updated_at=now,
            )
    return result


def digests_build(*, now: datetime | None = None, limit: int = 5000) -> list[int]:
    """Batch held deliveries into digests: one per user (or campaign) and channel, once the
    oldest held item has waited the chosen interval and the user is not in quiet mode.

    Digests for one destination are therefore at least an interval apart. Rows are locked with
    SKIP LOCKED, so two beat runs at once never put a delivery in two digests. Returns the new
    digest ids; they are enqueued when this transaction commits.
    """
    now = now or timezone.now()
    created: list[int] = []
    with transaction.atomic():
        held = list(
            Delivery.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(status=DeliveryStatus.HELD, digest__isnull=True)
            .select_related("notification")
            .order_by("created_at", "pk")[:limit]
        )
        groups: dict[tuple[int | None, int | None, str], list[Delivery]] = defaultdict(list)
        for delivery in held:
            n = delivery.notification
            campaign_id = None if n.recipient_id is not None else n.campaign_id
            groups[(n.recipient_id, campaign_id, delivery.channel)].append(delivery)
        user_ids = {key[0] for key in groups if key[0] is not None}
        campaign_ids = {key[1] for key in groups if key[1] is not None}
        prefs = {p.user_id: p for p in NotificationPreference.objects.filter(user_id__in=user_ids)}
        configs = {
            c.campaign_id: c
            for c in CampaignNotificationSettings.objects.filter(campaign_id__in=campaign_ids)
        }
        default_pref = NotificationPreference()
        for (user_id, campaign_id, channel), items in groups.items():
            if user_id is not None:
                pref = prefs.get(user_id, default_pref)
                if pref.quiet:
                    continue
                interval = pref.digest_minutes
            else:
                config = configs.get(campaign_id) if campaign_id is not None else None
                interval = config.digest_minutes if config else 0
            if now - items[0].created_at < timedelta(minutes=interval):
                continue
            digest = Digest.objects.create(
                recipient_id=user_id, campaign_id=campaign_id, channel=channel
            )
            Delivery.objects.filter(pk__in=[d.pk for d in items]).update(digest=digest)
            created.append(digest.pk)
        if created:
            from .tasks import enqueue_digests

            transaction.on_commit(lambda: enqueue_digests(created), robust=True)
    return created


# --------------------------------------------------------------------------- the sweeper


def stale_pending(*, now: datetime | None = None) -> tuple[list[int], list[int]]:
    """Pending deliveries and digests whose message was lost: untouched for longer than a task
    may run (``NOTIFICATION_STALE_SECONDS``, above the tasks' hard time limits) and with no retry
    still to come. A worker killed whole with a task in flight leaves exactly that (its message
    waits in the broker's unacknowledged set until the visibility timeout, an hour); so do a
    broker outage at commit and a dropped retry. Re-enqueueing is safe: the tasks are idempotent,
    and a copy that arrives while the first run still holds the row waits for its lock and then
    finds the row sent."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=float(settings.NOTIFICATION_STALE_SECONDS))
    lost = Q(status=DeliveryStatus.PENDING, updated_at__lt=cutoff) & (
        Q(retry_at__isnull=True) | Q(retry_at__lt=cutoff)
    )
    deliveries = list(
        Delivery.objects.filter(lost).order_by("updated_at").values_list("pk", flat=True)[:1000]
    )
    digest_cutoff = now - timedelta(seconds=float(settings.NOTIFICATION_DIGEST_STALE_SECONDS))
    lost_digests = Q(status=DeliveryStatus.PENDING, updated_at__lt=digest_cutoff) & (
        Q(retry_at__isnull=True) | Q(retry_at__lt=digest_cutoff)
    )
    digests = list(
        Digest.objects.filter(lost_digests)
        .order_by("updated_at")
        .values_list("pk", flat=True)[:1000]
    )
    return deliveries, digests
