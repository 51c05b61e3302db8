"""Reads for cards and decks: who may see which GM cards, card sets, the filtered card list,
a deck's legality, and the two functions the tavern calls to seat a deck.

Permissions (docs/decks.md): a user sees and edits only her own decks (anyone else: 404). GM
cards of a campaign are seen by its members only (outsiders: 404) and changed by its GMs
(players: 403); site-wide cards are seen by everyone and changed by staff. The campaign part is
asked of :mod:`campaign.permissions`, the one permission layer.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q, QuerySet
from django.http import Http404
from django.utils.translation import gettext

from apibase.engine_words import data_text
from campaign.models import Campaign, Membership
from campaign.permissions import access_for

from .games import CARD_SET_ERRORS, Card, CardGame, card_cost, game_for
from .models import CustomCard, Deck

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User

logger = logging.getLogger(__name__)


def game_or_404(slug: str) -> CardGame:
    game = game_for(slug)
    if game is None:
        raise Http404("No such card game.")
    return game


def _user_id(user: User | AnonymousUser | None) -> int | None:
    return user.pk if user is not None and user.is_authenticated else None


def member_campaign_ids(user: User | AnonymousUser | None) -> set[int]:
    uid = _user_id(user)
    if uid is None:
        return set()
    return set(Membership.objects.filter(user_id=uid).values_list("campaign_id", flat=True))


def gm_campaigns(user: User | AnonymousUser | None) -> QuerySet[Campaign]:
    """Campaigns where ``user`` is a GM (where she may add cards)."""
    uid = _user_id(user)
    if uid is None:
        return Campaign.objects.none()
    return Campaign.objects.filter(memberships__user_id=uid, memberships__role="gm").order_by(
        "name", "pk"
    )


def member_campaigns(user: User | AnonymousUser | None) -> QuerySet[Campaign]:
    return Campaign.objects.filter(pk__in=member_campaign_ids(user)).order_by("name", "pk")


# --------------------------------------------------------------------------- GM cards


def custom_cards_visible_to(
    user: User | AnonymousUser | None, game: str | None = None
) -> QuerySet[CustomCard]:
    """Site-wide cards and the GM cards of the user's campaigns."""
    qs = CustomCard.objects.filter(
        Q(campaign__isnull=True) | Q(campaign_id__in=member_campaign_ids(user))
    ).select_related("campaign")
    if game is not None:
        qs = qs.filter(game=game)
    return qs.order_by("game", "number", "pk")


def can_manage_card(user: User | AnonymousUser | None, card: CustomCard) -> bool:
    if card.campaign_id is None:
        return bool(getattr(user, "is_staff", False))
    return access_for(user, card.campaign_id).can_manage


def custom_card_for(
    user: User | AnonymousUser, pk: int | str, *, manage: bool = False
) -> CustomCard:
    """A GM card the user may see (404 otherwise); ``manage`` also needs its GM/staff (403)."""
    try:
        card = CustomCard.objects.select_related("campaign").get(pk=int(pk))
    except (CustomCard.DoesNotExist, ValueError, TypeError):
        raise Http404("No such card.") from None
    if card.campaign_id is not None and not access_for(user, card.campaign_id).can_view:
        raise Http404("No such card.")
    if manage and not can_manage_card(user, card):
        raise PermissionDenied(gettext("Only the campaign's game masters may change its cards."))
    return card


def _tolerant_load(game: CardGame, extras: Sequence[CustomCard]) -> dict[str, Card]:
    """The starter set plus ``extras``. Stored cards were valid when saved; should one stop
    being valid (a later engine), it is left out and logged rather than breaking every page."""
    datas = [c.data for c in extras]
    try:
        return game.engine.load_card_set(datas)
    except CARD_SET_ERRORS:
        pass
    kept: list[Mapping[str, Any]] = []
    # Characters first, so a DBS spellcard finds its GM character.
    for data in sorted(datas, key=lambda d: d.get("kind") != "character"):
        try:
            game.engine.load_card_set([*kept, data])
        except CARD_SET_ERRORS as exc:
            logger.warning("GM card %s left out of the card set: %s", data.get("number"), exc)
            continue
        kept.append(data)
    return game.engine.load_card_set(kept)


