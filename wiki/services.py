"""Changes to the wiki, GMs only: entries, sections, kinds, reveals and restores.

Every change to an entry (its sections and reveals included) stores a :class:`Revision` with
the whole entry as it now is, who changed it and which parts; restoring an older revision
applies its text as a new change. Mentions are stored by id (:mod:`wiki.render`) and the
:class:`Link` rows rebuilt on each save, so every entry lists what links to it. Each revision
tells the players whose view of the entry it changed (:mod:`wiki.notices`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apibase.images import ImageRefused, ImageRules, image_check
from campaign.members import campaign_touch
from campaign.models import Membership, Role

from .models import (
    MAX_BODY,
    MAX_SECTIONS,
    MAX_TAG,
    MAX_TAGS,
    MAX_TITLE,
    Entry,
    Kind,
    Link,
    Reveal,
    Revision,
    Section,
    Visibility,
)
from .notices import tell_players
from .render import mention_targets, resolve_mentions
from .selectors import kinds_of

if TYPE_CHECKING:
    from django.core.files.uploadedfile import UploadedFile

    from accounts.models import User
    from campaign.permissions import CampaignAccess

IMAGE_RULES: Final = ImageRules(
    what=gettext_lazy("picture"),
    formats={
        "PNG": ("png", "image/png"),
        "JPEG": ("jpg", "image/jpeg"),
        "GIF": ("gif", "image/gif"),
        "WEBP": ("webp", "image/webp"),
    },
    max_bytes=3 * 1024 * 1024,
    min_side=16,
    max_side=6000,
    not_an_image=gettext_lazy("Upload a PNG, JPEG, GIF or WebP picture."),
)
IMAGE_TYPES: Final = dict(IMAGE_RULES.formats.values())
MAX_KINDS: Final = 40
UNSET: Final[Any] = object()


def _check_gm(access: CampaignAccess, campaign_id: int) -> None:
    if not access.can_manage or access.campaign_id != campaign_id:
        raise PermissionDenied(_("Only the campaign's game masters write the wiki."))


# --------------------------------------------------------------------------- checks


def _title(value: str, field: str = "title") -> str:
    value = value.strip()
    if not value:
        raise ValidationError({field: [_("Give it a title.")]})
    if len(value) > MAX_TITLE:
        raise ValidationError({field: [_("At most %(n)s characters.") % {"n": MAX_TITLE}]})
    return value


def _body(campaign_id: int, value: str, field: str = "body") -> str:
    if len(value) > MAX_BODY:
        raise ValidationError({field: [_("At most %(n)s characters.") % {"n": MAX_BODY}]})
    return resolve_mentions(campaign_id, value)


def _resolve_pending(entry: Entry) -> None:
    """Mentions written before ``entry`` existed (``@[[its title]]``) now link to it."""
    pending = f"@[[{entry.title}]]"
    for model in (Entry, Section):
        field = "campaign_id" if model is Entry else "entry__campaign_id"
        rows = model.objects.filter(**{field: entry.campaign_id, "body__icontains": pending})
        touched: set[int] = set()
        for row in rows.exclude(pk=entry.pk) if model is Entry else rows:
            row.body = resolve_mentions(entry.campaign_id, row.body)
            row.save(update_fields=["body"])
            touched.add(row.pk if isinstance(row, Entry) else row.entry_id)
        for source in Entry.objects.filter(pk__in=touched):
            _relink(source)


def clean_tags(tags: Iterable[str]) -> list[str]:
    out: list[str] = []
    for raw in tags:
        tag = " ".join(str(raw).split()).lower()
        if not tag:
            continue
        if len(tag) > MAX_TAG:
            raise ValidationError(
                {"tags": [_("A tag is at most %(n)s characters.") % {"n": MAX_TAG}]}
            )
        if tag not in out:
            out.append(tag)
    if len(out) > MAX_TAGS:
        raise ValidationError({"tags": [_("At most %(n)s tags.") % {"n": MAX_TAGS}]})
    return out


def _players(campaign_id: int, user_ids: Iterable[int]) -> list[int]:
    wanted = sorted(set(user_ids))
    players = set(
        Membership.objects.filter(
            campaign_id=campaign_id, user_id__in=wanted, role=Role.PLAYER
        ).values_list("user_id", flat=True)
    )
    if any(u not in players for u in wanted):
        raise ValidationError({"viewers": [_("Choose players of this campaign.")]})
    return wanted


def _visibility(campaign_id: int, visibility: str, viewer_ids: Iterable[int]) -> list[int]:
    if visibility not in Visibility.values:
        raise ValidationError({"visibility": [_("Choose game masters only, everyone or players.")]})
    viewers = _players(campaign_id, viewer_ids)
    if visibility == Visibility.CHOSEN and not viewers:
        raise ValidationError({"viewers": [_("Choose the players who know it.")]})
    return viewers if visibility == Visibility.CHOSEN else []


def _kind(campaign_id: int, key: str) -> Kind:
    for kind in kinds_of(campaign_id):
        if kind.key == key:
            return kind
    raise ValidationError({"kind": [_("No such kind in this campaign.")]})


def _entries(campaign_id: int, ids: Iterable[int], field: str, exclude: int | None) -> list[int]:
    wanted = sorted(set(ids))
    found = set(
        Entry.objects.filter(campaign_id=campaign_id, pk__in=wanted).values_list("pk", flat=True)
    )
    if any(i not in found for i in wanted) or (exclude is not None and exclude in wanted):
        raise ValidationError({field: [_("Choose other entries of this campaign.")]})
    return wanted


def _parent(campaign_id: int, entry: Entry | None, parent_id: int | None) -> int | None:
    if parent_id is None:
        return None
    parent = Entry.objects.filter(campaign_id=campaign_id, pk=parent_id).first()
    if parent is None or parent.kind.key != "place":
        raise ValidationError({"parent": [_("A parent is a place of this campaign.")]})
    seen = set()
    walk: Entry | None = parent
    while walk is not None:  # no place inside itself, however deep
        if (entry is not None and walk.pk == entry.pk) or walk.pk in seen:
            raise ValidationError({"parent": [_("A place cannot be inside itself.")]})
        seen.add(walk.pk)
        walk = walk.parent
    return parent.pk


def _image(file: UploadedFile[bytes]) -> str:
    try:
        return image_check(file, IMAGE_RULES).extension
    except ImageRefused as exc:
        raise ValidationError({"image": [str(exc)]}) from None


# --------------------------------------------------------------------------- history


def snapshot(entry: Entry) -> dict[str, Any]:
    """The whole entry as JSON: what a revision keeps and a restore puts back."""
    return {
        "title": entry.title,
        "kind": entry.kind.key,
        "body": entry.body,
        "tags": list(entry.tags),
        "parent": entry.parent_id,
        "members": sorted(entry.members.values_list("pk", flat=True)),
        "visibility": entry.visibility,
        "viewers": sorted(entry.viewers.values_list("pk", flat=True)),
        "image": bool(entry.image),
        "stat_block": entry.stat_block,
        "sections": [
            {
                "id": s.pk,
                "heading": s.heading,
                "body": s.body,
                "visibility": s.visibility,
                "viewers": sorted(s.viewers.values_list("pk", flat=True)),
            }
            for s in Section.objects.filter(entry=entry).order_by("position", "pk")
        ],
    }


def _record(entry: Entry, by: User | None) -> Revision:
    # One change at a time per entry: the lock orders the version numbers.
    Entry.objects.select_for_update().filter(pk=entry.pk).values_list("pk").first()
    now = snapshot(entry)
    last = Revision.objects.filter(entry=entry).order_by("-number").first()
    before = last.snapshot if last is not None else {}
    changed = [key for key in now if before.get(key) != now[key]]
    if "viewers" in changed and "visibility" in changed:
        changed.remove("viewers")  # one change: who sees it
    number = (Revision.objects.filter(entry=entry).aggregate(n=Max("number"))["n"] or 0) + 1
    revision = Revision.objects.create(
        entry=entry, number=number, by=by, changed=changed, snapshot=now
    )
    _relink(entry)
    campaign_touch(entry.campaign_id)
    # the players whose view of the entry changed hear of it (wiki/notices.py)
    tell_players(entry, before, revision)
    return revision


def _relink(entry: Entry) -> None:
    Link.objects.filter(source=entry).delete()
    rows: list[Link] = []
    texts: list[tuple[Section | None, str]] = [(None, entry.body)]
    texts += [(s, s.body) for s in Section.objects.filter(entry=entry)]
    for section, text in texts:
        for target in mention_targets(text):
            rows.append(
                Link(
                    source=entry,
                    section=section,
                    target_entry_id=target.id if target.kind == "entry" else None,
                    target_character_id=target.id if target.kind == "character" else None,
                    target_session_id=target.id if target.kind == "session" else None,
                    target_handout_id=target.id if target.kind == "handout" else None,
                )
            )
    Link.objects.bulk_create(rows)


# --------------------------------------------------------------------------- entries


@transaction.atomic
def kind_add(*, campaign_id: int, by: CampaignAccess, name: str) -> Kind:
    _check_gm(by, campaign_id)
    name = " ".join(name.split())
    if not name or len(name) > 40:
        raise ValidationError({"name": [_("Name the kind in 1 to 40 characters.")]})
    key = slugify(name)[:40]
    if not key:
        raise ValidationError({"name": [_("Use some letters or digits in the name.")]})
    kinds = kinds_of(campaign_id)
    if any(k.key == key or k.name.lower() == name.lower() for k in kinds):
        raise ValidationError({"name": [_("The campaign already has this kind.")]})
    if len(kinds) >= MAX_KINDS:
        raise ValidationError(
            {"name": [_("A campaign has at most %(n)s kinds.") % {"n": MAX_KINDS}]}
        )
    return Kind.objects.create(campaign_id=campaign_id, key=key, name=name)


@transaction.atomic
def entry_create(
    *,
    campaign_id: int,
    by: CampaignAccess,
    author: User,
    title: str,
    kind: str,
    body: str = "",
    tags: Iterable[str] = (),
    visibility: str = Visibility.GM,
    viewer_ids: Iterable[int] = (),
    parent_id: int | None = None,
    member_ids: Iterable[int] = (),
    image: UploadedFile[bytes] | None = None,
) -> Entry:
    _check_gm(by, campaign_id)
    entry = Entry(
        campaign_id=campaign_id,
        kind=_kind(campaign_id, kind),
        title=_title(title),
        body=_body(campaign_id, body),
        tags=clean_tags(tags),
        visibility=visibility,
        created_by=author,
    )
    viewers = _visibility(campaign_id, visibility, viewer_ids)
    entry.parent_id = _parent(campaign_id, None, parent_id) if entry.kind.key == "place" else None
    members = _entries(campaign_id, member_ids, "members", None)
    if image is not None:
        extension = _image(image)
        entry.image.save(f"picture.{extension}", image, save=False)
    entry.save()
    entry.viewers.set(viewers)
    if entry.kind.key == "faction":
        entry.members.set(members)
    _resolve_pending(entry)
    _record(entry, author)
    return entry


@transaction.atomic
def entry_update(
    *,
    entry: Entry,
    by: CampaignAccess,
    author: User,
    title: str | None = None,
    kind: str | None = None,
    body: str | None = None,
    tags: Iterable[str] | None = None,
    visibility: str | None = None,
    viewer_ids: Iterable[int] | None = None,
    parent_id: Any = UNSET,
    member_ids: Iterable[int] | None = None,
    image: UploadedFile[bytes] | None = None,
    remove_image: bool = False,
) -> Entry:
    """Change what is given (``None``: left as it is); one revision for the change."""
    campaign_id = entry.campaign_id
    _check_gm(by, campaign_id)
    entry = Entry.objects.select_for_update().select_related("kind").get(pk=entry.pk)
    renamed = title is not None and _title(title) != entry.title
    if title is not None:
        entry.title = _title(title)
    if kind is not None:
        entry.kind = _kind(campaign_id, kind)
    if body is not None:
        entry.body = _body(campaign_id, body)
    if tags is not None:
        entry.tags = clean_tags(tags)
    if visibility is not None or viewer_ids is not None:
        visibility = visibility if visibility is not None else entry.visibility
        current = list(entry.viewers.values_list("pk", flat=True))
        viewers = _visibility(
            campaign_id, visibility, viewer_ids if viewer_ids is not None else current
        )
        entry.visibility = visibility
        entry.viewers.set(viewers)
    if entry.kind.key != "place":
        entry.parent_id = None
    elif parent_id is not UNSET:
        entry.parent_id = _parent(campaign_id, entry, parent_id)
    old_image = None
    if image is not None:
        extension = _image(image)
        old_image = entry.image.name
        entry.image.save(f"picture.{extension}", image, save=False)
    elif remove_image and entry.image:
        old_image, entry.image = entry.image.name, None
    if entry.kind.key != "character":
        entry.stat_block = None  # a stat block is a character's or NPC's (wiki/stat_blocks.py)
    entry.save()
    if entry.kind.key != "faction":
        entry.members.clear()
    elif member_ids is not None:
        entry.members.set(_entries(campaign_id, member_ids, "members", entry.pk))
    if old_image:
        storage = entry.image.storage
        transaction.on_commit(lambda: storage.delete(old_image))
    if renamed:
        _resolve_pending(entry)
    _record(entry, author)
    return entry


@transaction.atomic
def entry_delete(*, entry: Entry, by: CampaignAccess) -> None:
    _check_gm(by, entry.campaign_id)
    name, storage, campaign_id = entry.image.name, entry.image.storage, entry.campaign_id
    entry.delete()
    if name:
        transaction.on_commit(lambda: storage.delete(name))
    campaign_touch(campaign_id)


@transaction.atomic
def entry_restore(*, entry: Entry, by: CampaignAccess, author: User, number: int) -> Entry:
    """Put back the text of revision ``number`` (its picture is not kept by history)."""
    _check_gm(by, entry.campaign_id)
    revision = Revision.objects.filter(entry=entry, number=number).first()
    if revision is None:
        raise ValidationError({"revision": [_("No such version of this entry.")]})
    old = revision.snapshot
    campaign_id = entry.campaign_id
    live = set(Entry.objects.filter(campaign_id=campaign_id).values_list("pk", flat=True))
    players = set(
        Membership.objects.filter(campaign_id=campaign_id, role=Role.PLAYER).values_list(
            "user_id", flat=True
        )
    )
    kinds = {k.key for k in kinds_of(campaign_id)}
    entry.title = old["title"]
    if old["kind"] in kinds:
        entry.kind = _kind(campaign_id, old["kind"])
    entry.body = old["body"]
    entry.tags = old["tags"]
    entry.parent_id = old["parent"] if old["parent"] in live else None
    entry.stat_block = old.get("stat_block") if entry.kind.key == "character" else None
    entry.visibility = old["visibility"]
    viewers = [u for u in old["viewers"] if u in players]
    if entry.visibility == Visibility.CHOSEN and not viewers:
        entry.visibility = Visibility.GM  # nobody left to know it: back to the GMs
    entry.save()
    entry.viewers.set(viewers)
    entry.members.set([m for m in old["members"] if m in live and m != entry.pk])
    Section.objects.filter(entry=entry).delete()
    for position, part in enumerate(old["sections"]):
        section = Section.objects.create(
            entry=entry,
            position=position,
            heading=part["heading"],
            body=part["body"],
            visibility=part["visibility"],
        )
        section_viewers = [u for u in part["viewers"] if u in players]
        if section.visibility == Visibility.CHOSEN and not section_viewers:
            section.visibility = Visibility.GM
            section.save(update_fields=["visibility"])
        section.viewers.set(section_viewers)
    _record(entry, author)
    return entry


# --------------------------------------------------------------------------- sections


@transaction.atomic
def section_save(
    *,
    entry: Entry,
    by: CampaignAccess,
    author: User,
    heading: str,
    body: str,
    visibility: str,
    viewer_ids: Iterable[int] = (),
    section: Section | None = None,
) -> Section:
    """Add a section (``section`` None) or change one."""
    campaign_id = entry.campaign_id
    _check_gm(by, campaign_id)
    heading = _title(heading, "heading")
    body = _body(campaign_id, body)
    viewers = _visibility(campaign_id, visibility, viewer_ids)
    if section is None:
        count = Section.objects.filter(entry=entry).count()
        if count >= MAX_SECTIONS:
            raise ValidationError(
                {"heading": [_("An entry has at most %(n)s sections.") % {"n": MAX_SECTIONS}]}
            )
        section = Section(entry=entry, position=count)
    section.heading, section.body, section.visibility = heading, body, visibility
    section.save()
    section.viewers.set(viewers)
    _record(entry, author)
    return section


@transaction.atomic
def section_delete(*, section: Section, by: CampaignAccess, author: User) -> None:
    entry = section.entry
    _check_gm(by, entry.campaign_id)
    section.delete()
    _record(entry, author)


# --------------------------------------------------------------------------- reveal


@transaction.atomic
def reveal(
    *,
    entry: Entry,
    by: CampaignAccess,
    author: User,
    section: Section | None = None,
    to_all: bool = True,
    player_ids: Iterable[int] = (),
) -> Reveal:
    """Show an entry (or one section) to everyone or to more players, in one step, and
    record it on the timeline. Revealing a section of a hidden entry reveals the entry to
    the same people with only its visible sections."""
    _check_gm(by, entry.campaign_id)
    players = [] if to_all else _players(entry.campaign_id, player_ids)
    if not to_all and not players:
        raise ValidationError({"viewers": [_("Choose the players to show it to.")]})
    targets: list[Entry | Section] = [entry] if section is None else [section, entry]
    for thing in targets:
        if to_all:
            thing.visibility = Visibility.ALL
            thing.save(update_fields=["visibility"])
            thing.viewers.clear()
        elif thing.visibility != Visibility.ALL:
            thing.visibility = Visibility.CHOSEN
            thing.save(update_fields=["visibility"])
            thing.viewers.add(*players)
    record = Reveal.objects.create(entry=entry, section=section, by=author, to_all=to_all)
    record.players.set(players)
    _record(entry, author)
    return record
