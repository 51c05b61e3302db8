"""Play-by-post's writes and reads. Every one takes the caller's :class:`CampaignAccess`
(``campaign.permissions``), so a player can neither post in another campaign nor read what is
not hers: someone else's secret roll reaches her as "rolled in secret", never its dice.

* Members start threads and post, as themselves or as one of their own characters in the
  campaign; GMs may also post as the campaign's NPCs. A locked thread takes only the GMs' posts.
* A ``/roll`` line (alone on its line) is rolled by the server with the campaign's dice service
  (:func:`campaign.services.roll_make`), logged in the roll log with the exact odds, and taken
  out of the text; ``/roll secret ...`` (or a mental skill's roll under the house rule) is seen
  only by the roller and the GMs (the mental one by the GMs only).
* The author edits her text; the edit time is kept and shown, and an edit never rolls or
  changes a roll.
* GMs lock, pin, rename, file (category) and order threads, and turn an excerpt into a handout
  or a wiki entry.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Subquery
from django.http import Http404
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from apibase import push
from apibase.numbers import object_id
from campaign import services as campaign_services
from campaign.models import MAX_PROSE, Campaign, Membership
from characters.models import Character

from . import markup
from .models import REACTIONS, Post, PostRoll, Reaction, ReadMark, Thread

if TYPE_CHECKING:
    from accounts.models import User
    from campaign.permissions import CampaignAccess

#: The most ``/roll`` lines one post rolls (more is refused, not silently dropped).
MAX_ROLLS_PER_POST: Final = 5
#: The largest target a roll line takes, either way.
MAX_TARGET: Final = 1000
MAX_TITLE: Final = 120
MAX_CATEGORY: Final = 60
MAX_POSITION: Final = 10_000
MAX_EXCERPT: Final = 5_000

#: ``/roll [secret] <dice>[ > target][ label]``, alone on its line: ``/roll 4d>12``,
#: ``/roll secret 3d+1 > 9 Sense``.
ROLL_LINE: Final = re.compile(
    r"^[ \t]*/roll(?:[ \t]+(?P<secret>secret))?[ \t]+(?P<dice>[^\s>]+)"
    r"(?:[ \t]*>[ \t]*(?P<target>[+-]?\d{1,6}))?(?:[ \t]+(?P<label>[^>\s][^\n]*?))?[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)
_ANY_ROLL_LINE: Final = re.compile(r"^[ \t]*/roll\b", re.IGNORECASE | re.MULTILINE)


def thread_group(thread_id: Any) -> str:
    """The group of the sockets open on one thread's page."""
    return f"thread.{thread_id}"


def announce_thread(thread: Thread) -> None:
    """Tell the thread's open pages, and the campaign's members' navigation, that it changed."""
    push.send_on_commit(thread_group(thread.pk), {"type": "thread.changed"})


# --------------------------------------------------------------------------- reads


def threads_for(access: CampaignAccess) -> QuerySet[Thread]:
    """The campaign's threads for a member, each with ``post_count`` and ``unread``."""
    if not access.can_view or access.user_id is None:
        raise Http404(_("No such campaign."))
    mark = ReadMark.objects.filter(thread=OuterRef("pk"), user_id=access.user_id).values("read_at")[
        :1
    ]
    return (
        Thread.objects.filter(campaign_id=access.campaign_id)
        .select_related("created_by")
        .annotate(read_at=Subquery(mark))
        .annotate(
            post_count=Count("posts", distinct=True),
            unread=Count(
                "posts",
                filter=~Q(posts__author_id=access.user_id)
                & (Q(read_at__isnull=True) | Q(posts__created_at__gt=F("read_at"))),
                distinct=True,
            ),
        )
    )


def unread_total(access: CampaignAccess) -> int:
    """Posts by others in the campaign's threads this member has not read (the nav's count)."""
    if not access.can_view or access.user_id is None:
        return 0
    marks = ReadMark.objects.filter(thread=OuterRef("thread_id"), user_id=access.user_id)
    return (
        Post.objects.filter(thread__campaign_id=access.campaign_id)
        .exclude(author_id=access.user_id)
        .filter(~Exists(marks) | Exists(marks.filter(read_at__lt=OuterRef("created_at"))))
        .count()
    )


def thread_for(access: CampaignAccess, thread_id: int | str) -> Thread:
    """A thread of the member's campaign, else 404 (another campaign's thread does not exist)."""
    pk = object_id(thread_id) if isinstance(thread_id, int | str) else None
    if not access.can_view or pk is None:
        raise Http404(_("No such thread."))
    found = Thread.objects.filter(pk=pk, campaign_id=access.campaign_id).first()
    if found is None:
        raise Http404(_("No such thread."))
    return found


