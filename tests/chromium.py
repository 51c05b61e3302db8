"""The test process's one headless Chromium, and what happens when it stops answering.

Chromium now and then never answers the DevTools command that disposes of a browser context
(Target.disposeBrowserContext), so Playwright's ``BrowserContext.close()`` waits forever: about
one suite run in ten lost a browser lane to it, the test failing after pytest-timeout's ten
minutes and the next one finding its database still held. A close that has not returned after
``CLOSE_SECONDS`` kills the browser process instead (the context's pages die with it), warns
(:class:`BrowserKilled`, which the suite's warning filters show in its summary rather than turn
into the test's error, as they do every other warning), and the next test that uses the browser
gets a new one. A hang anywhere else is still the test's failure: every other Playwright call
has its own timeout.
"""

from __future__ import annotations

import contextlib
import os
import threading
import warnings
from typing import Any

import psutil

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--headless=new",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
CLOSE_SECONDS = 30.0


class BrowserKilled(UserWarning):
    """A browser context did not close in time and its browser was killed: reported, not an
    error (tests/conftest.py's ``pytest_configure``), since the test it closed for had passed."""


def browser_processes() -> list[psutil.Process]:
    """This test process's Chromium browser processes: those Playwright's driver started, not
    the renderers and helpers each of them starts."""
    found = []
    for child in psutil.Process().children(recursive=True):
        try:
            if "chrom" in child.name() and "chrom" not in psutil.Process(child.ppid()).name():
                found.append(child)
        except psutil.NoSuchProcess:
            continue
    return found


def kill_browsers() -> None:
    """Kill this process's Chromium browser processes."""
    for process in browser_processes():
        with contextlib.suppress(psutil.NoSuchProcess):
            process.kill()


class Chromium:
    """The session's browser, launched again when the one before it was killed or crashed.

    Tests hold this object for the whole session, so it stands in for Playwright's ``Browser``
    (every attribute is the current browser's)."""

    def __init__(self, playwright: Any) -> None:
        self._playwright = playwright
        self._browser: Any = None
        self.launches = 0

    def current(self) -> Any:
        if self._browser is None or not self._browser.is_connected():
            self._browser = self._playwright.chromium.launch(
                executable_path=CHROMIUM, args=ARGS, headless=True
            )
            self.launches += 1
        return self._browser

    def __getattr__(self, name: str) -> Any:
        return getattr(self.current(), name)

    def close(self) -> None:
        if self._browser is not None and self._browser.is_connected():
            self._browser.close()


def guard_context_close(context_class: Any) -> Any:
    """Make ``context_class.close`` kill the browser when it has not returned in
    ``CLOSE_SECONDS``; the original method, for putting back."""
    from playwright.sync_api import Error

    original = context_class.close

    def close(self: Any, *args: Any, **kwargs: Any) -> None:
        fired = threading.Event()

        def kill() -> None:
            fired.set()
            kill_browsers()

        timer = threading.Timer(CLOSE_SECONDS, kill)
        timer.daemon = True
        timer.start()
        try:
            original(self, *args, **kwargs)
        except Error:
            if not fired.is_set():
                raise
        finally:
            timer.cancel()
        if fired.is_set():
            warnings.warn(
                f"Chromium did not close a browser context in {CLOSE_SECONDS:.0f} s and was "
                "killed; the next test gets a new browser.",
                BrowserKilled,
                stacklevel=2,
            )

    context_class.close = close
    return original
