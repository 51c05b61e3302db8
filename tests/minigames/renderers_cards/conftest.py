"""A browser and a bare page for the card games' renderers: no Django, no server.

The page is written into a temporary folder and loads the site's stylesheet, the renderer's
JS and CSS by file:// URL, and a stub ``api`` (harness.js) that records plays and fallback
buttons. A Content-Security-Policy like the site's forbids inline scripts, so a renderer that
relied on one would fail here too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent
ARTIFACTS = ROOT / "test-artifacts" / "renderers_cards"

#: Like the site's policy: scripts and styles only from files, no inline script or style.
CSP = "default-src 'none'; script-src file:; style-src file:"
PAGE = """<!doctype html>
<html lang="en"{theme}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{csp}">
<title>Renderer harness</title>
<link rel="stylesheet" href="{site_css}">
<link rel="stylesheet" href="{game_css}">
<script src="{harness}"></script>
<script src="{kit_js}"></script>
<script src="{game_js}"></script>
</head>
<body><main><div class="tavern-board" id="board"></div><div id="fallback"></div></main></body>
</html>
"""


@pytest.fixture(scope="session")
def harness_file(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str, str | None], Path]:
    folder = tmp_path_factory.mktemp("renderer-harness")

    def write(game: str, theme: str | None) -> Path:
        path = folder / f"{game}-{theme or 'system'}.html"
        if not path.exists():
            path.write_text(
                PAGE.format(
                    theme=f' data-theme="{theme}"' if theme else "",
                    csp=CSP,
                    site_css=(ROOT / "static/css/site.css").as_uri(),
                    game_css=(ROOT / f"static/css/tavern/{game}.css").as_uri(),
                    game_js=(ROOT / f"static/js/tavern/{game}.js").as_uri(),
                    kit_js=(ROOT / "static/js/tavern/kit.js").as_uri(),
                    harness=(HERE / "harness.js").as_uri(),
                ),
                encoding="utf-8",
            )
        return path

    return write


class Harness:
    """One page with the harness loaded, recording console errors and page errors."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.errors: list[str] = []
        page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    def render(self, payload: dict[str, Any]) -> None:
        self.page.evaluate("p => window.harness.render(p)", payload)


@pytest.fixture
def open_harness(
    browser: Any, harness_file: Callable[[str, str | None], Path]
) -> Iterator[Callable[..., Harness]]:
    contexts: list[Any] = []

    def make(
        game: str, *, width: int = 390, scheme: str = "light", theme: str | None = None
    ) -> Harness:
        context = browser.new_context(viewport={"width": width, "height": 800}, color_scheme=scheme)
        context.set_default_timeout(5_000)
        contexts.append(context)
        page = context.new_page()
        harness = Harness(page)
        page.goto(harness_file(game, theme).as_uri())
        return harness

    yield make
    for context in contexts:
        context.close()
