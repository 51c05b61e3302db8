"""Fixtures of the operations tests: a real webhook receiver (the notification tests' own) and
a started battle (the battle tests' own)."""

from __future__ import annotations

import pytest

from tests.battles.conftest import (  # noqa: F401 - the battles' fixtures, used by name
    character,
    other_character,
    setup_battle,
    started,
)
from tests.notifications.receiver import WebhookReceiver


@pytest.fixture
def receiver():
    """A real HTTP receiver on 127.0.0.1 (test settings allow loopback webhooks)."""
    r = WebhookReceiver().start()
    yield r
    r.stop()
