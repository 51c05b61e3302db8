"""Fixtures for the notification tests: a real webhook receiver and notification factories."""

from __future__ import annotations

import pytest

from tests.notifications.receiver import WebhookReceiver


@pytest.fixture
def receiver():
    """A real HTTP receiver on 127.0.0.1 (test settings allow loopback webhooks)."""
    r = WebhookReceiver().start()
    yield r
    r.stop()
