"""One headless Chromium for all renderer tests (Debian's headless shell, as in
tests/browser/conftest.py), and a page that records console errors and uncaught exceptions."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="session")
def renderer_browser(browser: Any) -> Any:
    """The test process's one Chromium (tests/conftest.py)."""
    return browser


class Page:
    """A Playwright page plus the console errors it has logged so far."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.errors: list[str] = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))


@pytest.fixture(scope="module")
def harness_page(renderer_browser: Any) -> Iterator[Page]:
    context = renderer_browser.new_context(viewport={"width": 390, "height": 844})
    context.set_default_timeout(10_000)
    yield Page(context.new_page())
    context.close()