def mentionables(campaign_id: int) -> dict[str, markup.Mentionable]:
    """Who a post of the campaign may @mention: its members and its characters."""
    items: list[markup.Mentionable] = []
    members_url = reverse("gmtools:members", args=[campaign_id])
    for m in Membership.objects.filter(campaign_id=campaign_id).select_related("user"):
        items.append(
            markup.Mentionable(m.user.username.lower(), m.user.shown_name, members_url, m.user_id)
        )
    for c in Character.objects.filter(campaign_id=campaign_id).order_by("pk"):
        url = reverse("characters:sheet", args=[c.pk])
        owner = None if c.is_npc else c.owner_id
        items.append(markup.Mentionable(c.name.lower(), c.name, url, owner))
        first = c.name.split()[0].lower() if c.name.split() else ""
        if first and first != c.name.lower():
            items.append(markup.Mentionable(first, c.name, url, owner))
    return markup.mention_index(items)


@dataclass
class ShownRoll:
    """A post's roll as one reader may see it (``visible`` False: only that it was rolled)."""

    id: int
    visible: bool
    secret: bool
    hidden_from_roller: bool
    label: str = ""
    notation: str = ""
    target: int | None = None
    dice: list[int] = field(default_factory=list)
    total: int | None = None
    margin: int | None = None
    success: bool | None = None
    critical: str = ""
    odds: dict[str, Any] = field(default_factory=dict)

    @property
    def verdict(self) -> str:
        """The roll's outcome in the reader's language ("critical success", "failure")."""
        if self.critical == "critical_success":
            return _("critical success")
        if self.critical == "critical_failure":
            return _("critical failure")
        if self.critical == "success":  # an outcome kept in the roll's band field
            return _("success")
        if self.critical == "failure":
            return _("failure")
        if self.success is None:
            return ""
        return _("success") if self.success else _("failure")


@dataclass
class ShownPost:
    """A post shaped for one reader: the rendered text, its rolls as she may see them."""

    post: Post
    html: str
    rolls: list[ShownRoll]
    reactions: list[tuple[str, str, int, bool]]  # kind, emoji, count, mine
    speaker: str
    can_edit: bool


def _shown_roll(pr: PostRoll, access: CampaignAccess) -> ShownRoll:
    roll = pr.roll
    hidden = bool((roll.detail or {}).get("hidden_from_roller"))
    if not access.can_see_roll(roll):
        return ShownRoll(id=roll.pk, visible=False, secret=True, hidden_from_roller=hidden)
    return ShownRoll(
        id=roll.pk,
        visible=True,
        secret=roll.secret,
        hidden_from_roller=hidden,
        label=roll.label,
        notation=roll.notation,
        target=roll.target,
        dice=roll.dice,
        total=roll.total,
        margin=roll.margin,
        success=roll.success,
        critical=roll.critical,
        odds=pr.odds,
    )


def posts_for(
    access: CampaignAccess, thread: Thread, *, since: int | None = None
) -> list[ShownPost]:
    """The thread's posts as this member may see them, oldest first (``since``: after a post)."""
    if thread.campaign_id != access.campaign_id or not access.can_view:
        raise Http404(_("No such thread."))
    posts = (
        Post.objects.filter(thread=thread)
        .select_related("author", "character")
        .prefetch_related("post_rolls__roll", "reactions")
    )
    if since is not None:
        posts = posts.filter(pk__gt=since)
    index = mentionables(thread.campaign_id)
    shown: list[ShownPost] = []
    for post in posts:
        counts = Counter(r.kind for r in post.reactions.all())
        mine = {r.kind for r in post.reactions.all() if r.user_id == access.user_id}
        speaker = post.character.name if post.character else post.author.shown_name
        shown.append(
            ShownPost(
                post=post,
                html=markup.render(post.body, index),
                rolls=[_shown_roll(pr, access) for pr in post.post_rolls.all()],
                reactions=[
                    (kind, emoji, counts.get(kind, 0), kind in mine)
                    for kind, emoji in REACTIONS.items()
                ],
                speaker=speaker,
                can_edit=access.owns(post.author_id),
            )
        )
    return shown


def mark_read(access: CampaignAccess, thread: Thread, *, at: datetime | None = None) -> None:
    """The member has read the thread up to now (or ``at``)."""
    if access.user_id is None or thread.campaign_id != access.campaign_id:
        return
    ReadMark.objects.update_or_create(
        thread=thread, user_id=access.user_id, defaults={"read_at": at or timezone.now()}
    )


