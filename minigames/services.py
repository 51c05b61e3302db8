"""Writes on tavern tables: create, seat, start, resign, rematch, abandon, stakes and bots.

Moves themselves go through the table core (:func:`tables.services.table_action_apply`:
version-checked write, 409, log); this module does what the tavern adds around them:

* **Seats** are filled before the game starts (the host sets each seat open or a bot; users
  join open seats, in a campaign tavern optionally as one of their characters). Every change
  to a table moves its ``version`` on, so every page polling it redraws.
* **Stakes** (campaign taverns only, never at practice tables, off when the GM sets the
  campaign's ``tavern_stakes`` house rule to 0): each seated character's stake is taken from
  her yen when the game starts (refused if she has less: never more than she has), the pot is
  paid to the winners' characters when it ends (split evenly, the remainder to the first
  winners in seat order), and returned if the table is abandoned or nobody wins. Yen moves
  through :func:`characters.party.yen_move`, in the same transaction as the game's change.
* **Bots** never think in a web request: when a table starts waiting on a bot seat, a Celery
  task is enqueued on commit (:func:`minigames.tasks.tavern_bot_move`); it computes the move
  from the state it reads and applies it through the same service as a human's; a stale one
  (someone moved meanwhile) is recomputed.
* **Reaction timeouts**: a human seat asked to react (a Shield, a Roar) that has not answered
  in ``reaction_seconds`` gets the engine's ``timeout_action`` (declining), applied by a beat
  task through the same service.
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, Final

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.http import Http404
from django.utils import timezone

from apibase.engine_words import reason_in_language
from minigames.engines.registry import ENGINE_MODULES, get_engine
from tables import services as table_services
from tables.clocks.controls import TimeControl
from tables.clocks.services import clock_set, clock_started, snapshot_of
from tables.errors import StaleVersion
from tables.models import TableStatus
from tables.registry import game_for
from tables.undo.services import undo_allow, undo_allowed_at
from westernroses.words import N_, Words

from .game import forget_seats, may_watch, table_seats
from .models import BOT_STRENGTHS, TavernAction, TavernSeat, TavernTable, seat_names, seats_of
from .rated import rate_table

if TYPE_CHECKING:
    from accounts.models import User
    from campaign.models import Campaign

logger = logging.getLogger(__name__)

MAX_STAKE: Final = 100_000
#: The most seats any tavern game has (Spirit War's six); tests hold every engine to it.
MAX_SEATS: Final = 6
#: A bot move read stale this many times in a row gives up (the next change enqueues again).
BOT_RETRIES: Final = 5
#: How long a human seat may take to answer a reaction, by default (seconds).
DEFAULT_REACTION_SECONDS: Final = 120


@dataclass(frozen=True)
class SeatSpec:
    """What the host asks for one seat: ``kind`` is ``open`` (a user joins), ``host`` (the
    host sits here) or ``bot`` (with ``strength``)."""

    kind: str = "open"
    strength: str = ""
    character: int | None = None
    deck: str = ""


def _fail(field: str, message: str) -> ValidationError:
    return ValidationError({field: [message]})


# --------------------------------------------------------------------------- decks


def deck_choices(user: Any, slug: str) -> list[tuple[str, str]]:
    """The decks a seat of ``slug`` may bring: the engine's presets, then the user's saved
    decks from the ``decks`` app when it is installed (``decks.selectors.seat_decks``)."""
    if slug not in ("rso", "dbs"):
        return []
    module = __import__(ENGINE_MODULES[slug], fromlist=["preset_decks"])
    out = [(f"preset:{d['key']}", str(d["name"])) for d in module.preset_decks()]
    try:
        from decks.selectors import seat_decks
    except ImportError:
        return out
    if getattr(user, "is_authenticated", False):
        # seat_decks lists the presets too (already offered above): only her own decks here,
        # under the key the decks API gives them (``deck:<id>``, its ``seat_key``)
        out += [
            (key, str(name))
            for key, name in seat_decks(user, slug)
            if not key.startswith("preset:")
        ]
    return out


#: The prefix saved decks carried in the tavern before they took the decks API's own key
#: (``saved:deck:<id>``): still read, so a table made then (its seats, its rematch) plays on.
_OLD_SAVED = "saved:"


def _deck_key(deck: str) -> str:
    return deck.removeprefix(_OLD_SAVED)


def _deck_cards(user: Any, slug: str, key: str) -> tuple[list[str], list[dict[str, Any]]]:
    """The card numbers (and extra card definitions) of deck ``key`` for ``user``."""
    module = __import__(ENGINE_MODULES[slug], fromlist=["preset_decks"])
    if key.startswith("preset:"):
        name = key.removeprefix("preset:")
        for deck in module.preset_decks():
            if deck["key"] == name:
                return list(deck["cards"]), []
        raise _fail("deck", "There is no such preset deck.")
    if key.startswith(("deck:", _OLD_SAVED)) and user is not None:
        try:
            from decks.selectors import deck_cards
        except ImportError:
            raise _fail("deck", "Saved decks are not available here.") from None
        cards, extra = deck_cards(user, slug, _deck_key(key))
        return list(cards), list(extra)
    raise _fail("deck", "Choose one of the decks offered.")


def _check_deck(user: Any, slug: str, deck: str) -> str:
    if slug not in ("rso", "dbs"):
        if deck:
            raise _fail("deck", "This game is played without decks.")
        return ""
    if not deck:
        return deck_choices(user, slug)[0][0]
    deck = _deck_key(deck)
    if deck not in {key for key, _ in deck_choices(user, slug)}:
        raise _fail("deck", "Choose one of the decks offered.")
    return deck


# --------------------------------------------------------------------------- checks


def stakes_allowed(campaign: Campaign | None) -> bool:
    """Whether tables of this tavern may play for yen (a campaign's, unless the GM said no)."""
    return campaign is not None and bool(campaign.rules().tavern_stakes)


def stakes_dropped(table: TavernTable) -> bool:
    """A table waiting to start with a stake the GM has since turned off in the campaign: it
    will start and play for nothing (:func:`tavern_start`)."""
    return (
        table.status == TableStatus.SETUP
        and bool(table.stake)
        and not stakes_allowed(table.campaign)
    )


def _check_character(user: Any, table: TavernTable, character_id: int | None) -> Any:
    if character_id is None:
        return None
    if table.campaign_id is None:
        raise _fail("character", "Characters sit only at a campaign's tavern tables.")
    from characters.models import Character

    character = Character.objects.filter(
        pk=character_id, owner_id=user.pk, campaign_id=table.campaign_id, is_npc=False
    ).first()
    if character is None:
        raise _fail("character", "Choose one of your characters in this campaign.")
    if TavernSeat.objects.filter(table=table, character=character).exists():
        raise _fail("character", f"{character.name} already sits at this table.")
    if table.stake and character.yen < table.stake:
        raise _fail(
            "character",
            f"{character.name} has {character.yen} yen; the stake is {table.stake} yen.",
        )
    return character


#: What a signed-in user who may see a table, but has no seat at it, is told when she acts as
#: a player (403), before anything about the game's state.
NO_SEAT: Final = "You have no seat at this table."


def _locked_table(table_id: int) -> TavernTable:
    table = TavernTable.objects.select_for_update(of=("self",)).filter(pk=table_id).first()
    if table is None:
        raise Http404("No such table.")
    return table


def _viewable(user: Any, table_id: int) -> TavernTable:
    table = _locked_table(table_id)
    if not may_watch(user, table):
        raise Http404("No such table.")
    return table


def _is_manager(user: Any, table: TavernTable) -> bool:
    """The host, or a GM of the table's campaign."""
    if table.host_id == user.pk:
        return True
    if table.campaign_id is None:
        return False
    from campaign.permissions import access_for, access_from_row

    access = access_from_row(table, user, table.campaign_id)
    return (access or access_for(user, table.campaign_id)).can_manage


def _touch(table: TavernTable, *fields: str) -> None:
    table.version += 1
    table.save(update_fields=["version", "updated_at", *fields])
    if table.campaign_id is not None:
        from campaign.members import campaign_touch

        campaign_touch(table.campaign_id)


def setup_summary(title: str, *, open_seat: bool) -> Words:
    """What a table in setup says (public): it waits for players while a seat is open, then
    only for the host's Start. The game's title is its proper name, the same in every
    language."""
    if open_seat:
        return Words(N_("%(game)s: waiting for players"), {"game": title})
    return Words(N_("%(game)s: ready to start"), {"game": title})


#: How a two-seat game ends when a seat leaves it, by ``_resign``'s ``why`` (public: the
#: table's summary says it, in each reader's language).
_ENDINGS: Final[dict[str, str]] = {
    "resigned": N_("%(name)s resigned."),
    "left": N_("%(name)s left."),
    "left the campaign": N_("%(name)s left the campaign."),
    "ran out of time": N_("%(name)s ran out of time."),
}


def summary_columns(words: Words) -> dict[str, Any]:
    """A table's summary columns for ``words``: the English for the admin and search, and the
    words each reader reads in her language (``GameTable.summary_in_language``)."""
    return {"summary": str(words)[:200], "summary_words": words.to_json()}


def _summarize(table: TavernTable, words: Words) -> None:
    for name, value in summary_columns(words).items():
        setattr(table, name, value)


def _seated(table: TavernTable) -> None:
    """A seat changed: say whether the table still waits for players, and move it on."""
    open_seat = TavernSeat.objects.filter(table=table, user__isnull=True, bot="").exists()
    _summarize(table, setup_summary(get_engine(table.game).title, open_seat=open_seat))
    _touch(table, "summary", "summary_words")


def check_options(slug: str, seats: int, options: Mapping[str, Any]) -> dict[str, Any]:
    """The house-rule values as the engine accepts them (400 naming the problem otherwise)."""
    engine = get_engine(slug)
    known = {rule.key: rule for rule in engine.house_rules()}
    clean: dict[str, Any] = {}
    for key, value in options.items():
        if key not in known:
            raise _fail("options", f"{engine.title} has no house rule “{str(key)[:40]}”.")
        clean[key] = value
    try:
        engine.new_game(seats=seats, seed=1, options=clean)
    except (ValueError, TypeError) as exc:
        raise _fail("options", reason_in_language(exc)) from None
    return clean


def rated_default(campaign: Campaign | None, *, practice: bool = False) -> bool:
    """Whether a new table is rated unless its host says: open tables are, a campaign's are
    not (issue 39: "unrated by default in campaigns"), practice tables never."""
    return campaign is None and not practice


# --------------------------------------------------------------------------- create and seat


@transaction.atomic
def tavern_create(
    *,
    by: User,
    game: str,
    campaign: Campaign | None,
    seats: Sequence[SeatSpec],
    options: Mapping[str, Any] | None = None,
    stake: int = 0,
    practice: bool = False,
    advisor: bool = False,
    reaction_seconds: int = DEFAULT_REACTION_SECONDS,
    clock: TimeControl | None = None,
    undo_allowed: bool = False,
    rated: bool | None = None,
) -> TavernTable:
    """A new table in setup. ``campaign`` None is an open table; in a campaign the host must
    be a member (404 otherwise, as everywhere in a campaign). ``rated`` None takes the
    tavern's default (:func:`rated_default`). ``clock``: its time control (``tables.clocks``;
    None: no clock), running from the start. ``undo_allowed``: the host allows undo requests
    at a staked or rated table (``tables.undo``; on at any other table)."""
    if game not in ENGINE_MODULES:
        raise _fail("game", "Choose one of the tavern's games.")
    engine = get_engine(game)
    if campaign is not None:
        from campaign.permissions import access_for

        if not access_for(by, campaign).can_view:
            raise Http404("No such campaign.")
    if not engine.min_seats <= len(seats) <= engine.max_seats:
        raise _fail(
            "seats",
            f"{engine.title} seats {engine.min_seats} to {engine.max_seats} players.",
        )
    if sum(1 for s in seats if s.kind == "host") > 1:
        raise _fail("seats", "The host takes at most one seat.")
    clean_options = check_options(game, len(seats), options or {})
    if isinstance(stake, bool) or not isinstance(stake, int) or not 0 <= stake <= MAX_STAKE:
        raise _fail("stake", f"A stake is from 0 to {MAX_STAKE} yen.")
    if stake and campaign is None:
        raise _fail("stake", "Only a campaign's tavern tables play for yen.")
    if stake and practice:
        raise _fail("stake", "Practice tables never play for yen.")
    if stake and not stakes_allowed(campaign):
        raise _fail("stake", "The game master has turned stakes off in this campaign.")
    if advisor and not practice:
        raise _fail("advisor", "The advisor helps only at practice tables.")
    if not 10 <= reaction_seconds <= 86_400:
        raise _fail("reaction_seconds", "Give from 10 seconds to a day.")
    if rated is None:
        rated = rated_default(campaign, practice=practice)
    if rated and practice:
        raise _fail("rated", "Practice tables are never rated.")
    table = TavernTable.objects.create(
        game=game,
        campaign=campaign,
        host=by,
        options=clean_options,
        stake=stake,
        practice=practice,
        advisor=advisor,
        rated=rated,
        reaction_seconds=reaction_seconds,
        status=TableStatus.SETUP,
        **summary_columns(
            setup_summary(engine.title, open_seat=any(s.kind == "open" for s in seats))
        ),
    )
    strengths = {key for key, _ in BOT_STRENGTHS}
    for index, spec in enumerate(seats):
        seat = TavernSeat(table=table, index=index)
        if spec.kind == "bot":
            if spec.strength not in strengths:
                raise _fail("seats", "A bot is random, heuristic or search.")
            seat.bot = spec.strength
            seat.deck = _check_deck(None, game, spec.deck)
        elif spec.kind == "host":
            seat.user = by
            seat.character = _check_character(by, table, spec.character)
            seat.deck = _check_deck(by, game, spec.deck)
        elif spec.kind != "open":
            raise _fail("seats", "A seat is open, the host's, or a bot.")
        seat.save()
    if clock is not None:
        clock_set(game_for(game), table, clock)
    if undo_allowed:
        undo_allow(game_for(game), table, True)
    return table


@transaction.atomic
def tavern_join(
    *, table_id: int, by: User, index: int, character: int | None = None, deck: str = ""
) -> TavernSeat:
    """Sit at open seat ``index`` (optionally as one of her characters, with a deck)."""
    table = _viewable(by, table_id)
    if table.status != TableStatus.SETUP:
        raise _fail("seat", "The game has started: seats are taken.")
    if TavernSeat.objects.filter(table=table, user=by).exists():
        raise _fail("seat", "You already sit at this table.")
    seat = TavernSeat.objects.filter(table=table, index=index).first()
    if seat is None:
        raise _fail("seat", "There is no such seat.")
    if not seat.is_open:
        raise _fail("seat", "That seat is taken.")
    seat.user = by
    seat.character = _check_character(by, table, character)
    seat.deck = _check_deck(by, table.game, deck)
    seat.save()
    _seated(table)
    return seat


@transaction.atomic
def tavern_leave(*, table_id: int, by: User) -> None:
    """Stand up from your seat before the game starts (it becomes open)."""
    table = _viewable(by, table_id)
    seat = TavernSeat.objects.filter(table=table, user=by).first()
    if seat is None:  # before the game's state: she has no seat to leave, whatever it is
        raise PermissionDenied(NO_SEAT)
    if table.status != TableStatus.SETUP:
        raise _fail("seat", "The game has started: resign instead.")
    seat.user, seat.character, seat.deck = None, None, ""
    seat.save()
    _seated(table)


@transaction.atomic
def tavern_seat_set(
    *, table_id: int, by: User, index: int, kind: str, strength: str = "", deck: str = ""
) -> TavernSeat:
    """The host makes a seat open or a bot before the game starts."""
    table = _viewable(by, table_id)
    if not _is_manager(by, table):
        raise PermissionDenied("Only the host sets the seats.")
    if table.status != TableStatus.SETUP:
        raise _fail("seat", "The game has started: seats are taken.")
    seat = TavernSeat.objects.filter(table=table, index=index).first()
    if seat is None:
        raise _fail("seat", "There is no such seat.")
    seat.user, seat.character, seat.bot, seat.deck = None, None, "", ""
    if kind == "bot":
        if strength not in {key for key, _ in BOT_STRENGTHS}:
            raise _fail("strength", "A bot is random, heuristic or search.")
        seat.bot = strength
        seat.deck = _check_deck(None, table.game, deck)
    elif kind != "open":
        raise _fail("kind", "A seat is made open or a bot.")
    seat.save()
    _seated(table)
    return seat


# --------------------------------------------------------------------------- start


def _seed() -> int:
    return secrets.randbits(53)


@transaction.atomic
def tavern_start(*, table_id: int, by: User) -> TavernTable:
    """Deal the game: every seat filled, stakes held, the first waits and bot moves enqueued."""
    table = _viewable(by, table_id)
    if not _is_manager(by, table):
        raise PermissionDenied("Only the host starts the game.")
    if table.status != TableStatus.SETUP:
        raise _fail("status", "This game has already started.")
    seats = seats_of(table)
    if any(s.is_open for s in seats):
        raise _fail("seats", "Every seat needs a player or a bot before the game starts.")
    engine = get_engine(table.game)
    config: dict[str, Any] = {"names": seat_names(seats)}
    if table.game in ("rso", "dbs"):
        decks, extra = [], []
        for s in seats:
            cards, more = _deck_cards(
                s.user, table.game, s.deck or deck_choices(None, table.game)[0][0]
            )
            decks.append(cards)
            extra += more
        config["decks"] = decks
        if extra:
            config["cards"] = extra
    try:
        state = engine.new_game(
            seats=len(seats), seed=_seed(), options=table.options, config=config
        )
    except ValueError as exc:
        raise _fail("seats", reason_in_language(exc)) from None
    _hold_stakes(table, seats)
    game = game_for(table.game)
    table_services.table_store(game, table, state)
    table.initial = engine.to_json(state)
    table.started_at = timezone.now()
    _touch(
        table,
        "state",
        "initial",
        "status",
        "summary",
        "summary_words",
        "started_at",
        "stake",
        "stakes",
    )
    clock_started(game, table)  # a clocked table's waited seats start counting down
    transaction.on_commit(partial(_after_commit, table.pk), robust=True)
    transaction.on_commit(partial(start_waits, table.pk), robust=True)
    return table


def _hold_stakes(table: TavernTable, seats: Sequence[TavernSeat]) -> None:
    staked = [s for s in seats if s.character_id is not None]
    if table.stake and not stakes_allowed(table.campaign):
        # turned off since the table was made: it plays for nothing (its page said so before
        # the start: ``stakes_dropped``), rather than waiting for a start that can never come
        table.stake = 0
    if not table.stake or not staked or table.campaign is None:
        table.stakes = {}
        return
    from characters.party import yen_move

    for s in staked:
        if s.character is not None and s.character.yen < table.stake:
            raise _fail(
                "stake",
                f"{s.character.name} has {s.character.yen} yen; the stake is {table.stake} yen.",
            )
    yen_move(
        campaign=table.campaign,
        changes={int(s.character_id): -table.stake for s in staked if s.character_id},
    )
    table.stakes = {
        "held": {str(s.index): table.stake for s in staked},
        "characters": {str(s.index): s.character_id for s in staked},
        "names": {
            str(s.index): name
            for s, name in zip(seats, seat_names(seats), strict=True)
            if s.character_id is not None
        },
        "held_at": timezone.now().isoformat(),
    }


def _payable(campaign_id: int, characters: Mapping[int, int]) -> set[int]:
    """The seats whose staking character is still in the table's campaign: only they can be
    paid or given a stake back (``characters.party.yen_move`` moves yen within a campaign). A
    character that left (deleted, moved away, or with her player) resigned her seat first
    (:func:`tavern_departure`) and has no share any more."""
    from characters.models import Character

    present = set(
        Character.objects.filter(
            pk__in=set(characters.values()), campaign_id=campaign_id
        ).values_list("pk", flat=True)
    )
    return {seat for seat, character in characters.items() if character in present}


def _split(amount: int, seats: Sequence[int]) -> dict[int, int]:
    """``amount`` split evenly among ``seats``, the remainder to the first in seat order."""
    share, rest = divmod(amount, len(seats))
    return {seat: share + (1 if i < rest else 0) for i, seat in enumerate(sorted(seats))}


def _settle(table: TavernTable, winners: Sequence[int] | None) -> None:
    """Pay the pot to the winners' characters (``winners`` None or without a staking
    character: return every stake). Only characters still in the campaign receive
    (:func:`_payable`): the stakes of those that left are shared by the ones still there, as
    the pot they lost to by resigning (nobody left to receive: nothing moves)."""
    held = table.stakes.get("held") or {}
    if not held or table.stakes.get("settled") or table.campaign is None:
        return
    from characters.party import yen_move

    characters = {int(k): int(v) for k, v in table.stakes["characters"].items()}
    stakes = {int(k): int(v) for k, v in held.items()}
    payable = _payable(table.campaign.pk, characters)
    paid_to = [seat for seat in sorted(winners or ()) if seat in payable]
    if paid_to:
        shares = _split(sum(stakes.values()), paid_to)
        table.stakes["paid"] = {str(seat): amount for seat, amount in shares.items()}
    else:
        staying = sorted(seat for seat in stakes if seat in payable)
        gone = {seat: amount for seat, amount in stakes.items() if seat not in payable}
        shares = {seat: stakes[seat] for seat in staying}
        if staying and gone:
            for seat, amount in _split(sum(gone.values()), staying).items():
                shares[seat] += amount
        table.stakes["returned"] = bool(staying)
    if len(payable) < len(stakes):
        table.stakes["forfeited"] = {
            str(seat): amount for seat, amount in stakes.items() if seat not in payable
        }
    changes: dict[int, int] = {}
    for seat, amount in shares.items():
        changes[characters[seat]] = changes.get(characters[seat], 0) + amount
    yen_move(campaign=table.campaign, changes=changes)
    table.stakes["settled"] = timezone.now().isoformat()


def winners_of(table: TavernTable, state: Any) -> list[int]:
    if table.outcome.get("winners") is not None:
        return [int(s) for s in table.outcome["winners"]]
    engine = get_engine(table.game)
    return [i for i, r in enumerate(engine.returns(state)) if r > 0]


def after_move(table: TavernTable, state: Any) -> list[str]:
    """The table core's ``after_apply`` hook (inside the move's transaction): a finished game
    pays its pot; bot moves are enqueued on commit."""
    engine = get_engine(table.game)
    changed: list[str] = []
    if engine.is_terminal(state) and table.ended_at is None:
        table.ended_at = timezone.now()
        # the pot is paid from whole seats (the row's read brought what names need only)
        forget_seats(table)
        _settle(table, winners_of(table, state))
        rate_table(table, state)  # a rated table's ratings move with its end, once
        changed += ["ended_at", "stakes"]
        if table.campaign_id is not None:
            from campaign.members import campaign_touch

            campaign_touch(table.campaign_id)
    # the bots the table now waits on, from the move's state and seats (nothing read again)
    waiting = set() if engine.is_terminal(state) else set(engine.waiting_on(state))
    bots = [s.index for s in table_seats(table) if s.index in waiting and s.bot]
    if bots:
        transaction.on_commit(partial(_enqueue_bots, table.pk, bots, table.version), robust=True)
    return changed


def _after_commit(table_id: int) -> None:
    """Enqueue a bot move for each bot seat the table now waits on, and sync the waits."""

    table = TavernTable.objects.defer("initial").filter(pk=table_id).first()
    if table is None or table.status != TableStatus.ACTIVE:
        return
    engine = get_engine(table.game)
    state = engine.from_json(table.state)
    waiting = set(engine.waiting_on(state))
    bots = TavernSeat.objects.filter(table_id=table_id, index__in=waiting).exclude(bot="")
    _enqueue_bots(table_id, [seat.index for seat in bots], table.version)


def _enqueue_bots(table_id: int, seats: Sequence[int], version: int) -> None:
    """Ask the bots of ``seats`` for their moves at ``version`` (each checks it is still
    the table's when it runs)."""
    from .tasks import tavern_bot_move

    for index in seats:
        if tavern_bot_move.app.conf.task_always_eager:
            _run_eagerly(table_id, index, version)
            continue
        try:
            tavern_bot_move.apply_async(args=(table_id, index, version))
        except Exception:
            logger.exception("could not enqueue a bot move for table %s", table_id)


_eager = threading.local()


def _run_eagerly(table_id: int, seat: int, version: int) -> None:
    """Without a broker (``make run``: tasks run eagerly) a bot's move commits and asks the
    next bot on commit, inside the first call: a game between bots would nest one call per
    move. So the first call runs the moves one after another from a queue instead."""
    from .tasks import tavern_bot_move

    queue = getattr(_eager, "queue", None)
    if queue is not None:
        queue.append((table_id, seat, version))
        return
    _eager.queue = [(table_id, seat, version)]
    try:
        while _eager.queue:
            tavern_bot_move.apply(args=tuple(_eager.queue.pop(0)))
    finally:
        _eager.queue = None


def start_waits(table_id: int) -> None:
    """The first "your turn" of a started game (later ones come from the core on each move)."""
    from tables.tasks import table_turn_notify

    table = TavernTable.objects.filter(pk=table_id).only("game", "version").first()
    if table is None:
        return
    try:
        table_turn_notify.apply_async(args=(table_id, table.version), kwargs={"slug": table.game})
    except Exception:
        logger.exception("could not enqueue turn_notify for table %s", table_id)


# --------------------------------------------------------------------------- resign, abandon


@transaction.atomic
def tavern_resign(*, table_id: int, by: User) -> TavernTable:
    """Resign your seat. At a two-seat table the game ends and the other seat wins; with more
    players the game goes on and the random bot plays the resigned seat (docs/tavern.md)."""
    table = _viewable(by, table_id)
    if not TavernSeat.objects.filter(table=table, user=by).exists():
        raise PermissionDenied(NO_SEAT)
    if table.status != TableStatus.ACTIVE:
        raise _fail("status", "Only a game in progress can be resigned.")
    seat = TavernSeat.objects.filter(table=table, user=by, resigned=False).first()
    if seat is None:
        raise PermissionDenied("You have resigned already.")
    _resign(table, seat)
    return table


def _resign(table: TavernTable, seat: TavernSeat, why: str = "resigned") -> None:
    """Resign ``seat`` of ``table`` (locked, in play): at two seats the other wins and the pot
    is settled; with more the random bot plays the seat on. ``why`` ends the sentence the
    table shows ("Marisa resigned.")."""
    seat.resigned = True
    seats = seats_of(table)
    count = len(seats)
    if count == 2:
        seat.save(update_fields=["resigned"])
        winners = [i for i in range(count) if i != seat.index]
        # her name as the table knew it, before "(resigned)"
        name = seat_names(seats)[seat.index]
        table.outcome = {
            "winners": winners,
            "text": f"{name} {why}.",
            "resigned": seat.index,
        }
        table.status = TableStatus.ENDED
        table.ended_at = timezone.now()
        _settle(table, winners)
        rate_table(table, None)  # rated: a resignation (or a timeout) is her loss
        _summarize(table, Words(_ENDINGS.get(why, _ENDINGS["resigned"]), {"name": name}))
        _touch(table, "outcome", "status", "ended_at", "stakes", "summary", "summary_words")
        transaction.on_commit(partial(_end_waits, table.pk, table.game), robust=True)
    else:
        seat.bot = "random"
        seat.save(update_fields=["resigned", "bot"])
        _touch(table)
        transaction.on_commit(partial(_after_commit, table.pk), robust=True)
        transaction.on_commit(partial(start_waits, table.pk), robust=True)


def _end_waits(table_id: int, game: str) -> None:
    from notifications import turn_wait_end
    from notifications.models import TurnWait

    prefix = game_for(game).wait_prefix(table_id)
    for key in TurnWait.objects.filter(key__startswith=prefix, ended_at__isnull=True).values_list(
        "key", flat=True
    ):
        turn_wait_end(key=key)


@transaction.atomic
def tavern_abandon(*, table_id: int, by: User) -> TavernTable:
    """End a table without a result (the host or the campaign's GM): stakes go back."""
    table = _viewable(by, table_id)
    if not _is_manager(by, table):
        raise PermissionDenied("Only the host (or the campaign's game master) abandons a table.")
    if table.status == TableStatus.ENDED:
        raise _fail("status", "This game is already over.")
    _abandon(table, by.shown_name)
    return table


def _abandon(table: TavernTable, name: str) -> None:
    """End ``table`` (locked, not ended) without a result: every stake goes back to the
    characters still in the campaign (:func:`_settle`), which always can be done."""
    _settle(table, None)
    table.abandoned = True
    table.status = TableStatus.ENDED
    table.ended_at = timezone.now()
    table.outcome = {
        "winners": [],
        "text": f"{name} abandoned the table.",
        "abandoned_by": name,
    }
    _summarize(table, Words(N_("Abandoned by %(name)s."), {"name": name}))
    _touch(
        table,
        "abandoned",
        "status",
        "ended_at",
        "outcome",
        "stakes",
        "summary",
        "summary_words",
    )
    transaction.on_commit(partial(_end_waits, table.pk, table.game), robust=True)


# --------------------------------------------------------------------------- departures


def tavern_departure(
    *, campaign_id: int | None, user_id: int | None = None, character_ids: Sequence[int] = ()
) -> None:
    """Before a player leaves a campaign (or is removed, or her account is deleted: then also
    at open tables, ``campaign_id`` None), or a character leaves it (deleted, moved away): her
    seats at its tables let her go, so no table waits on someone who can no longer play, and
    every stake can be settled (``campaign.registry.departing``).

    In setup, her seat opens again (a character leaving alone: the seat plays without it). In
    play, the seat resigns as she would have (:func:`_resign`: at two seats the other wins the
    pot; with more, the random bot plays on, and the stake of a character no longer in the
    campaign is shared by the others when the pot is settled: :func:`_settle`)."""
    match = Q(character_id__in=list(character_ids))
    if user_id is not None:
        match |= Q(user_id=user_id)
    where = (
        Q(table__campaign__isnull=True)
        if campaign_id is None
        else Q(table__campaign_id=campaign_id)
    )
    seats = TavernSeat.objects.filter(
        match, where, table__status__in=[TableStatus.SETUP, TableStatus.ACTIVE]
    )
    why = "left" if campaign_id is None else "left the campaign"
    for table_id in sorted(set(seats.values_list("table_id", flat=True))):
        table = _locked_table(table_id)  # in id order: two departures never deadlock
        mine = list(TavernSeat.objects.filter(match, table=table).order_by("index"))
        if table.status == TableStatus.SETUP:
            for seat in mine:
                if user_id is not None and seat.user_id == user_id:
                    seat.user, seat.deck = None, ""
                seat.character = None
                seat.save(update_fields=["user", "character", "deck"])
            _seated(table)
        elif table.status == TableStatus.ACTIVE:
            for seat in mine:
                if not seat.resigned:
                    _resign(table, seat, why)
                if table.status != TableStatus.ACTIVE:
                    break


def tavern_user_deleting(sender: Any, instance: Any, **kwargs: Any) -> None:
    """``pre_delete`` of a user: her seats at open tables resign (her campaigns' tables are
    let go by :func:`tavern_departure` through the campaign app), and every game she hosts is
    abandoned, its stakes returned, before the deletion takes the table with her."""
    tavern_departure(campaign_id=None, user_id=instance.pk)
    hosted = TavernTable.objects.filter(host_id=instance.pk, status__in=[TableStatus.ACTIVE])
    for table_id in sorted(hosted.values_list("pk", flat=True)):
        table = _locked_table(table_id)
        if table.status == TableStatus.ACTIVE:
            _abandon(table, str(instance.shown_name))


@transaction.atomic
def tavern_rematch(*, table_id: int, by: User) -> tuple[TavernTable, bool]:
    """A new table with the same game, options, stake and seats (in setup: the host starts),
    and True; or, when one was asked for already, that rematch and False.

    A finished table has one rematch: the finished table's row lock (``_viewable``) orders
    two requests, and the second, reading after the first committed, finds its table."""
    old = _viewable(by, table_id)
    seats = list(TavernSeat.objects.filter(table=old).order_by("index"))
    if old.host_id != by.pk and not any(s.user_id == by.pk for s in seats):
        raise PermissionDenied(f"{NO_SEAT} Only its players ask for a rematch.")
    if old.status != TableStatus.ENDED:
        raise _fail("status", "A rematch follows a finished game.")
    existing = TavernTable.objects.filter(rematch_of=old).order_by("pk").first()
    if existing is not None:
        return existing, False
    table = TavernTable.objects.create(
        game=old.game,
        campaign=old.campaign,
        host=by,
        options=old.options,
        stake=old.stake if stakes_allowed(old.campaign) else 0,
        practice=old.practice,
        advisor=old.advisor,
        rated=old.rated,
        reaction_seconds=old.reaction_seconds,
        rematch_of=old,
        status=TableStatus.SETUP,
        **summary_columns(
            setup_summary(
                get_engine(old.game).title,
                open_seat=any(s.user_id is None and not s.bot for s in seats),
            )
        ),
    )
    clock = snapshot_of(old)
    if clock is not None:
        clock_set(
            game_for(old.game),
            table,
            TimeControl(clock["mode"], int(clock["seconds"]), clock["rule"]),
        )
    if undo_allowed_at(old):
        undo_allow(game_for(old.game), table, True)
    for s in seats:
        resigned_human = s.resigned and s.user_id is not None
        TavernSeat.objects.create(
            table=table,
            index=s.index,
            user_id=s.user_id,
            bot="" if resigned_human else s.bot,
            character_id=s.character_id,
            deck=s.deck,
        )
    return table, True


# --------------------------------------------------------------------------- bots, timeouts


def tavern_bot_play(
    table_id: int,
    seat: int,
    *,
    seen: tuple[Any, int] | None = None,
    version: int | None = None,
) -> str:
    """Play bot seat ``seat``'s move if the table waits on it: compute the move outside any
    lock from the state read (or ``seen``: a state and version read earlier), then apply it
    through the core's service. A stale move (the table moved meanwhile) is recomputed from
    the new state, at most :data:`BOT_RETRIES` times; with ``version`` (the task's: the state
    that asked for this move) only while the table is still there, since every change that
    leaves a table waiting on a bot asks for a move of its own, so a late, repeated or
    re-enqueued run never plays twice for one request. Returns what happened, for the logs."""
    from minigames.bots import choose_action

    asked_at = version
    for attempt in range(BOT_RETRIES):
        table = TavernTable.objects.filter(pk=table_id).defer("initial").first()
        if table is None or table.status != TableStatus.ACTIVE:
            return "not active"
        if asked_at is not None and table.version != asked_at:
            return f"moved on to v{table.version}"
        bot = (
            TavernSeat.objects.filter(table_id=table_id, index=seat)
            .values_list("bot", flat=True)
            .first()
        )
        if not bot:
            return "not a bot"
        engine = get_engine(table.game)
        if seen is not None and attempt == 0:
            state, version = seen
        else:
            state, version = engine.from_json(table.state), table.version
        if seat not in engine.waiting_on(state):
            return "not waited on"
        action = choose_action(engine, state, seat, bot, seed=secrets.randbits(53))  # type: ignore[arg-type]
        try:
            table_services.table_action_apply(
                game_for(table.game),
                table_id=table_id,
                actor=None,
                seat=seat,
                action=action,
                expected_version=version,
            )
        except StaleVersion:
            continue
        except ValidationError:
            # Legal in the state it was computed from, refused now: recompute.
            continue
        return f"played at v{version}" + (f" after {attempt} stale" if attempt else "")
    return "gave up (stale)"


def tavern_lost_bot_moves(*, now: Any = None) -> int:
    """Enqueue a bot move again for each bot seat a table has waited on for longer than
    ``settings.TAVERN_BOT_STALE_SECONDS`` (its move was lost: a worker killed whole with the
    task in flight, whose message Redis keeps unacknowledged until the visibility timeout; a
    publish lost with the broker at commit; a move that gave up on stale reads). Each is
    enqueued for the table's version, so a table that has moved on meanwhile is left alone
    (:func:`tavern_bot_play`), and expires once the budget has passed again, so a worker that
    stays away does not find a pile of copies. Returns how many were enqueued."""
    from datetime import timedelta

    from django.conf import settings
    from django.db.models import Exists, OuterRef

    from .tasks import tavern_bot_move

    now = now or timezone.now()
    budget = float(settings.TAVERN_BOT_STALE_SECONDS)
    bots = TavernSeat.objects.filter(table=OuterRef("pk")).exclude(bot="")
    stale = (
        TavernTable.objects.filter(
            status=TableStatus.ACTIVE, updated_at__lt=now - timedelta(seconds=budget)
        )
        .filter(Exists(bots))
        .defer("initial")
        .order_by("updated_at")
    )
    enqueued = 0
    for table in stale:
        engine = get_engine(table.game)
        waiting = set(engine.waiting_on(engine.from_json(table.state)))
        seats = TavernSeat.objects.filter(table=table, index__in=waiting).exclude(bot="")
        for index in seats.values_list("index", flat=True):
            try:
                tavern_bot_move.apply_async(args=(table.pk, index, table.version), expires=budget)
            except Exception:
                logger.exception("could not enqueue a lost bot move for table %s", table.pk)
                return enqueued  # the broker is away: the next sweep tries again
            enqueued += 1
    return enqueued


def tavern_timeouts(*, now: Any = None) -> int:
    """Apply the engine's ``timeout_action`` for each human seat that has not answered a
    reaction within its table's ``reaction_seconds``; returns how many were applied."""
    from datetime import timedelta

    now = now or timezone.now()
    applied = 0
    for table in TavernTable.objects.filter(status=TableStatus.ACTIVE).defer("initial"):
        if table.updated_at > now - timedelta(seconds=table.reaction_seconds):
            continue
        engine = get_engine(table.game)
        state = engine.from_json(table.state)
        humans = set(TavernSeat.objects.filter(table=table, bot="").values_list("index", flat=True))
        for seat in engine.waiting_on(state):
            if seat not in humans:
                continue
            action = engine.timeout_action(state, seat)
            if action is None:
                continue
            try:
                table_services.table_action_apply(
                    game_for(table.game),
                    table_id=table.pk,
                    actor=None,
                    seat=seat,
                    action=action,
                    expected_version=table.version,
                    now=now,
                )
            except (StaleVersion, ValidationError):
                break
            applied += 1
            break
    return applied


def tavern_forfeit(table_id: int, seat: Any, now: Any) -> None:
    """A seat whose clock ran out at a table whose rule is to forfeit: she resigns (at two
    seats the other wins and the pot is settled; with more the random bot plays on), inside
    the clock's transaction (``tables.clocks``)."""
    table = _locked_table(table_id)
    if table.status != TableStatus.ACTIVE:
        return
    row = TavernSeat.objects.filter(table=table, index=seat, resigned=False).first()
    if row is None or row.bot:
        return
    _resign(table, row, "ran out of time")


def tavern_clock_bot(engine: Any, state: Any, seat: Any, strength: str) -> Any:
    """The move a bot of ``strength`` plays for a seat out of time (``tables.clocks``)."""
    from minigames.bots import choose_action

    return choose_action(engine, state, seat, strength, seed=secrets.randbits(53))  # type: ignore[arg-type]


def tavern_manages(user: Any, table: TavernTable) -> bool:
    """Who sets and pauses a tavern table's clock: its host or its campaign's GM."""
    return bool(getattr(user, "is_authenticated", False)) and _is_manager(user, table)


def tavern_action_apply(*, table_id: int, by: User, action: Any, expected_version: Any) -> Any:
    """A human's move (the API's actions endpoint): the core's service for this table's game,
    on one read of the row (it names the game). Returns the saved table, its new state and
    the seat that moved (``tables.services.table_action_apply``).

    A table not in play takes no move: who may not see it gets a 404, who has no seat a 403
    (as the core answers at a table in play), and a player of it a 400 saying why (the
    game's ``load``, :mod:`minigames.game`)."""
    any_game = game_for(next(iter(ENGINE_MODULES)))
    row = table_services.table_read(any_game, table_id, by)
    return table_services.table_action_apply(
        game_for(row.game),
        table_id=table_id,
        actor=by,
        action=action,
        expected_version=expected_version,
        row=row,
    )


__all__ = [
    "SeatSpec",
    "TavernAction",
    "after_move",
    "deck_choices",
    "rated_default",
    "tavern_abandon",
    "tavern_action_apply",
    "tavern_bot_play",
    "tavern_create",
    "tavern_departure",
    "tavern_join",
    "tavern_leave",
    "tavern_lost_bot_moves",
    "tavern_rematch",
    "tavern_resign",
    "tavern_seat_set",
    "tavern_start",
    "tavern_timeouts",
]
