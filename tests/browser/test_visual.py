"""Visual checks over the demo: every main page, as the GM and as a player, at 1280 and 390 px,
light and dark (issue 10: "visual checks, so the next break is caught").

One browser, one context per (role, width), each page loaded once and looked at in both colour
schemes (``emulate_media``). On every page: no console error, no failed request, no horizontal
page scroll at 390 px, every input labelled, every image with alt text, no internal identifier
(snake_case, a Python list or dict) nor a script's ``undefined``, ``NaN`` or ``[object Object]``
in the visible text, and dark mode actually dark. The pages include the demo tavern and a table
of each kind it seeds (a lobby, a game in play, a finished one), drawn by their game's script,
and every game's "How to play" page.
A page is photographed (a full-page JPEG of each variant in ``test-artifacts/visual/``,
git-ignored; CI keeps the folder) when a docs page shows that picture or the page has a
problem; ``VISUAL_SHOTS=1`` (``make screenshots``) photographs every page, to be looked at (the
pictures are over a quarter of the sweep's time: docs/test-suite.md).

To add a pass (another role, a language), add its pages to :func:`demo_pages` or its
parameter to the test; :func:`look` checks one page in one context.

Problems are collected over all pages and reported together, so one run shows every break.
"""

from __future__ import annotations

import io
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.browser.conftest import ARTIFACTS, wait_until, watch_console

pytestmark = [
    pytest.mark.browser,
    pytest.mark.full_chromium,
    pytest.mark.django_db(transaction=True),
]

WIDTHS = (1280, 390)
SCHEMES = ("light", "dark")
SHOTS = ARTIFACTS / "visual"
#: Every page's screenshot, for a person to look at (``make screenshots``); otherwise only the
#: pictures the docs show and those of a page with a problem.
EVERY_SHOT = os.environ.get("VISUAL_SHOTS", "0") == "1"
#: The screenshots are JPEG at this quality: Chromium encodes a full page as JPEG with about
#: two fifths less CPU than as PNG, and the pages' words and colours stay plain to the eye.
SHOT_QUALITY = 85
#: A docs picture from this sweep: ``test-artifacts/visual/<role>-<page>-<width>-<scheme>.jpg``.
DOC_SHOT = re.compile(r"test-artifacts/visual/([a-z0-9-]+\.jpg)")

# Visible text must not carry engine keys or Python reprs ("Words, not identifiers").
SNAKE = re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b")
REPR = re.compile(r"\[\d+, \d+\]|\{'|\['|\bNone\b(?! \()|\bTrue\b|\bFalse\b")
# ... nor a script's leftovers: a value it did not have, a sum of nothing, an object as text.
SCRIPT_REPR = re.compile(r"\bundefined\b|\bNaN\b|\[object Object\]")

CHECKS_JS = (Path(__file__).parent / "visual_checks.js").read_text()
HEADER_JS = (Path(__file__).parent / "header_overlaps.js").read_text()

# axe-core (package.json, installed into node_modules by `make dev-deps`), evaluated in each
# page: an evaluate is the browser's own, so the site's CSP (no inline script) does not stop it.
AXE_JS = Path(__file__).resolve().parent.parent.parent / "node_modules/axe-core/axe.min.js"
# WCAG 2.0, 2.1 and 2.2, levels A and AA (axe's tags for them)
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
#: The rules of :data:`WCAG_AA` whose answer depends on the colours: a text's contrast with what
#: is behind it, and a link told apart from the text around it. They run in both schemes; every
#: other rule reads the page's elements, names and layout, which the dark palette leaves as they
#: are (it sets colours alone: tests/test_css_scoping.py), so they run once, in light.
AXE_COLOUR_RULES = ["color-contrast", "link-in-text-block"]
AXE_RUN = (
    "(only) => axe.run(document, {runOnly: only, resultTypes: ['violations']})"
    ".then((r) => r.violations.map((v) => ({id: v.id, help: v.help, impact: v.impact,"
    " nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ') + (n.failureSummary ?"
    " ' (' + n.failureSummary.split('\\n').slice(1).join(' ').slice(0, 160) + ')' : ''))})))"
)