# --------------------------------------------------------------------------- threads


def _clean_title(title: str, errors: dict[str, list[str]]) -> str:
    title = (title or "").strip()
    if not title:
        errors["title"] = [_("Give the thread a title.")]
    elif len(title) > MAX_TITLE:
        errors["title"] = [_("Keep the title to %(n)s characters.") % {"n": MAX_TITLE}]
    return title


def _clean_category(category: str, errors: dict[str, list[str]]) -> str:
    category = (category or "").strip()
    if len(category) > MAX_CATEGORY:
        errors["category"] = [
            _("Keep the scene or topic to %(n)s characters.") % {"n": MAX_CATEGORY}
        ]
    return category


def thread_create(
    *,
    campaign: Campaign,
    by: CampaignAccess,
    user: User,
    title: str,
    category: str = "",
    body: str = "",
    character_id: int | None = None,
) -> Thread:
    """A member starts a thread (with a first post when ``body`` is given)."""
    if not by.can_view or by.campaign_id != campaign.pk:
        raise Http404(_("No such campaign."))
    errors: dict[str, list[str]] = {}
    title = _clean_title(title, errors)
    category = _clean_category(category, errors)
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        thread = Thread.objects.create(
            campaign=campaign, title=title, category=category, created_by=user
        )
        if body.strip():
            post_create(thread=thread, by=by, user=user, body=body, character_id=character_id)
        announce_thread(thread)
    return thread


def thread_update(
    *,
    thread: Thread,
    by: CampaignAccess,
    title: str | None = None,
    category: str | None = None,
    position: int | None = None,
    pinned: bool | None = None,
    locked: bool | None = None,
) -> Thread:
    """GMs rename, file (scene or topic), order, pin and lock a thread."""
    if not by.can_manage or by.campaign_id != thread.campaign_id:
        raise PermissionDenied(_("Only the campaign's game masters lock, pin or move threads."))
    errors: dict[str, list[str]] = {}
    fields: list[str] = []
    if title is not None:
        thread.title = _clean_title(title, errors)
        fields.append("title")
    if category is not None:
        thread.category = _clean_category(category, errors)
        fields.append("category")
    if position is not None:
        if not 0 <= position <= MAX_POSITION:
            errors["position"] = [_("Choose a place from 0 to %(n)s.") % {"n": MAX_POSITION}]
        thread.position = position
        fields.append("position")
    if pinned is not None:
        thread.pinned = pinned
        fields.append("pinned")
    if locked is not None:
        thread.locked = locked
        fields.append("locked")
    if errors:
        raise ValidationError(errors)
    if fields:
        thread.save(update_fields=fields)
        announce_thread(thread)
    return thread


def thread_delete(*, thread: Thread, by: CampaignAccess) -> None:
    """GMs delete a thread with its posts (its rolls stay in the roll log)."""
    if not by.can_manage or by.campaign_id != thread.campaign_id:
        raise PermissionDenied(_("Only the campaign's game masters delete threads."))
    announce_thread(thread)
    thread.delete()


# --------------------------------------------------------------------------- posts


@dataclass(frozen=True)
class RollLine:
    dice: str
    target: int | None
    label: str
    secret: bool


def roll_lines(body: str) -> tuple[str, list[RollLine], list[str]]:
    """The text without its ``/roll`` lines, the lines, and the errors in words."""
    errors: list[str] = []
    lines: list[RollLine] = []
    kept: list[str] = []
    for line in body.splitlines():
        if not _ANY_ROLL_LINE.match(line):
            kept.append(line)
            continue
        match = ROLL_LINE.match(line)
        if match is None:
            errors.append(
                _("Write a roll as “/roll 4d > 12” (dice, then > and a target): %(line)s")
                % {"line": line[:60]}
            )
            continue
        target = match.group("target")
        value = int(target) if target is not None else None
        if value is not None and abs(value) > MAX_TARGET:
            errors.append(_("Keep a target within ±%(n)s.") % {"n": MAX_TARGET})
            continue
        lines.append(
            RollLine(
                dice=match.group("dice"),
                target=value,
                label=(match.group("label") or "").strip()[:120],
                secret=bool(match.group("secret")),
            )
        )
    if len(lines) > MAX_ROLLS_PER_POST:
        errors.append(_("Roll at most %(n)s times in one post.") % {"n": MAX_ROLLS_PER_POST})
    return "\n".join(kept).strip("\n"), lines, errors


