"""Outgoing webhooks that cannot be turned against the server's own network (SSRF).

A webhook URL is user input that makes the server send a request, so an attacker would point it
at ``http://127.0.0.1:6379/``, ``http://169.254.169.254/`` (cloud metadata) or a private address.
The defences, all here:

* only ``http``/``https`` URLs with a host name, no credentials, at most 500 characters;
* the host is resolved and **every** address it resolves to must be public: loopback, private,
  link-local, shared (CGNAT), multicast, reserved and unspecified addresses are refused, and an
  an IPv6 address that embeds an IPv4 one (IPv4-mapped, 6to4 ``2002::/16``, Teredo, NAT64
  ``64:ff9b::/96``, IPv4-compatible ``::a.b.c.d``) is judged by every IPv4 address it carries;
* the host is IDNA-encoded and the path and query percent-encoded when the URL is saved, so a
  URL that is accepted can always be sent (an address with non-ASCII in it is not refused at
  send time by the HTTP client);
* the request connects to the address that was vetted (the Host header and TLS name stay the host
  name), so a DNS answer that changes between the check and the connection (DNS rebinding) cannot
  swap in an internal address;
* redirects are never followed: a 3xx answer is a failure;
* short connect and read timeouts, and at most 64 KiB of the answer is read.

URLs are checked when a user saves them (a form error) and again at every send.
``settings.WEBHOOK_ALLOW_LOOPBACK`` lets loopback addresses through; only the test settings set
it, so the tests can run a real HTTP receiver on 127.0.0.1.
"""

from __future__ import annotations

import http.client
import ipaddress
import json
import socket
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlsplit

from django.conf import settings

MAX_URL_LENGTH = 500
#: Characters left as they are when a path or query is percent-encoded (RFC 3986's reserved and
#: unreserved ones, and ``%`` so an already-encoded URL is not encoded twice).
_URL_SAFE = "/%:@!$&'()*+,;=-._~"
MAX_RESPONSE_BYTES = 64 * 1024

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class UnsafeWebhookURL(ValueError):
    """The URL may not be used: wrong scheme, unresolvable, or an address that is not public."""


class WebhookResolveError(UnsafeWebhookURL):
    """The host did not resolve; at send time that may be a passing DNS failure."""


class WebhookTransientError(Exception):
    """The receiver may accept a later attempt: timeouts, refused connections, 5xx, 429."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class WebhookPermanentError(Exception):
    """Retrying will not help: a 4xx answer, a redirect, or a URL that became unsafe.
    ``status`` is the receiver's answer when there was one (a push service's 404 and 410 mean
    the subscription is gone)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True, slots=True)
class VettedURL:
    """A webhook URL whose host resolved only to allowed addresses; ``ips`` are what to use."""

    scheme: str
    host: str
    port: int
    path: str
    ips: tuple[str, ...]

    @property
    def url(self) -> str:
        """The URL as it will be sent: ASCII only (IDNA host, percent-encoded path)."""
        host = self.host if ":" not in self.host else f"[{self.host}]"
        default = 443 if self.scheme == "https" else 80
        port = "" if self.port == default else f":{self.port}"
        return f"{self.scheme}://{host}{port}{self.path}"


def _allow_loopback() -> bool:
    return bool(getattr(settings, "WEBHOOK_ALLOW_LOOPBACK", False))


_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
_IPV4_COMPATIBLE = ipaddress.IPv6Network("::/96")


def embedded_ipv4(ip: ipaddress.IPv6Address) -> tuple[ipaddress.IPv4Address, ...]:
    """The IPv4 addresses an IPv6 address carries (and would reach through a relay)."""
    if ip.ipv4_mapped is not None:
        return (ip.ipv4_mapped,)
    if ip.sixtofour is not None:
        return (ip.sixtofour,)
    if ip.teredo is not None:
        return ip.teredo
    if ip in _NAT64 or (ip in _IPV4_COMPATIBLE and int(ip) > 1):
        return (ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF),)
    return ()


def address_refusal(ip: IPAddress, *, allow_loopback: bool = False) -> str | None:
    """Why ``ip`` may not be a webhook target, or None when it is a public address."""
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return address_refusal(ip.ipv4_mapped, allow_loopback=allow_loopback)
        for inner in embedded_ipv4(ip):
            reason = address_refusal(inner, allow_loopback=False)
            if reason:
                return f"an IPv6 address that carries {reason} ({inner})"
    if ip.is_loopback:
        return None if allow_loopback else "a loopback address"
    checks = (
        (ip.is_unspecified, "an unspecified address"),
        (ip.is_link_local, "a link-local address"),
        (ip.is_multicast, "a multicast address"),
        (ip.is_reserved, "a reserved address"),
        (ip.is_private, "a private address"),
        (not ip.is_global, "not a public address"),
    )
    for refused, reason in checks:
        if refused:
            return reason
    return None


def _resolve(host: str, port: int) -> tuple[str, ...]:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, OSError) as exc:
        raise WebhookResolveError(f"The host {host} could not be resolved.") from exc
    ips: list[str] = []
    for info in infos:
        address = str(info[4][0]).split("%", 1)[0]  # drop an IPv6 scope id
        if address not in ips:
            ips.append(address)
    if not ips:
        raise WebhookResolveError(f"The host {host} has no address.")
    return tuple(ips)


