"""The GM dashboard: one page a GM keeps open during play (GMs only; players 403, outsiders 404).

Panels: the party at a glance, the latest rolls, pending invitations, the next session, recent
GM notes, and the "active battles" / "tavern tables" slots later apps fill
(:mod:`campaign.registry`). ``static/js/dashboard.js`` polls :func:`dashboard_live` every two
seconds with the last ETag; an unchanged dashboard answers 304 after one version query.

Quick actions (award loot, heal, apply a status, raise a level, roll for an NPC, invite) are
plain forms: without JavaScript they POST and redirect back (errors re-render the page, 400);
with it they post with ``Accept: application/json``, get ``{"ok", "detail", "errors"}`` and the
panels refresh at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET, require_POST

from accounts.typing import AuthedRequest
from apibase import form_once
from westernroses.checks import verdict_words

from .. import awards, party
from ..dashboard_state import DashboardState, dashboard_state, dashboard_version
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
from ..models import Campaign, Role
from ..permissions import CampaignAccess, campaign_for
from ..registry import DASHBOARD_SLOTS
from .common import json_result, wants_json

#: Live panels: key → template. The page includes the same templates, so the first render and
#: every refresh look the same.
PANELS = {
    "party": "campaign/dashboard/_party.html",
    "rolls": "campaign/dashboard/_rolls.html",
    "invitations": "campaign/dashboard/_invitations.html",
    "session": "campaign/dashboard/_session.html",
    "notes": "campaign/dashboard/_notes.html",
}
POLL_MILLISECONDS = 2000


def _context(campaign: Campaign, access: CampaignAccess, state: DashboardState) -> dict[str, Any]:
    from westernroses.catalog import get_catalog

    return {
        "campaign": campaign,
        "access": access,
        "state": state,
        "party": state.party,
        "npcs": [row for row in state.party if row["is_npc"]],
        "slots": [
            {"key": slot, "title": title, "empty": empty, "panels": state.slots.get(slot, [])}
            for slot, (title, empty) in DASHBOARD_SLOTS.items()
        ],
        "statuses": list(get_catalog().status_effects.values()),
        "items": sorted(awards.award_items_known().items(), key=lambda kv: kv[1]),
        "item_lines": range(1, AWARD_ITEM_LINES + 1),
        "roles": Role.choices,
        "default_expiry_days": DEFAULT_EXPIRY_DAYS,
        "poll_ms": POLL_MILLISECONDS,
    }


def _render_page(
    request: HttpRequest,
    campaign: Campaign,
    access: CampaignAccess,
    *,
    bound: dict[str, forms.Form] | None = None,
    status: int = 200,
) -> HttpResponse:
    state = dashboard_state(campaign, access)
    context = _context(campaign, access, state)
    context["version"] = dashboard_version(campaign, access)
    context["bound"] = bound or {}
    return render(request, "campaign/dashboard.html", context, status=status)


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
    version = dashboard_version(campaign, access)
    if version in request.headers.get("If-None-Match", ""):
        response = HttpResponse(status=304)
    else:
        state = dashboard_state(campaign, access)
        context = _context(campaign, access, state)
        panels = {
            key: state.party_html
            if key == "party"
            else render_to_string(t, context, request=request)
            for key, t in PANELS.items()
        }
        for slot in context["slots"]:
            panels[f"slot-{slot['key']}"] = render_to_string(
                "campaign/dashboard/_slot.html", {**context, "slot": slot}, request=request
            )
        response = JsonResponse(
            {
                "version": version,
                "panels": panels,
                "characters": [
                    {"id": r["id"], "name": r["name"], "is_npc": r["is_npc"]} for r in state.party
                ],
            }
        )
    response["ETag"] = version
    response["Cache-Control"] = "private, no-cache"
    return response


# --------------------------------------------------------------------------- quick actions


def _choices(campaign: Campaign) -> list[dict[str, Any]]:
    """The campaign's characters for the forms' choices (one query, no sheets derived)."""
    from characters.models import Character

    rows = (
        Character.objects.filter(campaign=campaign)
        .order_by("is_npc", "name", "pk")
        .values("id", "name", "is_npc")
    )
    return [dict(row) for row in rows]


def _characters(campaign: Campaign, ids: list[int]) -> list[Any]:
    from characters.models import Character

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
            return redirect("campaign:dashboard", campaign.pk)
        try:
            message = act(request, campaign, access, bound)
        except ValidationError as exc:
            once.forget()  # refused: the same form may be corrected and sent again
            add_service_errors(bound, exc)
        else:
            if wants_json(request):
                return json_result(ok=True, message=message)
            messages.success(request, message)
            return redirect("campaign:dashboard", campaign.pk)
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
        raise ValidationError({"character": ["That character is not in this campaign."]})
    return found[0]


@login_required
@require_POST
def quick_heal(request: AuthedRequest, pk: int) -> HttpResponse:
    def act(request: HttpRequest, campaign: Campaign, access: CampaignAccess, form: Any) -> str:
        character = party.character_heal(
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
        from westernroses.catalog import get_catalog

        status = form.cleaned_data["status"]
        shown = get_catalog().status_effects[status].name
        if form.cleaned_data.get("action") == "clear":
            character = party.character_status_clear(
                character=_one(campaign, form), by=access, status=status
            )
            return f"{character.name}: {shown} cleared."
        character = party.character_status_apply(
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
        words = verdict_words(success=roll.success, margin=roll.margin, critical=roll.critical)
        verdict = f" ({words})" if words else ""
        return f"{roll.label or 'Roll'}: {roll.notation} = {roll.total}{verdict}."

    return _quick_action(
        request,
        pk,
        "roll",
        lambda c, a: NpcRollForm(request.POST, party=_choices(c), rules=c.rules()),
        act,
    )