def _speaker(campaign_id: int, by: CampaignAccess, character_id: int | None) -> Character | None:
    if character_id is None:
        return None
    found = Character.objects.filter(pk=character_id, campaign_id=campaign_id).first()
    if found is None or not (by.owns(found.owner_id) or (by.is_gm and found.is_npc)):
        raise ValidationError(
            {
                "character": [
                    _("Post as one of your own characters in this campaign, or as yourself.")
                ]
            }
        )
    return found


def _check_body(body: str, errors: dict[str, list[str]]) -> None:
    if len(body) > MAX_PROSE:
        errors["body"] = [_("Keep a post to %(n)s characters.") % {"n": MAX_PROSE}]


def post_create(
    *,
    thread: Thread,
    by: CampaignAccess,
    user: User,
    body: str,
    character_id: int | None = None,
) -> Post:
    """A member posts; its ``/roll`` lines are rolled, logged and shown with their odds."""
    if not by.can_view or by.campaign_id != thread.campaign_id:
        raise Http404(_("No such thread."))
    if thread.locked and not by.is_gm:
        raise PermissionDenied(_("The thread is locked: only the game masters post in it."))
    body = body or ""
    errors: dict[str, list[str]] = {}
    _check_body(body, errors)
    if errors:
        raise ValidationError(errors)
    text, lines, roll_errors = roll_lines(body)
    campaign = thread.campaign
    rules = campaign.rules()
    requests = []
    for line in lines:
        try:
            requests.append(
                campaign_services.dice_request_from(
                    notation=line.dice, target=line.target, rules=rules
                )
            )
        except campaign_services.DiceRequestError as exc:
            roll_errors.append(f"{line.dice}: {exc}")
    if roll_errors:
        raise ValidationError({"body": roll_errors})
    if not text.strip() and not lines:
        raise ValidationError({"body": [_("Write something, or roll.")]})
    character = _speaker(thread.campaign_id, by, character_id)
    with transaction.atomic():
        post = Post.objects.create(thread=thread, author=user, character=character, body=text)
        for position, (line, request) in enumerate(zip(lines, requests, strict=True)):
            first = line.label.split()[0].lower() if line.label else ""
            hidden = (
                not by.is_gm
                and bool(rules.mental_rolls_secret)
                and first in campaign_services.MENTAL_SKILLS
            )
            roll = campaign_services.roll_make(
                user=user,
                dice=request,
                campaign=campaign,
                label=line.label or (character.name if character else ""),
                secret=line.secret,
                hidden=hidden,
            )
            odds = campaign_services.odds_for(request)
            odds.pop("chart_svg", None)
            odds.pop("distribution", None)
            PostRoll.objects.create(post=post, roll=roll, position=position, odds=odds)
        Thread.objects.filter(pk=thread.pk).update(last_post_at=post.created_at)
        mark_read(by, thread, at=post.created_at)
        _notify_mentions(post, thread, user)
        announce_thread(thread)
    return post


def _notify_mentions(post: Post, thread: Thread, author: User) -> None:
    from notifications import texts
    from notifications.models import EventType
    from notifications.services import notify

    index = mentionables(thread.campaign_id)
    users = {m.user_id for m in markup.find_mentions(post.body, index) if m.user_id}
    users.discard(author.pk)
    if not users:
        return
    from accounts.models import User

    url = reverse("threads:detail", args=[thread.campaign_id, thread.pk]) + f"#post-{post.pk}"
    speaker = post.character.name if post.character else author.shown_name
    for user in User.objects.filter(pk__in=users, memberships__campaign_id=thread.campaign_id):
        notify(
            recipient=user,
            event=EventType.THREAD_MENTION,
            campaign=thread.campaign,
            title=texts.gettext_lazy(
                "%(speaker)s mentioned you in “%(thread)s”", speaker=speaker, thread=thread.title
            ),
            url=url,
            dedupe_key=f"thread-mention-{post.pk}",
        )


def post_for(access: CampaignAccess, thread: Thread, post_id: int | str) -> Post:
    pk = object_id(post_id) if isinstance(post_id, int | str) else None
    found = Post.objects.filter(pk=pk, thread=thread).first() if pk is not None else None
    if found is None or thread.campaign_id != access.campaign_id or not access.can_view:
        raise Http404(_("No such post."))
    return found


