"""Campaign backup and restore: one campaign, with everything in it, as one zip archive.

The archive holds ``manifest.json`` (a versioned list of the campaign's rows, model by model)
and ``files/...`` (handouts and portraits). Rows keep their old primary keys only as labels:
a foreign key names the old key of a row in the same archive, a user is named by username, so
an import gives every row a new key and restores into a database that already holds other
campaigns (or the same one: importing twice makes two copies).

It lives in ``config`` because it knows every app (``tests/test_import_graph.py``: config is
the top layer). The commands are ``manage.py campaign_export`` and ``campaign_import``; the GM
downloads the same archive from the campaign settings page (:func:`backup_download`).

Users the target server lacks are created **inactive with an unusable password**: their rows
keep their author, and an administrator (or a password reset) brings them in. Invitations are
not exported: their tokens are secrets that would open the campaign on the other server; nor
are the members' calendar feed addresses (secrets of each member, not of the campaign).
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import io
import json
import re
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DatabaseError, models, transaction
from django.db.models import Q
from django.db.models.fields.files import FieldFile

from apibase.numbers import object_id
from minigames.engines import rso

FORMAT = "western-roses-campaign"
VERSION = 1
MANIFEST = "manifest.json"
#: An archive larger than this (or a manifest, or a file inside it) is refused unread.
MAX_ARCHIVE_BYTES = 200 * 1024 * 1024
MAX_MANIFEST_BYTES = 50 * 1024 * 1024
MAX_MEMBERS = 20_000


class _Encoder(DjangoJSONEncoder):
    """Django's encoder, but times keep their microseconds (Django's cuts them to
    milliseconds, and the round trip must be exact)."""

    def default(self, o: Any) -> Any:
        if isinstance(o, datetime.datetime):
            return o.isoformat()
        return super().default(o)


class BackupError(Exception):
    """A backup cannot be read or restored; the message says why, in words."""


@dataclass(frozen=True)
class Part:
    """One model of the archive and how its rows belong to a campaign."""

    label: str
    path: str  # the lookup from this model to the campaign's id

    @property
    def model(self) -> type[models.Model]:
        return apps.get_model(self.label)

    def rows(self, campaign_id: int) -> models.QuerySet[Any]:
        return self.model._default_manager.filter(Q(**{self.path: campaign_id})).order_by("pk")


#: Every model of a campaign, in an order where a row's references come before it.
PARTS: tuple[Part, ...] = (
    Part("campaign.Campaign", "pk"),
    Part("campaign.Membership", "campaign_id"),
    Part("gmtools.GameSession", "campaign_id"),
    Part("gmtools.Attendance", "session__campaign_id"),
    Part("gmtools.SessionRsvp", "session__campaign_id"),
    Part("gmtools.WorldCalendar", "campaign_id"),
    Part("gmtools.GMNote", "campaign_id"),
    Part("characters.Character", "campaign_id"),
    Part("characters.InventoryItem", "character__campaign_id"),
    Part("spellcards.TemplateCard", "campaign_id"),
    Part("spellcards.Spellcard", "character__campaign_id"),
    Part("spellcards.DeckEntry", "character__campaign_id"),
    Part("gmtools.Handout", "campaign_id"),
    Part("gmtools.Award", "campaign_id"),
    Part("gmtools.AwardRecipient", "award__campaign_id"),
    Part("gmtools.LevelUp", "campaign_id"),
    Part("campaign.Roll", "campaign_id"),
    Part("decks.CustomCard", "campaign_id"),
    Part("decks.Deck", "campaign_id"),
    Part("battles.Battle", "campaign_id"),
    Part("battles.Combatant", "battle__campaign_id"),
    Part("battles.BattleAction", "battle__campaign_id"),
    Part("minigames.TavernTable", "campaign_id"),
    Part("minigames.TavernSeat", "table__campaign_id"),
    Part("minigames.TavernAction", "table__campaign_id"),
    # the campaign's ratings (its rated tables'), their results and histories
    Part("table_ratings.Rating", "campaign_id"),
    Part("table_ratings.RatedResult", "campaign_id"),
    Part("table_ratings.RatingChange", "rating__campaign_id"),
    # the talk at the campaign's tables (tables.chat): after the tables its rooms name
    Part("table_chat.ChatRoom", "campaign_id"),
    Part("table_chat.ChatLine", "room__campaign_id"),
    Part("table_chat.ChatReaction", "line__room__campaign_id"),
    Part("table_chat.ChatMute", "room__campaign_id"),
    # the wiki: its mentions and versions name entries, sections, characters, sessions and
    # handouts by id
    Part("wiki.Kind", "campaign_id"),
    Part("wiki.Entry", "campaign_id"),
    Part("wiki.Section", "entry__campaign_id"),
    Part("wiki.Link", "source__campaign_id"),
    Part("wiki.Revision", "entry__campaign_id"),
    Part("wiki.Reveal", "entry__campaign_id"),
    # the calendar's events: after the sessions and the wiki entries they name
    Part("gmtools.WorldEvent", "campaign_id"),
    # play-by-post (threads): after the characters its posts speak as and the rolls they made
    Part("threads.Thread", "campaign_id"),
    Part("threads.Post", "thread__campaign_id"),
    Part("threads.PostRoll", "post__thread__campaign_id"),
    Part("threads.Reaction", "post__thread__campaign_id"),
    Part("threads.ReadMark", "thread__campaign_id"),
)
PART_BY_LABEL = {part.label: part for part in PARTS}
#: Models that moved to another app since archives of this version were first written, by the
#: label older archives name them with (the GM tools left ``campaign``): read under their new one.
RENAMED = {
    f"campaign.{name}": f"gmtools.{name}"
    for name in (
        "GameSession",
        "Attendance",
        "GMNote",
        "Handout",
        "Award",
        "AwardRecipient",
        "LevelUp",
    )
}


def _label(model: type[models.Model]) -> str:
    return f"{model._meta.app_label}.{model._meta.object_name}"


def _user_model() -> type[models.Model]:
    return get_user_model()


def _target(field: Any) -> type[models.Model]:
    """The model a relation points to (resolved: the apps are loaded)."""
    model = field.related_model
    if model is None or isinstance(model, str):
        raise TypeError(f"{field} points to no loaded model")
    return model  # type: ignore[no-any-return]


def _named(label: str, count: int = 2) -> str:
    """A model in words for messages ("tavern tables", "a tavern table"), never its label."""
    meta = apps.get_model(label)._meta
    if count == 1:
        name = str(meta.verbose_name)
        return f"{'an' if name[:1] in 'aeiou' else 'a'} {name}"
    return str(meta.verbose_name_plural)


def _concrete(model: type[models.Model]) -> list[models.Field[Any, Any]]:
    return [f for f in model._meta.concrete_fields if not f.primary_key]


def _m2m(model: type[models.Model]) -> list[models.ManyToManyField[Any, Any]]:
    return [f for f in model._meta.many_to_many if isinstance(f, models.ManyToManyField)]


# --- references hidden inside values ------------------------------------------------------
#
# A few columns name other rows inside a string or a JSON document: a battle's engine state
# names player characters "pc<id>" and controllers by user id; a tavern seat's deck may be
# "saved:<deck id>". Import rewrites them with the new keys; the round-trip test compares
# manifests after the same rewrite onto ordinals (:func:`normalise`).

Remap = Callable[[str, int], int | None]  # (model label, old id) -> new id

#: A player character's combatant id (``pc<character id>``) and a deck card's id
#: (``card<spellcard id>``), alone or inside a longer key such as ``card:pc3:card7``.
_TOKEN = re.compile(r"(?<![A-Za-z0-9_])(pc|card)([0-9]+)(?![A-Za-z0-9_])")
_TOKEN_MODEL = {"pc": "characters.Character", "card": "spellcards.Spellcard"}


def _rewrite_battle_json(value: Any, remap: Remap) -> Any:
    """A battle's engine JSON with the characters, spellcards, users and battle it names
    (``battles/services.py``: ``pc<id>``, ``card<id>``, a controller's user id, ``battle_id``)
    given their new keys."""

    def token(match: re.Match[str]) -> str:
        new = remap(_TOKEN_MODEL[match.group(1)], int(match.group(2)))
        return f"{match.group(1)}{new if new is not None else match.group(2)}"

    def walk(v: Any, key: str = "") -> Any:
        if isinstance(v, dict):
            return {_TOKEN.sub(token, k): walk(x, k) for k, x in v.items()}
        if isinstance(v, list):
            return [walk(x, key) for x in v]
        if isinstance(v, str):
            pk = object_id(v) if key in ("controller", "battle_id") else None
            if pk is not None:
                label = _label(_user_model()) if key == "controller" else "battles.Battle"
                new = remap(label, pk)
                return str(new) if new is not None else v
            return _TOKEN.sub(token, v)
        return v

    return walk(value)


def _rewrite_values(label: str, fields: dict[str, Any], remap: Remap) -> dict[str, Any]:
    """The references inside ``fields`` of one ``label`` row, rewritten with ``remap``."""
    out = dict(fields)
    if label in ("battles.Battle", "battles.BattleAction"):
        for name in ("state", "initial", "action", "events"):
            if name in out:
                out[name] = _rewrite_battle_json(out[name], remap)
    if label in ("battles.Combatant",):
        out["engine_id"] = _rewrite_battle_json(out["engine_id"], remap)
    if label == "minigames.TavernTable" and isinstance(out.get("stakes"), dict):
        held = out["stakes"].get("characters")
        if isinstance(held, dict):  # seat -> the staking character's id (minigames/services.py)
            out["stakes"] = {
                **out["stakes"],
                "characters": {
                    seat: (remap("characters.Character", v) or v) if isinstance(v, int) else v
                    for seat, v in held.items()
                },
            }
    if label == "minigames.TavernSeat" and "deck" in out:
        out["deck"] = _seat_deck(out["deck"], remap)
    if label == "table_ratings.RatedResult" and isinstance(out.get("key"), str):
        out["key"] = _table_ref(out["key"], "minigames.taverntable:", "", remap)
    if label == "table_ratings.RatingChange" and isinstance(out.get("url"), str):
        out["url"] = _table_ref(out["url"], "/tavern/tables/", "/", remap)
    if label == "table_chat.ChatRoom" and isinstance(out.get("table_label"), str):
        out["table_id"] = _chat_table(out["table_label"], out.get("table_id"), remap)
    if label in ("wiki.Entry", "wiki.Section") and isinstance(out.get("body"), str):
        out["body"] = _wiki_mentions(out["body"], remap)
    if label == "wiki.Revision" and isinstance(out.get("snapshot"), dict):
        out["snapshot"] = _wiki_version(out["snapshot"], remap)
    return _in_todays_shape(label, out)


#: A wiki mention as stored (wiki/render.py): ``@[[entry:12]]``, ``@[[character:3]]``,
#: ``@[[session:4]]``, ``@[[handout:7]]``.
_WIKI_MENTION = re.compile(r"@\[\[(entry|character|session|handout):([0-9]{1,12})\]\]")
_WIKI_TARGET = {
    "entry": "wiki.Entry",
    "character": "characters.Character",
    "session": "gmtools.GameSession",
    "handout": "gmtools.Handout",
}


def _wiki_mentions(text: str, remap: Remap) -> str:
    """A wiki text whose stored mentions name the copy's entries and characters."""

    def one(found: re.Match[str]) -> str:
        new = remap(_WIKI_TARGET[found[1]], int(found[2]))
        return found[0] if new is None else f"@[[{found[1]}:{new}]]"

    return _WIKI_MENTION.sub(one, text)


def _wiki_version(snapshot: dict[str, Any], remap: Remap) -> dict[str, Any]:
    """A wiki entry's saved version (``wiki.services.snapshot``) naming the copy's rows: its
    parent place and members (entries), viewers (users), sections (gone ones stay unnamed) and
    the mentions in its texts."""
    users = _label(_user_model())

    def ids(values: Any, label: str) -> Any:
        if not isinstance(values, list):
            return values
        return [new for v in values if isinstance(v, int) and (new := remap(label, v)) is not None]

    out = dict(snapshot)
    if isinstance(out.get("body"), str):
        out["body"] = _wiki_mentions(out["body"], remap)
    if isinstance(out.get("parent"), int):
        out["parent"] = remap("wiki.Entry", out["parent"])
    out["members"] = ids(out.get("members"), "wiki.Entry")
    out["viewers"] = ids(out.get("viewers"), users)
    if isinstance(out.get("sections"), list):
        sections = []
        for section in out["sections"]:
            if isinstance(section, dict):
                section = dict(section)
                if isinstance(section.get("id"), int):
                    section["id"] = remap("wiki.Section", section["id"])
                if isinstance(section.get("body"), str):
                    section["body"] = _wiki_mentions(section["body"], remap)
                section["viewers"] = ids(section.get("viewers"), users)
            sections.append(section)
        out["sections"] = sections
    return out


def _table_ref(text: str, prefix: str, suffix: str, remap: Remap) -> str:
    """A rated result's key (``minigames.taverntable:<id>``) or a history row's table page
    (``/tavern/tables/<id>/``), naming the copy's table; left as it is when it names none."""
    if not (text.startswith(prefix) and text.endswith(suffix)):
        return text
    pk = object_id(text[len(prefix) : len(text) - len(suffix)])
    new = remap("minigames.TavernTable", pk) if pk is not None else None
    return f"{prefix}{new}{suffix}" if new is not None else text


def _chat_table(table_label: str, table_id: Any, remap: Remap) -> Any:
    """A chat room's table (named by its model's ``label_lower`` and id, not a foreign key),
    given the new key of the archive's table of that model."""
    try:
        model = apps.get_model(table_label)
    except (LookupError, ValueError):
        raise BackupError("The archive is damaged: a chat names no kind of table.") from None
    if not isinstance(table_id, int) or _label(model) not in PART_BY_LABEL:
        raise BackupError("The archive is damaged: a table's chat names no table of it.")
    new = remap(_label(model), table_id)
    if new is None:
        raise BackupError("The archive is damaged: a table's chat names a table not in it.")
    return new


#: Fields renamed since archives of this version were first written, by model label.
RENAMED_FIELDS = {
    "decks.CustomCard": {"card_type": "kind"},
    # an event's wiki entry was a plain number; it is a reference now
    "gmtools.WorldEvent": {"wiki_entry_id": "wiki_entry"},
}
#: References an older archive may hold to rows it does not carry (a plain number, never
#: checked): restored as no reference instead of refusing the archive.
MAY_DANGLE = {("gmtools.WorldEvent", "wiki_entry")}


def _in_todays_shape(label: str, fields: dict[str, Any]) -> dict[str, Any]:
    """An older archive's row in today's shape: renamed fields under their new names, and RSO
    cards (a GM card's data, a tavern table's carried cards) in the shape both card games share
    (``docs/decks.md``, "One card shape"; the migrations ``decks`` 0002 and ``minigames``
    0004 did the same to the rows on the server)."""
    for old, new in RENAMED_FIELDS.get(label, {}).items():
        if old in fields and new not in fields:
            fields[new] = fields.pop(old)
    if fields.get("game") != "rso":
        return fields
    if label == "decks.CustomCard" and isinstance(fields.get("data"), dict):
        fields["data"] = rso.upgrade_card(fields["data"])
    if label == "minigames.TavernTable":
        for name in ("state", "initial"):
            cards = (
                fields.get(name, {}).get("cards") if isinstance(fields.get(name), dict) else None
            )
            if isinstance(cards, dict):
                fields[name] = {
                    **fields[name],
                    "cards": {
                        n: rso.upgrade_card(c) if isinstance(c, dict) else c
                        for n, c in cards.items()
                    },
                }
    return fields


def _seat_deck(deck: Any, remap: Callable[[str, int], int | None]) -> Any:
    """A tavern seat's saved deck, ``deck:<id>`` (``saved:deck:<id>`` at older tables), named
    by the copy's deck; a deck the archive does not hold (a GM's download
    keeps only her own) is left out rather than left naming another row of the server's."""
    if not isinstance(deck, str):
        return deck
    key = deck.removeprefix("saved:")
    if not key.startswith("deck:"):
        return deck  # a preset: no row
    old = key.removeprefix("deck:")
    pk = object_id(old)
    new = remap("decks.Deck", pk) if pk is not None else None
    return f"deck:{new}" if new is not None else ""


# --- export --------------------------------------------------------------------------------


def _file_member(label: str, pk: int, field: str, name: str) -> str:
    base = PurePosixPath(name).name or "file"
    return f"files/{label}/{pk}/{field}/{base}"


def export_campaign(campaign_id: int, *, decks_of: int | None = None) -> bytes:
    """The archive of campaign ``campaign_id`` (see the module docstring), as bytes.

    ``decks_of``: keep only that user's saved decks (a GM's download: another member's deck is
    hers alone); None keeps every deck (the server's own ``campaign_export``)."""
    user_model = _user_model()
    user_label = _label(user_model)
    exported: dict[str, set[int]] = {}
    usernames: dict[int, str] = {}
    files: dict[str, bytes] = {}
    parts: list[dict[str, Any]] = []
    campaign_model = apps.get_model("campaign.Campaign")
    if not campaign_model._default_manager.filter(pk=campaign_id).exists():
        raise BackupError(f"There is no campaign number {campaign_id}.")

    def user_name(pk: int | None) -> str | None:
        if pk is None:
            return None
        if pk not in usernames:
            usernames[pk] = str(
                user_model._default_manager.values_list("username", flat=True).get(pk=pk)
            )
        return usernames[pk]

    for part in PARTS:
        model = part.model
        rows = []
        rows_of = part.rows(campaign_id)
        if decks_of is not None and part.label == "decks.Deck":
            rows_of = rows_of.filter(owner_id=decks_of)
        objs = list(rows_of)
        exported[part.label] = {obj.pk for obj in objs}
        for obj in objs:
            fields: dict[str, Any] = {}
            for f in _concrete(model):
                value = getattr(obj, f.attname)
                if f.is_relation:
                    target = _target(f)
                    if _label(target) == user_label:
                        value = user_name(value)
                    elif value is not None and value not in exported.get(_label(target), set()):
                        # A row outside the campaign (another campaign's template card ...):
                        # the reference is dropped, so the archive stands alone.
                        value = None
                elif isinstance(f, models.FileField):
                    file = getattr(obj, f.name)
                    if file:
                        with file.open("rb") as handle:
                            data = handle.read()
                        member = _file_member(part.label, obj.pk, f.name, file.name)
                        files[member] = data
                        value = {
                            "archive": member,
                            "name": PurePosixPath(file.name).name,
                            "sha256": hashlib.sha256(data).hexdigest(),
                        }
                    else:
                        value = None
                fields[f.name] = value
            for m in _m2m(model):
                related = _target(m)
                ids = sorted(getattr(obj, m.name).values_list("pk", flat=True))
                if _label(related) == user_label:
                    fields[m.name] = sorted(str(user_name(i)) for i in ids)
                else:
                    fields[m.name] = [i for i in ids if i in exported.get(_label(related), set())]
            rows.append({"pk": obj.pk, "fields": fields})
        parts.append({"model": part.label, "rows": rows})

    users = []
    for pk, username in sorted(usernames.items(), key=lambda item: item[1]):
        user = user_model._default_manager.get(pk=pk)
        users.append(
            {
                "pk": pk,
                "username": username,
                "display_name": getattr(user, "display_name", ""),
                "time_zone": getattr(user, "time_zone", ""),
            }
        )
    manifest = {"format": FORMAT, "version": VERSION, "users": users, "parts": parts}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(MANIFEST, json.dumps(manifest, cls=_Encoder, indent=1, sort_keys=True))
        for member, data in sorted(files.items()):
            archive.writestr(member, data)
    return buffer.getvalue()


# --- reading an archive ----------------------------------------------------------------------


def read_archive(data: bytes) -> tuple[dict[str, Any], zipfile.ZipFile]:
    """The manifest and the open zip of ``data``, or :class:`BackupError` saying what is wrong."""
    if len(data) > MAX_ARCHIVE_BYTES:
        raise BackupError(
            f"The archive is larger than {MAX_ARCHIVE_BYTES // (1024 * 1024)} MB; it was refused."
        )
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError):
        raise BackupError("This is not a campaign backup: the file is not a zip archive.") from None
    if len(infos) > MAX_MEMBERS:
        raise BackupError("The archive holds too many files to be a campaign backup.")
    if sum(info.file_size for info in infos) > MAX_ARCHIVE_BYTES:
        raise BackupError("The archive unpacks to more than the allowed size; it was refused.")
    try:
        info = archive.getinfo(MANIFEST)
    except KeyError:
        raise BackupError("This is not a campaign backup: it has no manifest.json.") from None
    if info.file_size > MAX_MANIFEST_BYTES:
        raise BackupError("The archive's manifest is too large.")
    try:
        manifest = json.loads(archive.read(MANIFEST).decode("utf-8"))
    except (zipfile.BadZipFile, OSError, ValueError, UnicodeDecodeError):
        raise BackupError("The archive's manifest is damaged: it is not readable JSON.") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BackupError("This is not a Western Roses campaign backup.")
    if manifest.get("version") != VERSION:
        raise BackupError(
            f"This backup has format version {manifest.get('version')!s}; "
            f"this server reads version {VERSION}."
        )
    if not isinstance(manifest.get("users"), list) or not isinstance(manifest.get("parts"), list):
        raise BackupError("The archive's manifest is incomplete: it lacks its users or rows.")
    for part in manifest["parts"]:
        if isinstance(part, dict) and part.get("model") in RENAMED:
            part["model"] = RENAMED[part["model"]]
    return manifest, archive


