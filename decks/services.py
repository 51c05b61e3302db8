"""Writes for GM cards and decks, each checked by the engine before anything is saved.

Keyword-only functions named ``<entity>_<action>``, called by the pages, the API and the admin
alike. A refusal is a django ``ValidationError`` whose keys name the field: ``data.<path>`` for
a card field as the engine names it (``data.abilities[0].effects[1].amount``), ``number``,
``campaign``, ``name``, ``cards``, ``text``. Every function re-checks that ``by`` may do it.

Card numbers (docs/decks.md, "Card numbers"): a GM card never takes a starter card's number,
although the DBS engine would let an extra card replace a starter one. A deck text that says
``3 DBS-101`` must mean the same card at every table, and players who read a card's page must
be able to trust it; so both games refuse, and a GM writes a new card instead. Numbers are also
unique within what one deck may use (the site-wide cards plus one campaign's).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext

from campaign.models import Campaign
from campaign.permissions import access_for

from . import selectors
from .games import CARD_SET_ERRORS, NUMBER_PATTERN, CardGame, card_cost, game_for
from .models import MAX_CARD_JSON, MAX_DECK_CARDS, MAX_NAME, MAX_NUMBER, CustomCard, Deck

if TYPE_CHECKING:
    from accounts.models import User

MAX_DECK_TEXT = 10_000
MAX_COPIES_STORED = 9
_MAX_NODES = 600
_MAX_DEPTH = 12
#: What a stored deck entry may look like (starter and GM numbers, or an old unknown one).
_CARD_NUMBER = re.compile(r"^[A-Z0-9][A-Z0-9-]{0,11}$")


# --------------------------------------------------------------------------- card data


def _split(message: str) -> tuple[str, str]:
    """``"abilities[0].kind: must be ..."`` -> (``abilities[0].kind``, ``must be ...``)."""
    path, sep, rest = message.partition(": ")
    if not sep or " " in path:
        return "card", message
    return path, rest


#: Per game, the fields whose value is one word of the vocabulary (the engines look them up
#: in tables of words, so a list or a mapping there is refused by name before they see it).
_WORD_FIELDS: dict[str, frozenset[str]] = {
    "rso": frozenset(
        {
            "ability",
            "class",
            "do",
            "keyword",
            "kind",
            "phase",
            "role",
            "shot",
            "stat",
            "support",
            "target",
            "type",
            "when",
        }
    ),
    "dbs": frozenset(
        {"at", "check", "do", "kind", "limit", "static", "target", "timing", "when", "whose"}
    ),
}


def _shape_problems(data: Mapping[str, Any], words: frozenset[str]) -> dict[str, list[str]]:
    """Problems of shape the engines should never see, each keyed by its field path: too many
    values or too deep (a YAML alias bomb), a key that is not text, a list or mapping where a
    vocabulary word belongs. Walked without recursion, so no input can exhaust the stack."""
    problems: dict[str, list[str]] = {}
    stack: list[tuple[str, object, int]] = [("", data, 0)]
    seen = 0
    while stack:
        path, item, depth = stack.pop()
        seen += 1
        if seen > _MAX_NODES or depth > _MAX_DEPTH:
            return {"data": ["The card is too large or nested too deeply."]}
        if isinstance(item, Mapping):
            for key, value in item.items():
                if not isinstance(key, str):
                    problems.setdefault(f"data.{path}" if path else "data", []).append(
                        f"{key!r} is not a field name (field names are words)."
                    )
                    continue
                here = f"{path}.{key}" if path else key
                if key in words and isinstance(value, Mapping | list):
                    problems.setdefault(f"data.{here}", []).append(
                        "must be one word of the vocabulary, not a list or a mapping."
                    )
                    continue
                stack.append((here, value, depth + 1))
        elif isinstance(item, list | tuple):
            stack.extend((f"{path}[{i}]", v, depth + 1) for i, v in enumerate(item))
    return problems


def card_shape_errors(game: CardGame, data: object) -> dict[str, list[str]]:
    """Size and shape limits checked before the engine sees the card."""
    if not isinstance(data, Mapping):
        return {"data": ["The card must be a mapping of fields (like number: GM-001)."]}
    problems = _shape_problems(data, _WORD_FIELDS[game.slug])
    if problems:
        return problems
    try:
        size = len(json.dumps(data, ensure_ascii=False, allow_nan=False))
    except (TypeError, ValueError):
        return {"data": ["The card must hold only text, numbers, true/false, lists and maps."]}
    if size > MAX_CARD_JSON:
        return {"data": [f"The card is too large ({size} characters; at most {MAX_CARD_JSON})."]}
    return {}


def card_errors(
    game: CardGame, data: Mapping[str, Any], campaign_id: int | None, *, exclude: int | None = None
) -> dict[str, list[str]]:
    """Every reason ``data`` cannot be a GM card of ``game`` in that campaign (or site-wide),
    keyed by the field: the engine's vocabulary first, then our number rules, then the whole
    card set (a DBS spellcard's character must exist)."""
    errors: dict[str, list[str]] = {}

    def add(path: str, message: str) -> None:
        errors.setdefault(path if path == "data" else f"data.{path}", []).append(message)

    try:
        messages = game.engine.validate_card(data)
    except (TypeError, ValueError, KeyError, AttributeError):
        # The engines' validators expect the vocabulary's shapes; _shape_problems refuses the
        # shapes we know break them, and anything else still gets a 400, never a 500.
        messages = ["card: its fields do not have the shapes this game's cards use."]
    for message in messages:
        add(*_split(message))
    number = data.get("number")
    if isinstance(number, str) and number:
        if len(number) > MAX_NUMBER or not NUMBER_PATTERN.match(number):
            add("number", "must look like GM-001 (2 to 6 capital letters, a dash, three digits).")
        elif number in game.engine.starter_card_set():
            add(
                "number",
                f"{number} is a starter card's number; a GM card needs a number of its own "
                "(for example GM-001).",
            )
        else:
            clash = CustomCard.objects.filter(game=game.slug, number=number)
            # Site-wide numbers are unique among every campaign's cards too.
            if campaign_id is not None:
                clash = clash.filter(Q(campaign__isnull=True) | Q(campaign_id=campaign_id))
            if exclude is not None:
                clash = clash.exclude(pk=exclude)
            if clash.exists():
                add("number", f"Another card already has the number {number}.")
    name = data.get("name")
    if isinstance(name, str) and len(name) > MAX_NAME:
        add("name", f"must be at most {MAX_NAME} characters.")
    if errors:
        return errors
    others = [
        c.data
        for c in selectors.context_cards(game, campaign_id)
        if c.pk != exclude and c.number != number
    ]
    try:
        game.engine.load_card_set([*others, data])
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        if not isinstance(exc, CARD_SET_ERRORS):
            add("data", "The card's fields do not have the shapes this game's cards use.")
            return errors
        listed = getattr(exc, "errors", None) or [str(exc)]
        for message in listed:
            label, sep, rest = message.partition(": ")
            if sep and label == number:
                add(*_split(rest))
            else:
                add("data", message)
    return errors


def _copy_fields(card: CustomCard, game: CardGame, data: Mapping[str, Any]) -> None:
    card_set = selectors.card_set_for(game, card.campaign_id)
    card_set[str(data["number"])] = dict(data)
    card.data = dict(data)
    card.number = str(data["number"])
    card.name = str(data["name"])[:MAX_NAME]
    card.kind = str(data.get("kind", ""))
    card.cost = card_cost(data)
    card.characters = game.engine.card_characters(data, card_set)


def _require_card_manager(by: User, campaign: Campaign | None) -> None:
    if campaign is None:
        if not by.is_staff:
            raise PermissionDenied(gettext("Only the site's staff may add site-wide cards."))
    elif not access_for(by, campaign).can_manage:
        raise PermissionDenied(gettext("Only the campaign's game masters may add its cards."))


def _game(slug: str) -> CardGame:
    game = game_for(slug)
    if game is None:
        raise ValidationError(
            {"game": [gettext("Choose Rumbling Spell Orchestra or Dream Battle.")]}
        )
    return game


def custom_card_create(
    *, by: User, game: str, campaign: Campaign | None, data: object
) -> CustomCard:
    """Add a GM card to ``campaign`` (or site-wide, staff); refused with every error."""
    cg = _game(game)
    _require_card_manager(by, campaign)
    errors = card_shape_errors(cg, data)
    if not errors:
        assert isinstance(data, Mapping)  # noqa: S101 - card_shape_errors checked it
        data = cg.engine.upgrade_card(data)  # a card written in an older shape reads as today's
        errors = card_errors(cg, data, campaign.pk if campaign else None)
    if errors:
        raise ValidationError(errors)
    assert isinstance(data, Mapping)  # noqa: S101
    card = CustomCard(game=cg.slug, campaign=campaign, created_by=by)
    _copy_fields(card, cg, data)
    card.save()
    return card


def custom_card_update(*, by: User, card: CustomCard, data: object) -> CustomCard:
    cg = _game(card.game)
    _require_card_manager(by, card.campaign)
    errors = card_shape_errors(cg, data)
    if not errors:
        assert isinstance(data, Mapping)  # noqa: S101
        data = cg.engine.upgrade_card(data)  # a card written in an older shape reads as today's
        errors = card_errors(cg, data, card.campaign_id, exclude=card.pk)
    if errors:
        raise ValidationError(errors)
    assert isinstance(data, Mapping)  # noqa: S101
    _copy_fields(card, cg, data)
    card.save()
    return card


def custom_card_delete(*, by: User, card: CustomCard) -> None:
    """Remove a GM card. Decks holding it stay, and list it as a card not in the set."""
    _require_card_manager(by, card.campaign)
    card.delete()


# --------------------------------------------------------------------------- decks


def _deck_campaign(by: User, campaign: Campaign | None) -> Campaign | None:
    if campaign is not None and not access_for(by, campaign).is_member:
        raise ValidationError({"campaign": [gettext("You are not a member of that campaign.")]})
    return campaign


def _clean_name(name: object) -> str:
    if not isinstance(name, str) or not name.strip():
        raise ValidationError({"name": [gettext("Give the deck a name.")]})
    name = " ".join(name.split())
    if len(name) > MAX_NAME:
        raise ValidationError(
            {
                "name": [
                    gettext("A deck's name has at most %(most)s characters.") % {"most": MAX_NAME}
                ]
            }
        )
    return name


def _clean_cards(cards: object) -> list[str]:
    """Card numbers as stored: bounded, texts; unknown numbers are kept (the deck's legality
    names them) so a deck survives a GM card's removal and can be fixed."""
    if not isinstance(cards, list | tuple):
        raise ValidationError({"cards": [gettext("Give the cards as a list of card numbers.")]})
    if len(cards) > MAX_DECK_CARDS:
        raise ValidationError(
            {
                "cards": [
                    gettext("A deck holds at most %(most)s cards here; this has %(count)s.")
                    % {"most": MAX_DECK_CARDS, "count": len(cards)}
                ]
            }
        )
    out = []
    for number in cards:
        if not isinstance(number, str) or not _CARD_NUMBER.match(number.strip().upper()):
            raise ValidationError(
                {"cards": [gettext("Each card is a card number such as RSO-101.")]}
            )
        out.append(number.strip().upper())
    counts = Counter(out)
    too_many = sorted(n for n, c in counts.items() if c > MAX_COPIES_STORED)
    if too_many:
        raise ValidationError(
            {
                "cards": [
                    gettext("At most %(most)s copies of %(card)s can be saved.")
                    % {"most": MAX_COPIES_STORED, "card": too_many[0]}
                ]
            }
        )
    return sorted(out)


def _require_owner(by: User, deck: Deck) -> None:
    if deck.owner_id != by.pk:
        raise PermissionDenied(gettext("Only the deck's owner may change it."))


def deck_create(
    *,
    by: User,
    game: str,
    name: object,
    campaign: Campaign | None = None,
    cards: Sequence[str] = (),
) -> Deck:
    cg = _game(game)
    deck = Deck(
        owner=by,
        game=cg.slug,
        name=_clean_name(name),
        campaign=_deck_campaign(by, campaign),
        cards=_clean_cards(list(cards)),
    )
    deck.save()
    return deck


_UNCHANGED: Any = object()


def deck_update(
    *,
    by: User,
    deck: Deck,
    name: object = _UNCHANGED,
    campaign: Any = _UNCHANGED,
    cards: object = _UNCHANGED,
) -> Deck:
    _require_owner(by, deck)
    if name is not _UNCHANGED:
        deck.name = _clean_name(name)
    if campaign is not _UNCHANGED:
        deck.campaign = _deck_campaign(by, campaign)
    if cards is not _UNCHANGED:
        deck.cards = _clean_cards(cards)
    deck.save()
    return deck


def deck_set_count(*, by: User, deck: Deck, number: str, count: int) -> Deck:
    """Put exactly ``count`` copies of card ``number`` in the deck (0 removes it)."""
    _require_owner(by, deck)
    if not 0 <= count <= MAX_COPIES_STORED:
        raise ValidationError(
            {"count": [gettext("Choose from 0 to %(most)s copies.") % {"most": MAX_COPIES_STORED}]}
        )
    number = (number or "").strip().upper()
    report = selectors.deck_report(deck)
    if count and number not in report.card_set:
        raise ValidationError(
            {"number": [gettext("There is no card %(number)s to add.") % {"number": number or "—"}]}
        )
    with transaction.atomic():
        locked = Deck.objects.select_for_update().get(pk=deck.pk)
        cards = [n for n in locked.cards if n != number] + [number] * count
        locked.cards = _clean_cards(cards)
        locked.save(update_fields=["cards", "updated_at"])
    deck.cards = locked.cards
    deck.updated_at = locked.updated_at
    return deck


def deck_import(*, by: User, deck: Deck, text: object) -> Deck:
    """Replace the deck's cards with those read from ``text``; any unreadable line refuses
    the whole import (every such line listed) and changes nothing."""
    _require_owner(by, deck)
    numbers = read_deck_text(deck.game, text, selectors.deck_report(deck).card_set)
    return deck_update(by=by, deck=deck, cards=numbers)


def read_deck_text(game: str, text: object, card_set: Mapping[str, Any]) -> list[str]:
    cg = _game(game)
    if not isinstance(text, str) or not text.strip():
        raise ValidationError(
            {"text": [gettext("Paste a deck, one line per card, like '3 RSO-101'.")]}
        )
    if len(text) > MAX_DECK_TEXT:
        most = {"most": MAX_DECK_TEXT}
        raise ValidationError(
            {"text": [gettext("A deck text has at most %(most)s characters.") % most]}
        )
    numbers, errors = cg.read_text(text, card_set)
    if errors:
        raise ValidationError({"text": errors})
    return _clean_cards(numbers)


def deck_delete(*, by: User, deck: Deck) -> None:
    _require_owner(by, deck)
    deck.delete()