def context_cards(game: CardGame, campaign_id: int | None) -> list[CustomCard]:
    """The GM cards a deck in ``campaign_id`` (or in none) may use: site-wide plus its own."""
    q = Q(campaign__isnull=True)
    if campaign_id is not None:
        q |= Q(campaign_id=campaign_id)
    return list(CustomCard.objects.filter(q, game=game.slug).order_by("number", "pk"))


def card_set_for(game: CardGame, campaign_id: int | None) -> dict[str, Card]:
    return _tolerant_load(game, context_cards(game, campaign_id))


def custom_card_lines(cards: Iterable[CustomCard]) -> dict[int, list[str]]:
    """Each GM card in words, described against its own campaign's card set (one load per
    game and campaign); a card the set left out has no lines."""
    sets: dict[tuple[str, int | None], dict[str, Card]] = {}
    out: dict[int, list[str]] = {}
    for card in cards:
        game = game_for(card.game)
        if game is None:
            continue
        key = (card.game, card.campaign_id)
        if key not in sets:
            sets[key] = card_set_for(game, card.campaign_id)
        if card.number in sets[key]:
            out[card.pk] = game.lines(card.data, sets[key])
    return out


# --------------------------------------------------------------------------- the card list


@dataclass(frozen=True, slots=True)
class CardEntry:
    """One card as the list, the card page and the builder show it."""

    number: str
    name: str
    kind: str
    kind_label: str
    cost: int | None
    characters: tuple[str, ...]
    lines: tuple[str, ...]
    data: Mapping[str, Any]
    custom: CustomCard | None = None

    @property
    def source(self) -> str:
        if self.custom is None:
            return "Starter set"
        if self.custom.campaign_id is None:
            return "Site-wide card"
        return f"GM card of {self.custom.campaign.name}" if self.custom.campaign else "GM card"

    @property
    def key(self) -> str:
        return self.number if self.custom is None else f"{self.number}@{self.custom.pk}"


def entry_for(
    game: CardGame, data: Mapping[str, Any], card_set: Mapping[str, Card], custom: Any = None
) -> CardEntry:
    # the starter set's names and the kinds in the reader's language; a GM's card's name as
    # she wrote it
    name = str(data["name"])
    return CardEntry(
        number=str(data["number"]),
        name=data_text(name) if custom is None else name,
        kind=str(data.get("kind", "")),
        kind_label=data_text(game.kind_words.get(str(data.get("kind", "")), "Card")),
        cost=card_cost(data),
        characters=tuple(game.engine.card_characters(data, card_set)),
        lines=tuple(game.lines(data, card_set)),
        data=data,
        custom=custom,
    )


@dataclass(frozen=True, slots=True)
class CardFilter:
    """The list's filters; empty values filter nothing."""

    kind: str = ""
    character: str = ""
    cost: int | None = None
    q: str = ""

    def matches(self, entry: CardEntry) -> bool:
        if self.kind and entry.kind != self.kind:
            return False
        if self.character and self.character.casefold() not in {
            c.casefold() for c in entry.characters
        }:
            return False
        if self.cost is not None and entry.cost != self.cost:
            return False
        if self.q:
            needle = self.q.casefold()
            hay = " ".join((entry.number, entry.name, entry.kind_label, *entry.lines)).casefold()
            if needle not in hay:
                return False
        return True

    @property
    def active(self) -> bool:
        return bool(self.kind or self.character or self.cost is not None or self.q)


def starter_entries(game: CardGame) -> list[CardEntry]:
    card_set = game.engine.starter_card_set()
    return [entry_for(game, data, card_set) for data in card_set.values()]


def card_entries(
    user: User | AnonymousUser | None,
    game: CardGame,
    *,
    campaign_id: int | None = None,
    for_deck: bool = False,
) -> list[CardEntry]:
    """The starter set plus the GM cards the user may see, in number order.

    ``for_deck``: only what a deck in ``campaign_id`` (or in none) may hold, the site-wide
    cards plus that campaign's. Otherwise, with ``campaign_id`` that campaign's and the
    site-wide cards, without it every campaign of hers (the card list). Each GM card is
    described against the set of its own campaign, so a DBS spellcard names its GM character.
    """
    entries = starter_entries(game)
    if for_deck or campaign_id is not None:
        mine = member_campaign_ids(user)
        customs = [
            c
            for c in context_cards(game, campaign_id)
            if c.campaign_id is None or c.campaign_id in mine
        ]
    else:
        customs = list(custom_cards_visible_to(user, game.slug))
    sets: dict[int | None, dict[str, Card]] = {}
    for card in customs:
        if card.campaign_id not in sets:
            sets[card.campaign_id] = card_set_for(game, card.campaign_id)
        card_set = sets[card.campaign_id]
        if card.number not in card_set:
            continue  # left out by the tolerant loader (logged there)
        entries.append(entry_for(game, card.data, card_set, custom=card))
    entries.sort(key=lambda e: (e.number, e.custom.pk if e.custom else 0))
    return entries


