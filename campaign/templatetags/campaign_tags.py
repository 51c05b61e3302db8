"""Template filters for the campaign pages."""

from __future__ import annotations

from django import template
from django.utils.translation import pgettext_lazy

register = template.Library()


@register.filter
def label(slug: object) -> str:
    """A slug as words: ``mortally_wounded`` → ``mortally wounded``, ``level_up`` → ``level up``."""
    return str(slug or "").replace("_", " ").replace("-", " ")


#: A timeline entry's kind in words (the kinds the apps register, campaign.registry).
TIMELINE_KINDS = {
    "session": pgettext_lazy("a timeline entry's kind", "session"),
    "award": pgettext_lazy("a timeline entry's kind", "award"),
    "level_up": pgettext_lazy("a timeline entry's kind", "level up"),
    "roll": pgettext_lazy("a timeline entry's kind", "roll"),
    "handout": pgettext_lazy("a timeline entry's kind", "handout"),
    "world_event": pgettext_lazy("a timeline entry's kind", "world event"),
    "battle": pgettext_lazy("a timeline entry's kind", "battle"),
    "tavern": pgettext_lazy("a timeline entry's kind", "tavern"),
    "wiki_reveal": pgettext_lazy("a timeline entry's kind", "wiki reveal"),
}


@register.filter
def timeline_kind(kind: object) -> str:
    """A timeline entry's kind in the reader's language (an unknown kind as words)."""
    return str(TIMELINE_KINDS.get(str(kind), label(kind)))


@register.filter
def house_rules_words(changed: object) -> str:
    """A campaign's changed house rules in words: ``{"stat_per_die": 2}`` → "Stat points per
    die: 2" (the engine's labels in the reader's language; every page that lists them uses this
    one filter)."""
    from django.utils.translation import gettext

    from westernroses.house_rules import HOUSE_RULES_META

    if not isinstance(changed, dict):
        return ""
    return "; ".join(
        f"{gettext(HOUSE_RULES_META[k].label) if k in HOUSE_RULES_META else label(k)}: {v}"
        for k, v in changed.items()
    )


@register.simple_tag
def current_zone() -> str:
    """The zone this page's times are in, in words ("America/New York"), to name beside them
    (accounts.time_zones activates the viewer's zone for each request)."""
    from django.utils import timezone

    return timezone.get_current_timezone_name().replace("_", " ")


@register.filter
def roll_verdict(roll: object) -> str:
    """A logged roll's verdict in the reader's words (the engine's ``verdict``): "success by
    3", "critical success (7 under the target)", "failure (ties fail: beat the target)"."""
    from apibase.engine_words import in_language
    from westernroses.checks import verdict

    def get(key: str) -> object:
        return roll.get(key) if isinstance(roll, dict) else getattr(roll, key, None)

    success, margin, critical = get("success"), get("margin"), get("critical")
    words = verdict(
        success=success if isinstance(success, bool) else None,
        margin=margin if isinstance(margin, int) else None,
        critical=critical if isinstance(critical, str) else None,
    )
    return "" if words is None else in_language(words)


@register.filter
def quoted(name: object) -> str:
    """A name in quotes that never nest with its own (``apibase.words.quoted``)."""
    from apibase.words import quoted as quote

    return quote(str(name))
