"""A browser context that Chromium never closes costs a new browser, not the test lane
(tests/chromium.py). The fault is real: the browser process is frozen with SIGSTOP, so it
answers no DevTools command, as when it deadlocks disposing of a context."""

from __future__ import annotations

import warnings
from typing import Any

import psutil
import pytest

from tests import chromium


def test_a_context_chromium_never_closes_kills_the_browser_and_the_next_test_gets_a_new_one(
    browser: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(chromium, "CLOSE_SECONDS", 2.0)
    context = browser.new_context()
    context.new_page().set_content("<p>Before</p>")
    launches = browser.launches
    (frozen,) = browser.processes()
    frozen.suspend()

    # under the suite's own warning filters, which make every other warning an error: the
    # kill is reported and the test (which had passed) stands
    with warnings.catch_warnings(record=True) as seen:
        context.close()
    assert [(w.category, str(w.message)[:40]) for w in seen] == [
        (chromium.BrowserKilled, "Chromium did not close a browser context")
    ]

    with pytest.raises(psutil.NoSuchProcess):
        frozen.wait(timeout=10)
        frozen.status()  # reaped: gone
    page = browser.new_context().new_page()
    page.set_content("<p>After</p>")
    assert page.inner_text("p") == "After"
    assert browser.launches == launches + 1
    (fresh,) = browser.processes()
    assert fresh.pid != frozen.pid
    page.context.close()


def test_any_other_warning_is_still_an_error() -> None:
    """The yardstick of the filter above: the suite's filters are in force in a test."""
    with pytest.raises(UserWarning):
        warnings.warn("not a browser's", UserWarning, stacklevel=1)


def test_a_context_that_closes_in_time_keeps_the_browser(browser: Any) -> None:
    launches = browser.launches
    (before,) = browser.processes()
    context = browser.new_context()
    context.new_page().set_content("<p>Here</p>")
    context.close()
    assert browser.launches == launches
    assert [p.pid for p in browser.processes()] == [before.pid]


def test_the_browser_tests_run_on_the_headless_shell(browser: Any) -> None:
    """A module not marked ``full_chromium`` drives Chromium's headless shell
    (docs/decisions/browser-tests-on-the-headless-shell.md)."""
    browser.new_context().close()
    assert [p.exe() for p in browser.processes()] == [chromium.HEADLESS_SHELL]