def filter_entries(entries: Iterable[CardEntry], flt: CardFilter) -> list[CardEntry]:
    return [e for e in entries if flt.matches(e)]


def filter_choices(game: CardGame, entries: Sequence[CardEntry]) -> dict[str, list[Any]]:
    """What the filter form offers: the types, characters and costs present."""
    characters = sorted({c for e in entries for c in e.characters if c})
    costs = sorted({e.cost for e in entries if e.cost is not None})
    return {"kinds": list(game.kind_words.items()), "characters": characters, "costs": costs}


# --------------------------------------------------------------------------- decks


def decks_of(user: User | AnonymousUser, game: str | None = None) -> QuerySet[Deck]:
    uid = _user_id(user)
    qs = Deck.objects.filter(owner_id=uid).select_related("campaign")
    if game is not None:
        qs = qs.filter(game=game)
    return qs.order_by("game", "name", "pk")


def deck_for(user: User | AnonymousUser, pk: int | str) -> Deck:
    """The user's own deck, else 404 (another's deck does not exist for her)."""
    try:
        return Deck.objects.select_related("campaign").get(pk=int(pk), owner_id=_user_id(user))
    except (Deck.DoesNotExist, ValueError, TypeError):
        raise Http404("No such deck.") from None


def deck_campaign_id(deck: Deck) -> int | None:
    """The campaign whose GM cards the deck may use: its campaign while the owner is a member."""
    if deck.campaign_id is None:
        return None
    return deck.campaign_id if access_for(deck.owner, deck.campaign_id).is_member else None


@dataclass(frozen=True)
class DeckReport:
    """A deck checked by its engine: every broken rule, the text, the cards with counts."""

    deck: Deck
    game: CardGame
    card_set: dict[str, Card]
    errors: list[str]
    counts: Counter[str] = field(default_factory=Counter)
    campaign_lost: bool = False

    @property
    def legal(self) -> bool:
        return not self.errors

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def text(self) -> str:
        return self.game.engine.deck_to_text(self.deck.cards, self.card_set, self.deck.name)

    def rows(self) -> list[tuple[CardEntry | None, str, int]]:
        """(entry, number, copies) for every card in the deck, characters first."""
        out = []
        for number, count in self.counts.items():
            data = self.card_set.get(number)
            entry = entry_for(self.game, data, self.card_set) if data else None
            out.append((entry, number, count))
        out.sort(
            key=lambda r: (
                r[0] is None,
                r[0] is not None and r[0].kind != "character",
                r[0].name if r[0] else r[1],
                r[1],
            )
        )
        return out


def deck_report(deck: Deck) -> DeckReport:
    game = game_for(deck.game)
    if game is None:  # pragma: no cover - the field's choices keep it one of the games
        raise ValidationError({"game": [gettext("This deck's game is not available.")]})
    campaign_id = deck_campaign_id(deck)
    card_set = card_set_for(game, campaign_id)
    numbers = [str(n) for n in deck.cards]
    return DeckReport(
        deck=deck,
        game=game,
        card_set=card_set,
        errors=game.deck_errors(numbers, card_set),
        counts=Counter(numbers),
        campaign_lost=deck.campaign_id is not None and campaign_id is None,
    )


def check_cards(
    user: User | AnonymousUser, game: CardGame, numbers: Sequence[str], campaign_id: int | None
) -> list[str]:
    """Every broken deck rule of ``numbers`` in that context (nothing saved)."""
    if campaign_id is not None and campaign_id not in member_campaign_ids(user):
        campaign_id = None
    return game.deck_errors(list(numbers), card_set_for(game, campaign_id))


# --------------------------------------------------------------------------- for the tavern

PRESET_PREFIX = "preset:"
DECK_PREFIX = "deck:"