def vet_url(url: str) -> VettedURL:
    """Check a webhook URL and resolve its host; raise :class:`UnsafeWebhookURL` if refused."""
    if not isinstance(url, str) or not url.strip():
        raise UnsafeWebhookURL("Enter a URL.")
    url = url.strip()
    if len(url) > MAX_URL_LENGTH:
        raise UnsafeWebhookURL(f"The URL is longer than {MAX_URL_LENGTH} characters.")
    if any(ch.isspace() or ord(ch) < 32 for ch in url):
        raise UnsafeWebhookURL("The URL contains spaces or control characters.")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise UnsafeWebhookURL("The URL is not valid.") from exc
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise UnsafeWebhookURL("Only http:// and https:// webhook URLs are allowed.")
    if parts.username is not None or parts.password is not None:
        raise UnsafeWebhookURL("Webhook URLs may not contain a user name or password.")
    host = (parts.hostname or "").rstrip(".")
    if not host:
        raise UnsafeWebhookURL("The URL has no host.")
    try:
        host = host.encode("idna").decode("ascii")
    except UnicodeError as exc:
        raise UnsafeWebhookURL("The host name is not valid.") from exc
    port = port or (443 if scheme == "https" else 80)
    allow_loopback = _allow_loopback()
    try:
        literal: IPAddress | None = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    ips = (str(literal),) if literal is not None else _resolve(host, port)
    for address in ips:
        reason = address_refusal(ipaddress.ip_address(address), allow_loopback=allow_loopback)
        if reason:
            raise UnsafeWebhookURL(f"The host {host} resolves to {reason} ({address}).")
    path = quote(parts.path or "/", safe=_URL_SAFE)
    if parts.query:
        path = f"{path}?{quote(parts.query, safe=_URL_SAFE + '?')}"
    return VettedURL(scheme=scheme, host=host, port=port, path=path, ips=ips)


def validate_webhook_url(url: str) -> str:
    """Form/serializer validation: the cleaned URL, or Django's ValidationError with the reason."""
    from django.core.exceptions import ValidationError

    try:
        target = vet_url(url)
    except UnsafeWebhookURL as exc:
        raise ValidationError(str(exc), code="unsafe_webhook") from None
    return target.url


class _PinnedHTTPConnection(http.client.HTTPConnection):
    """Connects to one vetted IP while the Host header names the host."""

    def __init__(self, host: str, port: int, *, ip: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self._pinned_ip = ip

    def connect(self) -> None:
        self.sock = socket.create_connection((self._pinned_ip, self.port), self.timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    """Connects to one vetted IP; the certificate is still checked against the host name."""

    def __init__(self, host: str, port: int, *, ip: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self._pinned_ip = ip

    def connect(self) -> None:
        sock = socket.create_connection((self._pinned_ip, self.port), self.timeout)
        # ``_context`` is the stdlib's own SSL context attribute (not in its type stubs).
        context = self._context  # type: ignore[attr-defined]
        self.sock = context.wrap_socket(sock, server_hostname=self.host)


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None


def post_json(
    url: str,
    payload: dict[str, Any],
    *,
    headers: dict[str, str] | None = None,
    timeout: float | None = None,
) -> int:
    """POST ``payload`` as JSON to a vetted address of ``url``; return the 2xx status.

    Raises :class:`WebhookTransientError` when a later attempt may succeed and
    :class:`WebhookPermanentError` when it will not (including an unsafe URL).
    """
    body = json.dumps(payload, ensure_ascii=False).encode()
    return post_body(
        url,
        body,
        headers={"Content-Type": "application/json", **(headers or {})},
        timeout=timeout,
    )


def post_body(
    url: str,
    body: bytes,
    *,
    headers: dict[str, str] | None = None,
    timeout: float | None = None,
    user_agent: str = "WesternRoses-Webhook/1.0",
) -> int:
    """POST ``body`` to a vetted address of ``url`` (the same defences as :func:`post_json`,
    which uses it; the Web Push channel sends its encrypted payloads through it too)."""
    try:
        target = vet_url(url)
    except WebhookResolveError as exc:
        raise WebhookTransientError(str(exc)) from None
    except UnsafeWebhookURL as exc:
        raise WebhookPermanentError(str(exc)) from None
    timeout = timeout if timeout is not None else float(settings.WEBHOOK_TIMEOUT_SECONDS)
    host_header = target.host if ":" not in target.host else f"[{target.host}]"
    default_port = 443 if target.scheme == "https" else 80
    if target.port != default_port:
        host_header = f"{host_header}:{target.port}"
    request_headers = {
        "Host": host_header,
        "User-Agent": user_agent,
        "Content-Length": str(len(body)),
        **(headers or {}),
    }
    connection_class = _PinnedHTTPSConnection if target.scheme == "https" else _PinnedHTTPConnection
    connection = connection_class(target.host, target.port, ip=target.ips[0], timeout=timeout)
    try:
        connection.putrequest("POST", target.path, skip_host=True, skip_accept_encoding=True)
        for name, value in request_headers.items():
            connection.putheader(name, value)
        connection.endheaders(body)
        response = connection.getresponse()
        response.read(MAX_RESPONSE_BYTES)
        status = response.status
        retry_after = _retry_after(response.getheader("Retry-After"))
    except UnicodeError as exc:
        raise WebhookPermanentError(f"The request could not be encoded: {exc}.") from exc
    except (TimeoutError, OSError, http.client.HTTPException) as exc:
        raise WebhookTransientError(f"{type(exc).__name__}: {exc}") from exc
    finally:
        connection.close()
    if 200 <= status < 300:
        return status
    if 300 <= status < 400:
        raise WebhookPermanentError(f"The receiver answered {status}; redirects are not followed.")
    if status in (408, 429) or status >= 500:
        raise WebhookTransientError(f"The receiver answered {status}.", retry_after=retry_after)
    raise WebhookPermanentError(f"The receiver answered {status}.", status=status)