@dataclass
class Visit:
    problems: list[str] = field(default_factory=list)
    #: the pictures to take whatever happens (those the docs show), and those taken
    wanted: set[str] = field(default_factory=set)
    shot: set[str] = field(default_factory=set)

    def add(self, where: str, what: str) -> None:
        self.problems.append(f"{where}: {what}")


def demo_pages(role: str) -> list[tuple[str, str]]:
    """(name, path) of every main page of the demo that ``role`` (gm or player) may open."""
    from battles.models import Battle
    from campaign.models import Campaign
    from characters.models import Character
    from gmtools.models import GameSession, GMNote, Handout
    from wiki.models import Entry

    campaign = Campaign.objects.get(name="The Scarlet Mist Incident")
    c = campaign.pk
    session = GameSession.objects.filter(campaign=campaign).first()
    handout = Handout.objects.filter(campaign=campaign, shared_with_all=True).first()
    battle = Battle.objects.get(campaign=campaign)
    reimu = Character.objects.get(campaign=campaign, name="Reimu Hakurei")
    mansion = Entry.objects.get(campaign=campaign, title="Scarlet Devil Mansion")
    secret = Entry.objects.get(campaign=campaign, title="The mist's true purpose")
    from threads.models import Post, Thread

    thread = Thread.objects.filter(campaign=campaign).first()
    reimus_post = Post.objects.filter(thread=thread, character=reimu).first()
    pages = [
        ("home", "/"),
        ("campaigns", "/campaigns/"),
        ("campaign", f"/campaigns/{c}/"),
        ("campaign-dice", f"/campaigns/{c}/dice/?notation=4d%2B2&target=12"),
        ("dice", "/dice/?notation=3d&target=10"),
        ("members", f"/campaigns/{c}/members/"),
        ("calendar", f"/campaigns/{c}/calendar/"),
        ("calendar-feed", "/campaigns/calendar-feed/"),
        ("sessions", f"/campaigns/{c}/sessions/"),
        ("session", f"/campaigns/{c}/sessions/{session.pk}/"),
        ("handouts", f"/campaigns/{c}/handouts/"),
        ("handout", f"/campaigns/{c}/handouts/{handout.pk}/"),
        ("timeline", f"/campaigns/{c}/timeline/"),
        ("wiki", f"/campaigns/{c}/wiki/"),
        ("wiki-search", f"/campaigns/{c}/wiki/?q=mansion"),
        ("wiki-entry", f"/campaigns/{c}/wiki/{mansion.pk}/"),
        ("wiki-secret", f"/campaigns/{c}/wiki/{secret.pk}/"),  # revealed to Reimu (the player)
        ("threads", f"/campaigns/{c}/threads/"),
        ("thread", f"/campaigns/{c}/threads/{thread.pk}/"),
        ("battles", f"/campaigns/{c}/battles/"),
        ("battle", f"/battles/{battle.pk}/"),
        ("characters", "/characters/"),
        ("sheet", f"/characters/{reimu.pk}/"),
        ("deck", f"/characters/{reimu.pk}/deck/"),
        ("templates", f"/campaigns/{c}/spellcard-templates/"),
        ("notifications", "/notifications/"),
        ("alerts", "/notifications/preferences/"),
        ("profile", "/accounts/profile/"),
        ("leaderboard", "/tavern/ratings/raigo/"),
        ("campaign-leaderboard", f"/campaigns/{c}/tavern/ratings/raigo/"),
    ]
    pages += tavern_pages(campaign) + password_reset_pages(role)
    if role == "gm":
        note = GMNote.objects.filter(campaign=campaign).first()
        npc = Character.objects.get(campaign=campaign, name="Hong Meiling")
        sakuya = Entry.objects.get(campaign=campaign, title="Sakuya Izayoi")
        pages += [
            ("dashboard", f"/campaigns/{c}/dashboard/"),
            ("invitations", f"/campaigns/{c}/invitations/"),
            ("notes", f"/campaigns/{c}/notes/"),
            ("note", f"/campaigns/{c}/notes/{note.pk}/edit/"),
            ("settings", f"/campaigns/{c}/settings/"),
            ("wiki-new", f"/campaigns/{c}/wiki/new/"),
            ("wiki-edit", f"/campaigns/{c}/wiki/{secret.pk}/edit/"),
            ("wiki-history", f"/campaigns/{c}/wiki/{secret.pk}/history/"),
            # Sakuya's stat block (wiki/stat_blocks.py): her page shows it to the GMs
            ("wiki-npc", f"/campaigns/{c}/wiki/{sakuya.pk}/"),
            ("wiki-stat-block", f"/campaigns/{c}/wiki/{sakuya.pk}/stat-block/"),
            ("npc-sheet", f"/characters/{Character.objects.get(pk=npc.pk).pk}/"),
            ("post-handout", f"/campaigns/{c}/threads/{thread.pk}/posts/{reimus_post.pk}/handout/"),
            (
                "post-wiki-entry",
                f"/campaigns/{c}/threads/{thread.pk}/posts/{reimus_post.pk}/wiki-entry/",
            ),
        ]
    else:
        pages += [
            ("wizard", "/characters/new/"),
            ("builder", f"/characters/{reimu.pk}/spellcards/new/"),
            ("edit-sheet", f"/characters/{reimu.pk}/edit/"),
            ("post-edit", f"/campaigns/{c}/threads/{thread.pk}/posts/{reimus_post.pk}/edit/"),
        ]
    return pages


