"""The channels a notification goes out on, and the message each one sends.

Every sender either returns (sent) or raises :class:`ChannelTransientError` (a later attempt may
succeed: the task retries with backoff) or :class:`ChannelPermanentError` (give up now). The
in-app channel has no sender: delivering in the app is marking the notification delivered, which
the delivery service does in the same transaction as the status change.

Each message carries an idempotency key (``delivery-<id>`` or ``digest-<id>``). A worker killed
after the receiver got the message but before the sent status was committed sends it again on
redelivery (at-least-once is the only honest promise across a network); the key lets the
receiver drop the repeat: webhooks get an ``Idempotency-Key`` header, emails a fixed Message-ID,
push messages a ``Topic`` header and the notification's ``tag`` (the service worker shows a repeat
in place of the first).
"""

from __future__ import annotations

import smtplib
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from . import webhooks, webpush
from .models import EventType, PushSubscription

# Discord's limits: 2,000 characters of content, 10 embeds, 256 per title, 4,096 per description.
DISCORD_CONTENT_MAX = 2000
DISCORD_EMBEDS_MAX = 10
DISCORD_TITLE_MAX = 256
DISCORD_DESCRIPTION_MAX = 4096


class ChannelTransientError(Exception):
    """Try again later (timeouts, refused connections, 5xx, SMTP 4xx)."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class ChannelPermanentError(Exception):
    """Retrying cannot help (4xx, a redirect, an unsafe URL, a refused recipient)."""


@dataclass(frozen=True, slots=True)
class MessageItem:
    """One notification in a message; ``url`` is absolute or empty."""

    event: str
    title: str
    body: str
    url: str


@dataclass(frozen=True, slots=True)
class Message:
    """What one send carries: a single notification, or a digest of several."""

    subject: str
    items: tuple[MessageItem, ...]
    idempotency_key: str
    digest: bool = False


def absolute_url(url: str) -> str:
    """Links in emails and webhooks leave the site, so they need the site's address."""
    if not url:
        return ""
    return urljoin(str(settings.SITE_URL).rstrip("/") + "/", url)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def discord_payload(message: Message) -> dict[str, object]:
    """Discord-compatible JSON. Mentions are disabled so a title cannot ping ``@everyone``."""
    embeds = []
    for item in message.items[:DISCORD_EMBEDS_MAX]:
        embed: dict[str, str] = {"title": _clip(item.title, DISCORD_TITLE_MAX)}
        if item.body:
            embed["description"] = _clip(item.body, DISCORD_DESCRIPTION_MAX)
        if item.url.startswith(("http://", "https://")):
            embed["url"] = item.url
        embeds.append(embed)
    if message.digest:
        content = f"**{message.subject}**"
        hidden = len(message.items) - DISCORD_EMBEDS_MAX
        if hidden > 0:
            rest = "\n".join(f"• {item.title}" for item in message.items[DISCORD_EMBEDS_MAX:])
            more = ngettext("…and %(count)s more:", "…and %(count)s more:", hidden) % {
                "count": hidden
            }
            content = f"{content}\n{more}\n{rest}"
    else:
        content = message.subject
    return {
        "username": "Western Roses",
        "content": _clip(content, DISCORD_CONTENT_MAX),
        "embeds": embeds,
        "allowed_mentions": {"parse": []},
    }


def email_text(message: Message) -> tuple[str, str]:
    """Subject and plain-text body, in the active language (the recipient's: the delivery
    service builds the message inside ``texts.recipient``)."""
    subject = f"[Western Roses] {message.subject}"
    blocks = []
    for item in message.items:
        lines = [item.title] if message.digest else []
        if item.body:
            lines.append(item.body)
        if item.url:
            lines.append(item.url)
        blocks.append("\n".join(lines))
    footer = gettext("Change what you receive: %(url)s") % {
        "url": absolute_url("/notifications/preferences/")
    }
    return subject, "\n\n".join([*blocks, "--", footer])


def _message_id(key: str) -> str:
    domain = urlsplit(settings.SITE_URL).hostname or "westernroses.invalid"
    return f"<{key}@{domain}>"


