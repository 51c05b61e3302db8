"""The campaign's map library: uploading map images, aligning the grid to them, choosing one
for a battle, and what the battle screen is told about it.

Why a library rather than an image per battle: a GM runs many fights in the same places, so a
map (and the work of aligning its grid) is reused. The alignment belongs to the image (where
its squares are drawn), so it is stored on the map and shared by every battle that uses it.

Images are checked by their content, never their name (Pillow opens and verifies them: PNG,
JPEG or WebP only), limited in bytes and pixels, stored under a path naming the campaign, and
served only to the campaign's members (:func:`battles.views.map_image`), like portraits.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Final

from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import QuerySet
from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy

from apibase.images import CheckedImage, ImageRefused, ImageRules, image_check
from campaign.permissions import CampaignAccess, access_for

from . import table_talk
from .models import Battle, BattleMap, BattleStatus

if TYPE_CHECKING:
    from django.core.files.uploadedfile import UploadedFile

    from accounts.models import User

    from .services import Applied

#: A map is a big picture, but it is sent to every player's phone: 8 MB at most.
MAP_MAX_BYTES: Final = 8 * 1024 * 1024
MAP_MIN_SIDE: Final = 64
MAP_MAX_SIDE: Final = 8192
#: Pillow's format name → (stored extension, content type). No GIF: maps do not move.
MAP_FORMATS: Final = {
    "PNG": ("png", "image/png"),
    "JPEG": ("jpg", "image/jpeg"),
    "WEBP": ("webp", "image/webp"),
}
#: A square is drawn at least this many image pixels wide (and at most this many).
MIN_SQUARE_PX: Final = 8
MAX_SQUARE_PX: Final = 1024
#: A campaign keeps at most this many maps (each is up to MAP_MAX_BYTES).
MAX_MAPS: Final = 100


#: What a map may be (``apibase.images``: checked by content, never the name).
MAP_RULES: Final = ImageRules(
    what=gettext_lazy("map"),
    formats=MAP_FORMATS,
    max_bytes=MAP_MAX_BYTES,
    min_side=MAP_MIN_SIDE,
    max_side=MAP_MAX_SIDE,
    not_an_image=gettext_lazy("This is not an image: upload a PNG, JPEG or WebP picture."),
)


def map_validate(file: UploadedFile[bytes]) -> CheckedImage:
    """Accept PNG, JPEG or WebP by content, at most :data:`MAP_MAX_BYTES`, each side between
    :data:`MAP_MIN_SIDE` and :data:`MAP_MAX_SIDE` pixels; else ``ValidationError`` on
    ``image`` in words."""
    try:
        return image_check(file, MAP_RULES)
    except ImageRefused as exc:
        raise ValidationError({"image": [str(exc)]}) from None


@dataclass(frozen=True, slots=True)
class Alignment:
    """How the grid lies on the image (image pixels)."""

    cols: int
    rows: int
    offset_x: int = 0
    offset_y: int = 0
    square_px: int = 0


ALIGNMENT_FIELDS: Final = ("cols", "rows", "offset_x", "offset_y", "square_px")


def _whole(value: Any, field: str, low: int, high: int, errors: dict[str, list[str]]) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        errors[field] = [
            gettext("Give a whole number from %(low)s to %(high)s.") % {"low": low, "high": high}
        ]
        return low
    return value


def alignment_check(alignment: Alignment, *, width_px: int, height_px: int) -> Alignment:
    """The alignment, or ``ValidationError`` naming each bad field: the grid's first square
    starts inside the image and its squares are of a drawable size."""
    from .services import MAX_SIDE, MIN_SIDE

    errors: dict[str, list[str]] = {}
    cols = _whole(alignment.cols, "cols", MIN_SIDE, MAX_SIDE, errors)
    rows = _whole(alignment.rows, "rows", MIN_SIDE, MAX_SIDE, errors)
    ox = _whole(alignment.offset_x, "offset_x", 0, max(width_px - 1, 0), errors)
    oy = _whole(alignment.offset_y, "offset_y", 0, max(height_px - 1, 0), errors)
    square = _whole(alignment.square_px, "square_px", MIN_SQUARE_PX, MAX_SQUARE_PX, errors)
    if errors:
        raise ValidationError(errors)
    return Alignment(cols, rows, ox, oy, square)


def default_alignment(width_px: int, height_px: int, cols: int | None = None) -> Alignment:
    """A first guess: squares filling the image's width (``cols`` of them, 12 by default)."""
    from .services import MAX_SIDE, MIN_SIDE

    cols = cols or 12
    square = max(MIN_SQUARE_PX, min(MAX_SQUARE_PX, width_px // cols))
    rows = max(MIN_SIDE, min(MAX_SIDE, height_px // square))
    return Alignment(cols, rows, 0, 0, square)


# --------------------------------------------------------------------------- reads


def _manage(user: User, campaign_id: int) -> CampaignAccess:
    access = access_for(user, campaign_id)
    if not access.can_view:
        raise Http404("No such map.")
    if not access.can_manage:
        raise PermissionDenied(gettext("Only the campaign's game masters manage maps."))
    return access


def maps_of(access: CampaignAccess) -> QuerySet[BattleMap]:
    """A campaign's maps, by name (members)."""
    if not access.can_view:
        return BattleMap.objects.none()
    return BattleMap.objects.filter(campaign_id=access.campaign_id).order_by("name", "pk")


def map_for(user: Any, map_id: Any, *, manage: bool = False) -> tuple[BattleMap, CampaignAccess]:
    """A map of a campaign ``user`` is in (404 otherwise); ``manage`` needs a GM (403)."""
    try:
        pk = int(map_id)
    except (TypeError, ValueError):
        raise Http404("No such map.") from None
    found = BattleMap.objects.filter(pk=pk).first() if 0 < pk < 2**63 else None
    if found is None:
        raise Http404("No such map.")
    access = access_for(user, found.campaign_id)
    if not access.can_view:
        raise Http404("No such map.")
    if manage and not access.can_manage:
        raise PermissionDenied(gettext("Only the campaign's game masters manage maps."))
    return found, access


def map_url(battle_map: BattleMap) -> str:
    """Where the screen loads the image (members only), changing when the image does."""
    stamp = int(battle_map.updated_at.timestamp()) if battle_map.updated_at else 0
    return f"{reverse('battles:map-image', args=[battle_map.pk])}?v={stamp}"


def map_payload(battle_map: BattleMap | None) -> dict[str, Any] | None:
    """The ``map`` of the battle view: the image and how the grid lies on it (image pixels),
    or None for a drawn grid. The contract with the board (docs/battles.md)."""
    if battle_map is None:
        return None
    return {
        "url": map_url(battle_map),
        "name": battle_map.name,
        "cols": battle_map.cols,
        "rows": battle_map.rows,
        "offset_x": battle_map.offset_x,
        "offset_y": battle_map.offset_y,
        "square_px": battle_map.square_px,
        "width_px": battle_map.width_px,
        "height_px": battle_map.height_px,
    }


def map_payload_of(map_id: int | None) -> dict[str, Any] | None:
    """The view's ``map`` for a battle's ``map_id`` (one query, none without a map). The table
    feed carries it too: a map laid or re-aligned under a running battle bumps no version (it
    is not an engine action), so the screen asks for a new view when the two differ."""
    if map_id is None:
        return None
    return map_payload(BattleMap.objects.filter(pk=map_id).first())


# --------------------------------------------------------------------------- writes


def _name(value: Any) -> str:
    text = str(value or "").strip()
    if not text:
        raise ValidationError({"name": [gettext("Give the map a name.")]})
    if len(text) > 120:
        raise ValidationError({"name": [gettext("At most 120 characters.")]})
    return text


def battle_map_create(
    *,
    campaign_id: int,
    by: User,
    name: str,
    image: UploadedFile[bytes],
    alignment: Mapping[str, int] | None = None,
) -> BattleMap:
    """Add a map to the campaign's library (GMs): the image checked by content. What the
    alignment leaves out is guessed: ``cols`` squares (12 by default) filling its width."""
    _manage(by, campaign_id)
    name = _name(name)
    info = map_validate(image)
    given = dict(alignment or {})
    guess = default_alignment(info.width, info.height, given.get("cols"))
    chosen = alignment_check(
        replace(guess, **{k: v for k, v in given.items() if k in ALIGNMENT_FIELDS}),
        width_px=info.width,
        height_px=info.height,
    )
    if BattleMap.objects.filter(campaign_id=campaign_id).count() >= MAX_MAPS:
        raise ValidationError(
            {"image": [gettext("A campaign keeps at most %(most)s maps.") % {"most": MAX_MAPS}]}
        )
    battle_map = BattleMap(
        campaign_id=campaign_id,
        name=name,
        content_type=info.content_type,
        width_px=info.width,
        height_px=info.height,
        cols=chosen.cols,
        rows=chosen.rows,
        offset_x=chosen.offset_x,
        offset_y=chosen.offset_y,
        square_px=chosen.square_px,
        uploaded_by=by,
    )
    content = ContentFile(image.read())
    with transaction.atomic():
        battle_map.image.save(f"map.{info.extension}", content, save=False)
        battle_map.save()
    return battle_map


def battle_map_update(
    *, map_id: Any, by: User, name: str | None = None, alignment: dict[str, Any] | None = None
) -> BattleMap:
    """Rename a map or change how its grid lies (GMs). Battles being set up on it take its new
    size; a running battle keeps its arena, so the squares per side are fixed once any battle
    using the map has started."""
    battle_map, _ = map_for(by, map_id, manage=True)
    fields = ["updated_at"]
    if name is not None:
        battle_map.name = _name(name)
        fields.append("name")
    if alignment:
        new = alignment_check(
            Alignment(
                cols=alignment.get("cols", battle_map.cols),
                rows=alignment.get("rows", battle_map.rows),
                offset_x=alignment.get("offset_x", battle_map.offset_x),
                offset_y=alignment.get("offset_y", battle_map.offset_y),
                square_px=alignment.get("square_px", battle_map.square_px),
            ),
            width_px=battle_map.width_px,
            height_px=battle_map.height_px,
        )
        if (new.cols, new.rows) != (
            battle_map.cols,
            battle_map.rows,
        ) and battle_map.battles.exclude(status=BattleStatus.SETUP).exists():
            raise ValidationError(
                {"cols": [gettext("A battle on this map has started: its squares per side stay.")]}
            )
        battle_map.cols, battle_map.rows = new.cols, new.rows
        battle_map.offset_x, battle_map.offset_y = new.offset_x, new.offset_y
        battle_map.square_px = new.square_px
        fields += ["cols", "rows", "offset_x", "offset_y", "square_px"]
    battle_map.save(update_fields=fields)
    table_talk.feed_changed(battle_map.battles.values_list("pk", flat=True))
    return battle_map


def battle_map_delete(*, map_id: Any, by: User) -> None:
    """Delete a map and its image (GMs); battles on it go back to a drawn grid."""
    battle_map, _ = map_for(by, map_id, manage=True)
    name = battle_map.image.name
    storage = battle_map.image.storage
    with transaction.atomic():
        battle_map.delete()
        if name:
            transaction.on_commit(lambda: storage.delete(name))


def battle_map_set(
    *, battle_id: int, by: User, map_id: int | None, expected_version: int | None = None
) -> Applied:
    """Lay a map of the campaign's library under a battle (None: back to a drawn grid), GMs.

    In setup the arena takes the map's squares per side (one version on, so every screen sees
    the change at its next poll); a running battle accepts only a map of its own size.
    """
    from westernroses import battle as engine

    from . import services

    battle = Battle.objects.filter(pk=battle_id).only("campaign_id", "status").first()
    if battle is None:
        raise Http404("No such battle.")
    chosen: BattleMap | None = None
    if map_id is not None:
        chosen = BattleMap.objects.filter(pk=map_id, campaign_id=battle.campaign_id).first()
        if chosen is None:
            raise ValidationError({"map": [gettext("No such map in this campaign.")]})

    def change(row: Battle, state: engine.BattleState) -> engine.BattleState:
        row.map = chosen
        if chosen is None:
            return services.rebuild_arena(row, state, state.arena.width, state.arena.height)
        return services.rebuild_arena(row, state, chosen.cols, chosen.rows)

    if battle.status == BattleStatus.SETUP:
        return services.setup_change(
            battle_id=battle_id, by=by, expected_version=expected_version, change=change
        )
    return services.battle_map_swap(
        battle_id=battle_id, by=by, battle_map=chosen, expected_version=expected_version
    )
