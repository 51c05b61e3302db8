"""Card and deck pages for the tavern card games.

Views parse input, ask :mod:`decks.selectors` (which asks :mod:`campaign.permissions`) who may
see what, call :mod:`decks.services`, and render. Every page works without JavaScript;
``static/js/deck_builder.js`` only saves a count without a reload and swaps in the
server-rendered deck panel.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.typing import AuthedRequest
from apibase.engine_words import data_text
from apibase.numbers import whole_number
from campaign.form_errors import add_service_errors
from campaign.permissions import campaign_for

from . import selectors, services
from .forms import CardDataForm, CountForm, DeckForm, DeckSettingsForm, DeckTextForm
from .games import GAMES, CardGame
from .models import CustomCard, Deck

# --------------------------------------------------------------------------- filters


def _filter_from(request: HttpRequest, game: CardGame) -> selectors.CardFilter:
    """The list's filters from the query string; a value that means nothing filters nothing."""
    kind = request.GET.get("type", "")
    cost_text = request.GET.get("cost", "").strip()
    cost = whole_number(cost_text) if len(cost_text) <= 2 else None
    return selectors.CardFilter(
        kind=kind if kind in game.kind_words else "",
        character=request.GET.get("character", "")[:60].strip(),
        cost=cost,
        q=request.GET.get("q", "")[:100].strip(),
    )


def _filter_query(flt: selectors.CardFilter) -> str:
    params = {
        "type": flt.kind,
        "character": flt.character,
        "cost": "" if flt.cost is None else str(flt.cost),
        "q": flt.q,
    }
    return urlencode({k: v for k, v in params.items() if v})


# --------------------------------------------------------------------------- card pages


@login_required
@require_GET
def games(request: AuthedRequest) -> HttpResponse:
    """The two card games: their card lists, presets and your decks."""
    rows = []
    for game in GAMES.values():
        rows.append(
            {
                "game": game,
                "presets": game.engine.preset_decks(),
                "decks": [
                    selectors.deck_report(d) for d in selectors.decks_of(request.user, game.slug)
                ],
            }
        )
    return render(
        request,
        "decks/games.html",
        {"rows": rows, "gm_campaigns": selectors.gm_campaigns(request.user)},
    )


@login_required
@require_GET
def card_list(request: AuthedRequest, game: str) -> HttpResponse:
    cg = selectors.game_or_404(game)
    entries = selectors.card_entries(request.user, cg)
    flt = _filter_from(request, cg)
    return render(
        request,
        "decks/card_list.html",
        {
            "game": cg,
            "cards": selectors.filter_entries(entries, flt),
            "total": len(entries),
            "flt": flt,
            "choices": selectors.filter_choices(cg, entries),
        },
    )


@login_required
@require_GET
def card_detail(request: AuthedRequest, game: str, number: str) -> HttpResponse:
    """A starter card; a GM card's number you may see leads to its own page."""
    cg = selectors.game_or_404(game)
    number = number.upper()
    for entry in selectors.starter_entries(cg):
        if entry.number == number:
            return render(request, "decks/card_detail.html", {"game": cg, "entry": entry})
    customs = [
        c for c in selectors.custom_cards_visible_to(request.user, cg.slug) if c.number == number
    ]
    if len(customs) == 1:
        return redirect("decks:custom_card", customs[0].pk)
    raise Http404("No such card.")


def _custom_entry(card: CustomCard) -> selectors.CardEntry | None:
    cg = GAMES[card.game]
    card_set = selectors.card_set_for(cg, card.campaign_id)
    if card.number not in card_set:
        return None
    return selectors.entry_for(cg, card.data, card_set, custom=card)


