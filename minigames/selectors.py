"""Reads on tavern tables: what one viewer receives, and the tavern's lists.

Everything about the game comes from :func:`minigames.payload.table_payload` for the viewer's
seat (``None``: a spectator), so a page, the API and the poll all carry the same per-seat
JSON; the stored state and the initial snapshot (with the seed) never leave the server. The
tavern adds ``table``: the seats (names, portraits, who is a bot), the stake and what became
of it, and what the viewer may do with the table (join, start, resign, rematch, abandon).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext

from apibase.engine_words import data_in_language, in_language, json_in_language
from minigames.engines.registry import ENGINE_MODULES, get_engine
from minigames.payload import table_payload
from tables.models import TableStatus
from tables.selectors import table_pk

from .game import campaign_name, host_name, may_watch, seat_index_of, seat_read, table_seats
from .invites import invite_path
from .models import TavernSeat, TavernTable, seats_of, shown_seat_names
from .services import _is_manager, deck_choices, stakes_allowed


def games() -> list[dict[str, Any]]:
    """The tavern's games with their seat ranges and every house rule with its default."""
    out = []
    for slug in ENGINE_MODULES:
        engine = get_engine(slug)
        out.append(
            {
                "slug": slug,
                "title": engine.title,
                "min_seats": engine.min_seats,
                "max_seats": engine.max_seats,
                "house_rules": [rule.to_json(in_language) for rule in engine.house_rules()],
                "decks": [{"key": k, "name": n} for k, n in deck_choices(None, slug)],
            }
        )
    return out


def game_rules(slug: str) -> dict[str, Any]:
    """What a game's "How to play" page shows beside its rules text: the title, the seats, and
    every house rule in words (its label, help, default and the other values a host may pick),
    read from the engine's ``house_rules()`` like the new-table form, so the two cannot
    disagree. ``Http404`` for a game the tavern does not have."""
    if slug not in ENGINE_MODULES:
        raise Http404("No such game.")
    engine = get_engine(slug)
    rules = []
    for rule in engine.house_rules():
        default = _shown(rule, rule.default)
        rules.append(
            {
                "label": in_language(rule.label),
                "help": in_language(rule.help),
                "default": default,
                # a choice's other values in words; a number's range
                "others": [
                    in_language(label) for value, label in rule.choices if value != rule.default
                ],
                "range": "" if rule.choices else _range_words(rule.minimum, rule.maximum),
            }
        )
    return {
        "slug": slug,
        "title": engine.title,
        "min_seats": engine.min_seats,
        "max_seats": engine.max_seats,
        "house_rules": rules,
    }


def _range_words(low: int | None, high: int | None) -> str:
    """A number rule's range in words: "Any whole number from 5 to 60" (or from 1 up, or up
    to 9), or nothing for a number without bounds."""
    if low is not None and high is not None:
        return gettext("Any whole number from %(low)s to %(high)s") % {"low": low, "high": high}
    if low is not None:
        return gettext("Any whole number from %(low)s up") % {"low": low}
    if high is not None:
        return gettext("Any whole number up to %(high)s") % {"high": high}
    return ""


def table_get(user: Any, table_id: Any) -> TavernTable:
    """The table if ``user`` may see it (404 otherwise)."""
    table = (
        TavernTable.objects.defer("state", "initial")
        .select_related("campaign", "host")
        .filter(pk=table_pk_safe(table_id))
        .first()
    )
    if table is None or not may_watch(user, table):
        raise Http404("No such table.")
    return table


def table_pk_safe(value: Any) -> int:
    from tables.registry import game_for

    return table_pk(game_for("raigo"), value)


def seat_portraits(user: Any, seats: list[TavernSeat]) -> dict[int, str]:
    """Seat index → the portrait of the character played there, as the character's own
    members-only URL (the sheet's and the battles'), for a viewer who may see that character
    (the portrait view's rule: her owner and her campaign's members). The others get none:
    a character moved to another campaign since she sat down is not theirs to see."""
    from characters.selectors import accesses_for

    played = [s.character for s in seats if s.character is not None and s.character.portrait]
    access = accesses_for(user, played)
    return {
        s.index: reverse("characters:portrait", args=[s.character.pk])
        for s in seats
        if s.character is not None and s.character.pk in access and access[s.character.pk].can_view
    }


