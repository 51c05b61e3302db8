"""The README's API examples work as written (issue 10: ``curl -d notation=4d+2`` sent "4d 2"
and the API answered 400). Each documented command runs with the real curl against the test
server, on the demo data; any answer of 400 or more fails the test."""

from __future__ import annotations

import io
import json
import re
import subprocess
import textwrap
from pathlib import Path

import pytest
from django.core.management import call_command

README = Path(__file__).resolve().parent.parent / "README.md"

pytestmark = pytest.mark.django_db(transaction=True)


def api_examples() -> str:
    blocks = re.findall(r"```sh\n(.*?)```", README.read_text(), re.S)
    found = [textwrap.dedent(b) for b in blocks if "curl" in b and "/api/" in b]
    assert len(found) == 1, "the README's API examples moved: update this test"
    return found[0]


def test_the_readmes_curl_examples_run_against_the_server(live_server):
    from campaign.models import Campaign, Roll
    from config.management.commands.seed_demo import DEMO_CAMPAIGN

    call_command("seed_demo", stdout=io.StringIO())
    campaign = Campaign.objects.get(name=DEMO_CAMPAIGN)
    script = (
        api_examples()
        .replace("http://127.0.0.1:8000", live_server.url)
        .replace("campaign=1", f"campaign={campaign.pk}")
    )
    assert script.count("curl ") >= 3
    # every curl fails on an error answer and ends its output with a newline
    prelude = 'set -euo pipefail\ncurl() { command curl --fail-with-body "$@"; echo; }\n'
    done = subprocess.run(  # noqa: S603 - our own README, run against the test server
        ["/bin/bash", "-c", prelude + script],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    roll, odds = answers
    # Basic rolls: 4d+2 against 12, four dice and the modifier
    assert roll["notation"] == "4d+2" and len(roll["dice"]) == 4
    assert roll["total"] == sum(roll["dice"]) + 2
    assert Roll.objects.filter(pk=roll["id"], campaign=campaign, user__username="reimu").exists()
    assert odds["notation"] == "4d"