def seat_decks(user: User | AnonymousUser, game_slug: str) -> list[tuple[str, str]]:
    """What a seat may bring to a table of ``game_slug``: ``(key, name)`` pairs.

    The engine's preset decks (``"preset:<key>"``) first, then the user's own *legal* saved
    decks (``"deck:<id>"``); an illegal deck is not offered (the builder lists why).
    """
    game = game_for(game_slug)
    if game is None:
        return []
    out = [
        (PRESET_PREFIX + p["key"], data_text(str(p["name"]))) for p in game.engine.preset_decks()
    ]
    if not _user_id(user):
        return out
    for deck in decks_of(user, game.slug):
        if deck_report(deck).legal:
            out.append((f"{DECK_PREFIX}{deck.pk}", deck.name))
    return out


def _extra_definitions(
    game: CardGame, numbers: Iterable[str], card_set: Mapping[str, Card]
) -> list[dict[str, Any]]:
    """The non-starter card definitions a game with these cards needs (with what they name)."""
    starter = game.engine.starter_card_set()
    wanted: list[str] = []
    queue = sorted(set(numbers))
    while queue:
        number = queue.pop(0)
        if number in starter or number in wanted or number not in card_set:
            continue
        wanted.append(number)
        queue.extend(game.engine.card_needs(card_set[number]))
    # Characters first: an engine reading them in order meets a character before its cards.
    wanted.sort(key=lambda n: (card_set[n].get("kind") != "character", n))
    return [dict(card_set[n]) for n in wanted]


def deck_cards(
    user: User | AnonymousUser, game_slug: str, key: str
) -> tuple[list[str], list[dict[str, Any]]]:
    """``(card_numbers, extra_card_definitions)`` for a key from :func:`seat_decks`.

    Raises ``ValidationError`` (in words) for an unknown game or key, a deck that is not the
    user's (worded as not found), or a deck that breaks a rule (every rule listed). Pass both
    to the engine's ``new_game(config={"decks": [...], "cards": [...]})``; combine two seats'
    extra cards with :func:`merge_extra_cards`.
    """
    game = game_for(game_slug)
    if game is None:
        raise ValidationError(
            {"deck": [gettext("There is no card game called “%(game)s”.") % {"game": game_slug}]}
        )
    if not isinstance(key, str):
        raise ValidationError({"deck": [gettext("Choose a deck.")]})
    if key.startswith(PRESET_PREFIX):
        wanted = key.removeprefix(PRESET_PREFIX)
        for preset in game.engine.preset_decks():
            if preset["key"] == wanted:
                return list(preset["cards"]), []
        raise ValidationError(
            {
                "deck": [
                    gettext("%(game)s has no preset deck “%(deck)s”.")
                    % {"game": game.title, "deck": wanted}
                ]
            }
        )
    if not key.startswith(DECK_PREFIX):
        raise ValidationError(
            {"deck": [gettext("Choose a preset deck or one of your saved decks.")]}
        )
    try:
        deck = deck_for(user, key.removeprefix(DECK_PREFIX))
    except Http404:
        raise ValidationError({"deck": [gettext("There is no such deck among yours.")]}) from None
    if deck.game != game.slug:
        raise ValidationError(
            {"deck": [gettext("“%(deck)s” is a deck for another game.") % {"deck": deck.name}]}
        )
    report = deck_report(deck)
    if report.errors:
        raise ValidationError(
            {
                "deck": [
                    gettext("“%(deck)s” is not legal yet: %(rules)s")
                    % {"deck": deck.name, "rules": " ".join(report.errors)}
                ]
            }
        )
    numbers = [str(n) for n in deck.cards]
    return numbers, _extra_definitions(game, numbers, report.card_set)


def merge_extra_cards(*lists: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One ``cards`` list for a table from each seat's extra definitions; the same card twice
    is kept once, two different cards with one number are a ``ValidationError``."""
    merged: dict[str, dict[str, Any]] = {}
    for cards in lists:
        for card in cards:
            number = str(card["number"])
            if number in merged and merged[number] != dict(card):
                raise ValidationError(
                    {
                        "deck": [
                            gettext("Two decks use different cards numbered %(number)s.")
                            % {"number": number}
                        ]
                    }
                )
            merged[number] = dict(card)
    return list(merged.values())
