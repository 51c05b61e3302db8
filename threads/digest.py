"""The day's posts, told once a day to each member on the channels she chose for "The day's
posts in your campaigns" (the notification service's preferences and digest rules apply).

It names threads and counts posts by others, and nothing of what they say: no text, no roll,
so a secret roll cannot leak through it. Each member hears of one day once (a dedupe key per
member, campaign and day), however often the hourly task runs.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, date, datetime, time, timedelta

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from campaign.models import Campaign, Membership

from .models import Post


def send_daily_digests(day: date | None = None) -> int:
    """Tell every member of every campaign with posts on ``day`` (UTC; default: yesterday)
    what was posted by others. Returns how many notifications were made."""
    from notifications import texts
    from notifications.models import EventType
    from notifications.services import notify

    day = day or (timezone.now() - timedelta(days=1)).date()
    start = datetime.combine(day, time.min, tzinfo=UTC)
    end = start + timedelta(days=1)
    rows = (
        Post.objects.filter(created_at__gte=start, created_at__lt=end)
        .values_list("thread__campaign_id", "thread_id", "thread__title", "author_id")
        .order_by("thread__campaign_id", "thread_id")
    )
    by_campaign: dict[int, list[tuple[int, str, int]]] = defaultdict(list)
    for campaign_id, thread_id, title, author_id in rows:
        by_campaign[campaign_id].append((thread_id, title, author_id))
    made = 0
    for campaign_id, posts in by_campaign.items():
        campaign = Campaign.objects.get(pk=campaign_id)
        url = reverse("threads:list", args=[campaign_id])
        for membership in Membership.objects.filter(campaign_id=campaign_id).select_related("user"):
            counts: dict[tuple[int, str], int] = defaultdict(int)
            for thread_id, title, author_id in posts:
                if author_id != membership.user_id:
                    counts[(thread_id, title)] += 1
            if not counts:
                continue
            total = sum(counts.values())
            # one line a thread, each in the member's language (a Text that joins them)
            lines = {
                f"line{i}": texts.ngettext_lazy(
                    "%(thread)s: %(n)s new post",
                    "%(thread)s: %(n)s new posts",
                    "n",
                    thread=title,
                    n=n,
                )
                for i, ((_, title), n) in enumerate(counts.items())
            }
            body = texts.Text("\n".join(f"%({name})s" for name in lines), lines)
            with transaction.atomic():
                if notify(
                    recipient=membership.user,
                    event=EventType.THREAD_DIGEST,
                    campaign=campaign,
                    title=texts.ngettext_lazy(
                        "%(total)s new post in %(campaign)s on %(day)s",
                        "%(total)s new posts in %(campaign)s on %(day)s",
                        "total",
                        total=total,
                        campaign=campaign.name,
                        day=day,
                    ),
                    body=body,
                    url=url,
                    dedupe_key=f"thread-digest-{campaign_id}-{day.isoformat()}",
                ):
                    made += 1
    return made
