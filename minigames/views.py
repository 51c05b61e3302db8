"""Tavern pages: the tavern (tables open, in play, finished, and the "new table" form), a
campaign's tavern, and the table page.

The table page is a shell: ``static/js/tavern/table.js`` polls the state API and draws the
seat's payload (with the game's renderer ``static/js/tavern/<slug>.js`` when there is one, a
generic one otherwise). The seats and lobby buttons are plain forms posting to
:func:`table_op`, so setting up a table works without JavaScript. Rules live in the services.
"""

from __future__ import annotations

import contextlib
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.urls import reverse
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from accounts.typing import AuthedRequest
from apibase.numbers import object_id, whole_number
from minigames.engines.registry import ENGINE_MODULES, get_engine
from tables.clocks.forms import clock_form_context, clock_from_form

from . import invites, selectors, services
from .game import names_in_words
from .models import BOT_STRENGTHS, seats_of, shown_seat_names

#: How often the table page polls (issue 12: every seat sees a move within 2 s); the
#: ``TAVERN_POLL_MILLISECONDS`` setting overrides it (the browser tests poll faster).
POLL_MILLISECONDS = 1000
MAX_FORM_SEATS = services.MAX_SEATS

SEAT_CHOICES = [
    ("", gettext_lazy("No seat")),
    ("host", gettext_lazy("Me")),
    ("open", gettext_lazy("Open for a player")),
] + [(f"bot:{key}", label) for key, label in BOT_STRENGTHS]


def _deck_rows(user: Any, slug: str) -> list[dict[str, str]]:
    """The decks a seat may bring, each with the group its choice is listed under: a saved
    deck may have a ready-made one's name ("Shrine and Star" twice looked like one deck)."""
    return [
        {
            "key": k,
            "name": n,
            "group": _("Ready-made decks") if k.startswith("preset:") else _("Your decks"),
        }
        for k, n in services.deck_choices(user, slug)
    ]


def _form_games(user: Any) -> list[dict[str, Any]]:
    out = []
    for game in selectors.games():
        game["decks"] = _deck_rows(user, game["slug"])
        for rule in game["house_rules"]:
            rule["field"] = f"opt-{game['slug']}-{rule['key']}"
        out.append(game)
    return out


def _signed_whole_number(text: str) -> int | None:
    """A form's whole number in the ASCII digits 0-9, with an optional minus (the service
    gives the range its words), else None."""
    value = whole_number(text.removeprefix("-"))
    return -value if value is not None and text.startswith("-") else value


def _seat_index(post: Any) -> int:
    """The form's seat number; -1 (no such seat) for anything not in the digits 0-9."""
    index = whole_number(post.get("seat", ""))
    return -1 if index is None else index


def _parse_new_table(post: Any, games: list[dict[str, Any]]) -> dict[str, Any]:
    """The new-table form's fields as :func:`services.tavern_create` arguments."""
    slug = post.get("game", "")
    game = next((g for g in games if g["slug"] == slug), None)
    if game is None:
        raise ValidationError({"game": [_("Choose one of the tavern's games.")]})
    seats = []
    for i in range(MAX_FORM_SEATS):
        choice = post.get(f"seat-{i}", "")
        if not choice:
            continue
        if choice.startswith("bot:"):
            seats.append(services.SeatSpec(kind="bot", strength=choice[4:]))
        elif choice == "host":
            character = post.get("character") or None
            seats.append(
                services.SeatSpec(
                    kind="host",
                    character=object_id(character) if character else None,
                    deck=post.get("deck", ""),
                )
            )
        else:
            seats.append(services.SeatSpec(kind="open"))
    options: dict[str, Any] = {}
    for rule in game["house_rules"]:
        raw = post.get(rule["field"], "")
        if raw == "":
            continue
        default = rule["default"]
        if isinstance(default, bool):
            options[rule["key"]] = raw in ("1", "true", "on")
        elif isinstance(default, int):
            number = _signed_whole_number(raw)
            if number is None:
                raise ValidationError(
                    {"options": [_("%(rule)s: give a whole number.") % {"rule": rule["label"]}]}
                )
            options[rule["key"]] = number
        else:
            options[rule["key"]] = raw
    stake = _signed_whole_number(post.get("stake") or "0")
    if stake is None:
        raise ValidationError({"stake": [_("Give a whole number of yen.")]})
    return {
        "game": slug,
        "seats": seats,
        "options": options,
        "clock": clock_from_form(post),
        "undo_allowed": post.get("undo_allowed") == "on",
        "stake": stake,
        "practice": post.get("practice") == "on",
        "advisor": post.get("advisor") == "on",
        # the box says "not at practice tables": a practice table is unrated, not refused
        "rated": post.get("rated") == "on" and post.get("practice") != "on",
    }


