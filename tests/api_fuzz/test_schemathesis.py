"""schemathesis drives every operation of the OpenAPI schema in-process (the WSGI app, no
server), as the GM and as a player of a real campaign, with a bounded number of generated
examples per operation: no answer may be a server error or break the schema it documents
(hardening: "schemathesis runs every operation of the schema in make test").

Two sizes (docs/test-suite.md). In ``make test`` every case schemathesis makes is sent: the
schema's own examples and the coverage phase's boundary cases (valid and invalid, about 8,000
over the 139 operations) once each, the roles taking turns within an operation (GM, player,
GM ...), and the fuzzing phase's three random cases per operation as both roles, so every
operation answers both roles. ``make soak`` sends every case as both roles and draws ten times
the random cases.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterator

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, settings
from schemathesis import checks
from schemathesis.generation.meta import TestPhase

from tests.factories import CampaignFactory, UserFactory
from tests.soak import size, soaking

pytestmark = pytest.mark.django_db


# Loaded at collection: the schema view touches no database (pytest-django would refuse it).
schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())


#: What the hardening issue asks of every answer: never a server error, and never one that breaks
#: the schema (a status, a content type, a header or a body the schema does not document).
#: Schema-valid input may still break a rule the schema cannot say (a character draft that
#: breaks the rulebook), so "valid input is accepted" is not among them.
CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_headers_conformance,
    checks.response_schema_conformance,
]


@pytest.fixture
def in_process_requests():
    """Keep the test's database connection open across in-process requests, as Django's own
    test client does (a real request would close it when it finishes)."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def tokens(db, in_process_requests):
    from rest_framework.authtoken.models import Token

    from campaign.models import Membership, Role

    gm = UserFactory(username="fuzz-gm")
    player = UserFactory(username="fuzz-player")
    campaign = CampaignFactory(created_by=gm, name="Fuzzed")
    Membership.objects.create(campaign=campaign, user=gm, role=Role.GM)
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
    return {
        "gm": Token.objects.create(user=gm).key,
        "player": Token.objects.create(user=player).key,
    }


ROLES = ("gm", "player")
#: Per operation, whose turn the next explicit case is (the suite's size: see the docstring).
_turns: defaultdict[str, Iterator[str]] = defaultdict(lambda: itertools.cycle(ROLES))


def roles_for(case: schemathesis.Case) -> tuple[str, ...]:
    """Who sends ``case``: both roles for a random (fuzzing) case, whose failure hypothesis
    replays while it shrinks, and in ``make soak``; otherwise the operation's next turn (an
    explicit case runs once, so taking turns never changes a replay)."""
    meta = case._meta
    if soaking() or meta is None or meta.phase.name == TestPhase.FUZZING:
        return ROLES
    return (next(_turns[case.operation.label]),)


@schema.parametrize()
@settings(
    max_examples=size(3),
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_as_gm_and_player(case, tokens):
    for role in roles_for(case):
        case.call_and_validate(headers={"Authorization": f"Token {tokens[role]}"}, checks=CHECKS)
