"""A post's text to HTML: Markdown (``markdown-it-py``, CommonMark, raw HTML off), @mentions
made links, then sanitized with ``nh3`` so nothing a member writes runs in another's page.

Mentions are ``@name`` (a member's username or a character's first name) or ``@[Full Name]``
(a character's whole name); one that names nobody in the campaign stays plain text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

import nh3
from markdown_it import MarkdownIt

_md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
_md.disable("image")  # no pictures from elsewhere in a post (they would track the reader)

ALLOWED_TAGS: Final = frozenset(
    {
        "p", "br", "em", "strong", "code", "pre", "blockquote", "ul", "ol", "li", "a",
        "h1", "h2", "h3", "h4", "h5", "h6", "hr", "span", "del",
    }
)  # fmt: skip
ALLOWED_ATTRIBUTES: Final = {"a": {"href", "title"}, "span": {"class"}}

MENTION: Final = re.compile(r"(?<![\w@/])@(?:\[([^\]\n]{1,120})\]|([\w](?:[\w.-]{0,58}[\w])?))")


@dataclass(frozen=True, slots=True)
class Mentionable:
    """Someone a post may @mention: a member (``user_id``) or a character (and its owner)."""

    key: str  # lower case, as matched
    label: str
    url: str
    user_id: int | None


def mention_index(items: Iterable[Mentionable]) -> dict[str, Mentionable]:
    index: dict[str, Mentionable] = {}
    for item in items:
        index.setdefault(item.key, item)
    return index


def find_mentions(text: str, index: dict[str, Mentionable]) -> list[Mentionable]:
    found: list[Mentionable] = []
    for match in MENTION.finditer(text):
        name = (match.group(1) or match.group(2) or "").strip().lower()
        hit = index.get(name)
        if hit is not None and hit not in found:
            found.append(hit)
    return found


def _escape_md(text: str) -> str:
    return re.sub(r"([\\`*_\[\]()<>#!|~])", r"\\\1", text)


def render(text: str, index: dict[str, Mentionable]) -> str:
    """The sanitized HTML of a post's Markdown ``text``."""

    def link(match: re.Match[str]) -> str:
        name = (match.group(1) or match.group(2) or "").strip().lower()
        hit = index.get(name)
        if hit is None:
            return match.group(0)
        return f"[@{_escape_md(hit.label)}]({hit.url})"

    html = _md.render(MENTION.sub(link, text))
    return nh3.clean(
        html,
        tags=set(ALLOWED_TAGS),
        attributes={k: set(v) for k, v in ALLOWED_ATTRIBUTES.items()},
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer nofollow",
    )