def _seat_rows(posted: Any) -> list[dict[str, Any]]:
    """The form's seat rows, each with its choices and the one to show chosen: the posted one
    after a refused form (a seat the game lacks was not sent: "No seat"), else Me and Open."""
    rows = []
    for i in range(MAX_FORM_SEATS):
        if posted is not None:
            chosen = posted.get(f"seat-{i}", "")
        else:
            chosen = {0: "host", 1: "open"}.get(i, "")
        rows.append(
            {
                "index": i,
                "number": i + 1,
                "choices": [(v, label, v == chosen) for v, label in SEAT_CHOICES],
            }
        )
    return rows


def _keep_choices(games: list[dict[str, Any]], posted: Any) -> None:
    """Each house rule's value to show (``rule["shown"]``, and ``rule["rows"]`` for a choice):
    what was posted for it after a refused form, else its default; and each deck's ``chosen``."""
    for game in games:
        for rule in game["house_rules"]:
            value = rule["default"]
            if posted is not None and posted.get(rule["field"], "") != "":
                value = posted[rule["field"]]
            rule["shown"] = value
            rule["rows"] = [(v, label, str(v) == str(value)) for v, label in rule["choices"] or []]
        mine = posted is not None and posted.get("game") == game["slug"]
        for d in game["decks"]:
            d["chosen"] = mine and d["key"] == posted.get("deck", "")