# --- import --------------------------------------------------------------------------------


def _as_int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BackupError(f"The archive is damaged: {what} is not a number.")
    return value


def import_campaign(data: bytes) -> Any:
    """Restore the archive ``data`` as a new campaign and return it.

    One transaction: on any problem nothing is kept (files written so far are deleted too) and
    :class:`BackupError` says what is wrong.
    """
    manifest, archive = read_archive(data)
    stored: list[tuple[FieldFile, str]] = []
    try:
        with transaction.atomic():
            return _restore(manifest, archive, stored)
    except BackupError:
        _delete_files(stored)
        raise
    except (KeyError, TypeError, ValueError, AttributeError, LookupError) as exc:
        _delete_files(stored)
        raise BackupError(f"The archive is damaged and was not restored ({_words(exc)}).") from None
    except (DatabaseError, ValidationError) as exc:  # a database check: still words
        _delete_files(stored)
        if isinstance(exc, ValidationError):
            problems = "; ".join(
                f"{field}: {' '.join(messages)}"
                for field, messages in getattr(exc, "message_dict", {"value": exc.messages}).items()
            )
            raise BackupError(
                f"The archive holds values this server refuses ({problems})."
            ) from None
        raise BackupError(
            "The archive's rows do not fit together (a database check refused them); "
            "nothing was restored."
        ) from None


