"""Template filters for the campaign pages."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def label(slug: object) -> str:
    """A slug as words: ``mortally_wounded`` → ``mortally wounded``, ``level_up`` → ``level up``."""
    return str(slug or "").replace("_", " ").replace("-", " ")


@register.filter
def house_rules_words(changed: object) -> str:
    """A campaign's changed house rules in words: ``{"stat_per_die": 2}`` → "Stat points per
    die: 2" (the engine's labels; every page that lists them uses this one filter)."""
    from westernroses.house_rules import HOUSE_RULES_META

    if not isinstance(changed, dict):
        return ""
    return "; ".join(
        f"{HOUSE_RULES_META[k].label if k in HOUSE_RULES_META else label(k)}: {v}"
        for k, v in changed.items()
    )


@register.simple_tag
def current_zone() -> str:
    """The zone this page's times are in, in words ("America/New York"), to name beside them
    (accounts.time_zones activates the viewer's zone for each request)."""
    from django.utils import timezone

    return timezone.get_current_timezone_name().replace("_", " ")
