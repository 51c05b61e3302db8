"""The visual sweep's pages in Japanese and Chinese (issue 42: "the visual suite runs every
main page in ja and zh-Hans at 1280 and 390 px and fails on any English UI string left"):
every main page of the demo once per language (the GM's pages as the GM, then the pages only
a player has as a player, each account speaking the language), drawn by Chromium at 1280 px
and again at 390 px. On each: ``<html lang>`` names the
language, no word of the interface is left in English (what people wrote, inside
``translate="no"``, and the names of :data:`ALLOWED` excepted), every character has a glyph,
and nothing sticks out sideways at 390 px. The English sweep (tests/browser/test_visual.py)
checks everything else on the same pages: axe, labels, dark mode, console errors."""

from __future__ import annotations

import os
import re

import pytest

from tests.browser.test_i18n import ALLOWED, CHECKS
from tests.browser.test_visual import (  # noqa: F401 - ``demo`` is a fixture used by name
    DEMO_LOGINS,
    Visit,
    board_drawn,
    demo,
    demo_pages,
    listen,
    login,
    replay_drawn,
    settled,
)
from tests.minigames.test_rules_pages_i18n import latin_words_kept

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = (1280, 390)

#: Short things people name (a campaign, a character, a session, a map), as model: fields; the
#: words of these are user content wherever a page shows them.
NAMES = {
    "campaign.Campaign": ["name"],
    "campaign.Roll": ["label"],
    "characters.Character": ["name"],
    "gmtools.Invitation": ["note"],
    "gmtools.GameSession": ["title"],
    "gmtools.GMNote": ["title"],
    "gmtools.Handout": ["title", "file_name"],
    "gmtools.Award": ["reason"],
    "gmtools.SessionRsvp": ["note"],
    "gmtools.WorldEvent": ["title"],
    "wiki.Entry": ["title"],
    "wiki.Section": ["heading"],
    "threads.Thread": ["title"],
    "battles.BattleMap": ["name"],
    "battles.Battle": ["name"],
    "battles.Combatant": ["name"],
    "spellcards.Spellcard": ["name"],
    "spellcards.TemplateCard": ["name"],
    "decks.CustomCard": ["name"],
    "decks.Deck": ["name"],
    "accounts.User": ["username", "display_name"],
}
#: Long things people write, whose runs of three or more words are user content.
BODIES = {
    "campaign.Campaign": ["description"],
    "characters.Character": ["public_notes", "private_notes"],
    "gmtools.GameSession": ["agenda", "summary"],
    "gmtools.GMNote": ["body"],
    "gmtools.Handout": ["body"],
    "gmtools.WorldEvent": ["body"],
    "wiki.Entry": ["body"],
    "wiki.Section": ["body"],
    "threads.Post": ["body"],
    "spellcards.Spellcard": ["description"],
    "spellcards.TemplateCard": ["description"],
}


#: What both languages type as it is: the play-by-post's roll command.
COMMANDS = ["/roll secret", "/roll"]


def user_content(lang: str) -> dict[str, list[str]]:
    """What the demo's people wrote, for the checks to leave out: their names and titles as
    phrases (longest first, so "Reimu Hakurei" goes before "Reimu"), and their long texts;
    with them, the words the language's glossary keeps in Latin letters (SUPPORT, AV)."""
    from django.apps import apps

    def values(fields_of: dict[str, list[str]]) -> set[str]:
        found: set[str] = set()
        for label, fields in fields_of.items():
            for row in apps.get_model(label).objects.values_list(*fields):
                found.update(str(value).strip() for value in row if value)
        return found

    names = values(NAMES)
    # a calendar's own months and weekdays are names its GM gave
    from gmtools.models import WorldCalendar

    for calendar in WorldCalendar.objects.all():
        names.update(str(m.get("name", "")) for m in calendar.months or [] if isinstance(m, dict))
        names.update(str(day) for day in calendar.weekdays or [])
    # a token shows its combatant's initials (static/js/battle_screen.js ``initials``), and a
    # square's name gives them with the name
    from battles.models import Combatant

    for name in Combatant.objects.values_list("name", flat=True):
        words = re.sub(r"[^\w ]", "", name).split()
        names.add((words[0][0] + words[1][0] if len(words) > 1 else name[:2]).upper())
    names.discard("")
    bodies = values(BODIES)
    # a wiki text's editor shows each mention stored by id as ``@[[its name]]``, as its GM
    # reads it (wiki/render.py ``Renderer.source``)
    from campaign.models import Campaign
    from campaign.permissions import access_for
    from wiki.models import Entry, Section
    from wiki.render import Renderer

    for campaign in Campaign.objects.all():
        texts = [
            *Entry.objects.filter(campaign=campaign).values_list("body", flat=True),
            *Section.objects.filter(entry__campaign=campaign).values_list("body", flat=True),
        ]
        editor = Renderer(access_for(campaign.created_by, campaign), texts)
        bodies.update(editor.source(text) for text in texts)
    return {
        "allowed": sorted(
            [*ALLOWED, *COMMANDS, *latin_words_kept(lang), *names], key=len, reverse=True
        ),
        "bodies": sorted(bodies),
    }


