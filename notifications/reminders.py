"""Reminders: turns that wait too long, and notifications due later (session reminders).

Battles and tavern games register a turn when it starts (:func:`turn_wait_start`, which also
sends "your turn") and end it when the player acts (:func:`turn_wait_end`). The beat task
``send_turn_reminders`` reminds once per turn that waited longer than the campaign's
``turn_reminder_minutes`` house rule, counted from the player's last move on it when a
feature says when that was (:func:`turn_activity_register`: a turn of several steps is not
"still waiting" while she plays it). Scheduled notifications (:func:`notification_schedule`,
:func:`session_reminders_schedule`) fire once when due, from the ``send_scheduled_notifications``
beat task. Both beat tasks lock rows with SKIP LOCKED and mark them in the same transaction that
raises the notification, and the notification carries a dedupe key, so overlapping or repeated
beat runs never remind twice.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone

from apibase import push
from notifications.models import EventType, Notification, ScheduledNotification, TurnWait
from westernroses.house_rules import DEFAULT_HOUSE_RULES

from . import texts
from .services import checked_link, notify, notify_campaign
from .texts import Text, Words

if TYPE_CHECKING:
    from accounts.models import User
    from campaign.models import Campaign

#: The smallest delay a campaign may set (the house rule's minimum), for the first SQL filter.
MIN_REMINDER_MINUTES = 1


# --------------------------------------------------------------------------- turns

#: When a user last acted on the thing a turn key names, or None: a turn lasts while the
#: table waits on her, through every step she takes, so "still waiting" counts from her last
#: step, not from the turn's start. Features set it (the table core, from its action log: a
#: read when a reminder is due, never a write on a move); the service knows no feature.
TurnActivity = Callable[[str, int], "datetime | None"]
_ACTIVITY: list[TurnActivity] = []


def turn_activity_register(reader: TurnActivity) -> None:
    """Let ``reader(key, user_id)`` say when the user last acted on turn ``key`` (None when it
    does not know the key). Registered once, at start-up (an app's ``ready``)."""
    if reader not in _ACTIVITY:
        _ACTIVITY.append(reader)


def _waiting_since(wait: TurnWait) -> datetime:
    """When the turn last saw its player act: her last move, if after the turn's start."""
    since = wait.started_at
    for reader in _ACTIVITY:
        acted = reader(wait.key, wait.user_id)
        if acted is not None and acted > since:
            since = acted
    return since


def turn_wait_start(
    *,
    campaign: Campaign | None,
    user: User,
    key: str,
    title: Words,
    body: Words = "",
    url: str = "",
    started_at: datetime | None = None,
    notify_user: bool = True,
) -> TurnWait:
    """Register that ``user``'s turn ``key`` started (and tell them, unless ``notify_user`` is
    False). ``key`` names this one turn, e.g. ``battle:12:round:3``; registering the same key
    again returns the existing turn and notifies nobody."""
    with transaction.atomic():
        wait, created = TurnWait.objects.get_or_create(
            key=key,
            user=user,
            defaults={
                "campaign": campaign,
                "title": texts.english(title)[:200],
                "texts": {"title": data} if (data := texts.dump(title)) else {},
                "url": checked_link(url),
                "started_at": started_at or timezone.now(),
            },
        )
        if created and notify_user:
            # one "your turn" per thing: the newest replaces the ones before it, read or not,
            # so her list holds one alert per table, not one per turn
            link = checked_link(url)
            turn_alerts_mark_read(user=user, url=link)
            if link:
                Notification.objects.filter(
                    recipient=user, event__in=TURN_EVENTS, url=link
                ).delete()
            notify(
                recipient=user,
                event=EventType.YOUR_TURN,
                campaign=campaign,
                title=title,
                body=body,
                url=url,
                dedupe_key=f"your_turn:{key}",
            )
    return wait


#: The events that say "it is your turn": at most one of them stays unread per thing.
TURN_EVENTS = (EventType.YOUR_TURN, EventType.TURN_REMINDER)


def turn_alerts_mark_read(*, user: User | None, url: str, now: datetime | None = None) -> int:
    """Mark the unread "your turn" alerts (and their reminders) that point at ``url`` read: for
    ``user``, or for everyone when None. Called when a newer one replaces them and when she
    opens the game they point at. Returns how many changed."""
    if not url:
        return 0
    alerts = Notification.objects.filter(event__in=TURN_EVENTS, url=url, read_at__isnull=True)
    if user is not None:
        alerts = alerts.filter(recipient=user)
    recipients = (
        [user.pk]
        if user is not None
        else list(alerts.values_list("recipient_id", flat=True).distinct())
    )
    changed = alerts.update(read_at=now or timezone.now())
    if changed:
        for recipient in recipients:
            push.announce_unread(recipient)
    return changed


def turn_wait_end(*, key: str, user: User | None = None, now: datetime | None = None) -> int:
    """The turn was taken (or the game ended): no reminder any more, and its "your turn" alert
    and reminder are read (a finished game leaves no unread turn alerts). Returns turns ended."""
    now = now or timezone.now()
    waits = TurnWait.objects.filter(key=key, ended_at__isnull=True)
    if user is not None:
        waits = waits.filter(user=user)
    ended = list(waits.values_list("pk", "user_id"))
    if not ended:
        # nobody waited on it (an NPC's turn, a seat already moved): one read, no write; every
        # move of a battle ends its turn, and half of them are the NPCs'
        return 0
    read = Notification.objects.filter(
        recipient_id__in={u for _, u in ended},
        dedupe_key__in=[f"your_turn:{key}", *(f"turn_reminder:{pk}" for pk, _ in ended)],
        read_at__isnull=True,
    ).update(read_at=now)
    if read:
        for recipient in {u for _, u in ended}:
            push.announce_unread(recipient)
    return TurnWait.objects.filter(pk__in=[pk for pk, _ in ended]).update(ended_at=now)


def _reminder_minutes(campaign: Campaign | None) -> int:
    """The campaign's delay before "still your turn" (the default for a table outside any
    campaign)."""
    if campaign is None:
        return DEFAULT_HOUSE_RULES.turn_reminder_minutes
    try:
        return campaign.rules().turn_reminder_minutes
    except ValueError:  # stored house rules that no longer validate: use the default
        return DEFAULT_HOUSE_RULES.turn_reminder_minutes


def turn_reminders_send(*, now: datetime | None = None, limit: int = 1000) -> int:
    """Remind every open turn that waited longer than its campaign's delay, once: counted
    from the player's last step of it, where a feature registered how to tell
    (:func:`turn_activity_register`).

    Returns how many reminders were raised.
    """
    now = now or timezone.now()
    candidates = (
        TurnWait.objects.filter(
            ended_at__isnull=True,
            reminded_at__isnull=True,
            started_at__lte=now - timedelta(minutes=MIN_REMINDER_MINUTES),
        )
        .select_related("campaign")
        .order_by("started_at")[:limit]
    )
    delays: dict[int | None, int] = {}
    sent = 0
    for wait in candidates:
        if wait.campaign_id not in delays:
            delays[wait.campaign_id] = _reminder_minutes(wait.campaign)
        minutes = delays[wait.campaign_id]
        if wait.started_at + timedelta(minutes=minutes) > now:
            continue
        # she may be playing it: a step of her turn within the delay puts the reminder off
        if _waiting_since(wait) + timedelta(minutes=minutes) > now:
            continue
        with transaction.atomic():
            locked = (
                TurnWait.objects.select_for_update(skip_locked=True, of=("self",))
                .select_related("user")
                .filter(pk=wait.pk, ended_at__isnull=True, reminded_at__isnull=True)
                .first()
            )
            if locked is None:
                continue
            locked.reminded_at = now
            locked.save(update_fields=["reminded_at"])
            waited = int((now - locked.started_at).total_seconds() // 60)
            notify(
                recipient=locked.user,
                event=EventType.TURN_REMINDER,
                campaign=wait.campaign,
                title=still_your_turn(texts.loaded(locked.texts, "title", locked.title)),
                body=texts.ngettext_lazy(
                    "Your turn has been waiting for %(minutes)s minute.",
                    "Your turn has been waiting for %(minutes)s minutes.",
                    "minutes",
                    minutes=waited,
                ),
                url=locked.url,
                dedupe_key=f"turn_reminder:{locked.pk}",
            )
        sent += 1
    return sent


#: The turn titles that have a "still" form of their own (their message ids: the words each
#: reader gets are the catalog's).
STILL = {
    texts.gettext_noop("Your move at %(game)s"): texts.gettext_noop("Still your move at %(game)s"),
    texts.gettext_noop("Your move at %(game)s with %(names)s"): texts.gettext_noop(
        "Still your move at %(game)s with %(names)s"
    ),
    texts.gettext_noop("Your turn: %(name)s in %(battle)s"): texts.gettext_noop(
        "Still your turn: %(name)s in %(battle)s"
    ),
    texts.gettext_noop("Your turn at the %(game)s"): texts.gettext_noop(
        "Still your turn at the %(game)s"
    ),
}


def still_your_turn(title: Words) -> Words:
    """The reminder's title from the turn's: "Your move at Spirit War with Marisa" becomes
    "Still your move at Spirit War with Marisa", not "Still your turn: Your move at …"."""
    if isinstance(title, Text):
        if title.msgid in STILL:
            return Text(STILL[title.msgid], title.params)
        return texts.gettext_lazy("Still your turn: %(title)s", title=title)
    if title.startswith(("Your turn", "Your move")):
        return "Still " + title[0].lower() + title[1:]
    return texts.gettext_lazy("Still your turn: %(title)s", title=title)


# --------------------------------------------------------------------------- scheduled


def notification_schedule(
    *,
    key: str,
    due_at: datetime,
    event: EventType | str,
    title: Words,
    body: Words = "",
    url: str = "",
    campaign: Campaign | None = None,
    recipient: User | None = None,
) -> ScheduledNotification:
    """Send a notification at ``due_at``: to ``recipient``, or with no recipient to the whole
    ``campaign``. Scheduling the same ``key`` again moves it (and re-arms it if it already
    fired for an earlier time)."""
    if recipient is None and campaign is None:
        raise ValueError("A scheduled notification needs a recipient or a campaign.")
    event = EventType(event)
    with transaction.atomic():
        row = ScheduledNotification.objects.select_for_update().filter(key=key).first()
        if row is None:
            row = ScheduledNotification(key=key)
        if row.due_at != due_at:
            row.sent_at = None
        row.due_at = due_at
        row.event, row.url = event, checked_link(url)
        row.title, row.body = texts.english(title)[:200], texts.english(body)
        row.texts = {
            name: data
            for name, data in (("title", texts.dump(title)), ("body", texts.dump(body)))
            if data
        }
        row.campaign, row.recipient = campaign, recipient
        row.save()
    return row


def scheduled_notifications_cancel(*, key_prefix: str) -> int:
    """Drop notifications not yet sent whose key starts with ``key_prefix``."""
    deleted, _ = ScheduledNotification.objects.filter(
        key__startswith=key_prefix, sent_at__isnull=True
    ).delete()
    return deleted


SESSION_REMINDERS = (
    ("day", timedelta(days=1), "tomorrow"),
    ("hour", timedelta(hours=1), "in an hour"),
)
#: Each reminder's title, by its label above.
SESSION_REMINDER_TITLES = {
    "day": texts.gettext_noop("Session tomorrow: %(title)s"),
    "hour": texts.gettext_noop("Session in an hour: %(title)s"),
}


def session_reminders_schedule(
    *,
    campaign: Campaign,
    session_key: str,
    starts_at: datetime,
    title: str,
    url: str = "",
    now: datetime | None = None,
) -> list[ScheduledNotification]:
    """A session was scheduled (or moved): tell the campaign now, and remind it a day and an
    hour before. Reminders whose time has already passed are dropped."""
    now = now or timezone.now()
    # the time in each reader's zone and her language's format
    starts = texts.gettext_lazy("%(title)s starts %(when)s.", title=title, when=starts_at)
    scheduled: list[ScheduledNotification] = []
    with transaction.atomic():
        notify_campaign(
            campaign=campaign,
            event=EventType.SESSION_SCHEDULED,
            title=texts.gettext_lazy("Session scheduled: %(title)s", title=title),
            body=starts,
            url=url,
            dedupe_key=f"session:{session_key}:scheduled:{starts_at.isoformat()}",
        )
        for label, before, _phrase in SESSION_REMINDERS:
            key = f"session:{session_key}:{label}"
            due = starts_at - before
            if due <= now:
                scheduled_notifications_cancel(key_prefix=key)
                continue
            scheduled.append(
                notification_schedule(
                    key=key,
                    due_at=due,
                    event=EventType.SESSION_REMINDER,
                    title=Text(SESSION_REMINDER_TITLES[label], {"title": title}),
                    body=starts,
                    url=url,
                    campaign=campaign,
                )
            )
    return scheduled


def scheduled_notifications_send(*, now: datetime | None = None, limit: int = 1000) -> int:
    """Fire every due scheduled notification once; returns how many fired."""
    now = now or timezone.now()
    due = list(
        ScheduledNotification.objects.filter(sent_at__isnull=True, due_at__lte=now)
        .order_by("due_at")
        .values_list("pk", flat=True)[:limit]
    )
    fired = 0
    for pk in due:
        with transaction.atomic():
            row = (
                ScheduledNotification.objects.select_for_update(skip_locked=True, of=("self",))
                .select_related("campaign", "recipient")
                .filter(pk=pk, sent_at__isnull=True, due_at__lte=now)
                .first()
            )
            if row is None:
                continue
            row.sent_at = now
            row.save(update_fields=["sent_at"])
            dedupe_key = f"scheduled:{row.key}:{row.due_at.isoformat()}"
            title = texts.loaded(row.texts, "title", row.title)
            body = texts.loaded(row.texts, "body", row.body)
            if row.recipient is not None:
                notify(
                    recipient=row.recipient,
                    event=row.event,
                    campaign=row.campaign,
                    title=title,
                    body=body,
                    url=row.url,
                    dedupe_key=dedupe_key,
                )
            elif row.campaign is not None:
                notify_campaign(
                    campaign=row.campaign,
                    event=row.event,
                    title=title,
                    body=body,
                    url=row.url,
                    dedupe_key=dedupe_key,
                )
        fired += 1
    return fired