def _tavern(request: AuthedRequest, campaign: Any, access: Any) -> HttpResponse:
    games = _form_games(request.user)
    errors: list[str] = []
    status = 200
    if request.method == "POST":
        try:
            args = _parse_new_table(request.POST, games)
            table = services.tavern_create(by=request.user, campaign=campaign, **args)
        except ValidationError as exc:
            errors = [
                m
                for msgs in getattr(exc, "message_dict", {"": exc.messages}).values()
                for m in msgs
            ]
            status = 400
        else:
            return redirect("tavern:table", pk=table.pk)
    posted = request.POST if request.method == "POST" else None
    _keep_choices(games, posted)
    tables = selectors.tavern_tables(request.user, campaign_id=campaign.pk if campaign else None)
    characters: list[Any] = []
    if campaign is not None:
        from characters.models import Character

        characters = list(
            Character.objects.filter(owner=request.user, campaign=campaign, is_npc=False)
            .only("pk", "name", "yen")
            .order_by("name")
        )
    return render(
        request,
        "minigames/tavern.html",
        {
            "campaign": campaign,
            "access": access,
            "lists": selectors.tavern_lists(tables),
            "games": games,
            "seat_rows": _seat_rows(posted),
            "characters": characters,
            "stakes_allowed": services.stakes_allowed(campaign),
            "clock_form": clock_form_context(posted),
            "rated_checked": posted.get("rated") == "on"
            if posted is not None
            else services.rated_default(campaign),
            "errors": errors,
            "posted": posted or {},
        },
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
def tavern(request: AuthedRequest) -> HttpResponse:
    """The tavern: tables you may see and open tables; a new open table."""
    return _tavern(request, None, None)


@login_required
@require_http_methods(["GET", "POST"])
def campaign_tavern(request: AuthedRequest, campaign_id: int) -> HttpResponse:
    """A campaign's tavern (members): its tables, and a new table (with stakes)."""
    from campaign.permissions import campaign_for

    campaign, access = campaign_for(request.user, campaign_id)
    return _tavern(request, campaign, access)


@require_safe
def rules_page(request: HttpRequest, slug: str) -> HttpResponse:
    """A game's "How to play" page: its rules for players (the game's own template) and its
    house rules with their defaults, from the engine like the new-table form (404 for an
    unknown game). Public: someone sent an invite link may read the rules before signing up."""
    game = selectors.game_rules(slug)
    return render(request, rules_templates(slug, get_language()), {"game": game})


def rules_templates(slug: str, language: str | None) -> list[str]:
    """The templates a game's "How to play" page may use in ``language``, the first found
    wins: the page written in the language (``minigames/rules/<dir>/<slug>.html``, ``<dir>``
    the code in lower case with ``_`` for ``-``: ``ja``, ``zh_hans``), then the English page.
    Long rules are written whole in each language rather than cut into catalog entries
    (docs/i18n.md, "Long texts")."""
    english = f"minigames/rules/{slug}.html"
    if not language or language == settings.LANGUAGE_CODE:
        return [english]
    return [f"minigames/rules/{language.lower().replace('-', '_')}/{slug}.html", english]


def _renderer(slug: str) -> dict[str, str]:
    """The game's renderer files, when W3/W4's exist (static/js/tavern/<slug>.js)."""
    out = {}
    if finders.find(f"js/tavern/{slug}.js"):
        out["js"] = f"js/tavern/{slug}.js"
    if finders.find(f"css/tavern/{slug}.css"):
        out["css"] = f"css/tavern/{slug}.css"
    # the terms the table shows, explained (templates/minigames/glossary/<slug>.html)
    with contextlib.suppress(TemplateDoesNotExist):
        name = f"minigames/glossary/{slug}.html"
        get_template(name)
        out["glossary"] = name
    return out


def _stake_words(info: dict[str, Any], *, dropped: bool = False) -> str:
    """The stake line: held during play; after the end, where the pot went or that the stakes
    were returned (``selectors.table_info``'s ``info``); before the start, that the table will
    play for nothing when the GM has turned stakes off since it was made (``dropped``)."""
    if not info["stake"]:
        return ""
    stake = {"stake": info["stake"]}
    if dropped:
        return (
            _(
                "Stake: %(stake)s yen per character, but the game master has turned stakes off in "
                "this campaign: this table will play for nothing."
            )
            % stake
        )
    stakes = info["stakes"]
    names = {s["index"]: s["name"] for s in info["seats"]}
    paid = sorted((int(seat), int(yen)) for seat, yen in stakes["paid"].items())
    gone = _forfeited_words(stakes, names)
    if paid:
        pot = sum(yen for _seat, yen in paid)
        if len(paid) == 1:
            shares = names[paid[0][0]]
        else:
            share = _("%(name)s (%(yen)s yen)")
            shares = names_in_words([share % {"name": names[s], "yen": yen} for s, yen in paid])
        text = _("Stake: %(stake)s yen per character; the pot of %(pot)s yen went to %(shares)s.")
        return _join(text % {**stake, "pot": pot, "shares": shares}, gone)
    if stakes["returned"]:
        text = _("Stake: %(stake)s yen per character; the stakes were returned.")
        return _join(text % stake, gone)
    if stakes["held"]:
        text = _("Stake: %(stake)s yen per character (held).")
        return _join(text % stake, _unstaked_words(info))
    return _("Stake: %(stake)s yen per character.") % stake


def _join(first: str, then: str) -> str:
    """Two sentences of the stake line, as the language puts one after another (a space in
    English, none in Japanese or Chinese)."""
    if not then:
        return first
    return _("%(first)s %(then)s") % {"first": first, "then": then}


def _forfeited_words(stakes: dict[str, Any], names: dict[int, str]) -> str:
    """Who lost her stake by leaving the campaign mid-game: it stayed in the pot, for the
    characters still in the campaign (docs/tavern.md, "Stakes")."""
    gone = [
        names.get(int(seat), _("seat %(number)s") % {"number": int(seat) + 1})
        for seat in sorted(stakes["forfeited"])
    ]
    if not gone:
        return ""
    return ngettext(
        "%(names)s left the campaign during the game and her stake stayed with the others.",
        "%(names)s left the campaign during the game and their stakes stayed with the others.",
        len(gone),
    ) % {"names": names_in_words(gone)}


def _unstaked_words(info: dict[str, Any]) -> str:
    """Who plays a staked game without a stake: a player seated as herself rather than as one
    of her characters has no yen to hold (docs/tavern.md), which the line says rather than
    leave the others to wonder why the pot is smaller."""
    held = info["stakes"]["held"]
    free = [s["name"] for s in info["seats"] if s["human"] and str(s["index"]) not in held]
    if not free:
        return ""
    return _(
        "No stake from %(names)s: a seat played without a character neither stakes nor wins yen."
    ) % {"names": names_in_words(free)}


def _confirm_words(info: dict[str, Any]) -> dict[str, str]:
    """The questions Resign and Abandon ask before they end anything: what happens, in words,
    with the stakes (``selectors.table_info``'s ``info``)."""
    seats = info["seats"]
    held = info["stakes"]["held"]
    pot = sum(int(v) for v in held.values())
    mine = next((s for s in seats if s["you"]), None)
    others = [s for s in seats if not s["you"]]
    staked = mine is not None and str(mine["index"]) in held
    mine_yen = held[str(mine["index"])] if mine is not None and staked else 0
    if len(seats) == 2 and others:
        other = others[0]
        words = {"name": other["name"], "pot": pot, "yen": mine_yen}
        if staked and str(other["index"]) in held:
            resign = _(
                "Resign this game? %(name)s wins, and the pot of %(pot)s yen goes to %(name)s."
            )
        elif staked:
            resign = _(
                "Resign this game? %(name)s wins, and your stake of %(yen)s yen is returned."
            )
        else:
            resign = _("Resign this game? %(name)s wins.")
        resign %= words
    elif staked:
        resign = _(
            "Resign this game? The random bot plays your seat to the end (your stake of "
            "%(yen)s yen stays on it)."
        ) % {"yen": mine_yen}
    else:
        resign = _("Resign this game? The random bot plays your seat to the end.")
    if held:
        abandon = _(
            "Abandon this table? The game ends without a winner, and the stakes (%(pot)s yen) "
            "are returned."
        ) % {"pot": pot}
    else:
        abandon = _("Abandon this table? The game ends without a winner.")
    return {"resign": resign, "abandon": abandon}


@login_required
def table_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The table: the lobby (seats) and the board drawn by table.js for your seat."""
    table = selectors.table_get(request.user, pk)
    info = selectors.table_info(table, request.user)
    return render(
        request,
        "minigames/table.html",
        {
            "table": table,
            "info": info,
            "to_move": selectors.seats_to_move(table),
            "confirm": _confirm_words(info),
            "stake_words": _stake_words(info, dropped=services.stakes_dropped(table)),
            "title": get_engine(table.game).title,
            "renderer": _renderer(table.game),
            "characters": selectors.characters_for(request.user, table),
            "decks": _deck_rows(request.user, table.game),
            "bot_choices": BOT_STRENGTHS,
            "urls": {
                "state": reverse("api-tavern-state", args=[table.pk]),
                "action": reverse("api-tavern-actions", args=[table.pk]),
                "log": reverse("api-tavern-log", args=[table.pk]),
                "advice": reverse("api-tavern-advice", args=[table.pk]),
                "clock": reverse("api-tavern-clock", args=[table.pk]),
                "undo": reverse("api-tavern-undo", args=[table.pk]),
                "chat": reverse("api-tavern-chat", args=[table.pk]),
                "socket": f"/ws/tables/{table.game}/{table.pk}/",
            },
            "poll_ms": getattr(settings, "TAVERN_POLL_MILLISECONDS", POLL_MILLISECONDS),
            "rating_changes": _rating_changes(table),
            "bot_ratings": _bot_ratings(table, info),
            "invite": _invite(request, info),
            "spectators": selectors.spectators_of(table),
        },
    )


def _invite(request: HttpRequest, info: dict[str, Any]) -> dict[str, str]:
    """The invite link to show (while a seat is open before the start): its full address and
    its QR code; empty otherwise."""
    if not info["invite"]:
        return {}
    url = request.build_absolute_uri(info["invite"])
    return {"url": url, "qr": invites.qr_svg(url)}


def _rating_changes(table: Any) -> list[dict[str, Any]]:
    """A finished rated table's effect on each player's rating (none before the end)."""
    if not table.rated or table.status != "ended":
        return []
    from tables.ratings.selectors import result_changes

    from .rated import result_key

    return result_changes(result_key(table))


def _bot_ratings(table: Any, info: dict[str, Any]) -> list[dict[str, Any]]:
    """The seated bots' ratings at a rated table before its end ("Search bot 1650"), so a
    player knows what she is up against."""
    bots = [s["bot"] for s in info["seats"] if s["bot"] and not s["resigned"]]
    if not table.rated or table.status == "ended" or not bots:
        return []
    from tables.ratings.selectors import bot_ratings

    return bot_ratings(table.game, table.campaign_id, bots)


@login_required  # signed out: sign in (or up) first, then back here
@require_http_methods(["GET", "POST"])
def invite_page(request: AuthedRequest, token: str) -> HttpResponse:
    """An invite link: the table it names and a button taking a seat there (the first open
    one), or why it can seat nobody now (``minigames.invites``)."""
    table = selectors.table_get(request.user, invites.table_id_of(token))
    seats = seats_of(table)
    if any(s.user_id == request.user.pk for s in seats):
        messages.info(request, _("You already sit at this table."))
        return redirect("tavern:table", pk=table.pk)
    errors: list[str] = []
    status = 200
    if request.method == "POST":
        character = request.POST.get("character") or ""
        try:
            seat = invites.take_seat(
                table=table,
                by=request.user,
                character=object_id(character) if character else None,
                deck=request.POST.get("deck", ""),
            )
        except ValidationError as exc:
            errors = [m for msgs in exc.message_dict.values() for m in msgs]
            status = 400
            seats = seats_of(table)
        else:
            messages.success(request, _("You sit at seat %(number)s.") % {"number": seat.index + 1})
            return redirect("tavern:table", pk=table.pk)
    return render(
        request,
        "minigames/invite.html",
        {
            "table": table,
            "title": get_engine(table.game).title,
            "seats": list(zip(seats, shown_seat_names(seats), strict=True)),
            "closed": invites.why_closed(table, seats),
            "errors": errors,
            "characters": selectors.characters_for(request.user, table),
            "decks": _deck_rows(request.user, table.game),
        },
        status=status,
    )


OPS = ("join", "leave", "seats", "start", "resign", "rematch", "abandon")


@login_required
@require_POST
def table_op(request: AuthedRequest, pk: int, op: str) -> HttpResponse:
    """The lobby's and the table's buttons (forms): the same services as the API."""
    if op not in OPS:
        raise Http404("No such action.")
    table = selectors.table_get(request.user, pk)
    post = request.POST
    target = table.pk
    try:
        if op == "join":
            character = post.get("character") or ""
            services.tavern_join(
                table_id=table.pk,
                by=request.user,
                index=_seat_index(post),
                character=object_id(character) if character else None,
                deck=post.get("deck", ""),
            )
        elif op == "leave":
            services.tavern_leave(table_id=table.pk, by=request.user)
        elif op == "seats" and post.get("kind") == "keep":
            pass  # the seat's player stays (the control's default for a taken seat)
        elif op == "seats":
            kind = post.get("kind", "")
            services.tavern_seat_set(
                table_id=table.pk,
                by=request.user,
                index=_seat_index(post),
                kind="bot" if kind.startswith("bot:") else kind,
                strength=kind[4:] if kind.startswith("bot:") else "",
            )
        elif op == "start":
            services.tavern_start(table_id=table.pk, by=request.user)
        elif op == "resign":
            services.tavern_resign(table_id=table.pk, by=request.user)
        elif op == "rematch":
            target = services.tavern_rematch(table_id=table.pk, by=request.user)[0].pk
        elif op == "abandon":
            services.tavern_abandon(table_id=table.pk, by=request.user)
    except ValueError:
        messages.error(request, _("That seat does not exist."))
    except ValidationError as exc:
        for msgs in getattr(exc, "message_dict", {"": exc.messages}).values():
            for m in msgs:
                messages.error(request, m)
    except PermissionDenied:
        raise
    return redirect("tavern:table", pk=target)


__all__ = ["ENGINE_MODULES", "campaign_tavern", "table_op", "table_page", "tavern"]