def _words(exc: Exception) -> str:
    if isinstance(exc, KeyError):
        return f"a required entry {exc.args[0]!s} is missing"
    return "a value has the wrong kind"


def _delete_files(stored: Iterable[tuple[FieldFile, str]]) -> None:
    for file, name in stored:
        with contextlib.suppress(OSError):
            file.storage.delete(name)


def _restore(
    manifest: dict[str, Any], archive: zipfile.ZipFile, stored: list[tuple[FieldFile, str]]
) -> Any:
    user_model = _user_model()
    user_label = _label(user_model)
    new_ids: dict[str, dict[int, int]] = {user_label: {}}
    users_by_name: dict[str, Any] = {}
    for entry in manifest["users"]:
        username = entry["username"]
        if not isinstance(username, str) or not username or len(username) > 150:
            raise BackupError("The archive is damaged: a user has no valid username.")
        user = user_model._default_manager.filter(username=username).first()
        if user is None:
            user = user_model(username=username, is_active=False)
            for attr in ("display_name", "time_zone"):
                if isinstance(entry.get(attr), str) and entry[attr]:
                    setattr(user, attr, entry[attr])
            user.set_unusable_password()  # type: ignore[attr-defined]
            user.full_clean(exclude=["password"])
            user.save()
        users_by_name[username] = user
        new_ids[user_label][_as_int(entry["pk"], "a user's number")] = user.pk

    def remap(label: str, old: int) -> int | None:
        return new_ids.get(label, {}).get(old)

    seen = [p.get("model") for p in manifest["parts"] if isinstance(p, dict)]
    unknown = [str(m) for m in seen if m not in PART_BY_LABEL]
    if unknown:
        raise BackupError(
            f"The archive holds rows this server does not know: {', '.join(unknown)}."
        )
    if seen.count("campaign.Campaign") != 1:
        raise BackupError("The archive does not hold exactly one campaign.")
    by_label = {p["model"]: p["rows"] for p in manifest["parts"]}
    campaign = None
    for part in PARTS:
        rows = by_label.get(part.label, [])
        if not isinstance(rows, list):
            raise BackupError(f"The archive is damaged: its {_named(part.label)} are not a list.")
        model = part.model
        ids: dict[int, int] = new_ids.setdefault(part.label, {})
        deferred: list[tuple[models.Model, str, int]] = []
        # a row's links to later rows of its own kind (a faction's members), set once all are in
        deferred_m2m: list[tuple[models.Model, str, list[Any]]] = []
        # texts naming rows of their own kind by id (a wiki entry's mentions of later entries)
        late_texts: list[tuple[models.Model, str, str]] = []
        for row in rows:
            old_pk = _as_int(row["pk"], f"the number of one of its {_named(part.label)}")
            fields = _rewrite_values(part.label, row["fields"], remap)
            obj = model()
            file_values: list[tuple[str, dict[str, Any]]] = []
            m2m_values: list[tuple[str, list[Any]]] = []
            for f in _concrete(model):
                if f.name not in fields:
                    continue
                value = fields[f.name]
                if f.is_relation:
                    target = _target(f)
                    target_label = _label(target)
                    if value is None:
                        setattr(obj, f.attname, None)
                    elif target_label == user_label:
                        if value not in users_by_name:
                            raise BackupError(
                                f"The archive is damaged: user {value!s} is not in its user list."
                            )
                        setattr(obj, f.attname, users_by_name[value].pk)
                    elif target_label == part.label and _as_int(value, "a reference") == old_pk:
                        raise BackupError("The archive is damaged: a row refers to itself.")
                    elif target_label == part.label and value not in ids:
                        deferred.append((obj, f.attname, value))  # a later row of the same kind
                    else:
                        new = remap(target_label, _as_int(value, "a reference"))
                        if new is None and (part.label, f.name) in MAY_DANGLE:
                            setattr(obj, f.attname, None)
                            continue
                        if new is None:
                            raise BackupError(
                                f"The archive is damaged: one of its {_named(part.label)} "
                                f"refers to {_named(target_label, 1)} that is not in it."
                            )
                        setattr(obj, f.attname, new)
                elif isinstance(f, models.FileField):
                    if value:
                        file_values.append((f.name, value))
                elif isinstance(f, models.JSONField):
                    setattr(obj, f.attname, value)
                else:
                    try:
                        setattr(obj, f.attname, None if value is None else f.to_python(value))
                    except ValidationError as exc:
                        raise BackupError(
                            "The archive holds a value this server refuses: "
                            f"{_named(part.label, 1)}, {f.verbose_name}: {' '.join(exc.messages)}"
                        ) from None
            for m in _m2m(model):
                if isinstance(fields.get(m.name), list):
                    m2m_values.append((m.name, fields[m.name]))
            obj.clean_fields(
                exclude=[
                    f.name
                    for f in _concrete(model)
                    if f.is_relation or isinstance(f, models.FileField | models.JSONField)
                ]
            )
            # save_base without signals' side effects would still run auto_now: store the row,
            # then put the archive's timestamps back with an update (which skips auto_now).
            model._default_manager.bulk_create([obj])
            stamps = {
                f.attname: getattr(obj, f.attname)
                for f in _concrete(model)
                if isinstance(f, models.DateTimeField | models.DateField)
                and (getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False))
            }
            for f in _concrete(model):
                if f.attname in stamps and fields.get(f.name) is not None:
                    stamps[f.attname] = f.to_python(fields[f.name])
            for name, spec in file_values:
                content = _archive_file(archive, spec)
                field_file = getattr(obj, name)
                field_file.save(str(spec.get("name") or "file"), ContentFile(content), save=False)
                stored.append((field_file, field_file.name))
                stamps[name] = field_file.name
            model._default_manager.filter(pk=obj.pk).update(**stamps)
            if part.label == "wiki.Entry" and isinstance(row["fields"].get("body"), str):
                late_texts.append((obj, "body", row["fields"]["body"]))
            for name, values in m2m_values:
                relation = model._meta.get_field(name)
                related = _target(relation)
                if _label(related) == part.label:
                    deferred_m2m.append((obj, name, values))
                    continue
                if _label(related) == user_label:
                    targets = [users_by_name[v].pk for v in values if v in users_by_name]
                else:
                    targets = [x for v in values if (x := remap(_label(related), v)) is not None]
                getattr(obj, name).set(targets)
            ids[old_pk] = obj.pk
            if part.label == "battles.Battle":
                _own_battle_id(obj, old_pk)
            if part.label == "campaign.Campaign":
                campaign = obj
        for obj, attname, old in deferred:
            new = ids.get(old)
            if new is None:
                raise BackupError(
                    f"The archive is damaged: one of its {_named(part.label)} links to nothing."
                )
            model._default_manager.filter(pk=obj.pk).update(**{attname: new})
        for obj, name, values in deferred_m2m:
            getattr(obj, name).set([ids[v] for v in values if v in ids])
        for obj, attname, text in late_texts:
            model._default_manager.filter(pk=obj.pk).update(
                **{attname: _wiki_mentions(text, remap)}
            )
    return campaign


