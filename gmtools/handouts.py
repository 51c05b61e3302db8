"""Handouts: text (and optionally a file) the GMs share with every member or with some.

A player sees a handout shared with everyone or with them, and nothing else: for anyone else
a handout they may not see does not exist (404), in pages, the API, the file download and the
timeline alike, because every read goes through :func:`handouts_visible_to`. GMs see all.

Files are served only by the permission-checked download view, as attachments with
``nosniff``, under an unguessable stored name; the types are a short allow-list (documents
and pictures, no HTML or SVG, which a browser would run).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q, QuerySet
from django.http import Http404
from django.utils.translation import gettext, gettext_lazy

from apibase.images import ImageRefused, ImageRules, image_check
from campaign.members import campaign_touch
from campaign.models import Campaign, Membership

from .models import Handout

if TYPE_CHECKING:
    from django.core.files.uploadedfile import UploadedFile

    from accounts.models import User
    from campaign.permissions import CampaignAccess

HANDOUT_MAX_BYTES: Final = 5 * 1024 * 1024
HANDOUT_EXTENSIONS: Final = ("pdf", "txt", "md", "png", "jpg", "jpeg", "gif", "webp")


def _check_manager(campaign_id: int, by: CampaignAccess) -> None:
    if not by.can_manage or by.campaign_id != campaign_id:
        raise PermissionDenied(gettext("Only the campaign's game masters share handouts."))


CONFLICT: Final = gettext_lazy(
    "Sharing with everyone and choosing recipients conflict: share it with everyone or with "
    "the chosen members, not both."
)


IMAGE_EXTENSIONS: Final = ("png", "jpg", "jpeg", "gif", "webp")
HANDOUT_IMAGE_RULES: Final = ImageRules(
    what=gettext_lazy("handout picture"),
    formats={
        "PNG": ("png", "image/png"),
        "JPEG": ("jpg", "image/jpeg"),
        "GIF": ("gif", "image/gif"),
        "WEBP": ("webp", "image/webp"),
    },
    max_bytes=HANDOUT_MAX_BYTES,
    min_side=1,
    max_side=20000,
    not_an_image=gettext_lazy(
        "The file is named as a picture but is not one; share a PNG, JPEG, GIF or WebP."
    ),
)
#: What browsers take for HTML or SVG when sniffing a file's start (WHATWG MIME sniffing),
#: and the tags that run script anywhere in it.
_MARKUP_START: Final = re.compile(
    rb"<(?:!doctype\s+html|html|head|script|iframe|h1|div|font|table|a|style|title|b|body|br|p"
    rb"|!--|\?xml|svg)[\s>/]",
    re.IGNORECASE,
)
_MARKUP_ANYWHERE: Final = re.compile(rb"<\s*(?:script|svg|html|iframe|object|embed)\b", re.I)
_NOT_MARKUP: Final = gettext_lazy(
    "HTML and SVG are not shared as handouts (a browser would run them)"
)


def _check_file(file: UploadedFile[bytes]) -> None:
    """The file by its name *and* its content: a picture must be one (the portraits' and
    maps' check), a PDF must start as one, text must be UTF-8 without HTML or SVG in it."""
    name = file.name or ""
    extension = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    if extension not in HANDOUT_EXTENSIONS:
        raise ValidationError(
            {
                "file": [
                    gettext("Share one of these kinds of file: %(kinds)s.")
                    % {"kinds": ", ".join(HANDOUT_EXTENSIONS)}
                ]
            }
        )
    if file.size is not None and file.size > HANDOUT_MAX_BYTES:
        raise ValidationError({"file": [gettext("A handout file may be at most 5 MB.")]})
    file.seek(0)
    content = file.read()
    file.seek(0)
    textual = extension not in IMAGE_EXTENSIONS and extension != "pdf"
    start = content.lstrip(b"\xef\xbb\xbf \t\r\n\f")
    if _MARKUP_START.match(start) or (textual and _MARKUP_ANYWHERE.search(content)):
        raise ValidationError(
            {"file": [gettext("This file holds HTML or SVG. %(why)s.") % {"why": _NOT_MARKUP}]}
        )
    if extension in IMAGE_EXTENSIONS:
        try:
            image_check(file, HANDOUT_IMAGE_RULES)
        except ImageRefused as exc:
            raise ValidationError({"file": [str(exc)]}) from None
    elif extension == "pdf":
        if not content.startswith(b"%PDF-"):
            raise ValidationError({"file": [gettext("The file is named .pdf but is not a PDF.")]})
    else:
        try:
            text = content.decode("utf-8")
        except UnicodeDecodeError:
            text = "\x00"
        if "\x00" in text:
            raise ValidationError(
                {
                    "file": [
                        gettext("A .%(extension)s handout must be UTF-8 text; this file is not.")
                        % {"extension": extension}
                    ]
                }
            )


def _recipients(campaign_id: int, user_ids: Iterable[int]) -> list[int]:
    wanted = sorted(set(user_ids))
    members = set(
        Membership.objects.filter(campaign_id=campaign_id, user_id__in=wanted).values_list(
            "user_id", flat=True
        )
    )
    strangers = [u for u in wanted if u not in members]
    if strangers:
        raise ValidationError(
            {"recipients": [gettext("Share only with members of this campaign.")]}
        )
    return wanted


@transaction.atomic
def handout_create(
    *,
    campaign: Campaign,
    by: CampaignAccess,
    author: User,
    title: str,
    body: str = "",
    file: UploadedFile[bytes] | None = None,
    shared_with_all: bool | None = None,
    recipient_ids: Iterable[int] = (),
) -> Handout:
    """Share a handout (GMs only): with everyone, or only with ``recipient_ids`` (members).

    ``shared_with_all`` left out (``None``) means everyone when no recipients are chosen and
    only them when some are; ``True`` with recipients is refused, never a silent widening.
    """
    _check_manager(campaign.pk, by)
    errors: dict[str, list[str]] = {}
    if not title.strip():
        errors["title"] = [gettext("Give the handout a title.")]
    recipients = list(recipient_ids)
    if shared_with_all is None:
        shared_with_all = not recipients
    if shared_with_all and recipients:
        errors["recipients"] = [str(CONFLICT)]
    elif not shared_with_all and not recipients:
        errors["recipients"] = [gettext("Choose who sees it, or share it with everyone.")]
    if errors:
        raise ValidationError(errors)
    if file is not None:
        _check_file(file)
    chosen = [] if shared_with_all else _recipients(campaign.pk, recipients)
    handout = Handout(
        campaign=campaign,
        author=author,
        title=title.strip(),
        body=body,
        shared_with_all=shared_with_all,
    )
    if file is not None:
        handout.file_name = (file.name or "handout")[-200:]
        handout.file.save(file.name or "handout", file, save=False)
    handout.save()
    if chosen:
        handout.recipients.set(chosen)
    campaign_touch(campaign.pk)
    return handout


@transaction.atomic
def handout_update(
    *,
    handout: Handout,
    by: CampaignAccess,
    title: str | None = None,
    body: str | None = None,
    shared_with_all: bool | None = None,
    recipient_ids: Iterable[int] | None = None,
) -> Handout:
    """Change the text or who sees it (GMs only); ``None`` leaves a part as it is.

    Choosing recipients without ``shared_with_all`` shares it only with them; sharing it with
    everyone drops the recipients; both at once are refused.
    """
    _check_manager(handout.campaign_id, by)
    recipient_list = None if recipient_ids is None else list(recipient_ids)
    if shared_with_all and recipient_list:
        raise ValidationError({"recipients": [CONFLICT]})
    if shared_with_all is None and recipient_list:
        shared_with_all = False
    if title is not None:
        if not title.strip():
            raise ValidationError({"title": [gettext("Give the handout a title.")]})
        handout.title = title.strip()
    if body is not None:
        handout.body = body
    if shared_with_all is not None:
        handout.shared_with_all = shared_with_all
    chosen = None if recipient_list is None else _recipients(handout.campaign_id, recipient_list)
    if handout.shared_with_all:
        chosen = []  # a handout for everyone keeps no stale list of recipients
    if not handout.shared_with_all:
        current = (
            chosen if chosen is not None else list(handout.recipients.values_list("pk", flat=True))
        )
        if not current:
            raise ValidationError(
                {"recipients": [gettext("Choose who sees it, or share it with everyone.")]}
            )
    handout.save()
    if chosen is not None:
        handout.recipients.set(chosen)
    campaign_touch(handout.campaign_id)
    return handout


@transaction.atomic
def handout_delete(*, handout: Handout, by: CampaignAccess) -> None:
    _check_manager(handout.campaign_id, by)
    name, storage = handout.file.name, handout.file.storage
    campaign_id = handout.campaign_id
    handout.delete()
    if name:
        transaction.on_commit(lambda: storage.delete(name))
    campaign_touch(campaign_id)


# --------------------------------------------------------------------------- reads


def visible_filter(access: CampaignAccess) -> Q:
    """Handouts ``access`` may see, as a filter: all for GMs; shared or addressed for others."""
    if access.is_gm:
        return Q()
    if not access.is_member:
        return Q(pk__in=[])
    return Q(shared_with_all=True) | Q(recipients__id=access.user_id)


def handouts_visible_to(access: CampaignAccess) -> QuerySet[Handout]:
    """The handouts this member may see, newest first, with their recipients (two queries)."""
    return (
        Handout.objects.filter(campaign_id=access.campaign_id)
        .filter(visible_filter(access))
        .distinct()
        .select_related("author")
        .prefetch_related("recipients")
        .order_by("-created_at", "-pk")
    )


def handout_for(access: CampaignAccess, pk: int | str) -> Handout:
    """One handout this member may see, else 404 (it does not exist for them)."""
    try:
        return handouts_visible_to(access).get(pk=int(pk))
    except (Handout.DoesNotExist, ValueError, TypeError):
        raise Http404(gettext("No such handout.")) from None
