"""The campaign wiki's rows: kinds, entries, their sections, the links between them, their
history and the reveals recorded on the timeline.

Who may see an entry or a section is its ``visibility``: the game masters only, every member,
or the chosen players (``viewers``). GMs always see everything; every read for a player goes
through :mod:`wiki.selectors`, which filters by these fields.
"""

from __future__ import annotations

import uuid
from typing import Final

from django.conf import settings
from django.db import models
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from campaign.models import Campaign

MAX_TITLE: Final = 120
MAX_BODY: Final = 20_000
MAX_TAGS: Final = 12
MAX_TAG: Final = 40
MAX_SECTIONS: Final = 30


class Visibility(models.TextChoices):
    GM = "gm", _("Game masters only")
    ALL = "all", _("Everyone in the campaign")
    CHOSEN = "chosen", _("Chosen players")


#: The kinds every campaign has (key, name); a GM adds more (:class:`Kind` rows). The rows keep
#: the English name; a page shows it in the reader's language (:attr:`Kind.label`).
BUILT_IN_KINDS: Final = (
    ("character", gettext_noop("Character or NPC")),
    ("place", gettext_noop("Place")),
    ("faction", gettext_noop("Faction")),
    ("item", gettext_noop("Item")),
    ("lore", gettext_noop("Lore")),
    ("event", gettext_noop("Event")),
)
_BUILT_IN_NAMES: Final = dict(BUILT_IN_KINDS)


class Kind(models.Model):
    """A kind of entry in one campaign: the built-in six, made on first use, and the GM's own."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="wiki_kinds")
    key = models.SlugField(max_length=40)
    name = models.CharField(max_length=40)
    built_in = models.BooleanField(default=False)

    class Meta:
        ordering = ("-built_in", "name", "pk")
        constraints = [
            models.UniqueConstraint(fields=("campaign", "key"), name="wiki_kind_unique_key")
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def label(self) -> str:
        """The name a page shows: a built-in kind's in the reader's language, a GM's own kind
        as she wrote it."""
        if self.built_in and self.key in _BUILT_IN_NAMES:
            return gettext(_BUILT_IN_NAMES[self.key])
        return self.name


def image_upload_to(instance: Entry, filename: str) -> str:
    """An unguessable name; the extension comes from the checked content (wiki/services.py)."""
    extension = filename.rsplit(".", 1)[-1].lower() if "." in filename else "img"
    return f"wiki/{instance.campaign_id}/{uuid.uuid4().hex}.{extension}"


class Entry(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="wiki_entries")
    kind = models.ForeignKey(Kind, on_delete=models.RESTRICT, related_name="entries")
    title = models.CharField(max_length=MAX_TITLE)
    body = models.TextField(blank=True, help_text="Markdown; mentions are stored by id.")
    image = models.FileField(upload_to=image_upload_to, blank=True)
    tags = models.JSONField(default=list, blank=True)
    parent = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="children",
        help_text="A place's parent place.",
    )
    members = models.ManyToManyField(
        "self", symmetrical=False, blank=True, related_name="factions", help_text="A faction's."
    )
    visibility = models.CharField(max_length=10, choices=Visibility.choices, default=Visibility.GM)
    viewers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="wiki_entries_known"
    )
    stat_block = models.JSONField(
        null=True,
        blank=True,
        help_text="A character or NPC's numbers for battles (wiki/stat_blocks.py); GMs only.",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("title", "pk")
        indexes = [models.Index(fields=("campaign", "title"), name="wiki_entry_title")]

    def __str__(self) -> str:
        return self.title


class Section(models.Model):
    """A part of an entry with its own visibility ("What Reimu knows")."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="sections")
    position = models.PositiveIntegerField(default=0)
    heading = models.CharField(max_length=MAX_TITLE)
    body = models.TextField(blank=True)
    visibility = models.CharField(max_length=10, choices=Visibility.choices, default=Visibility.GM)
    viewers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="wiki_sections_known"
    )

    class Meta:
        ordering = ("position", "pk")

    def __str__(self) -> str:
        return self.heading


class Link(models.Model):
    """One @mention, by id (a renamed target keeps its links): from an entry's body or one of
    its sections, to an entry, a character, a session or a handout (the GM tools' rows, named
    by string: the wiki does not import that app)."""

    source = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="links_out")
    section = models.ForeignKey(
        Section, on_delete=models.CASCADE, null=True, blank=True, related_name="links_out"
    )
    target_entry = models.ForeignKey(
        Entry, on_delete=models.CASCADE, null=True, blank=True, related_name="links_in"
    )
    target_character = models.ForeignKey(
        "characters.Character",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="wiki_links_in",
    )
    target_session = models.ForeignKey(
        "gmtools.GameSession",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="wiki_links_in",
    )
    target_handout = models.ForeignKey(
        "gmtools.Handout",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="wiki_links_in",
    )

    def __str__(self) -> str:
        target = (
            self.target_entry_id
            or self.target_character_id
            or self.target_session_id
            or self.target_handout_id
        )
        return f"{self.source_id} → {target}"


class Revision(models.Model):
    """An entry as it was after one change: who, when, which parts, and the whole text (to
    restore). Read by the GMs only: it holds every secret of the entry."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="revisions")
    number = models.PositiveIntegerField()
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    changed = models.JSONField(default=list)
    snapshot = models.JSONField(default=dict)

    class Meta:
        ordering = ("-number",)
        constraints = [
            models.UniqueConstraint(fields=("entry", "number"), name="wiki_revision_number")
        ]

    def __str__(self) -> str:
        return f"Version {self.number}"


class Reveal(models.Model):
    """A secret shown to more people, on the campaign's timeline."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="reveals")
    section = models.ForeignKey(
        Section, on_delete=models.CASCADE, null=True, blank=True, related_name="reveals"
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    to_all = models.BooleanField(default=False)
    players = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="+")

    class Meta:
        ordering = ("-at", "-pk")

    def __str__(self) -> str:
        return f"Reveal of {self.entry_id}"