def table_info(
    table: TavernTable, user: Any, seats: list[TavernSeat] | None = None
) -> dict[str, Any]:
    """The table around the game: seats, stakes, status, and what ``user`` may do."""
    seats = seats if seats is not None else seats_of(table)
    portraits = seat_portraits(user, seats)
    engine = get_engine(table.game)
    mine = next((s for s in seats if user.is_authenticated and s.user_id == user.pk), None)
    manager = user.is_authenticated and _is_manager(user, table)
    setup = table.status == TableStatus.SETUP
    active = table.status == TableStatus.ACTIVE
    ended = table.status == TableStatus.ENDED
    rules = {rule.key: rule for rule in engine.house_rules()}
    names = shown_seat_names(seats)
    # the host as her seat shows her (her character's name if she plays one), so "waiting
    # for Reimu" does not name someone the seats call "Reimu Hakurei"
    host_at_table = next(
        (n for s, n in zip(seats, names, strict=True) if s.user_id == table.host_id and not s.bot),
        host_name(table),
    )
    return {
        "id": table.pk,
        "game": table.game,
        "title": engine.title,
        "status": table.status,
        "status_text": gettext("Abandoned") if table.abandoned else table.get_status_display(),
        # every seat taken, the game not started: it waits only for the host's Start
        "ready": setup and not any(s.is_open for s in seats),
        "campaign": table.campaign_id,
        "campaign_name": campaign_name(table),
        "host": host_name(table),
        "host_at_table": host_at_table,
        "practice": table.practice,
        "advisor": table.advisor,
        "rated": table.rated,
        # while it waits for players: the link that seats whoever follows it (invites.py)
        "invite": invite_path(table) if setup and any(s.is_open for s in seats) else "",
        "stake": table.stake,
        "stakes": {
            "held": table.stakes.get("held", {}),
            "paid": table.stakes.get("paid", {}),
            "returned": bool(table.stakes.get("returned")),
            # the stakes of characters that left the campaign mid-game, shared by the others
            "forfeited": table.stakes.get("forfeited", {}),
        },
        "options": [
            {
                "key": key,
                "label": in_language(rule.label),
                "value": _shown(rule, table.options.get(key, rule.default)),
                "default": _shown(rule, rule.default),
            }
            for key, rule in rules.items()
        ],
        # its sentence in the reader's language (an outcome stored in English reads as it is)
        "outcome": json_in_language(table.outcome) if table.outcome else None,
        "rematch_of": table.rematch_of_id,
        "rematch": next(iter(table.rematches.order_by("pk").values_list("pk", flat=True)), None)
        if ended
        else None,
        "seats": [
            {
                "index": s.index,
                "name": name,
                "portrait": portraits.get(s.index, ""),
                "bot": s.bot or None,
                "human": s.user_id is not None and not s.bot,
                "open": s.is_open,
                "resigned": s.resigned,
                "you": mine is not None and s.index == mine.index,
                "deck": dict(deck_choices(None, table.game)).get(s.deck, gettext("a saved deck"))
                if s.deck
                else "",
            }
            for s, name in zip(seats, names, strict=True)
        ],
        "you": None if mine is None or mine.resigned else mine.index,
        "can": {
            "join": setup and mine is None and any(s.is_open for s in seats),
            "leave": setup and mine is not None,
            "set_seats": setup and manager,
            "start": setup and manager and not any(s.is_open for s in seats),
            "resign": active and mine is not None and not mine.resigned,
            "abandon": (setup or active) and manager,
            "rematch": ended and (table.host_id == getattr(user, "pk", None) or mine is not None),
            "advice": active and table.practice and table.advisor and mine is not None,
        },
    }


def _shown(rule: Any, value: Any) -> Any:
    """A house-rule value in words (a choice's label, a number as it is)."""
    if not rule.choices:
        return value
    label = dict(rule.choices).get(value)
    return value if label is None else in_language(label)


def tavern_payload(table_id: Any, user: Any, since: int | None = None) -> dict[str, Any] | None:
    """What ``user`` receives for the table: ``table_payload`` for her seat plus ``table``
    (None while the table is still at version ``since``: the cheap poll; any other ``since``,
    one ahead of the table included, gets the payload). The table core's read
    (:func:`tables.selectors.table_view`), as the API's ``state/`` answers it."""
    from tables.registry import game_for
    from tables.selectors import table_view

    any_game = game_for(next(iter(ENGINE_MODULES)))
    data: dict[str, Any] | None = table_view(
        any_game, table_id=table_id, user=user, since=since
    ).data
    return data


