"""The SSRF-safe webhook client: refused addresses, pinned connections, no redirects, timeouts,
and real POSTs to a real receiver on 127.0.0.1 (allowed only by the test settings)."""

from __future__ import annotations

import socket

import pytest
from django.core.exceptions import ValidationError

from notifications import webhooks
from notifications.webhooks import (
    UnsafeWebhookURL,
    WebhookPermanentError,
    WebhookTransientError,
    post_json,
    validate_webhook_url,
    vet_url,
)


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("ftp://example.com/hook", "Only http"),
        ("file:///etc/passwd", "Only http"),
        ("gopher://127.0.0.1:6379/_FLUSHALL", "Only http"),
        ("http:///no-host", "no host"),
        ("https://user:secret@example.com/hook", "user name or password"),
        ("http://10.1.2.3/hook", "private"),
        ("http://172.16.0.1/hook", "private"),
        ("http://192.168.1.10/hook", "private"),
        ("http://169.254.169.254/latest/meta-data/", "link-local"),
        ("http://0.0.0.0:8000/", "unspecified"),
        ("http://224.0.0.1/", "multicast"),
        ("http://240.0.0.1/", "reserved"),
        ("http://100.64.0.1/", "not a public"),
        ("http://[fe80::1]/", "link-local"),
        ("http://[fc00::1]/", "private"),
        ("http://[::]/", "unspecified"),
        ("http://[::ffff:10.0.0.1]/", "private"),
        ("http://example.com:99999/", "not valid"),
        ("http://exa mple.com/", "spaces"),
        ("http://example.com/" + "a" * 500, "longer than"),
    ],
)
def test_unsafe_urls_are_refused(url, reason):
    with pytest.raises(UnsafeWebhookURL, match=reason):
        vet_url(url)


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:9/hook",
        "http://[::1]:9/hook",
        "http://[::ffff:127.0.0.1]:9/",
        "http://localhost:9/",
    ],
)
def test_loopback_is_refused_unless_the_test_setting_allows_it(url, settings):
    settings.WEBHOOK_ALLOW_LOOPBACK = False
    with pytest.raises(UnsafeWebhookURL, match="loopback"):
        vet_url(url)
    settings.WEBHOOK_ALLOW_LOOPBACK = True
    assert vet_url(url).ips


def test_loopback_is_refused_at_send_time_too(receiver, settings):
    settings.WEBHOOK_ALLOW_LOOPBACK = False
    with pytest.raises(WebhookPermanentError, match="loopback"):
        post_json(receiver.url, {"content": "hi"})
    assert receiver.requests == []


def test_the_default_settings_refuse_loopback():
    from config.settings import base

    assert base.WEBHOOK_ALLOW_LOOPBACK is False


def test_public_addresses_are_accepted():
    vetted = vet_url("https://93.184.215.14/api/webhooks/1/abc?wait=true")
    assert vetted.ips == ("93.184.215.14",)
    assert (vetted.scheme, vetted.port, vetted.path) == (
        "https",
        443,
        "/api/webhooks/1/abc?wait=true",
    )


def _fake_dns(monkeypatch, answers):
    """Make ``hooks.example.test`` resolve from ``answers`` (a list of address lists, one per
    lookup); other names resolve as usual."""
    calls = []
    real = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        if host != "hooks.example.test":
            return real(host, port, *args, **kwargs)
        calls.append(host)
        addresses = answers[min(len(calls), len(answers)) - 1]
        return [
            (socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port))
            for a in addresses
        ]

    monkeypatch.setattr(webhooks.socket, "getaddrinfo", getaddrinfo)
    return calls


def test_every_resolved_address_must_be_public(monkeypatch):
    _fake_dns(monkeypatch, [["93.184.215.14", "10.0.0.5"]])
    with pytest.raises(UnsafeWebhookURL, match="private"):
        vet_url("https://hooks.example.test/x")


def test_unresolvable_host_is_refused_on_save_and_transient_on_send(monkeypatch):
    def fail(*args, **kwargs):
        raise socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution")

    monkeypatch.setattr(webhooks.socket, "getaddrinfo", fail)
    with pytest.raises(UnsafeWebhookURL, match="could not be resolved"):
        vet_url("https://hooks.example.test/x")
    with pytest.raises(WebhookTransientError):
        post_json("https://hooks.example.test/x", {})


def test_the_connection_goes_to_the_vetted_address(receiver, monkeypatch):
    """DNS rebinding: a second lookup would answer a private address; there is none, because
    the request connects to the address that was checked."""
    calls = _fake_dns(monkeypatch, [["127.0.0.1"], ["10.0.0.5"]])
    url = f"http://hooks.example.test:{receiver.port}/hook"
    assert post_json(url, {"content": "pinned"}) == 204
    assert calls == ["hooks.example.test"]
    assert receiver.requests[0].headers["Host"] == f"hooks.example.test:{receiver.port}"
    assert receiver.requests[0].body == {"content": "pinned"}


def test_post_sends_json_and_headers(receiver):
    status = post_json(receiver.url, {"content": "héllo"}, headers={"Idempotency-Key": "k-1"})
    assert status == 204
    (request,) = receiver.requests
    assert request.path == "/hook"
    assert request.body == {"content": "héllo"}
    assert request.headers["Content-Type"] == "application/json"
    assert request.headers["Idempotency-Key"] == "k-1"


def test_redirects_are_not_followed(receiver):
    receiver.statuses.append(302)
    receiver.headers_for[302] = {"Location": "http://169.254.169.254/latest/meta-data/"}
    with pytest.raises(WebhookPermanentError, match="redirects are not followed"):
        post_json(receiver.url, {"content": "x"})
    assert [r.path for r in receiver.requests] == ["/hook"]


@pytest.mark.parametrize(
    ("status", "error"),
    [
        (500, WebhookTransientError),
        (503, WebhookTransientError),
        (408, WebhookTransientError),
        (400, WebhookPermanentError),
        (401, WebhookPermanentError),
        (404, WebhookPermanentError),
    ],
)
def test_status_codes_map_to_transient_or_permanent(receiver, status, error):
    receiver.statuses.append(status)
    with pytest.raises(error):
        post_json(receiver.url, {})


def test_rate_limit_passes_retry_after_on(receiver):
    receiver.statuses.append(429)
    receiver.headers_for[429] = {"Retry-After": "7"}
    with pytest.raises(WebhookTransientError) as caught:
        post_json(receiver.url, {})
    assert caught.value.retry_after == 7


def test_slow_receivers_time_out(receiver):
    receiver.delay = 2.0
    with pytest.raises(WebhookTransientError, match="timed out"):
        post_json(receiver.url, {}, timeout=0.2)


def test_refused_connection_is_transient():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(WebhookTransientError):
        post_json(f"http://127.0.0.1:{port}/hook", {}, timeout=1)


def test_form_validation_reports_the_reason():
    with pytest.raises(ValidationError) as caught:
        validate_webhook_url("http://169.254.169.254/")
    assert "link-local" in caught.value.messages[0]
    assert validate_webhook_url("  https://93.184.215.14/x ") == "https://93.184.215.14/x"