def send_email(*, to: str, message: Message) -> None:
    """Send through Django's email backend (console by default, SMTP with EMAIL_URL)."""
    subject, body = email_text(message)
    email = EmailMessage(
        subject=subject,
        body=body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[to],
        headers={"Message-ID": _message_id(message.idempotency_key)},
        connection=get_connection(timeout=settings.EMAIL_TIMEOUT),
    )
    try:
        email.send()
    except smtplib.SMTPRecipientsRefused as exc:
        raise ChannelPermanentError(f"The mail server refused the recipient: {exc}") from exc
    except smtplib.SMTPResponseException as exc:
        if 500 <= exc.smtp_code < 600:
            raise ChannelPermanentError(f"SMTP {exc.smtp_code}: {exc.smtp_error!r}") from exc
        raise ChannelTransientError(f"SMTP {exc.smtp_code}: {exc.smtp_error!r}") from exc
    except (smtplib.SMTPException, OSError) as exc:
        raise ChannelTransientError(f"{type(exc).__name__}: {exc}") from exc


def send_webhook(*, url: str, message: Message) -> None:
    """POST Discord-compatible JSON with an ``Idempotency-Key`` header (SSRF-safe)."""
    try:
        webhooks.post_json(
            url,
            discord_payload(message),
            headers={"Idempotency-Key": message.idempotency_key},
        )
    except webhooks.WebhookTransientError as exc:
        raise ChannelTransientError(str(exc), retry_after=exc.retry_after) from exc
    except webhooks.WebhookPermanentError as exc:
        raise ChannelPermanentError(str(exc)) from exc


def push_payload(message: Message) -> webpush.Payload:
    """The words a push shows: the notification's own title, body and link (a digest: its
    subject, the titles, and the notification list)."""
    if message.digest or len(message.items) != 1:
        return webpush.Payload(
            title=message.subject,
            body="\n".join(item.title for item in message.items),
            url=absolute_url("/notifications/"),
            tag=message.idempotency_key,
        )
    item = message.items[0]
    return webpush.Payload(
        title=item.title,
        body=item.body,
        url=item.url or absolute_url("/notifications/"),
        tag=message.idempotency_key,
    )


def send_push(*, user_id: int, message: Message) -> str:
    """Push ``message`` to every device the user subscribed; "" when sent, else why it was
    skipped. A push service answering 404 or 410 has dropped the subscription: its row is
    deleted. A transient failure on any device raises (the retry sends to every device again;
    the ``tag`` makes a repeat replace the first on a device that already showed it)."""
    if not webpush.available():
        return "Push notifications are not set up on this site."
    devices = list(PushSubscription.objects.filter(user_id=user_id).order_by("pk"))
    if not devices:
        return "No device is subscribed any more."
    payload = push_payload(message)
    urgent = not message.digest and any(
        item.event in EventType.values and EventType(item.event).urgent for item in message.items
    )
    sent: list[int] = []
    transient: list[webhooks.WebhookTransientError] = []
    permanent: list[str] = []
    gone = 0
    for device in devices:
        try:
            webpush.send(
                endpoint=device.endpoint,
                p256dh=device.p256dh,
                auth=device.auth,
                payload=payload,
                urgent=urgent,
            )
        except webhooks.WebhookTransientError as exc:
            transient.append(exc)
        except webhooks.WebhookPermanentError as exc:
            if exc.status in (404, 410):
                device.delete()
                gone += 1
            else:
                permanent.append(f"{device.name}: {exc}")
        else:
            sent.append(device.pk)
    if sent:
        PushSubscription.objects.filter(pk__in=sent).update(last_sent_at=timezone.now())
    if transient:
        retry_after = max((exc.retry_after or 0.0 for exc in transient), default=0.0) or None
        raise ChannelTransientError("; ".join(map(str, transient)), retry_after=retry_after)
    if sent:
        return ""
    if permanent:
        raise ChannelPermanentError("; ".join(permanent))
    return f"Every subscribed device had expired ({gone} removed)."
