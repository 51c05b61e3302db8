"""Writes for characters: keyword-only functions called by pages, the API, admin and commands.

The rules are the engine's (:mod:`westernroses.characters`): every write converts the row to a
:class:`CharacterDraft` (:func:`character_to_draft`), lets the engine validate the new draft,
and stores it back (:func:`character_apply_draft`). Nothing here decides whether a character is
legal; it only adds what the engine cannot know: who may do what (the GM raises levels and
grants waivers, ``campaign.permissions``) and what the database can store.

Every refusal lists *every* problem at once (:class:`CharacterRulesError`), so a player fixing a
sheet sees the whole list instead of one error per save.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from django.core.exceptions import PermissionDenied
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils.translation import gettext, gettext_lazy

from apibase.images import CheckedImage, ImageRefused, ImageRules, image_check
from apibase.json_input import JSONInputError, loads_bounded
from campaign.models import Campaign, Membership
from campaign.permissions import OwnedAccess
from campaign.registry import departing
from westernroses.catalog import get_catalog
from westernroses.characters import (
    CharacterDraft,
    DraftFormatError,
    RuleViolation,
    raise_level,
    validate,
    with_starting_kit,
)
from westernroses.characters.draft import field_problem
from westernroses.house_rules import DEFAULT_HOUSE_RULES, HouseRules
from westernroses.words import N_, Words

from .models import Character, InventoryItem

if TYPE_CHECKING:
    from django.core.files.uploadedfile import UploadedFile

    from accounts.models import User

#: The export document's ``format`` and the only ``version`` this app reads and writes.
EXPORT_FORMAT: Final = "westernroses.character"
EXPORT_VERSION: Final = 1
#: Import files larger than this are refused before parsing (a character is a few kB).
IMPORT_MAX_BYTES: Final = 1024 * 1024

PORTRAIT_MAX_BYTES: Final = 2 * 1024 * 1024
PORTRAIT_MIN_SIDE: Final = 16
PORTRAIT_MAX_SIDE: Final = 4096
#: Pillow format name -> stored extension and content type. Decided by content, not file name.
PORTRAIT_FORMATS: Final = {
    "PNG": ("png", "image/png"),
    "JPEG": ("jpg", "image/jpeg"),
    "WEBP": ("webp", "image/webp"),
    "GIF": ("gif", "image/gif"),
}

#: Draft fields kept in ``Character.draft`` (JSON); the others are columns or inventory rows.
DRAFT_JSON_FIELDS: Final = (
    "goddess_element",
    "bonus_points",
    "skill_points",
    "abilities",
    "ability_choices",
    "natural_weapon",
    "guardian_charge",
    "guardian_charge_injured",
    "unconnected_dolls",
    "clothing_covered",
    "effects",
    "gm_waivers",
)

# What the database columns can hold; the engine knows no upper limits.
R_STORAGE: Final = N_("Western Roses app: what a character sheet can store")
R_LEVELS: Final = N_("Levels: the GM raises a character's level")
NAME_MAX: Final = 120
TEXT_MAX: Final = 120
LEVEL_MAX: Final = 999
NUMBER_MAX: Final = 1_000_000_000


# --------------------------------------------------------------------------- errors


class CharacterRulesError(Exception):
    """A write was refused; ``violations`` lists every broken rule, engine's and app's."""

    def __init__(self, violations: list[RuleViolation], detail: str | None = None) -> None:
        self.violations = violations
        count = len(violations)
        self.detail = detail or (
            f"The character breaks {count} rule{'s' if count != 1 else ''}; fix "
            f"{'them all' if count != 1 else 'it'} and save again."
        )
        super().__init__(self.detail)

    def errors(self) -> dict[str, Any]:
        """``{field: [messages], "rules": [{code, field, message, rule}]}`` for the API."""
        out: dict[str, Any] = {}
        for v in self.violations:
            out.setdefault(v.field, []).append(v.message)
        out["rules"] = [v.to_dict() for v in self.violations]
        return out


class CharacterFormatError(ValueError):
    """Character data (an import file, an API body) has the wrong shape; ``field`` says where.

    ``message`` is :class:`Words` and the one argument ``field: message`` as Words, so ``str``
    and :attr:`detail` keep their English while the pages (the import form, the spellcard
    builder, the party page) and the API's 400 say it in the reader's language
    (:attr:`detail_words`, ``apibase.engine_words.reason_in_language``)."""

    def __init__(self, field: str, message: Words | str) -> None:
        super().__init__(field_problem(field, message))
        self.field = field
        self.message = message

    @property
    def detail_words(self) -> Words:
        return Words(
            N_("This is not a Western Roses character: %(problem)s"),
            {"problem": field_problem(self.field, self.message)},
        )

    @property
    def detail(self) -> str:
        return str(self.detail_words)


def file_too_large() -> CharacterFormatError:
    """The refusal of an import file over :data:`IMPORT_MAX_BYTES` (checked before reading)."""
    return CharacterFormatError(
        "(file)", Words(N_("is larger than %(size)s kB"), {"size": IMPORT_MAX_BYTES // 1024})
    )


class PortraitError(ValueError):
    """An uploaded portrait is refused: wrong type (by content), too big, or odd dimensions."""


# --------------------------------------------------------------------------- model <-> draft


def rules_for(campaign: Campaign | None) -> HouseRules:
    """The house rules a character is judged by: its campaign's, or the defaults."""
    return campaign.rules() if campaign is not None else DEFAULT_HOUSE_RULES


