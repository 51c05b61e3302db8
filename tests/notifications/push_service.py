"""A stand-in for a browser's push service on 127.0.0.1, as strict as a real one on what matters.

Each :class:`Device` is what a browser makes when it subscribes: a P-256 key pair and a 16-byte
auth secret, and an endpoint on this server. For every POST the server

* checks the VAPID ``Authorization: vapid t=<JWT>,k=<key>`` header (RFC 8292): the JWT's ES256
  signature against ``k`` (with ``cryptography``), ``k`` against the key the device subscribed
  with, ``aud`` against its own origin, ``exp`` in the next 24 hours, and a ``sub`` to write to;
* decrypts the ``aes128gcm`` body with the device's private key and auth secret (``http_ece``,
  RFC 8291), as the browser would;

and answers 403 or 400 when either fails, else the status the test chose for the device
(201 by default; 410 for an expired subscription). What it received is kept for the test.
"""

from __future__ import annotations

import base64
import json
import secrets
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Device:
    """A subscribed browser: its keys and the endpoint its push service gave it."""

    token: str
    private_key: ec.EllipticCurvePrivateKey
    auth: bytes
    endpoint: str

    @property
    def p256dh(self) -> str:
        point = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64(point)

    def subscription(self, name: str = "Test phone") -> dict[str, Any]:
        """What the browser's ``PushSubscription.toJSON()`` gives, and a name."""
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": self.p256dh, "auth": b64(self.auth)},
            "name": name,
        }


@dataclass
class Pushed:
    """One message the service accepted (or refused, with ``refused`` saying why)."""

    token: str
    headers: dict[str, str]
    claims: dict[str, Any]
    payload: dict[str, Any] | None
    status: int
    refused: str = ""


def verify_vapid(authorization: str, *, audience: str) -> tuple[str, dict[str, Any]]:
    """The VAPID key and claims of a valid ``vapid`` header; ValueError says what is wrong."""
    scheme, _, params = authorization.partition(" ")
    if scheme.lower() != "vapid":
        raise ValueError(f"not a vapid Authorization header: {authorization[:20]!r}")
    parts = dict(p.strip().split("=", 1) for p in params.split(","))
    token, key = parts["t"], parts["k"]
    header_b64, claims_b64, signature_b64 = token.split(".")
    header = json.loads(unb64(header_b64))
    if header.get("alg") != "ES256":
        raise ValueError(f"JWT alg {header.get('alg')!r}, not ES256")
    signature = unb64(signature_b64)
    if len(signature) != 64:
        raise ValueError("the JWT signature is not a raw 64-byte ES256 signature")
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(key))
    der = encode_dss_signature(
        int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
    )
    try:
        public.verify(der, f"{header_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise ValueError("the JWT signature does not verify with k") from None
    claims = json.loads(unb64(claims_b64))
    if claims.get("aud") != audience:
        raise ValueError(f"aud {claims.get('aud')!r} is not {audience!r}")
    now = time.time()
    if not now < int(claims.get("exp", 0)) <= now + 24 * 3600:
        raise ValueError("exp is not within the next 24 hours")
    if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
        raise ValueError("no sub to write to")
    return key, claims


@dataclass
class PushService:
    """Start with :meth:`start`; always :meth:`stop` (the fixture does)."""

    #: the VAPID public key devices subscribed with (the site's ``applicationServerKey``)
    application_server_key: str = ""
    status_for: dict[str, list[int]] = field(default_factory=dict)
    received: list[Pushed] = field(default_factory=list)
    devices: dict[str, Device] = field(default_factory=dict)
    #: hold the first push's answer until ``release`` is set (to kill a worker mid-send)
    hold_first: bool = False
    arrived: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    _server: ThreadingHTTPServer | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def origin(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def device(self) -> Device:
        token = secrets.token_urlsafe(12)
        device = Device(
            token=token,
            private_key=ec.generate_private_key(ec.SECP256R1()),
            auth=secrets.token_bytes(16),
            endpoint=f"{self.origin}/push/{token}",
        )
        self.devices[token] = device
        return device

    def answer(self, device: Device, *statuses: int) -> None:
        """Answer the device's next pushes with ``statuses`` (then 201)."""
        self.status_for.setdefault(device.token, []).extend(statuses)

    def accepted(self, device: Device | None = None) -> list[Pushed]:
        return [
            p
            for p in self.received
            if not p.refused
            and 200 <= p.status < 300
            and (device is None or p.token == device.token)
        ]

    def _handle(self, path: str, headers: dict[str, str], body: bytes) -> tuple[int, Pushed]:
        token = path.rsplit("/", 1)[-1]
        device = self.devices.get(token)
        if device is None:
            return 404, Pushed(token, headers, {}, None, 404, "no such subscription")
        try:
            key, claims = verify_vapid(headers.get("authorization", ""), audience=self.origin)
            if self.application_server_key and key != self.application_server_key:
                raise ValueError("k is not the key the device subscribed with")
        except (ValueError, KeyError) as exc:
            return 403, Pushed(token, headers, {}, None, 403, f"VAPID: {exc}")
        if headers.get("content-encoding") != "aes128gcm":
            return 400, Pushed(token, headers, claims, None, 400, "not aes128gcm")
        try:
            plain = http_ece.decrypt(
                body, private_key=device.private_key, auth_secret=device.auth, version="aes128gcm"
            )
            payload = json.loads(plain)
        except Exception as exc:  # any failure to decrypt is the sender's
            return 400, Pushed(token, headers, claims, None, 400, f"decrypt: {exc!r}")
        with self._lock:
            queue = self.status_for.get(token) or []
            status = queue.pop(0) if queue else 201
        return status, Pushed(token, headers, claims, payload, status)

    def start(self) -> PushService:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # http.server's name
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                headers = {k.lower(): v for k, v in self.headers.items()}
                status, pushed = service._handle(self.path, headers, body)
                with service._lock:
                    first = not service.received
                    service.received.append(pushed)
                service.arrived.set()
                if first and service.hold_first:
                    service.release.wait(30)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request: Any, client_address: Any) -> None:
                pass  # a client (a killed worker) that hung up is expected here

        self._server = Server(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self.release.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
