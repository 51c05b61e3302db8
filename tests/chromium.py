"""The test process's headless Chromium, and what happens when it stops answering.

Two builds of Debian's Chromium, each launched when a test first needs it:

- **The headless shell** (``chromium-headless-shell``, Chromium's own headless browser, the one
  Playwright itself runs headless tests on) drives the clicks, taps, keys and live updates:
  about a third less CPU than the full browser for the same tests
  (docs/decisions/browser-tests-on-the-headless-shell.md).
- **The full browser** (``/usr/bin/chromium`` in its headless mode, the browser people run) for
  the modules marked ``full_chromium``: what only the full browser has (browser notifications and
  their permission, web push to a service worker) and the visual sweep's look of every page.

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
from typing import Any, ClassVar

import psutil

#: The full browser: Debian's wrapper, which adds the package's own flags.
CHROMIUM = "/usr/bin/chromium"
#: The headless shell, launched directly: Debian's /usr/bin/chromium-headless-shell is a script
#: that runs it without ``exec``, so the watchdog would find the script, not the browser.
HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell"
#: The modules marked so run on the full browser (pyproject.toml registers the marker).
FULL_MARK = "full_chromium"
ARGS = [
    "--no-sandbox",
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


def browser_processes(executable: str | None = None) -> list[psutil.Process]:
    """This test process's Chromium browser processes (of ``executable`` only, when given):
    those Playwright's driver started, not the renderers and helpers each of them starts."""
    # the full browser's wrapper script execs /usr/lib/chromium/chromium
    binary = None if executable is None else os.path.basename(executable)
    found = []
    for child in psutil.Process().children(recursive=True):
        try:
            started = "chrom" in child.name() and "chrom" not in psutil.Process(child.ppid()).name()
            if started and binary in (None, os.path.basename(child.exe())):
                found.append(child)
        except psutil.NoSuchProcess:
            continue
    return found


def kill_browsers() -> None:
    """Kill this process's browser of the build in use (the one whose context did not close);
    the other build's browser, if any, keeps running."""
    for process in browser_processes(Chromium.executable):
        with contextlib.suppress(psutil.NoSuchProcess):
            process.kill()


class Chromium:
    """The session's browsers, each launched again when the one before it was killed or
    crashed.

    Tests hold this object for the whole session, so it stands in for Playwright's ``Browser``
    (every attribute is the current browser's): the headless shell, or the full browser while
    a module marked ``full_chromium`` runs (:meth:`use`)."""

    #: the build the calls go to: one for the test process, set for each test module
    executable: ClassVar[str] = HEADLESS_SHELL

    def __init__(self, playwright: Any) -> None:
        self._playwright = playwright
        self._browsers: dict[str, Any] = {}
        self.launches = 0

    @classmethod
    def use(cls, executable: str) -> None:
        """Send the next calls to ``executable`` (tests/conftest.py, for each test module)."""
        cls.executable = executable

    def current(self) -> Any:
        browser = self._browsers.get(self.executable)
        if browser is None or not browser.is_connected():
            args = [*ARGS, "--headless=new"] if self.executable == CHROMIUM else ARGS
            browser = self._playwright.chromium.launch(
                executable_path=self.executable, args=args, headless=True
            )
            self._browsers[self.executable] = browser
            self.launches += 1
        return browser

    def processes(self) -> list[psutil.Process]:
        """The current build's browser processes in this test process."""
        return browser_processes(self.executable)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.current(), name)

    def close(self) -> None:
        for browser in self._browsers.values():
            if browser.is_connected():
                browser.close()


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