def password_reset_pages(role: str) -> list[tuple[str, str]]:
    """The password reset pages (the log-in page is where each visit starts): the request,
    "check your email", the new password's form (a link made for the role's own account), a
    link that no longer works, and the last page."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.tokens import default_token_generator
    from django.utils.encoding import force_bytes
    from django.utils.http import urlsafe_base64_encode

    user = get_user_model().objects.get(username=DEMO_LOGINS[role][0])
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    return [
        ("password-reset", "/accounts/password/reset/"),
        ("password-reset-sent", "/accounts/password/reset/sent/"),
        ("password-reset-form", f"/accounts/password/reset/{uid}/{token}/"),
        ("password-reset-expired", f"/accounts/password/reset/{uid}/no-longer-valid/"),
        ("password-reset-done", "/accounts/password/reset/done/"),
    ]


def tavern_pages(campaign) -> list[tuple[str, str]]:
    """The demo campaign's tavern and a table of each kind seed_demo sets: RAIGO waiting for
    a player, Spirit War in play, RAIGO finished, and the open Dream Battle table (a lobby)."""
    from minigames.models import TavernTable

    tables = TavernTable.objects.filter(practice=False)
    found = {
        "tavern-waiting": tables.get(campaign=campaign, game="raigo", status="setup"),
        "tavern-playing": tables.get(campaign=campaign, game="spirit_war", status="active"),
        "tavern-finished": tables.get(campaign=campaign, game="raigo", status="ended"),
        "tavern-open": tables.get(campaign=None, game="dbs"),
    }
    from minigames.invites import invite_path

    finished = found["tavern-finished"]
    return (
        [("tavern", f"/campaigns/{campaign.pk}/tavern/")]
        + [(name, f"/tavern/tables/{t.pk}/") for name, t in found.items()]
        # its invite link (a seated viewer is taken to the table itself)
        + [("invite", invite_path(found["tavern-waiting"]))]
        # the finished game again, move by move (tables/pages.py), drawn by its renderer
        + [("replay-finished", f"/tables/{finished.game}/{finished.pk}/replay/?step=5")]
        + rules_pages()
    )


def rules_pages() -> list[tuple[str, str]]:
    """Every tavern game's "How to play" page."""
    from minigames.engines.registry import ENGINE_MODULES

    return [(f"rules-{slug}", f"/tavern/rules/{slug}/") for slug in ENGINE_MODULES]


