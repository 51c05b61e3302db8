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
  through :func:`campaign.awards.yen_move`, in the same transaction as the game's change.
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
from django.http import Http404
from django.utils import timezone

from minigames.engines.registry import ENGINE_MODULES, get_engine
from tables import services as table_services
from tables.errors import StaleVersion
from tables.models import TableStatus
from tables.registry import game_for

from .game import may_watch, seat_index_of
from .models import BOT_STRENGTHS, TavernAction, TavernSeat, TavernTable, seat_names, seats_of

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
    presets = module.preset_decks()
    if isinstance(presets, dict):
        out = [(f"preset:{key}", str(d["name"])) for key, d in presets.items()]
    else:
        out = [(f"preset:{d['key']}", str(d["name"])) for d in presets]
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
        presets = module.preset_decks()
        name = key.removeprefix("preset:")
        if isinstance(presets, dict):
            if name in presets:
                return list(presets[name]["cards"]), []
        else:
            for deck in presets:
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
    from campaign.permissions import access_for

    return access_for(user, table.campaign_id).can_manage


def _touch(table: TavernTable, *fields: str) -> None:
    table.version += 1
    table.save(update_fields=["version", "updated_at", *fields])
    if table.campaign_id is not None:
        from campaign.members import campaign_touch

        campaign_touch(table.campaign_id)


def setup_summary(title: str, *, open_seat: bool) -> str:
    """What a table in setup says (public): it waits for players while a seat is open, then
    only for the host's Start."""
    return f"{title}: waiting for players" if open_seat else f"{title}: ready to start"


def _seated(table: TavernTable) -> None:
    """A seat changed: say whether the table still waits for players, and move it on."""
    open_seat = TavernSeat.objects.filter(table=table, user__isnull=True, bot="").exists()
    table.summary = setup_summary(get_engine(table.game).title, open_seat=open_seat)
    _touch(table, "summary")


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
        raise _fail("options", str(exc)) from None
    return clean


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
) -> TavernTable:
    """A new table in setup. ``campaign`` None is an open table; in a campaign the host must
    be a member (404 otherwise, as everywhere in a campaign)."""
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
    table = TavernTable.objects.create(
        game=game,
        campaign=campaign,
        host=by,
        options=clean_options,
        stake=stake,
        practice=practice,
        advisor=advisor,
        reaction_seconds=reaction_seconds,
        status=TableStatus.SETUP,
        summary=setup_summary(engine.title, open_seat=any(s.kind == "open" for s in seats)),
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
        raise _fail("seats", str(exc)) from None
    _hold_stakes(table, seats)
    game = game_for(table.game)
    table_services.table_store(game, table, state)
    table.initial = engine.to_json(state)
    table.started_at = timezone.now()
    _touch(table, "state", "initial", "status", "summary", "started_at", "stake", "stakes")
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
    from campaign.awards import yen_move

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


def _settle(table: TavernTable, winners: Sequence[int]) -> None:
    """Pay the pot to the winners' characters (or return every stake when none has one)."""
    held = table.stakes.get("held") or {}
    if not held or table.stakes.get("settled") or table.campaign is None:
        return
    from campaign.awards import yen_move

    characters = {int(k): int(v) for k, v in table.stakes["characters"].items()}
    pot = sum(int(v) for v in held.values())
    paid_to = [seat for seat in sorted(winners) if seat in characters]
    changes: dict[int, int] = {}
    paid: dict[str, int] = {}
    if paid_to:
        share, rest = divmod(pot, len(paid_to))
        for i, seat in enumerate(paid_to):
            amount = share + (1 if i < rest else 0)
            changes[characters[seat]] = changes.get(characters[seat], 0) + amount
            paid[str(seat)] = amount
        table.stakes["paid"] = paid
    else:
        for seat_text, amount in held.items():
            changes[characters[int(seat_text)]] = int(amount)
        table.stakes["returned"] = True
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
        _settle(table, winners_of(table, state))
        changed += ["ended_at", "stakes"]
        if table.campaign_id is not None:
            from campaign.members import campaign_touch

            campaign_touch(table.campaign_id)
    transaction.on_commit(partial(_after_commit, table.pk), robust=True)
    return changed


def _after_commit(table_id: int) -> None:
    """Enqueue a bot move for each bot seat the table now waits on, and sync the waits."""
    from .tasks import tavern_bot_move

    table = TavernTable.objects.defer("initial").filter(pk=table_id).first()
    if table is None or table.status != TableStatus.ACTIVE:
        return
    engine = get_engine(table.game)
    state = engine.from_json(table.state)
    waiting = set(engine.waiting_on(state))
    bots = TavernSeat.objects.filter(table_id=table_id, index__in=waiting).exclude(bot="")
    for seat in bots:
        if tavern_bot_move.app.conf.task_always_eager:
            _run_eagerly(table_id, seat.index, table.version)
            continue
        try:
            tavern_bot_move.apply_async(args=[table_id, seat.index, table.version])
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
            tavern_bot_move.apply(args=list(_eager.queue.pop(0)))
    finally:
        _eager.queue = None


def start_waits(table_id: int) -> None:
    """The first "your turn" of a started game (later ones come from the core on each move)."""
    from tables.tasks import table_turn_notify

    table = TavernTable.objects.filter(pk=table_id).only("game", "version").first()
    if table is None:
        return
    try:
        table_turn_notify.apply_async(args=[table_id, table.version], kwargs={"slug": table.game})
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
            "text": f"{name} resigned.",
            "resigned": seat.index,
        }
        table.status = TableStatus.ENDED
        table.ended_at = timezone.now()
        _settle(table, winners)
        table.summary = f"{name} resigned."[:200]
        _touch(table, "outcome", "status", "ended_at", "stakes", "summary")
        transaction.on_commit(partial(_end_waits, table.pk), robust=True)
    else:
        seat.bot = "random"
        seat.save(update_fields=["resigned", "bot"])
        _touch(table)
        transaction.on_commit(partial(_after_commit, table.pk), robust=True)
        transaction.on_commit(partial(start_waits, table.pk), robust=True)
    return table


