from django.apps import AppConfig


class WikiConfig(AppConfig):
    """The campaign's world: entries of kinds (people, places, factions, items, lore, events)
    linked by @mentions, with secrets per entry and per section, full-text search and history
    (docs/wiki.md)."""

    name = "wiki"
    verbose_name = "Campaign wiki"

    def ready(self) -> None:
        from campaign.registry import register_timeline_source

        from .timeline import reveal_entries

        # A secret revealed shows on the campaign's timeline, to those who may now see it.
        register_timeline_source("wiki_reveal", reveal_entries)