def _eventually(page, script: str, seconds: float = 5) -> bool:
    """Whether ``script`` becomes true on ``page`` within ``seconds`` (the CSP forbids
    ``wait_for_function``'s eval, so it is asked again and again: conftest's ``wait_until``)."""
    try:
        wait_until(page, lambda: page.evaluate(script), script, seconds)
    except AssertionError:
        return False
    return True


def replay_drawn(page, where: str, visit: Visit) -> None:
    """A replay's step is drawn and its move list loaded."""
    drawn = (
        "() => document.getElementById('replay-board').childElementCount > 0"
        " && document.querySelectorAll('#replay-moves button').length > 0"
    )
    if not _eventually(page, drawn):
        visit.add(where, "the replay was not drawn")


def board_drawn(page, where: str, visit: Visit) -> None:
    """A tavern table's board is drawn by its script once the first state arrives."""
    drawn = "() => document.getElementById('tavern-board').childElementCount > 0"
    if not _eventually(page, drawn):
        visit.add(where, "the table was not drawn")


DEMO_LOGINS = {"gm": ("gm", "roses-gm-demo"), "player": ("reimu", "roses-reimu-demo")}


@pytest.fixture
def demo(db):
    """The demo, a house rule changed, and its battle under way with some GM overrides in the
    log (a status added and undone, a fairy knocked below zero HP), so the words those produce
    are on the pages the checks read."""
    from battles import services as battles
    from battles.models import Battle
    from campaign.models import Campaign

    call_command("seed_demo", stdout=io.StringIO())
    campaign = Campaign.objects.get(name="The Scarlet Mist Incident")
    campaign.house_rules = {"stat_per_die": 2}
    campaign.save(update_fields=["house_rules"])
    battle = Battle.objects.get(campaign=campaign)
    gm = campaign.memberships.get(role="gm").user
    ids = {c.name: c.id for c in battles.full_state(battle).combatants.values()}
    for action in (
        {"type": "start"},
        {"type": "gm_add_status", "combatant": ids["Reimu Hakurei"], "status": "stun", "turns": 1},
        {"type": "gm_undo"},
        {"type": "gm_adjust", "combatant": ids["Sunny Milk"], "hp": -45, "spell_power": 0},
    ):
        battle.refresh_from_db()
        battles.battle_action_apply(
            battle_id=battle.pk, actor=gm, action=action, expected_version=battle.version
        )


