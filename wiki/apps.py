from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop


class WikiConfig(AppConfig):
    """The campaign's world: entries of kinds (people, places, factions, items, lore, events)
    linked by @mentions, with secrets per entry and per section, full-text search and history
    (docs/wiki.md)."""

    name = "wiki"
    verbose_name = _("Campaign wiki")

    def ready(self) -> None:
        from campaign.registry import (
            MentionKind,
            register_mention_kind,
            register_mentioned_in,
            register_timeline_source,
        )

        from . import selectors
        from .timeline import reveal_entries

        # A secret revealed shows on the campaign's timeline, to those who may now see it.
        register_timeline_source("wiki_reveal", reveal_entries)
        # A calendar event links an entry; a handout's or session's page lists the entries
        # that mention it. Both through campaign.registry: the GM tools do not import the wiki.
        register_mention_kind(
            MentionKind(
                key="entry",
                label=gettext_noop("Wiki entry"),  # shown through gettext (wiki/search.py)
                shown=selectors.entries_shown,
                named=selectors.entry_named,
                starting=selectors.entries_starting,
                in_campaign=selectors.entries_in,
            )
        )
        register_mentioned_in(selectors.mentioned_in)