def post_edit(*, post: Post, by: CampaignAccess, body: str) -> Post:
    """The author changes her text; the edit is shown as one. Rolls are never changed."""
    if not by.owns(post.author_id):
        raise PermissionDenied(_("Only its author edits a post."))
    if post.thread.locked and not by.is_gm:
        raise PermissionDenied(_("The thread is locked: only the game masters post in it."))
    errors: dict[str, list[str]] = {}
    _check_body(body or "", errors)
    if not errors and _ANY_ROLL_LINE.search(body or ""):
        errors["body"] = [_("An edit never rolls: post a new reply to roll again.")]
    if not errors and not (body or "").strip() and not post.post_rolls.exists():
        errors["body"] = [_("Write something.")]
    if errors:
        raise ValidationError(errors)
    post.body = (body or "").strip("\n")
    post.edited_at = timezone.now()
    post.save(update_fields=["body", "edited_at"])
    announce_thread(post.thread)
    return post


def reaction_toggle(*, post: Post, by: CampaignAccess, kind: str) -> bool:
    """Add the member's reaction of ``kind`` (True), or take it back (False)."""
    if not by.can_view or by.user_id is None or post.thread.campaign_id != by.campaign_id:
        raise Http404(_("No such post."))
    if kind not in REACTIONS:
        raise ValidationError(
            {"kind": [_("Choose one of: %(kinds)s.") % {"kinds": ", ".join(REACTIONS)}]}
        )
    deleted, _rows = Reaction.objects.filter(post=post, user_id=by.user_id, kind=kind).delete()
    if not deleted:
        Reaction.objects.get_or_create(post=post, user_id=by.user_id, kind=kind)
    announce_thread(post.thread)
    return not deleted


# --------------------------------------------------------------------------- excerpts


def _excerpt(post: Post, excerpt: str | None) -> str:
    text = post.body if excerpt is None or not excerpt.strip() else excerpt
    if len(text) > MAX_EXCERPT:
        raise ValidationError(
            {"excerpt": [_("Keep the excerpt to %(n)s characters.") % {"n": MAX_EXCERPT}]}
        )
    if excerpt is not None and excerpt.strip() and excerpt.strip() not in post.body:
        raise ValidationError({"excerpt": [_("Choose a passage of the post's own text.")]})
    return text.strip()


def excerpt_to_handout(
    *,
    post: Post,
    by: CampaignAccess,
    author: User,
    title: str,
    excerpt: str | None = None,
    recipient_ids: list[int] | None = None,
) -> Any:
    """GMs turn a post's text (or a passage of it) into a handout, shared with everyone or the
    chosen members. Rolls are never copied: only the post's words."""
    from gmtools.handouts import handout_create

    if not by.can_manage or by.campaign_id != post.thread.campaign_id:
        raise PermissionDenied(_("Only the campaign's game masters make handouts."))
    text = _excerpt(post, excerpt)
    speaker = post.character.name if post.character else post.author.shown_name
    body = f"{text}\n\n— {speaker}, in “{post.thread.title}”"
    return handout_create(
        campaign=post.thread.campaign,
        by=by,
        author=author,
        title=title,
        body=body,
        recipient_ids=recipient_ids or [],
    )


def excerpt_to_wiki_entry(
    *,
    post: Post,
    by: CampaignAccess,
    author: User,
    title: str,
    excerpt: str | None = None,
    kind: str = "lore",
    visibility: str = "gm",
    viewer_ids: list[int] | None = None,
) -> Any:
    """GMs turn a post's text (or a passage of it) into a wiki entry of ``kind``: seen by the
    GMs only unless they choose otherwise, since a post may hold what the players should not
    read as established lore yet. The entry quotes who said it and links back to the post (an
    in-character speaker as a mention of her character); rolls are never copied."""
    from wiki.services import entry_create

    if not by.can_manage or by.campaign_id != post.thread.campaign_id:
        raise PermissionDenied(_("Only the campaign's game masters make wiki entries."))
    text = _excerpt(post, excerpt)
    if not text:
        raise ValidationError({"excerpt": [_("The post has no words to quote.")]})
    thread = post.thread
    where = reverse("threads:detail", args=[thread.campaign_id, thread.pk]) + f"#post-{post.pk}"
    speaker = (
        f"@[[character:{post.character_id}]]"
        if post.character_id is not None
        else markup_escape(post.author.shown_name)
    )
    body = f"{text}\n\n— {speaker}, in [“{markup_escape(thread.title)}”]({where})"
    return entry_create(
        campaign_id=thread.campaign_id,
        by=by,
        author=author,
        title=title,
        kind=kind,
        body=body,
        visibility=visibility,
        viewer_ids=viewer_ids or [],
    )


_MD_SPECIAL: Final = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~@])")


def markup_escape(text: str) -> str:
    """``text`` as Markdown that shows it word for word (a thread's title in a link's words)."""
    return _MD_SPECIAL.sub(r"\\\1", text)