def payload_of(table: TavernTable, user: Any, state: Any = None) -> dict[str, Any]:
    """:func:`tavern_payload` for a table in memory (``state``: its engine state, when the
    caller has it: a move's answer, built without reading anything back)."""
    seats = table_seats(table)
    info = table_info(table, user, seats)
    names = [s["name"] for s in info["seats"]]
    # Her seat, even resigned: she is shown as the seat she played, not as a spectator.
    mine = next((s for s in info["seats"] if s["you"]), None)
    seat = None if mine is None else mine["index"]
    resigned = bool(mine and mine["resigned"])
    ended = table.status == TableStatus.ENDED
    if table.status == TableStatus.SETUP or not table.state:
        engine = get_engine(table.game)
        payload: dict[str, Any] = {
            "game": table.game,
            "version": table.version,
            "seat": seat,
            "names": names,
            "view": None,
            "waiting_on": [],
            "moves": [],
            "summary": table.summary_in_language
            or gettext("%(game)s: waiting for players") % {"game": engine.title},
            "finished": bool(table.outcome),
            "result": {"winners": [], "text": _outcome_text(table)} if table.outcome else None,
        }
        sees = None
    else:
        engine = get_engine(table.game)
        state = engine.from_json(table.state) if state is None else state
        sees = seat_read(seat, resigned, table.outcome or {})
        payload = table_payload(
            engine,
            state,
            sees,
            version=table.version,
            names=names,
            playing=not ended and not resigned,
            say=in_language,
        )
        payload["view"] = json_in_language(payload["view"])
        payload["result"] = json_in_language(payload["result"])
        payload["seat"] = seat
        # the data's card names and texts in her language (the engines write English)
        payload["view"] = data_in_language(payload["view"])
        if ended:
            payload["waiting_on"] = []
        if table.outcome:
            payload["finished"] = True
            payload["summary"] = table.summary_in_language
            payload["result"] = {
                "winners": table.outcome.get("winners", []),
                "text": _outcome_text(table),
                "names": [names[i] for i in table.outcome.get("winners", [])],
            }
    # What the renderers need to tell an ended table's story: who resigned, whether the table
    # was abandoned (and by whom), and whether the view is the public one though she has a seat.
    payload["public_view"] = sees is None
    payload["resigned"] = resigned
    if payload["result"] is not None:
        payload["result"] = {
            **payload["result"],
            "resigned": [s["index"] for s in info["seats"] if s["resigned"]],
            "abandoned": table.abandoned,
            "abandoned_by": table.outcome.get("abandoned_by", "") if table.abandoned else "",
        }
    payload["table"] = info
    return payload


def seats_to_move(table: TavernTable) -> frozenset[int]:
    """The seats the game waits on now, as the state API's ``waiting_on`` says (none before
    the start, after the end or on a table decided without a terminal state). The page marks
    them as it is served, so table.js's first drawing finds them marked and moves nothing: on a
    phone the "to move" mark wraps the seats' strip, and a tap on the table menu sent before
    the drawing landed where the button had been."""
    if table.status != TableStatus.ACTIVE or not table.state or table.outcome:
        return frozenset()
    engine = get_engine(table.game)
    state = engine.from_json(table.state)
    if engine.is_terminal(state):
        return frozenset()
    return frozenset(int(seat) for seat in engine.waiting_on(state))  # a tavern seat is a number


def _outcome_text(table: TavernTable) -> str:
    """How ``table`` ended ("Marisa resigned."), in the reader's language when the outcome
    keeps its words; an outcome stored before it kept them shows its English."""
    return str(json_in_language(table.outcome or {}).get("text", ""))


def tavern_tables(user: Any, *, campaign_id: int | None = None) -> QuerySet[TavernTable]:
    """The tables ``user`` may see: her campaigns' taverns and open tables she hosts, sits at
    or that are still open to join; or one campaign's tavern."""
    from campaign.models import Membership

    # deferred: not needed by lists, and PostgreSQL ``json`` columns have no equality, so
    # the DISTINCT below could not compare them (tables/fields.py)
    tables = TavernTable.objects.defer("state", "initial").select_related("campaign", "host")
    if campaign_id is not None:
        return tables.filter(campaign_id=campaign_id)
    campaigns = Membership.objects.filter(user=user).values("campaign_id")
    return tables.filter(
        Q(campaign_id__in=campaigns)
        | Q(campaign__isnull=True, host=user)
        | Q(campaign__isnull=True, seats__user=user)
        | Q(campaign__isnull=True, status=TableStatus.SETUP)
    ).distinct()


def tavern_lists(tables: QuerySet[TavernTable], limit: int = 30) -> dict[str, list[TavernTable]]:
    """Open (not started: waiting for players, or with ``open_seat`` False ready for the
    host's Start), in play and finished tables, newest first."""
    open_seat = TavernSeat.objects.filter(table=OuterRef("pk"), user__isnull=True, bot="")
    waiting = tables.filter(status=TableStatus.SETUP).annotate(open_seat=Exists(open_seat))
    return {
        "open": list(waiting.order_by("-updated_at")[:limit]),
        "playing": list(tables.filter(status=TableStatus.ACTIVE).order_by("-updated_at")[:limit]),
        "finished": list(tables.filter(status=TableStatus.ENDED).order_by("-updated_at")[:limit]),
    }


def spectators_of(table: TavernTable) -> list[dict[str, Any]]:
    """Who watches the table now: people with its page open and visible who play no seat at
    it (a seat she resigned, which a bot plays on, no longer counts as hers), each with since
    when (``tables.presence``). Public to whoever may see the table, as presence is."""
    from tables.presence import watchers

    seated = {s.user_id for s in seats_of(table) if s.user_id is not None and not s.resigned}
    return watchers(table._meta.label_lower, table.pk, seated)


def characters_for(user: Any, table: TavernTable) -> list[Any]:
    """Her characters that may sit at this table (campaign taverns only)."""
    if table.campaign_id is None or not user.is_authenticated:
        return []
    from characters.models import Character

    return list(
        Character.objects.filter(owner=user, campaign_id=table.campaign_id, is_npc=False)
        .only("pk", "name", "yen")
        .order_by("name")
    )


__all__ = ["games", "seat_index_of", "stakes_allowed", "table_get", "table_info", "tavern_payload"]
