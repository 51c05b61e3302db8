"""``{% world_panel %}``: the in-world date and the viewer's calendar feed on the campaign's
page (the campaign app's template shows it; the campaign app knows nothing of the GM tools)."""

from __future__ import annotations

from typing import Any

from django import template

from ..calendar_feed import feed_of, feed_path
from ..world import world_date

register = template.Library()


@register.inclusion_tag("gmtools/_world_panel.html", takes_context=True)
def world_panel(context: dict[str, Any]) -> dict[str, Any]:
    campaign = context["campaign"]
    request = context["request"]
    feed = feed_of(request.user) if request.user.is_authenticated else None
    return {
        "campaign": campaign,
        "today": world_date(campaign.pk),
        "feed": feed,
        "feed_url": request.build_absolute_uri(feed_path(feed)) if feed else "",
        "csrf_token": context.get("csrf_token"),
    }