def login(context, base_url: str, role: str):
    username, password = DEMO_LOGINS[role]
    page = context.new_page()
    page.goto(f"{base_url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("form button[type=submit]")
    page.wait_for_url(f"{base_url}/")
    return page


def with_axe(context) -> None:
    """Every page ``context`` opens has axe-core from its first line (an init script: the
    browser runs it in each new document, so the 550 kB script is sent once a context, not
    once a page, and the site's CSP does not stop it)."""
    assert AXE_JS.exists(), f"{AXE_JS} is missing: `make dev-deps` installs it (npm ci)"
    context.add_init_script(path=str(AXE_JS))


def axe_violations(page, scheme: str = "light") -> list[str]:
    """Every WCAG 2.2 A/AA violation axe-core finds on ``page`` as it is now, in words: the
    rule, what it asks, and up to three of the elements that break it. In ``dark`` only the
    rules that read colours (:data:`AXE_COLOUR_RULES`); the others' answers are the light
    run's. A page of a context without :func:`with_axe` is given axe-core here."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        assert AXE_JS.exists(), f"{AXE_JS} is missing: `make dev-deps` installs it (npm ci)"
        page.evaluate(AXE_JS.read_text())
    only = (
        {"type": "rule", "values": AXE_COLOUR_RULES}
        if scheme == "dark"
        else {"type": "tag", "values": WCAG_AA}
    )
    return [
        f"{v['id']} ({v['help']}): {'; '.join(v['nodes'])}" for v in page.evaluate(AXE_RUN, only)
    ]


def look(page, name: str, role: str, width: int, visit: Visit, errors: list[str]) -> None:
    """Every check of one page in both colour schemes. The page is photographed in a scheme
    once it has a problem (a console error, a failed check here or before), when the docs show
    that picture, and always with :data:`EVERY_SHOT`."""
    where = f"{role} {name} {width}px"
    # the layout is the same in both schemes
    overlaps = page.evaluate(HEADER_JS)
    if overlaps:
        visit.add(where, f"header controls over one another: {overlaps}")
    for scheme in SCHEMES:
        # No sleep after the switch: the scheme is in force when emulate_media returns, the
        # checks' getComputedStyle reads it, and no colour is a CSS transition nor a script's
        # answer to the change (site.css follows prefers-color-scheme alone).
        page.emulate_media(color_scheme=scheme)
        found = page.evaluate(CHECKS_JS)
        here = f"{where} {scheme}"
        for violation in axe_violations(page, scheme):
            visit.add(here, f"axe: {violation}")
        if width <= 400 and found["scrollWidth"] > found["innerWidth"]:
            visit.add(here, f"page scrolls sideways: {found['scrollWidth']}px, {found['wide']}")
        if found["unlabelled"]:
            visit.add(here, f"inputs without a label: {found['unlabelled'][:3]}")
        if found["noAlt"]:
            visit.add(here, f"images without alt text: {found['noAlt'][:3]}")
        if width <= 400 and found["tinyControls"]:
            visit.add(here, f"controls smaller than 24 px to tap: {found['tinyControls']}")
        if found["smallTargets"]:
            visit.add(here, f"tick boxes too small to tap: {found['smallTargets'][:3]}")
        if scheme == "dark" and found["luminance"] > 0.3:
            visit.add(here, f"dark mode is not dark (background {found['luminance']:.2f})")
        if scheme == "light" and found["luminance"] < 0.7:
            visit.add(here, f"light mode is not light ({found['luminance']:.2f})")
        if scheme == "light":
            text = found["text"]
            words = sorted(
                set(SNAKE.findall(text)) | set(REPR.findall(text)) | set(SCRIPT_REPR.findall(text))
            )
            if words:
                visit.add(here, f"identifiers in the visible text: {words[:8]}")
        shot = f"{role}-{name}-{width}-{scheme}.jpg"
        if (
            EVERY_SHOT
            or shot in visit.wanted
            or errors
            or any(p.startswith(where) for p in visit.problems)
        ):
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(
                path=str(SHOTS / shot), full_page=True, type="jpeg", quality=SHOT_QUALITY
            )
            visit.shot.add(shot)


def map_shown(page, where: str, visit: Visit) -> None:
    """The demo battle's map (seed_demo draws one) is loaded under the squares, as wide as
    they are: its 10 columns of squares span the board's 10."""
    page.wait_for_selector("#board-map:not([hidden])")
    loaded = "() => ((m) => m.complete && m.naturalWidth > 0)(document.getElementById('board-map'))"
    if not _eventually(page, loaded):
        visit.add(where, "the map's image did not load")
        return
    first = page.locator(".battle-square[data-x='0'][data-y='0']").bounding_box()
    shown = page.locator("#board-map").bounding_box()
    if first is None or shown is None:
        visit.add(where, "the board or its map is not shown")
        return
    # the map is drawn to the grid: its left edge is the first square's, its width 10 squares
    if abs(shown["x"] - first["x"]) > 1.5 or abs(shown["width"] - 10 * first["width"]) > 3:
        visit.add(where, f"the map is not aligned to the squares: {shown} vs {first}")


def rules_readable(page, where: str, visit: Visit) -> None:
    """Every house rule's explanation is on the screen, not in a column scrolled off it (on a
    phone the table sat in a sideways-scrolling box with "what it does" out of sight)."""
    off = page.evaluate(
        "[...document.querySelectorAll('.house-rules tbody td:last-child')]"
        ".filter((td) => td.getBoundingClientRect().right > window.innerWidth + 1).length"
    )
    if off:
        visit.add(where, f"{off} house rules' explanations lie beyond the screen's edge")


def listen(page, pending: set | None = None) -> list[str]:
    """Console errors, page errors, failed requests and error answers, as they happen; the
    requests still out are kept in ``pending`` (for :func:`settled`)."""
    errors: list[str] = []
    watch_console(page, errors)
    if pending is not None:
        page.on("request", lambda r: pending.add(r))
        page.on("requestfinished", lambda r: pending.discard(r))
        page.on("requestfailed", lambda r: pending.discard(r))
    # a poll cut short by leaving the page is "aborted": not a failure
    page.on(
        "requestfailed",
        lambda r: (
            "ERR_ABORTED" not in (r.failure or "")
            and errors.append(f"request failed: {r.url} {r.failure}")
        ),
    )
    page.on("response", lambda r: r.status >= 400 and errors.append(f"{r.status} from {r.url}"))
    return errors


def settled(page, pending: set) -> None:
    """The page's first live refreshes (the bell's count, a table's first state) are answered
    and drawn: every request it made since it loaded has its answer (up to 5 s: a page that
    polls again meanwhile is not waited out), then one turn of its event loop runs the answers'
    handlers. It was a fixed 150 ms after the load: longer than most answers take, and no
    promise for a slow one."""
    for _ in range(250):
        if not pending:
            break
        page.wait_for_timeout(20)
    page.evaluate("new Promise((done) => setTimeout(done, 0))")


def sweep(context, base_url: str, role: str, width: int, pages, visit: Visit) -> None:
    """Log in as ``role`` in ``context`` and look at every page of ``pages`` at ``width``."""
    context.set_default_timeout(10_000)
    with_axe(context)
    page = login(context, base_url, role)
    pending: set = set()
    errors = listen(page, pending)
    for name, path in pages:
        errors.clear()
        response = page.goto(f"{base_url}{path}")
        if response is None or response.status != 200:
            visit.add(f"{role} {name} {width}px", f"answered {response and response.status}")
            continue
        page.wait_for_load_state("load")
        settled(page, pending)  # the first live refreshes
        if name == "battle":
            map_shown(page, f"{role} {name} {width}px", visit)
        if name.startswith("tavern-"):
            board_drawn(page, f"{role} {name} {width}px", visit)
        if name.startswith("replay-"):
            replay_drawn(page, f"{role} {name} {width}px", visit)
        if name == "settings":
            rules_readable(page, f"{role} {name} {width}px", visit)
        look(page, name, role, width, visit, errors)
        for error in errors:
            visit.add(f"{role} {name} {width}px", error)


@pytest.mark.parametrize("role", ["gm", "player"])
def test_every_demo_page_for_every_width_and_scheme(browser, live_server, demo, role):
    visit = Visit(wanted={shot for _, shot in doc_shots(role)})
    pages = demo_pages(role)
    if os.environ.get("VISUAL_PAGES"):  # a developer's shorter sweep: VISUAL_PAGES=battle,sheet
        only = set(os.environ["VISUAL_PAGES"].split(","))
        pages = [(name, path) for name, path in pages if name in only]
    for width in WIDTHS:
        context = browser.new_context(viewport={"width": width, "height": 900})
        try:  # closed on a failure too: its open pages would hold the live server's connections
            sweep(context, live_server.url, role, width, pages, visit)
        finally:
            context.close()
    if not os.environ.get("VISUAL_PAGES"):
        for doc, shot in doc_shots(role):
            if shot not in visit.shot:
                visit.add(doc, f"shows {shot}, which the sweep does not make")
    assert not visit.problems, "\n".join(visit.problems)


def doc_shots(role: str) -> list[tuple[str, str]]:
    """(doc, picture) for every picture of ``role`` the docs show from this sweep: the docs
    show the current pages, drawn by ``make screenshots``, never committed pictures
    (docs/decisions/docs-show-the-sweeps-screenshots.md)."""
    docs = Path(__file__).resolve().parent.parent.parent / "docs"
    found = []
    for path in sorted(docs.rglob("*.md")):
        for shot in DOC_SHOT.findall(path.read_text()):
            if shot.startswith(f"{role}-"):
                found.append((str(path.relative_to(docs.parent)), shot))
    return found