#: Pages whose interface still has English in it, with what: docs/i18n.md ("Still in English")
#: names the same. Their glyphs, width and language are checked like every page's, and their
#: English is not a failure; a page listed here that reads fully in the language fails the
#: sweep until it is taken off the list, so the list only shrinks.
UNFINISHED: dict[str, str] = {}


def look(
    page, name: str, where: str, lang: str, width: int, visit: Visit, written: dict
) -> list[str]:
    """Check ``page`` as it is drawn now; the English words left on it."""
    found = page.evaluate(CHECKS, written)
    if found["lang"] != lang:
        visit.add(where, f"<html lang> is {found['lang']!r}")
    if found["english"] and name not in UNFINISHED:
        visit.add(where, f"English left: {found['english'][:25]}")
    if found["missing"]:
        visit.add(where, f"drawn without a glyph: {found['missing']}")
    if width <= 400 and (found["scrollWidth"] > found["innerWidth"] + 1 or found["wide"]):
        visit.add(where, f"wider than the screen: {found['wide']}")
    return list(found["english"])


def sweep(context, base_url: str, role: str, lang: str, pages, visit: Visit, written) -> None:
    """Log in as ``role`` (her account speaks ``lang``) and look at each of ``pages`` at both
    widths: loaded once at 1280 px, then narrowed to 390 px."""
    page = login(context, base_url, role)
    pending: set = set()
    errors = listen(page, pending)
    for name, path in pages:
        page.set_viewport_size({"width": WIDTHS[0], "height": 900})
        response = page.goto(f"{base_url}{path}")
        if response is None or response.status != 200:
            visit.add(f"{role} {lang} {name}", f"answered {response and response.status}")
            continue
        page.wait_for_load_state("load")
        settled(page, pending)
        if name.startswith("tavern-"):
            board_drawn(page, f"{role} {lang} {name}", visit)
        if name.startswith("replay-"):
            replay_drawn(page, f"{role} {lang} {name}", visit)
        english: list[str] = []
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            where = f"{role} {lang} {name} {width}px"
            english += look(page, name, where, lang, width, visit, written)
        if name in UNFINISHED and not english:
            visit.add(
                f"{role} {lang} {name}", "reads fully in the language: take it off UNFINISHED"
            )
    for error in errors:
        visit.add(f"{role} {lang}", error)


@pytest.mark.usefixtures("demo")
@pytest.mark.parametrize("lang", ["ja", "zh-hans"])
def test_every_demo_page_reads_fully_in_the_language(browser, live_server, lang):
    """Each page once per language: the GM's pages as the GM, then the pages only a player
    has (the character wizard, the spellcard builder, her sheet's editor, her post's)."""
    from accounts.models import User

    visit = Visit()
    written = user_content(lang)
    gm_pages = demo_pages("gm")
    seen = {path for _, path in gm_pages}
    player_pages = [(name, path) for name, path in demo_pages("player") if path not in seen]
    for role, pages in (("gm", gm_pages), ("player", player_pages)):
        User.objects.filter(username=DEMO_LOGINS[role][0]).update(language=lang)
        if os.environ.get("VISUAL_PAGES"):  # a developer's shorter sweep: VISUAL_PAGES=battle
            only = set(os.environ["VISUAL_PAGES"].split(","))
            pages = [(name, path) for name, path in pages if name in only]
        context = browser.new_context(viewport={"width": WIDTHS[0], "height": 900})
        context.set_default_timeout(10_000)
        try:
            sweep(context, live_server.url, role, lang, pages, visit, written)
        finally:
            context.close()
    assert not visit.problems, "\n".join(visit.problems)