def _own_battle_id(battle: models.Model, old_pk: int) -> None:
    """A battle's engine JSON names the battle itself (``battle_id``), known only once stored."""
    changes = {}
    for name in ("state", "initial"):
        value = getattr(battle, name)
        if isinstance(value, dict) and value.get("battle_id") == str(old_pk):
            changes[name] = {**value, "battle_id": str(battle.pk)}
    if changes:
        type(battle)._default_manager.filter(pk=battle.pk).update(**changes)


def _archive_file(archive: zipfile.ZipFile, spec: dict[str, Any]) -> bytes:
    member = spec.get("archive")
    if not isinstance(member, str):
        raise BackupError("The archive is damaged: a file entry has no path.")
    try:
        content = archive.read(member)
    except KeyError:
        raise BackupError(f"The archive is missing the file {member}.") from None
    except (zipfile.BadZipFile, OSError, ValueError):
        raise BackupError(f"The file {member} in the archive is damaged.") from None
    if hashlib.sha256(content).hexdigest() != spec.get("sha256"):
        raise BackupError(f"The file {member} does not match its checksum; it is damaged.")
    return content


# --- comparing two exports -------------------------------------------------------------------


def normalise(manifest: dict[str, Any]) -> dict[str, Any]:
    """``manifest`` with every key replaced by its row's position (1, 2 ...) in the archive.

    Two exports of the same campaign, before and after a restore, normalise to the same thing:
    that is what "the round trip is exact" means (``tests/test_backup.py``).
    """
    user_label = _label(_user_model())
    ordinal: dict[str, dict[int, int]] = {
        user_label: {
            u["pk"]: i
            for i, u in enumerate(sorted(manifest["users"], key=lambda u: u["username"]), 1)
        }
    }
    for part in manifest["parts"]:
        ordinal[part["model"]] = {row["pk"]: i for i, row in enumerate(part["rows"], 1)}

    def remap(label: str, old: int) -> int | None:
        return ordinal.get(label, {}).get(old)

    parts = []
    for part in manifest["parts"]:
        model = PART_BY_LABEL[part["model"]].model
        rows = []
        for row in part["rows"]:
            fields = _rewrite_values(part["model"], row["fields"], remap)
            for f in _concrete(model):
                value = fields.get(f.name)
                if f.is_relation and isinstance(value, int):
                    target = _target(f)
                    fields[f.name] = remap(_label(target), value)
                elif isinstance(f, models.FileField) and isinstance(value, dict):
                    # The stored name is chosen by the upload path (a fresh random name for a
                    # handout): the content is what must survive.
                    fields[f.name] = {"sha256": value["sha256"]}
            for m in _m2m(model):
                related = _target(m)
                if _label(related) != user_label and isinstance(fields.get(m.name), list):
                    fields[m.name] = [remap(_label(related), v) for v in fields[m.name]]
            rows.append(fields)
        parts.append({"model": part["model"], "rows": rows})
    users = [{k: v for k, v in u.items() if k != "pk"} for u in manifest["users"]]
    return {
        "format": manifest["format"],
        "version": manifest["version"],
        "users": users,
        "parts": parts,
    }
