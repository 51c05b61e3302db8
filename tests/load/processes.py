"""The Procfile's processes and a free loopback port: shared by `make loadtest`
(tests/load/run.py) and the test that starts the production processes
(tests/hardening/test_procfile.py)."""

from __future__ import annotations

import shlex
import socket
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def procfile() -> dict[str, list[str]]:
    """Process name → its command, split as a shell would."""
    lines = (ROOT / "Procfile").read_text().splitlines()
    return {
        name.strip(): shlex.split(command)
        for name, command in (line.split(":", 1) for line in lines if line.strip())
    }


def free_port() -> int:
    """A port nothing listens on now, on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