def _sorted(mapping: Mapping[str, Any]) -> dict[str, Any]:
    # Canonical key order, so exports are byte-stable whatever order the database returns.
    return {key: mapping[key] for key in sorted(mapping)}


def character_to_draft(character: Character) -> CharacterDraft:
    """The engine's draft for a stored character (uses prefetched inventory when present).

    Raises :class:`CharacterFormatError` if stored JSON was damaged (e.g. edited by hand).
    """
    data: dict[str, Any] = {
        k: character.draft[k] for k in DRAFT_JSON_FIELDS if k in character.draft
    }
    for key in ("bonus_points", "skill_points", "ability_choices"):
        if isinstance(data.get(key), Mapping):
            data[key] = _sorted(data[key])
    rows = sorted(character.inventory.all(), key=lambda row: row.item)
    data.update(
        name=character.name,
        shot_type=character.shot_type or None,
        race=character.race or None,
        profession=character.profession or None,
        element=character.element or None,
        level=character.level,
        yen=character.yen,
        current_hp=character.current_hp,
        spell_power=character.spell_power,
        drunkenness=character.drunkenness,
        status_effects=character.status_effects,
        inventory={row.item: {"quantity": row.quantity, "equipped": row.equipped} for row in rows},
    )
    try:
        return CharacterDraft.from_dict(data)
    except DraftFormatError as exc:
        raise CharacterFormatError(exc.field, exc.message) from None


def character_apply_draft(*, character: Character, draft: CharacterDraft) -> Character:
    """Store ``draft`` on ``character``: columns, the JSON rest, and inventory rows.

    Saves the row (creating it if new) and makes the inventory rows match the draft exactly.
    Does not validate: callers validate first (:func:`character_create` and friends).
    """
    data = draft.to_dict()
    character.name = draft.name
    character.shot_type = draft.shot_type or ""
    character.race = draft.race or ""
    character.profession = draft.profession or ""
    character.element = draft.element or ""
    character.level = draft.level
    character.yen = draft.yen
    character.current_hp = draft.current_hp
    character.spell_power = draft.spell_power
    character.drunkenness = draft.drunkenness
    character.status_effects = list(draft.status_effects)
    stored = {key: data[key] for key in DRAFT_JSON_FIELDS}
    for key in ("bonus_points", "skill_points", "ability_choices"):
        stored[key] = _sorted(stored[key])
    character.draft = stored
    character.save()
    _inventory_write(character, draft)
    return character


