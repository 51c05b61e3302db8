"""The GM dashboard: one page a GM keeps open during play (GMs only; players 403, outsiders 404).

Panels: the party at a glance, the latest rolls, pending invitations, the next session, recent
GM notes, and the "active battles" / "tavern tables" slots later apps fill
(:mod:`campaign.registry`). ``static/js/dashboard.js`` polls :func:`dashboard_live` every two
seconds with the last ETag; an unchanged dashboard answers 304 after one version query.

The page and its panels are rendered once per dashboard version and kept in the cache
(:func:`_kept`): the ETag already changes whenever anything they show does, and it holds the
viewer, her role and the current minute, so what is kept is never older than the version a poll
would compare it with, and never older than a minute. Forms carry this request's CSRF token and
a one-time token per rendering (:mod:`apibase.form_once`): they are kept with marks in their
place, filled for each request (``with_form_tokens``). The party's rows and character choices
are kept under the party's own version (:func:`gmtools.dashboard_state.party_choices`), so a
kept page's cost does not grow with the party.

Quick actions (award loot, heal, apply a status, raise a level, roll for an NPC, invite) are
plain forms: without JavaScript they POST and redirect back (errors re-render the page, 400);
with it they post with ``Accept: application/json``, get ``{"ok", "detail", "errors"}`` and the
panels refresh at once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.html import format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from accounts.typing import AuthedRequest
from apibase import form_once
from apibase.engine_words import in_language
from apibase.form_once import KEEP_FORMS, with_form_tokens
from apibase.redis_down import soft_get_many, soft_set
from campaign.models import Campaign, Role
from campaign.permissions import CampaignAccess, campaign_for
from campaign.registry import DASHBOARD_SLOTS
from characters import party as character_party
from characters.models import Character
from westernroses.catalog import get_catalog
from westernroses.checks import verdict

from .. import awards, party
from ..dashboard_state import (
    Party,
    Versions,
    dashboard_party_cached,
    dashboard_state,
    dashboard_versions,
    party_cache_key,
)
from ..forms import (
    AWARD_ITEM_LINES,
    AwardForm,
    HealForm,
    LevelUpForm,
    NpcRollForm,
    StatusForm,
    add_service_errors,
)
from ..invitations import DEFAULT_EXPIRY_DAYS
from .common import json_result, wants_json

#: Live panels: key → template. The page shows the same HTML, so the first render and every
#: refresh look the same.
PANELS = {
    "party": "gmtools/dashboard/_party.html",
    "rolls": "gmtools/dashboard/_rolls.html",
    "invitations": "gmtools/dashboard/_invitations.html",
    "session": "gmtools/dashboard/_session.html",
    "notes": "gmtools/dashboard/_notes.html",
}
#: The page's content (everything but the site's frame), kept with the panels.
CONTENT_TEMPLATE: Final = "gmtools/dashboard/_content.html"
POLL_MILLISECONDS = 2000
#: How long kept panels stay: their key holds the minute, so this only bounds memory.
PANELS_CACHE_SECONDS: Final = 120
#: Bumped when what :class:`Kept` holds changes (see ``PARTY_CACHE_FORMAT``).
PANELS_CACHE_FORMAT: Final = 1


@dataclass(frozen=True, slots=True)
class Kept:
    """One dashboard version's HTML as one viewer sees it: each live panel but the party (by
    panel key: ``rolls``, ``invitations``, ``session``, ``notes``, ``slot-<key>``) and the
    page's content (``content``), its forms' tokens left as marks
    (:func:`apibase.form_once.with_form_tokens`)."""

    html: dict[str, str]


def _kept_key(request: HttpRequest, campaign: Campaign, versions: Versions) -> str:
    """Where a page is kept: under the ETag (the viewer, her role, the minute), the time zone
    its times are shown in, the language its words are in and the address its links name."""
    place = (
        f"{timezone.get_current_timezone_name()}:{translation.get_language()}:"
        f"{request.scheme}:{request.get_host()}"
    )
    return f"dashboard-page:{PANELS_CACHE_FORMAT}:{campaign.pk}:{versions.etag}:{place}"


def _kept(
    request: HttpRequest, campaign: Campaign, access: CampaignAccess, versions: Versions
) -> tuple[Party, Kept]:
    """The party (under its version) and the rest of the page, read in one round trip; what
    is missing is built and kept. Redis away: built every time."""
    party_key = party_cache_key(campaign, access, versions.party)
    kept_key = _kept_key(request, campaign, versions)
    found = soft_get_many([party_key, kept_key])
    party = dashboard_party_cached(campaign, access, versions.party, found.get(party_key))
    kept = found.get(kept_key)
    if not isinstance(kept, Kept):
        kept = _build(request, campaign, access, versions, party)
        soft_set(kept_key, kept, PANELS_CACHE_SECONDS)
    return party, kept


def _kept_page(
    request: HttpRequest, campaign: Campaign, access: CampaignAccess, versions: Versions
) -> Kept:
    """The kept page alone (it holds the party's panel already): the party is read only to
    build a missing one."""
    key = _kept_key(request, campaign, versions)
    kept = soft_get_many([key]).get(key)
    if isinstance(kept, Kept):
        return kept
    return _kept(request, campaign, access, versions)[1]


def _build(
    request: HttpRequest,
    campaign: Campaign,
    access: CampaignAccess,
    versions: Versions,
    party: Party,
    bound: dict[str, forms.Form] | None = None,
) -> Kept:
    """Render the panels and the page's content from the state, forms' tokens as marks (or,
    with ``bound`` forms to show, the content with this request's own tokens)."""
    state = dashboard_state(campaign, access, party=party)
    context: dict[str, Any] = {"campaign": campaign, "state": state, KEEP_FORMS: True}
    html: dict[str, str] = {
        key: render_to_string(template, context, request=request)
        for key, template in PANELS.items()
        if key != "party"
    }
    slots = [
        {
            "key": slot,
            "title": gettext(title),
            "empty": gettext(empty),
            "panels": state.slots.get(slot, []),
        }
        for slot, (title, empty) in DASHBOARD_SLOTS.items()
    ]
    for slot in slots:
        html[f"slot-{slot['key']}"] = render_to_string(
            "gmtools/dashboard/_slot.html", {**context, "slot": slot}, request=request
        )
    page = {
        **context,
        "access": access,
        "party": party,
        "panels": {k: with_form_tokens(v, request) if bound else v for k, v in html.items()},
        "slots": [{**slot, "html": html[f"slot-{slot['key']}"]} for slot in slots],
        "statuses": list(get_catalog().status_effects.values()),
        "item_options": _item_options(),
        "item_lines": range(1, AWARD_ITEM_LINES + 1),
        "roles": Role.choices,
        "default_expiry_days": DEFAULT_EXPIRY_DAYS,
        "poll_ms": POLL_MILLISECONDS,
        "version": versions.etag,
        "bound": bound or {},
        KEEP_FORMS: not bound,
    }
    html["content"] = render_to_string(CONTENT_TEMPLATE, page, request=request)
    return Kept(html=html)


#: The award form's item choices, with the catalog they were rendered from.
_ITEM_OPTIONS: list[tuple[Any, SafeString]] = []


def _item_options() -> SafeString:
    """The award form's item choices (the same on each of its lines), rendered once for the
    process's catalog."""
    catalog = get_catalog()
    if _ITEM_OPTIONS and _ITEM_OPTIONS[0][0] is catalog:
        return _ITEM_OPTIONS[0][1]
    known = sorted(awards.award_items_known().items(), key=lambda kv: kv[1])
    html = format_html_join("", '<option value="{}">{}</option>', known)
    _ITEM_OPTIONS[:] = [(catalog, html)]
    return html


def _render_page(
    request: HttpRequest,
    campaign: Campaign,
    access: CampaignAccess,
    *,
    bound: dict[str, forms.Form] | None = None,
    status: int = 200,
) -> HttpResponse:
    versions = dashboard_versions(campaign, access)
    if bound:  # a form's errors to show: this request's own page
        party, _ = _kept(request, campaign, access, versions)
        kept = _build(request, campaign, access, versions, party, bound)
    else:
        kept = _kept_page(request, campaign, access, versions)
    content = with_form_tokens(kept.html["content"], request)
    context = {"campaign": campaign, "content": content}
    return render(request, "gmtools/dashboard.html", context, status=status)


@login_required
@require_GET
def dashboard(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, access = campaign_for(request.user, pk, manage=True)
    return _render_page(request, campaign, access)


@login_required
@require_GET
def dashboard_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The panels as HTML fragments plus the character list for the quick-action selects.

    With ``If-None-Match`` equal to the current version: 304, nothing else computed.
    """
    campaign, access = campaign_for(request.user, pk, manage=True)
    versions = dashboard_versions(campaign, access)
    version = versions.etag
    if version in request.headers.get("If-None-Match", ""):
        response = HttpResponse(status=304)
    else:
        party, kept = _kept(request, campaign, access, versions)
        panels: dict[str, str] = {"party": party.html}
        for key, html in kept.html.items():
            if key != "content":
                panels[key] = with_form_tokens(html, request)
        response = JsonResponse(
            {
                "version": version,
                "panels": panels,
                "characters": [
                    {"id": r["id"], "name": r["name"], "is_npc": r["is_npc"]} for r in party.rows
                ],
            }
        )
    response["ETag"] = version
    response["Cache-Control"] = "private, no-cache"
    return response


# --------------------------------------------------------------------------- quick actions


def _choices(campaign: Campaign) -> list[dict[str, Any]]:
    """The campaign's characters for the forms' choices (one query, no sheets derived)."""
    rows = (
        Character.objects.filter(campaign=campaign)
        .order_by("is_npc", "name", "pk")
        .values("id", "name", "is_npc")
    )
    return [dict(row) for row in rows]


def _characters(campaign: Campaign, ids: list[int]) -> list[Any]:
    return list(Character.objects.filter(campaign=campaign, pk__in=ids).order_by("pk"))


Action = Callable[[AuthedRequest, Campaign, CampaignAccess, Any], str]


def _quick_action(
    request: AuthedRequest, pk: int, name: str, form: Any, act: Action
) -> HttpResponse:
    """Validate ``form``, run ``act`` (which returns the success message), answer JSON for
    the script or redirect (PRG) / re-render with errors for a plain form."""
    campaign, access = campaign_for(request.user, pk, manage=True)
    bound = form(campaign, access)
    if bound.is_valid():
        # each rendered form carries a one-time token ({% csrf_token %}: apibase/form_once.py);
        # the script sends a fresh one after each success. A plain post was claimed by the
        # middleware already.
        once = form_once.claim_from_script(request)
        if once.repeated:
            # the same form sent twice (a double click, a re-sent request): applied once
            message = "That was already done: the form was sent twice and applied once."
            if wants_json(request):
                return json_result(ok=True, message=message)
            messages.info(request, message)
            return redirect("gmtools:dashboard", campaign.pk)
        try:
            message = act(request, campaign, access, bound)
        except ValidationError as exc:
            once.forget()  # refused: the same form may be corrected and sent again
            add_service_errors(bound, exc)
        else:
            if wants_json(request):
                return json_result(ok=True, message=message)
            messages.success(request, message)
            return redirect("gmtools:dashboard", campaign.pk)
    if wants_json(request):
        errors = {
            ("non_field_errors" if k == "__all__" else k): [e["message"] for e in v]
            for k, v in bound.errors.get_json_data().items()
        }
        return json_result(ok=False, message="Nothing was changed.", errors=errors, status=400)
    return _render_page(request, campaign, access, bound={name: bound}, status=400)


@login_required
@require_POST
def quick_award(request: AuthedRequest, pk: int) -> HttpResponse:
    def act(request: AuthedRequest, campaign: Campaign, access: CampaignAccess, form: Any) -> str:
        chosen = _characters(campaign, form.cleaned_data["characters"])
        award = awards.award_grant(
            campaign=campaign,
            by=access,
            awarded_by=request.user,
            characters=chosen,
            yen=form.cleaned_data["yen"] or 0,
            items=form.items(),
            reason=form.cleaned_data["reason"],
        )
        what = awards.award_describe(award.yen, award.items)
        return f"Awarded {what} to {', '.join(c.name for c in chosen)}."

    return _quick_action(
        request,
        pk,
        "award",
        lambda c, a: AwardForm(request.POST, party=_choices(c)),
        act,
    )


def _one(campaign: Campaign, form: Any) -> Any:
    found = _characters(campaign, [form.cleaned_data["character"]])
    if not found:
        raise ValidationError({"character": [gettext("That character is not in this campaign.")]})
    return found[0]


@login_required
@require_POST
def quick_heal(request: AuthedRequest, pk: int) -> HttpResponse:
    def act(request: HttpRequest, campaign: Campaign, access: CampaignAccess, form: Any) -> str:
        character = character_party.character_heal(
            character=_one(campaign, form), by=access, amount=form.cleaned_data["amount"]
        )
        amount = form.cleaned_data["amount"]
        return f"{character.name} healed {f'{amount} HP' if amount else 'fully'}."

    return _quick_action(
        request, pk, "heal", lambda c, a: HealForm(request.POST, party=_choices(c)), act
    )


@login_required
@require_POST
def quick_status(request: AuthedRequest, pk: int) -> HttpResponse:
    def act(request: HttpRequest, campaign: Campaign, access: CampaignAccess, form: Any) -> str:
        status = form.cleaned_data["status"]
        shown = get_catalog().status_effects[status].name
        if form.cleaned_data.get("action") == "clear":
            character = character_party.character_status_clear(
                character=_one(campaign, form), by=access, status=status
            )
            return f"{character.name}: {shown} cleared."
        character = character_party.character_status_apply(
            character=_one(campaign, form), by=access, status=status
        )
        return f"{character.name}: {shown} applied."

    return _quick_action(
        request, pk, "status", lambda c, a: StatusForm(request.POST, party=_choices(c)), act
    )


@login_required
@require_POST
def quick_level_up(request: AuthedRequest, pk: int) -> HttpResponse:
    def act(request: AuthedRequest, campaign: Campaign, access: CampaignAccess, form: Any) -> str:
        level_up = party.level_up_grant(
            character=_one(campaign, form),
            by=access,
            raised_by=request.user,
            levels=form.cleaned_data["levels"],
        )
        return f"{level_up.character_name} is now level {level_up.to_level}."

    return _quick_action(
        request, pk, "level_up", lambda c, a: LevelUpForm(request.POST, party=_choices(c)), act
    )


@login_required
@require_POST
def quick_roll(request: AuthedRequest, pk: int) -> HttpResponse:
    def act(request: AuthedRequest, campaign: Campaign, access: CampaignAccess, form: Any) -> str:
        npc_id = form.cleaned_data["npc"]
        npc = _characters(campaign, [npc_id])[0] if npc_id else None
        roll = party.npc_roll(
            campaign=campaign,
            by=access,
            user=request.user,
            dice=form.dice_request,
            npc=npc,
            label=form.cleaned_data["label"],
            secret=form.cleaned_data["secret"],
        )
        words = verdict(success=roll.success, margin=roll.margin, critical=roll.critical)
        said: dict[str, object] = {
            "roll": roll.label or gettext("Roll"),
            "notation": roll.notation,
            "total": roll.total,
        }
        if words is None:
            return gettext("%(roll)s: %(notation)s = %(total)s.") % said
        said["verdict"] = in_language(words)
        return gettext("%(roll)s: %(notation)s = %(total)s (%(verdict)s).") % said

    return _quick_action(
        request,
        pk,
        "roll",
        lambda c, a: NpcRollForm(request.POST, party=_choices(c), rules=c.rules()),
        act,
    )