def _end_waits(table_id: int) -> None:
    from notifications import turn_wait_end
    from notifications.models import TurnWait

    table = TavernTable.objects.filter(pk=table_id).only("game").first()
    if table is None:
        return
    prefix = game_for(table.game).wait_prefix(table_id)
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
    held = table.stakes.get("held") or {}
    if held and not table.stakes.get("settled") and table.campaign is not None:
        from campaign.awards import yen_move

        characters = {int(k): int(v) for k, v in table.stakes["characters"].items()}
        yen_move(
            campaign=table.campaign,
            changes={characters[int(k)]: int(v) for k, v in held.items()},
        )
        table.stakes["returned"] = True
        table.stakes["settled"] = timezone.now().isoformat()
    table.abandoned = True
    table.status = TableStatus.ENDED
    table.ended_at = timezone.now()
    name = by.shown_name
    table.outcome = {
        "winners": [],
        "text": f"{name} abandoned the table.",
        "abandoned_by": name,
    }
    table.summary = f"Abandoned by {name}."[:200]
    _touch(table, "abandoned", "status", "ended_at", "outcome", "stakes", "summary")
    transaction.on_commit(partial(_end_waits, table.pk), robust=True)
    return table


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
        reaction_seconds=old.reaction_seconds,
        rematch_of=old,
        status=TableStatus.SETUP,
        summary=setup_summary(
            get_engine(old.game).title,
            open_seat=any(s.user_id is None and not s.bot for s in seats),
        ),
    )
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


def tavern_bot_play(table_id: int, seat: int, *, seen: tuple[Any, int] | None = None) -> str:
    """Play bot seat ``seat``'s move if the table waits on it: compute the move outside any
    lock from the state read (or ``seen``: a state and version read earlier), then apply it
    through the core's service. A stale move (the table moved meanwhile) is recomputed from
    the new state, at most :data:`BOT_RETRIES` times. Returns what happened, for the logs."""
    from minigames.bots import choose_action

    for attempt in range(BOT_RETRIES):
        table = TavernTable.objects.filter(pk=table_id).defer("initial").first()
        if table is None or table.status != TableStatus.ACTIVE:
            return "not active"
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


def tavern_action_apply(*, table_id: int, by: User, action: Any, expected_version: Any) -> Any:
    """A human's move (the API's actions endpoint): the core's service for this table's game.

    A table not in play takes no move: who may not see it gets a 404, who has no seat a 403
    (as the core answers at a table in play), and a player of it a 400 saying why."""
    table = TavernTable.objects.filter(pk=table_id).only("game", "status", "campaign").first()
    if table is None:
        raise Http404("No such table.")
    if table.status != TableStatus.ACTIVE:
        if not may_watch(by, table):
            raise Http404("No such table.")
        if seat_index_of(by, table) is None:
            raise PermissionDenied(NO_SEAT)
        raise ValidationError({"action": ["This game is not in progress."]})
    return table_services.table_action_apply(
        game_for(table.game),
        table_id=table_id,
        actor=by,
        action=action,
        expected_version=expected_version,
    )


__all__ = [
    "SeatSpec",
    "TavernAction",
    "after_move",
    "deck_choices",
    "tavern_abandon",
    "tavern_action_apply",
    "tavern_bot_play",
    "tavern_create",
    "tavern_join",
    "tavern_leave",
    "tavern_rematch",
    "tavern_resign",
    "tavern_seat_set",
    "tavern_start",
    "tavern_timeouts",
]