def _inventory_write(character: Character, draft: CharacterDraft) -> None:
    """Make the inventory rows equal the draft's inventory, touching only rows that changed."""
    current = {row.item: row for row in InventoryItem.objects.filter(character=character)}
    wanted = draft.inventory
    gone = [row.pk for slug, row in current.items() if slug not in wanted]
    if gone:
        InventoryItem.objects.filter(pk__in=gone).delete()
    changed, new = [], []
    for slug, stack in wanted.items():
        row = current.get(slug)
        if row is None:
            new.append(
                InventoryItem(
                    character=character, item=slug, quantity=stack.quantity, equipped=stack.equipped
                )
            )
        elif (row.quantity, row.equipped) != (stack.quantity, stack.equipped):
            row.quantity, row.equipped = stack.quantity, stack.equipped
            changed.append(row)
    if new:
        InventoryItem.objects.bulk_create(new)
    if changed:
        InventoryItem.objects.bulk_update(changed, ["quantity", "equipped"])
    # The prefetch cache (if any) no longer matches the rows.
    getattr(character, "_prefetched_objects_cache", {}).pop("inventory", None)


# --------------------------------------------------------------------------- checks


def _storage_problems(draft: CharacterDraft) -> list[RuleViolation]:
    """What the engine allows but the database cannot hold (a 500-character name ...)."""
    out: list[RuleViolation] = []

    def add(code: str, field: str, message: str) -> None:
        out.append(RuleViolation(code, field, message, R_STORAGE))

    if len(draft.name) > NAME_MAX:
        add("name.too_long", "name", f"A name has at most {NAME_MAX} characters.")
    for key in ("natural_weapon", "guardian_charge"):
        value = getattr(draft, key)
        if value is not None and len(value) > TEXT_MAX:
            add(f"{key}.too_long", key, f"Write this in at most {TEXT_MAX} characters.")
    if draft.level > LEVEL_MAX:
        add("level.too_high", "level", f"A level above {LEVEL_MAX} cannot be stored.")
    for key in ("yen", "current_hp", "spell_power"):
        value = getattr(draft, key)
        if value is not None and abs(value) > NUMBER_MAX:
            add(f"{key}.too_large", key, f"Keep this within ±{NUMBER_MAX:,}.")
    for slug, stack in draft.inventory.items():
        if stack.quantity > NUMBER_MAX:
            add(
                "inventory.too_many",
                f"inventory.{slug}.quantity",
                f"Carry at most {NUMBER_MAX:,} of one item.",
            )
    return out


def _gm_only_problems(
    draft: CharacterDraft, by: OwnedAccess, before: CharacterDraft | None
) -> list[RuleViolation]:
    """Changes only a GM may make: the level and rule waivers (the rulebook gives both to
    the GM). ``before`` is the stored draft (None when creating: level 1, no waivers)."""
    if by.can_manage:
        return []
    out = []
    level = before.level if before is not None else 1
    if draft.level != level:
        if before is None:
            message = (
                f"This character is at level {draft.level}, and a player's new or imported "
                f"character starts at level 1: only the campaign's game master may bring one "
                f"in at level {draft.level} or raise its level later."
            )
        else:
            message = (
                f"Only the campaign's game master changes a character's level: it stays at "
                f"level {level} (level {draft.level} was asked for)."
            )
        out.append(RuleViolation("level.gm_only", "level", message, R_LEVELS))
    waivers = sorted(before.gm_waivers) if before is not None else []
    if sorted(draft.gm_waivers) != waivers:
        out.append(
            RuleViolation(
                "gm_waivers.gm_only",
                "gm_waivers",
                "Only the campaign's game master can waive a rule for a character.",
                "Character Creation",
            )
        )
    return out


