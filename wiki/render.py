"""Markdown to safe HTML for one viewer, with @mentions as links.

A mention is written ``@[[Title]]`` (an entry's title, a campaign character's name, a session's
or a handout's title) and stored as ``@[[entry:12]]``, ``@[[character:3]]``, ``@[[session:4]]``
or ``@[[handout:7]]``: by id, so renaming the target keeps the link, and the page always shows
the target's current name. A mention of an entry or a handout the viewer may not see shows as
"something you have not learned yet", never its title. Sessions and handouts belong to the GM
tools, which the wiki does not import: it reaches them through ``campaign.registry``'s mention
kinds (``gmtools/mentions.py``).

Markdown is CommonMark (``markdown-it-py``) with raw HTML off; its output is sanitized by
``nh3`` (an allow-list of tags and attributes) before it reaches a page.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

import nh3
from django.urls import reverse
from django.utils.translation import gettext, gettext_noop
from markdown_it import MarkdownIt

if TYPE_CHECKING:
    from campaign.permissions import CampaignAccess

MENTION: Final = re.compile(r"@\[\[([^\[\]\n]{1,120})\]\]")
STORED: Final = re.compile(r"(entry|character|session|handout):(\d{1,12})")
#: The kinds the GM tools own, in the order a written name is looked up after entries and
#: characters.
OTHER_KINDS: Final = ("session", "handout")
#: What a mention of something the viewer may not see reads as (in her language, in italics).
HIDDEN: Final = gettext_noop("something you have not learned yet")
_MARKDOWN: Final = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
_TAGS: Final = {
    "a", "p", "em", "strong", "code", "pre", "blockquote", "ul", "ol", "li", "h1", "h2", "h3",
    "h4", "h5", "h6", "hr", "br", "table", "thead", "tbody", "tr", "th", "td", "del", "s",
}  # fmt: skip
_MD_SPECIAL: Final = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~])")


@dataclass(frozen=True, slots=True)
class Target:
    kind: str  # "entry", "character", "session" or "handout"
    id: int


def mention_targets(text: str) -> list[Target]:
    """The stored mentions in ``text``, in order, each once."""
    seen: dict[Target, None] = {}
    for match in MENTION.finditer(text):
        stored = STORED.fullmatch(match.group(1).strip())
        if stored:
            seen[Target(stored.group(1), int(stored.group(2)))] = None
    return list(seen)


def resolve_mentions(campaign_id: int, text: str) -> str:
    """``text`` with every ``@[[Title]]`` that names an entry, a campaign character, a session
    or a handout stored by id (looked up in that order). A name nothing carries yet stays as
    written (shown as plain words) and becomes a link when an entry of that title is written
    (:func:`wiki.services.entry_create`)."""
    from campaign.registry import mention_kind
    from characters.models import Character

    from .models import Entry

    def stored(match: re.Match[str]) -> str:
        name = match.group(1).strip()
        by_id = STORED.fullmatch(name)
        if by_id:
            kind, pk = by_id.group(1), int(by_id.group(2))
            if kind in OTHER_KINDS:
                other = mention_kind(kind)
                found = other is not None and pk in other.in_campaign(
                    campaign_id=campaign_id, ids=[pk]
                )
            else:
                model = Entry if kind == "entry" else Character
                found = model.objects.filter(campaign_id=campaign_id, pk=pk).exists()
            if found:
                return f"@[[{kind}:{pk}]]"
            return name  # a deleted target: no link, no id kept
        entry = (
            Entry.objects.filter(campaign_id=campaign_id, title__iexact=name).order_by("pk").first()
        )
        if entry is not None:
            return f"@[[entry:{entry.pk}]]"
        character = (
            Character.objects.filter(campaign_id=campaign_id, name__iexact=name)
            .order_by("pk")
            .first()
        )
        if character is not None:
            return f"@[[character:{character.pk}]]"
        for key in OTHER_KINDS:
            other = mention_kind(key)
            named = other.named(campaign_id=campaign_id, name=name) if other else None
            if named is not None:
                return f"@[[{key}:{named}]]"
        return match.group(0)

    return MENTION.sub(stored, text)


def _escape(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", text)


class Renderer:
    """Renders many texts for one viewer with one lookup of every target they mention."""

    def __init__(self, access: CampaignAccess, texts: Iterable[str]) -> None:
        from campaign.registry import mention_kind
        from characters.models import Character

        from .selectors import entries_visible_to

        targets = [t for text in texts for t in mention_targets(text)]
        entry_ids = {t.id for t in targets if t.kind == "entry"}
        character_ids = {t.id for t in targets if t.kind == "character"}
        campaign = access.campaign_id
        self.entries = dict(
            entries_visible_to(access).filter(pk__in=entry_ids).values_list("pk", "title")
        )
        self.characters = (
            dict(
                Character.objects.filter(campaign_id=campaign, pk__in=character_ids).values_list(
                    "pk", "name"
                )
            )
            if access.is_member
            else {}
        )
        #: ``{kind: {id: (name, url)}}`` of the sessions and handouts this viewer may see.
        self.others: dict[str, dict[int, tuple[str, str]]] = {}
        for key in OTHER_KINDS:
            ids = {t.id for t in targets if t.kind == key}
            other = mention_kind(key)
            self.others[key] = other.shown(access=access, ids=ids) if ids and other else {}
        self.campaign_id = campaign

    def name_of(self, kind: str, pk: int) -> str | None:
        """The current name of a target this viewer may see, else None."""
        if kind == "entry":
            return self.entries.get(pk)
        if kind == "character":
            return self.characters.get(pk)
        shown = self.others.get(kind, {}).get(pk)
        return shown[0] if shown else None

    def _link(self, match: re.Match[str]) -> str:
        stored = STORED.fullmatch(match.group(1).strip())
        if not stored:
            return _escape(match.group(1).strip())  # nothing carries this name yet
        kind, pk = stored.group(1), int(stored.group(2))
        if kind == "entry" and pk in self.entries:
            url = reverse("wiki:detail", args=[self.campaign_id, pk])
            return f"[{_escape(self.entries[pk])}]({url})"
        if kind == "character" and pk in self.characters:
            url = reverse("characters:sheet", args=[pk])
            return f"[{_escape(self.characters[pk])}]({url})"
        shown = self.others.get(kind, {}).get(pk)
        if shown is not None:
            return f"[{_escape(shown[0])}]({shown[1]})"
        return f"*{_escape(gettext(HIDDEN))}*"

    def source(self, text: str) -> str:
        """``text`` as the GM edits it: each stored mention as ``@[[its current name]]``
        (saved again, it is stored by id again)."""

        def named(match: re.Match[str]) -> str:
            stored = STORED.fullmatch(match.group(1).strip())
            if stored:
                kind, pk = stored.group(1), int(stored.group(2))
                name = self.name_of(kind, pk)
                if (
                    name is not None
                    and "]" not in name
                    and "[" not in name
                    and self._unique(kind, pk, name)
                ):
                    return f"@[[{name}]]"
            return match.group(0)

        return MENTION.sub(named, text)

    def _unique(self, kind: str, pk: int, name: str) -> bool:
        """Whether the name, saved again, names this target again (sessions and handouts come
        after entries and characters, so "Session 3" may name an entry first): else the edit
        form keeps the id."""
        if kind in ("entry", "character"):
            return True
        return resolve_mentions(self.campaign_id, f"@[[{name}]]") == f"@[[{kind}:{pk}]]"

    def markdown(self, text: str) -> str:
        """``text`` with its mentions as Markdown links for this viewer (still Markdown)."""
        return MENTION.sub(self._link, text)

    def html(self, text: str) -> str:
        return clean(_MARKDOWN.render(self.markdown(text)))


def clean(html: str) -> str:
    return nh3.clean(
        html,
        tags=set(_TAGS),
        attributes={"a": {"href", "title"}, "th": {"align"}, "td": {"align"}},
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer nofollow",
    )


def plain(html: str, limit: int = 200) -> str:
    """A short text excerpt of rendered HTML (search results)."""
    text = re.sub(r"\s+", " ", nh3.clean(html, tags=set())).strip()
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