@login_required
@require_GET
def custom_card(request: AuthedRequest, pk: int) -> HttpResponse:
    card = selectors.custom_card_for(request.user, pk)
    return render(
        request,
        "decks/card_detail.html",
        {
            "game": GAMES[card.game],
            "entry": _custom_entry(card),
            "custom": card,
            "can_manage": selectors.can_manage_card(request.user, card),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def custom_card_edit(request: AuthedRequest, pk: int) -> HttpResponse:
    card = selectors.custom_card_for(request.user, pk, manage=True)
    status = 200
    if request.method == "POST":
        form = CardDataForm(request.POST, with_game=False)
        if form.is_valid():
            try:
                services.custom_card_update(
                    by=request.user, card=card, data=form.cleaned_data["card"]
                )
            except ValidationError as exc:
                form.add_card_errors(exc)
            else:
                messages.success(request, _("“%(name)s” saved.") % {"name": card.name})
                return redirect("decks:custom_card", card.pk)
        status = 400
    else:
        form = CardDataForm(initial={"card": CardDataForm.as_text(card.data)}, with_game=False)
    return render(
        request,
        "decks/card_edit.html",
        {"form": form, "custom": card, "game": GAMES[card.game]},
        status=status,
    )


@login_required
@require_POST
def custom_card_delete(request: AuthedRequest, pk: int) -> HttpResponse:
    card = selectors.custom_card_for(request.user, pk, manage=True)
    services.custom_card_delete(by=request.user, card=card)
    messages.success(
        request,
        _("“%(name)s” removed. Decks holding it now list it as missing.") % {"name": card.name},
    )
    if card.campaign_id is None:
        return redirect("decks:site_cards")
    return redirect("decks:campaign_cards", card.campaign_id)


def _card_library(
    request: AuthedRequest,
    *,
    campaign: Any,
    can_manage: bool,
    cards: Any,
    action: str,
    access: Any = None,
) -> HttpResponse:
    """A campaign's (or the site's) GM cards, with the add form for those who may add."""
    status = 200
    form = CardDataForm()
    if request.method == "POST":
        if not can_manage:
            raise PermissionDenied(_("Only game masters may add cards."))
        form = CardDataForm(request.POST)
        if form.is_valid():
            try:
                card = services.custom_card_create(
                    by=request.user,
                    game=form.cleaned_data["game"],
                    campaign=campaign,
                    data=form.cleaned_data["card"],
                )
            except ValidationError as exc:
                form.add_card_errors(exc)
            else:
                messages.success(request, _("“%(name)s” added.") % {"name": card.name})
                return redirect("decks:custom_card", card.pk)
        status = 400
    entries = []
    for card in cards:
        entry = _custom_entry(card)
        entries.append((card, entry))
    return render(
        request,
        "decks/card_library.html",
        {
            "campaign": campaign,
            "cards": entries,
            "form": form,
            "can_manage": can_manage,
            "action": action,
            "access": access,
        },
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
def campaign_cards(request: AuthedRequest, campaign_id: int) -> HttpResponse:
    campaign, access = campaign_for(request.user, campaign_id)
    cards = CustomCard.objects.filter(campaign=campaign).select_related("campaign")
    return _card_library(
        request,
        campaign=campaign,
        can_manage=access.can_manage,
        cards=cards.order_by("game", "number"),
        action=reverse("decks:campaign_cards", args=[campaign.pk]),
        access=access,
    )


@login_required
@require_http_methods(["GET", "POST"])
def site_cards(request: AuthedRequest) -> HttpResponse:
    """Site-wide cards: every user may use them; staff add them."""
    cards = CustomCard.objects.filter(campaign__isnull=True).order_by("game", "number")
    return _card_library(
        request,
        campaign=None,
        can_manage=request.user.is_staff,
        cards=cards,
        action=reverse("decks:site_cards"),
    )


# --------------------------------------------------------------------------- decks


def _presets_choices() -> list[tuple[str, str]]:
    return [
        (f"{game.slug}:{p['key']}", f"{game.title}: {data_text(str(p['name']))}")
        for game in GAMES.values()
        for p in game.engine.preset_decks()
    ]


@login_required
@require_http_methods(["GET", "POST"])
def deck_list(request: AuthedRequest) -> HttpResponse:
    campaigns = selectors.member_campaigns(request.user)
    initial = {"game": request.GET.get("game", "rso")}
    form = DeckForm(
        request.POST or None, initial=initial, campaigns=campaigns, presets=_presets_choices()
    )
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            cards: list[str] = []
            if data["start"]:
                slug, _colon, key = data["start"].partition(":")
                if slug != data["game"]:
                    form.add_error("start", "That preset is a deck for the other game.")
                else:
                    presets = GAMES[slug].engine.preset_decks()
                    cards = next(list(p["cards"]) for p in presets if p["key"] == key)
            if not form.errors:
                try:
                    deck = services.deck_create(
                        by=request.user,
                        game=data["game"],
                        name=data["name"],
                        campaign=data["campaign"],
                        cards=cards,
                    )
                except ValidationError as exc:
                    add_service_errors(form, exc)
                else:
                    return redirect("decks:builder", deck.pk)
        status = 400
    reports = [selectors.deck_report(d) for d in selectors.decks_of(request.user)]
    return render(
        request, "decks/deck_list.html", {"form": form, "reports": reports}, status=status
    )


def _builder_context(
    request: AuthedRequest,
    deck: Deck,
    *,
    settings_form: DeckSettingsForm | None = None,
    text_form: DeckTextForm | None = None,
) -> dict[str, Any]:
    report = selectors.deck_report(deck)
    game = report.game
    entries = selectors.card_entries(
        request.user, game, campaign_id=selectors.deck_campaign_id(deck), for_deck=True
    )
    flt = _filter_from(request, game)
    return {
        "deck": deck,
        "report": report,
        "game": game,
        "picks": [
            (e, report.counts.get(e.number, 0)) for e in selectors.filter_entries(entries, flt)
        ],
        "total_cards": len(entries),
        "counts": report.counts,
        "flt": flt,
        "filter_query": _filter_query(flt),
        "choices": selectors.filter_choices(game, entries),
        "settings_form": settings_form
        or DeckSettingsForm(
            initial={"name": deck.name, "campaign": deck.campaign_id},
            campaigns=selectors.member_campaigns(request.user),
        ),
        "text_form": text_form or DeckTextForm(),
    }


@login_required
@require_http_methods(["GET", "POST"])
def builder(request: AuthedRequest, pk: int) -> HttpResponse:
    """The deck builder. POST renames the deck or changes its campaign."""
    deck = selectors.deck_for(request.user, pk)
    settings_form = None
    status = 200
    if request.method == "POST":
        settings_form = DeckSettingsForm(
            request.POST, campaigns=selectors.member_campaigns(request.user)
        )
        if settings_form.is_valid():
            try:
                services.deck_update(
                    by=request.user,
                    deck=deck,
                    name=settings_form.cleaned_data["name"],
                    campaign=settings_form.cleaned_data["campaign"],
                )
            except ValidationError as exc:
                add_service_errors(settings_form, exc)
            else:
                messages.success(request, _("Deck saved."))
                return redirect("decks:builder", deck.pk)
        status = 400
        deck.refresh_from_db()
    return render(
        request,
        "decks/builder.html",
        _builder_context(request, deck, settings_form=settings_form),
        status=status,
    )


def _back(deck: Deck, request: HttpRequest) -> str:
    query = request.POST.get("filters", "")[:400]
    url = reverse("decks:builder", args=[deck.pk])
    return f"{url}?{query}#card-list" if query else f"{url}#card-list"


@login_required
@require_POST
def deck_set_count(request: AuthedRequest, pk: int) -> HttpResponse:
    """Set one card's copies. From the script (``X-Requested-With: fetch``) the answer is the
    new counts and the deck panel as JSON; without it, back to the builder."""
    deck = selectors.deck_for(request.user, pk)
    form = CountForm(request.POST)
    wants_json = request.headers.get("X-Requested-With") == "fetch"
    error = ""
    if form.is_valid():
        try:
            services.deck_set_count(
                by=request.user,
                deck=deck,
                number=form.cleaned_data["number"],
                count=form.cleaned_data["count"],
            )
        except ValidationError as exc:
            error = " ".join(exc.messages)
    else:
        error = "Choose a card and a number of copies from 0 to 9."
    if wants_json:
        report = selectors.deck_report(deck)
        panel = render_to_string(
            "decks/_deck_panel.html",
            {"report": report, "deck": deck, "filter_query": request.POST.get("filters", "")[:400]},
            request=request,
        )
        return JsonResponse(
            {"counts": dict(report.counts), "panel": panel, "error": error},
            status=400 if error else 200,
        )
    if error:
        messages.error(request, error)
    return redirect(_back(deck, request))


@login_required
@require_POST
def deck_import(request: AuthedRequest, pk: int) -> HttpResponse:
    """Replace the deck's cards with a pasted text; unreadable lines are listed, nothing lost."""
    deck = selectors.deck_for(request.user, pk)
    form = DeckTextForm(request.POST)
    if form.is_valid():
        try:
            services.deck_import(by=request.user, deck=deck, text=form.cleaned_data["text"])
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, _("Deck imported."))
            return redirect("decks:builder", deck.pk)
    return render(
        request, "decks/builder.html", _builder_context(request, deck, text_form=form), status=400
    )


@login_required
@require_GET
def deck_export(request: AuthedRequest, pk: int) -> HttpResponse:
    deck = selectors.deck_for(request.user, pk)
    response = HttpResponse(
        selectors.deck_report(deck).text, content_type="text/plain; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="deck-{deck.pk}.txt"'
    return response


@login_required
@require_POST
def deck_delete(request: AuthedRequest, pk: int) -> HttpResponse:
    deck = selectors.deck_for(request.user, pk)
    services.deck_delete(by=request.user, deck=deck)
    messages.success(request, _("“%(name)s” deleted.") % {"name": deck.name})
    return redirect("decks:list")
