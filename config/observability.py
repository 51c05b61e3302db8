"""Error reporting: Sentry's SDK, switched on by one setting (``SENTRY_DSN``).

Called from the settings, so every process that loads them (web, worker, beat, a management
command) reports the same way: unhandled errors in requests, failed Celery tasks, and log
records at ERROR (django's "Internal Server Error", a task's failure, our own
``logger.exception``). Any server that speaks Sentry's protocol works (Sentry, GlitchTip, a
relay). Unset, the SDK is never started and nothing leaves the process.

Personal data stays home: no IP addresses, cookies, request bodies or user names
(``send_default_pii=False``); the request id (django-guid) is on every event as the tag
``transaction_id``, so an event leads to the log lines of the same request and its tasks.
"""

from __future__ import annotations


def sentry_init(dsn: str, *, environment: str, traces_sample_rate: float) -> bool:
    """Start the SDK when ``dsn`` is set; True when it was started."""
    if not dsn:
        return False
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        traces_sample_rate=traces_sample_rate,
        send_default_pii=False,
        max_request_body_size="never",
        integrations=[DjangoIntegration(), CeleryIntegration()],
    )
    return True