def character_check(
    *,
    draft: CharacterDraft,
    by: OwnedAccess,
    rules: HouseRules,
    before: CharacterDraft | None = None,
) -> list[RuleViolation]:
    """Every problem with saving ``draft``: the engine's rules, GM-only changes, storage."""
    return [
        *validate(draft, rules),
        *_gm_only_problems(draft, by, before),
        *_storage_problems(draft),
    ]


def _refuse_problems(problems: list[RuleViolation]) -> None:
    if problems:
        raise CharacterRulesError(problems)


def _check_campaign(
    *, campaign: Campaign | None, owner: User, by: OwnedAccess, is_npc: bool
) -> None:
    """A character joins only a campaign its owner plays in; NPCs only by that campaign's GM."""
    if campaign is None:
        if is_npc:
            raise PermissionDenied(gettext("An NPC belongs to a campaign and its game master."))
        return
    if by.campaign is None or by.campaign.campaign_id != campaign.pk or not by.campaign.is_member:
        raise PermissionDenied(gettext("You are not a member of that campaign."))
    if is_npc and not by.is_gm:
        raise PermissionDenied(gettext("Only the campaign's game masters create NPCs."))
    if not Membership.objects.filter(campaign=campaign, user=owner).exists():
        raise PermissionDenied(gettext("The owner is not a member of that campaign."))


# --------------------------------------------------------------------------- drafts


@dataclass(frozen=True, slots=True)
class KitResult:
    """A draft carrying its starting kit, or why the kit could not be given."""

    draft: CharacterDraft
    problems: tuple[RuleViolation, ...] = ()


def character_draft_with_kit(*, draft: CharacterDraft, choices: Mapping[int, str]) -> KitResult:
    """The draft with its profession's starting kit and yen (wizard's equipment step).

    Only when the draft names things that exist: an unknown profession, race or ability has no
    kit, and the engine reports those names anyway. A kit choice that is not offered is a
    problem on the ``kit`` field.
    """
    cat = get_catalog()
    known = (
        draft.profession in cat.professions
        and (draft.race is None or draft.race in cat.races)
        and all(a in cat.abilities for a in draft.abilities)
    )
    if not known:
        return KitResult(draft)
    try:
        return KitResult(with_starting_kit(draft, choices))
    except ValueError as exc:
        return KitResult(
            with_starting_kit(draft),
            (RuleViolation("kit.choice", "kit", str(exc), "Character Creation > Professions"),),
        )


def draft_from_data(data: Any) -> CharacterDraft:
    """A draft from JSON-like data; a wrong shape is a :class:`CharacterFormatError`."""
    try:
        return CharacterDraft.from_dict(data)
    except DraftFormatError as exc:
        raise CharacterFormatError(exc.field, exc.message) from None


# --------------------------------------------------------------------------- writes


@transaction.atomic
def character_create(
    *,
    owner: User,
    campaign: Campaign | None,
    draft: CharacterDraft,
    by: OwnedAccess,
    is_npc: bool = False,
    public_notes: str = "",
    private_notes: str = "",
) -> Character:
    """Create a character if the engine finds ``draft`` legal; else list every problem.

    ``by`` is the creator's access to the new character (``owned_access(user, campaign,
    owner.pk)``): players create their own characters in campaigns they play in; GMs create
    NPCs. Only a GM may start a character above level 1 or with a waiver.
    """
    if not by.can_edit:
        raise PermissionDenied(gettext("You may not create a character for someone else."))
    _check_campaign(campaign=campaign, owner=owner, by=by, is_npc=is_npc)
    _refuse_problems(character_check(draft=draft, by=by, rules=rules_for(campaign)))
    character = Character(
        owner=owner,
        campaign=campaign,
        is_npc=is_npc,
        public_notes=public_notes,
        private_notes=private_notes,
    )
    return character_apply_draft(character=character, draft=draft)


_UNSET: Any = object()


