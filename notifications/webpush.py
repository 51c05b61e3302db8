"""Web Push (RFC 8030) with VAPID (RFC 8292) and encrypted payloads (RFC 8291), by ``pywebpush``.

The server's VAPID key pair identifies the site to every browser's push service. Its private
key comes from ``settings.VAPID_PRIVATE_KEY`` (``manage.py vapid_keys`` makes one); without it
the push channel is simply unavailable: nothing is sent, the settings page says so, and
notifications go out on the other channels as before.

A payload is encrypted with ``pywebpush``'s :class:`~pywebpush.WebPusher` (``http_ece``,
``aes128gcm``) to the device's keys and signed with ``py_vapid``; it is posted through the same
SSRF-safe client as webhooks (:func:`notifications.webhooks.post_body`): a subscription's
endpoint is an address the browser chose, i.e. user input, so it is vetted like a webhook URL
when it is saved and at every send, and the connection goes to the vetted address.

The payload is the notification's own title, body and link (already written for its recipient,
never a hidden card or choice) and a ``tag``: the delivery's idempotency key. The service worker
shows it with that tag, so a message sent twice (a worker killed after the push service took it)
replaces itself on the screen; the same key goes in the ``Topic`` header, so a push service
still holding the first copy replaces it too.
"""

from __future__ import annotations

import base64
import json
import time
from dataclasses import dataclass
from email.utils import parseaddr
from functools import cache
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from py_vapid import Vapid02

from . import webhooks

#: Push services take at most 4,096 bytes of encrypted body; this leaves room for the record's
#: header (86 bytes) and padding.
MAX_PAYLOAD_BYTES = 3800
#: Seconds a push service keeps a message for a device that is offline.
TTL_SECONDS = 24 * 60 * 60
USER_AGENT = "WesternRoses-WebPush/1.0"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def generate_private_key() -> str:
    """A new VAPID private key: the raw P-256 scalar, base64url (what ``VAPID_PRIVATE_KEY``
    holds)."""
    key = ec.generate_private_key(ec.SECP256R1())
    return _b64(key.private_numbers().private_value.to_bytes(32, "big"))


@cache
def _vapid(private_key: str) -> Vapid02:
    return Vapid02.from_string(private_key)


def _private_key() -> str:
    return str(getattr(settings, "VAPID_PRIVATE_KEY", "") or "").strip()


def available() -> bool:
    """Whether the push channel can send: a VAPID private key is set and readable."""
    key = _private_key()
    if not key:
        return False
    try:
        _vapid(key)
    except Exception:  # py_vapid raises several types for a malformed key
        return False
    return True


def public_key_of(private_key: str) -> str:
    """The public key (an uncompressed P-256 point, base64url) of a VAPID private key."""
    point = _vapid(private_key).public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return _b64(point)


def public_key() -> str:
    """The VAPID public key browsers subscribe with (``applicationServerKey``), or ""."""
    return public_key_of(_private_key()) if available() else ""


def subject() -> str:
    """The VAPID ``sub`` claim: whom the push service can write to about this site."""
    configured = str(getattr(settings, "VAPID_SUBJECT", "") or "").strip()
    return configured or f"mailto:{parseaddr(str(settings.DEFAULT_FROM_EMAIL))[1]}"


def valid_keys(p256dh: str, auth: str) -> bool:
    """Whether a subscription's keys are a P-256 public point and a 16-byte auth secret."""
    try:
        point = _unb64(p256dh)
        secret = _unb64(auth)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except (ValueError, TypeError):
        return False
    return len(secret) == 16


@dataclass(frozen=True, slots=True)
class Payload:
    """What the service worker shows: the notification's own words and where a tap leads."""

    title: str
    body: str
    url: str
    tag: str

    def encode(self) -> bytes:
        """JSON, with the body shortened until it fits a push message (title and link are
        bounded by their columns, so they always fit)."""
        body = self.body
        while True:
            data = json.dumps(
                {"title": self.title, "body": body, "url": self.url, "tag": self.tag},
                ensure_ascii=False,
            ).encode()
            if len(data) <= MAX_PAYLOAD_BYTES or not body:
                return data
            body = body[: len(body) * 3 // 4].rstrip("…") + "…" if len(body) > 8 else ""


def send(*, endpoint: str, p256dh: str, auth: str, payload: Payload, urgent: bool = False) -> int:
    """Encrypt ``payload`` to the device and post it to its push service; the 2xx status.

    Raises :class:`notifications.webhooks.WebhookTransientError` or
    :class:`~notifications.webhooks.WebhookPermanentError` (whose ``status`` 404 or 410 means
    the subscription has expired), as the webhook client does.
    """
    if not available():
        raise webhooks.WebhookPermanentError("Push notifications are not set up on this site.")
    parts = urlsplit(endpoint)
    claims: dict[str, str | int] = {
        "aud": f"{parts.scheme}://{parts.netloc}",
        "exp": int(time.time()) + 12 * 60 * 60,
        "sub": subject(),
    }
    headers: dict[str, str] = dict(_vapid(_private_key()).sign(claims))
    # imported here: pywebpush brings aiohttp and requests, about a quarter of a second of
    # every process's start (web, Celery, tests) for the few that send a push
    from pywebpush import WebPusher

    pusher = WebPusher({"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}})
    body = pusher.encode(payload.encode(), content_encoding="aes128gcm")["body"]
    headers.update(
        {
            "Content-Type": "application/octet-stream",
            "Content-Encoding": "aes128gcm",
            "TTL": str(TTL_SECONDS),
            "Urgency": "high" if urgent else "normal",
            "Topic": payload.tag[:32],
        }
    )
    return webhooks.post_body(endpoint, body, headers=headers, user_agent=USER_AGENT)