@transaction.atomic
def character_update(
    *,
    character: Character,
    by: OwnedAccess,
    draft: CharacterDraft | None = None,
    public_notes: str | None = None,
    private_notes: str | None = None,
    campaign: Campaign | None = _UNSET,
    is_npc: bool | None = None,
) -> Character:
    """Change a character (owner or the campaign's GMs); ``None`` leaves a part unchanged.

    The whole new draft is validated by the engine under the (new) campaign's house rules and
    refused with every problem listed. Moving to another campaign (or to none) is the owner's
    choice, into a campaign the owner plays in; only GMs mark NPCs.
    """
    if not by.can_edit:
        raise PermissionDenied(
            gettext("Only the owner and the campaign's game masters edit a character.")
        )
    locked = Character.objects.select_for_update().get(pk=character.pk)
    before = character_to_draft(locked)
    target = character.campaign if campaign is _UNSET else campaign
    if campaign is not _UNSET and (campaign.pk if campaign else None) != character.campaign_id:
        if not by.is_owner:
            raise PermissionDenied(gettext("Only the owner moves a character to another campaign."))
        if campaign is not None:
            if not Membership.objects.filter(
                campaign=campaign, user_id=character.owner_id
            ).exists():
                raise PermissionDenied(gettext("The owner is not a member of that campaign."))
        elif character.is_npc:
            raise PermissionDenied(gettext("An NPC belongs to a campaign."))
    if is_npc is not None and is_npc != character.is_npc and not by.can_manage:
        raise PermissionDenied(gettext("Only the campaign's game masters mark NPCs."))
    new = draft if draft is not None else before
    _refuse_problems(character_check(draft=new, by=by, rules=rules_for(target), before=before))
    # Write through the locked row, so nothing changed meanwhile is overwritten with old values.
    if public_notes is not None:
        locked.public_notes = public_notes
    if private_notes is not None:
        locked.private_notes = private_notes
    if is_npc is not None:
        locked.is_npc = is_npc
    if locked.campaign_id is not None and locked.campaign_id != (target.pk if target else None):
        # leaving its campaign: its games there let it go first (``character_leaving``)
        departing(campaign_id=locked.campaign_id, character_ids=[locked.pk])
    locked.campaign = target
    character_apply_draft(character=locked, draft=new)
    character.refresh_from_db()
    return character


@transaction.atomic
def character_deleting(sender: Any, instance: Character, **kwargs: Any) -> None:
    """``pre_delete`` of a character (by its page, an administrator, or with its owner's
    account): the games of its campaign let it go first (``campaign.registry.departing``), while
    it is still there to settle a stake with."""
    if instance.campaign_id is not None:
        departing(campaign_id=instance.campaign_id, character_ids=[instance.pk])


def character_delete(*, character: Character, by: OwnedAccess) -> None:
    """Delete a character and its portrait file (owner or the campaign's GMs)."""
    if not by.can_edit:
        raise PermissionDenied(
            gettext("Only the owner and the campaign's game masters delete a character.")
        )
    portrait = character.portrait.name
    storage = character.portrait.storage
    character.delete()
    if portrait:
        transaction.on_commit(lambda: storage.delete(portrait))


@transaction.atomic
def character_level_up(*, character: Character, by: OwnedAccess, levels: int = 1) -> Character:
    """Raise a character's level (the campaign's GMs only); deck limits follow from the level.

    Only the level changes (:func:`westernroses.characters.raise_level`), so a character is
    never refused a level for an unrelated problem on its sheet.
    """
    if not by.can_manage:
        raise PermissionDenied(
            gettext("Only the campaign's game masters raise a character's level.")
        )
    locked = Character.objects.select_for_update().get(pk=character.pk)
    try:
        raised = raise_level(character_to_draft(locked), levels)
    except ValueError as exc:
        raise CharacterRulesError(
            [RuleViolation("level.raise", "levels", str(exc).capitalize() + ".", R_LEVELS)]
        ) from None
    _refuse_problems(_storage_problems(raised))
    character.level = raised.level
    character.save(update_fields=["level", "updated_at"])
    if by.campaign is not None and character.owner_id != by.campaign.user_id:
        _notify_level_up(character)
    return character


def _notify_level_up(character: Character) -> None:
    """Tell the owner (in-app and their channels), once per level, when the change commits."""
    from django.urls import reverse

    from notifications import EventType, notify, texts

    notify(
        recipient=character.owner,
        event=EventType.LEVEL_UP,
        campaign=character.campaign,
        title=texts.gettext_lazy(
            "%(name)s reached level %(level)s", name=character.name, level=character.level
        ),
        body=texts.gettext_lazy("Your deck may now hold more spellcards."),
        url=reverse("characters:sheet", args=[character.pk]),
        dedupe_key=f"character-level:{character.pk}:{character.level}",
    )


@transaction.atomic
def inventory_set(
    *, character: Character, by: OwnedAccess, item: str, quantity: int, equipped: bool = False
) -> Character:
    """Carry ``quantity`` of ``item`` (0 drops it), maybe equipped; the engine checks the
    result (unknown items, armor only for Guardians and one at a time ...)."""
    if not by.can_edit:
        raise PermissionDenied(
            gettext("Only the owner and the campaign's game masters change inventory.")
        )
    locked = Character.objects.select_for_update().get(pk=character.pk)
    before = character_to_draft(locked)
    data = before.to_dict()
    inventory = dict(data["inventory"])
    if quantity == 0:
        inventory.pop(item, None)
    else:
        inventory[item] = {"quantity": quantity, "equipped": equipped}
    data["inventory"] = inventory
    draft = draft_from_data(data)
    _refuse_problems(
        character_check(draft=draft, by=by, rules=rules_for(character.campaign), before=before)
    )
    character_apply_draft(character=locked, draft=draft)
    character.refresh_from_db()
    return character


# --------------------------------------------------------------------------- export / import


def character_export(*, character: Character, access: OwnedAccess) -> dict[str, Any]:
    """The versioned export document. Private notes only for those who may see them."""
    notes: dict[str, str] = {"public": character.public_notes}
    if access.can_see_private:
        notes["private"] = character.private_notes
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "character": character_to_draft(character).to_dict(),
        "notes": notes,
    }


def export_bytes(document: Mapping[str, Any]) -> bytes:
    """The document as a file: UTF-8 JSON, two-space indent, newline at the end.

    One fixed encoding makes export -> import -> export byte-identical.
    """
    return (json.dumps(document, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


@dataclass(frozen=True, slots=True)
class ImportedCharacter:
    draft: CharacterDraft
    public_notes: str
    private_notes: str


def _json_problem(exc: JSONInputError) -> Words | str:
    """Why the JSON was refused, as its words (plain text for anything older)."""
    first = exc.args[0] if len(exc.args) == 1 else None
    return first if isinstance(first, Words) else str(exc)


def character_document_parse(raw: bytes | str | Mapping[str, Any]) -> ImportedCharacter:
    """Check an export document's shape; every refusal names the field and says why."""
    if isinstance(raw, bytes | str):
        if len(raw) > IMPORT_MAX_BYTES:
            raise file_too_large()
        try:
            text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
            document = loads_bounded(text)
        except JSONInputError as exc:
            raise CharacterFormatError("(file)", _json_problem(exc)) from None
        except UnicodeDecodeError:
            raise CharacterFormatError("(file)", Words(N_("is not UTF-8 text"))) from None
        except json.JSONDecodeError as exc:
            raise CharacterFormatError(
                "(file)",
                Words(
                    N_("is not JSON (line %(line)s, column %(column)s: %(reason)s)"),
                    {"line": exc.lineno, "column": exc.colno, "reason": exc.msg},
                ),
            ) from None
    else:
        document = raw
    if not isinstance(document, Mapping):
        raise CharacterFormatError("(file)", Words(N_("must be a JSON object")))
    unknown = set(document) - {"format", "version", "character", "notes"}
    if unknown:
        raise CharacterFormatError(sorted(map(str, unknown))[0], Words(N_("unknown field")))
    if document.get("format") != EXPORT_FORMAT:
        raise CharacterFormatError(
            "format", Words(N_("must be %(format)s"), {"format": repr(EXPORT_FORMAT)})
        )
    version = document.get("version")
    if version != EXPORT_VERSION or isinstance(version, bool):
        raise CharacterFormatError(
            "version",
            Words(
                N_("%(version)s is not supported (this app reads version %(supported)s)"),
                {"version": repr(version), "supported": EXPORT_VERSION},
            ),
        )
    if "character" not in document:
        raise CharacterFormatError("character", Words(N_("is required")))
    try:
        draft = CharacterDraft.from_dict(document["character"])
    except DraftFormatError as exc:
        raise CharacterFormatError(f"character.{exc.field}", exc.message) from None
    notes = document.get("notes", {})
    if not isinstance(notes, Mapping):
        raise CharacterFormatError("notes", Words(N_("must be an object")))
    texts = {}
    for key in notes:
        if key not in ("public", "private"):
            raise CharacterFormatError(f"notes.{key}", Words(N_("unknown field")))
        if not isinstance(notes[key], str):
            raise CharacterFormatError(f"notes.{key}", Words(N_("must be text")))
        texts[key] = notes[key]
    return ImportedCharacter(draft, texts.get("public", ""), texts.get("private", ""))


def character_import(
    *,
    owner: User,
    campaign: Campaign | None,
    document: bytes | str | Mapping[str, Any],
    by: OwnedAccess,
    is_npc: bool = False,
) -> Character:
    """Create a character from an export document: shape first, then the engine's rules."""
    parsed = character_document_parse(document)
    return character_create(
        owner=owner,
        campaign=campaign,
        draft=parsed.draft,
        by=by,
        is_npc=is_npc,
        public_notes=parsed.public_notes,
        private_notes=parsed.private_notes,
    )


# --------------------------------------------------------------------------- portrait


#: What a portrait may be (``apibase.images``: checked by content, never the name).
PORTRAIT_RULES: Final = ImageRules(
    what=gettext_lazy("portrait"),
    formats=PORTRAIT_FORMATS,
    max_bytes=PORTRAIT_MAX_BYTES,
    min_side=PORTRAIT_MIN_SIDE,
    max_side=PORTRAIT_MAX_SIDE,
    not_an_image=gettext_lazy("Upload a PNG, JPEG, WebP or GIF image."),
)


def portrait_validate(file: UploadedFile[bytes]) -> CheckedImage:
    """Accept PNG, JPEG, WebP or GIF by their content (never the name), at most 2 MB,
    between 16 and 4096 pixels a side; anything else is a :class:`PortraitError`."""
    try:
        return image_check(file, PORTRAIT_RULES)
    except ImageRefused as exc:
        raise PortraitError(str(exc)) from None


@transaction.atomic
def character_portrait_set(
    *, character: Character, by: OwnedAccess, file: UploadedFile[bytes] | None
) -> Character:
    """Replace (or with ``None`` remove) the portrait; the old file goes once committed."""
    if not by.can_edit:
        raise PermissionDenied(
            gettext("Only the owner and the campaign's game masters set a portrait.")
        )
    old = character.portrait.name
    storage = character.portrait.storage
    if file is None:
        character.portrait = ""
    else:
        info = portrait_validate(file)
        content = ContentFile(file.read())
        character.portrait.save(f"portrait.{info.extension}", content, save=False)
    character.save(update_fields=["portrait", "updated_at"])
    if old and old != character.portrait.name:
        transaction.on_commit(lambda: storage.delete(old))
    return character


def portrait_content_type(name: str) -> str:
    """The content type of a stored portrait, from the extension this module gave it."""
    extension = name.rsplit(".", 1)[-1].lower()
    for ext, content_type in PORTRAIT_FORMATS.values():
        if ext == extension:
            return content_type
    return "application/octet-stream"
