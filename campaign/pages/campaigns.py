"""Campaign pages: parse input, ask the permission layer and services, render. No rules here."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.typing import AuthedRequest
from apibase.numbers import object_id
from apibase.words import quoted
from westernroses.house_rules import DEFAULT_HOUSE_RULES, HOUSE_RULES_META

from .. import members, selectors, services
from ..forms import AddMemberForm, CampaignForm, CampaignSettingsForm, DiceForm
from ..models import Campaign, Role, Roll
from ..permissions import CampaignAccess, access_for, campaign_for
from ..registry import roll_checks

ROLL_LOG_SIZE = 50


@login_required
def campaign_list(request: AuthedRequest) -> HttpResponse:
    campaigns = list(selectors.campaigns_for_user(request.user))
    for c in campaigns:
        c.my_role_label = Role(c.my_role).label  # type: ignore[attr-defined]  # annotated rows
    return render(request, "campaign/list.html", {"campaigns": campaigns})


@login_required
@require_http_methods(["GET", "POST"])
def campaign_create(request: AuthedRequest) -> HttpResponse:
    form = CampaignForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        campaign = services.campaign_create(
            name=form.cleaned_data["name"],
            description=form.cleaned_data["description"],
            gm=request.user,
        )
        messages.success(
            request,
            _("Campaign %(name)s created. You are its GM.") % {"name": quoted(campaign.name)},
        )
        return redirect("campaign:detail", campaign.pk)
    status = 400 if form.errors else 200
    return render(request, "campaign/create.html", {"form": form}, status=status)


def _detail_context(
    campaign: Campaign, access: CampaignAccess, add_member_form: AddMemberForm | None
) -> dict[str, Any]:
    return {
        "campaign": campaign,
        "access": access,
        "members": selectors.campaign_members(campaign),
        "rolls": selectors.rolls_visible_to(access)[:ROLL_LOG_SIZE],
        "add_member_form": add_member_form,
    }


@login_required
def campaign_detail(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, access = campaign_for(request.user, pk)
    form = AddMemberForm() if access.can_manage else None
    return render(request, "campaign/detail.html", _detail_context(campaign, access, form))


@login_required
@require_http_methods(["GET", "POST"])
def campaign_settings(request: HttpRequest, pk: int) -> HttpResponse:
    """GM page: name, description and every house rule with its default and range."""
    campaign, access = campaign_for(request.user, pk, manage=True)
    form = CampaignSettingsForm(request.POST or None, campaign=campaign)
    if request.method == "POST":
        if request.POST.get("reset") == "rules":
            services.campaign_update_settings(campaign=campaign, by=access, reset_house_rules=True)
            messages.success(request, _("House rules reset to the defaults."))
            return redirect("campaign:settings", campaign.pk)
        if form.is_valid():
            services.campaign_update_settings(
                campaign=campaign,
                by=access,
                name=form.cleaned_data["name"],
                description=form.cleaned_data["description"],
                house_rules=form.house_rules(),
            )
            messages.success(request, _("Campaign settings saved."))
            return redirect("campaign:settings", campaign.pk)
    context = {
        "campaign": campaign,
        "access": access,
        "form": form,
        "changed": campaign.rules().changed(),
    }
    return render(request, "campaign/settings.html", context, status=400 if form.errors else 200)


@login_required
@require_http_methods(["POST"])
def member_add(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, access = campaign_for(request.user, pk, manage=True)
    form = AddMemberForm(request.POST)
    if form.is_valid():
        try:
            members.membership_add(
                campaign=campaign,
                user=form.cleaned_data["username"],
                role=form.cleaned_data["role"],
                by=access,
            )
        except ValidationError as exc:
            form.add_error("role", exc.messages)
        else:
            messages.success(
                request,
                _("%(username)s joined the campaign.")
                % {"username": form.cleaned_data["username"]},
            )
            return redirect("campaign:detail", campaign.pk)
    context = _detail_context(campaign, access, form)
    return render(request, "campaign/detail.html", context, status=400)


def _dice_page(
    request: HttpRequest, campaign: Campaign | None, access: CampaignAccess | None
) -> HttpResponse:
    rules = campaign.rules() if campaign else DEFAULT_HOUSE_RULES
    data = request.POST if request.method == "POST" else (request.GET or None)
    # The live-odds refresh runs on every keystroke: derive the characters' sheets only when a
    # check is picked there, not for a fragment that only needs the notation.
    wants_checks = request.GET.get("partial") != "odds" or bool(request.GET.get("check"))
    checks = _character_checks(request, access) if wants_checks else []
    form = DiceForm(data, rules=rules, checks=checks)
    odds = None
    if data is not None and form.is_valid() and form.dice_request is not None:
        if request.method == "POST":
            if not request.user.is_authenticated:
                return redirect(f"{_login_url()}?next={request.path}")
            chosen = form.chosen_check
            label = form.cleaned_data["label"] or (chosen.name if chosen else "")
            hidden = services.hidden_from_roller(
                check=chosen.value if chosen else None,
                rules=rules,
                campaign=campaign,
                is_gm=access is not None and access.is_gm,
            )
            roll = services.roll_make(
                user=request.user,
                dice=form.dice_request,
                campaign=campaign,
                label=label,
                secret=bool(form.cleaned_data["secret"]) and campaign is not None,
                hidden=hidden,
            )
            query = {k: v for k, v in request.POST.items() if k != "csrfmiddlewaretoken"}
            query["roll"] = str(roll.pk)
            if hidden:
                messages.info(
                    request,
                    _("%(roll)s: %(note)s.")
                    % {"roll": label or _("Your roll"), "note": services.HIDDEN_ROLL_NOTE},
                )
                return redirect(f"{request.path}?{urlencode(query)}")
            # the result is where she looks next, not at the top of the page (on a phone it
            # lies below the form)
            return redirect(f"{request.path}?{urlencode(query)}#roll-result")
        odds = services.odds_for(form.dice_request)
    if request.GET.get("partial") == "odds":
        return render(request, "dice/_odds.html", {"form": form, "odds": odds})
    # a refused roll shows its error alone: the previous roll's result would read as its answer
    refused = request.method == "POST" and form.is_bound and bool(form.errors)
    last_roll = None if refused else _visible_roll(request, access, request.GET.get("roll"))
    if campaign is not None and access is not None:
        log = list(selectors.rolls_visible_to(access)[:ROLL_LOG_SIZE])
    elif request.user.is_authenticated:
        log = list(selectors.personal_rolls(request.user)[:ROLL_LOG_SIZE])
    else:
        log = []
    status = 400 if form.is_bound and form.errors else 200
    # the checks a player's roll of would be rolled for the GMs only (house rule), by value:
    # the form says so before she rolls
    is_gm = access is not None and access.is_gm
    secret_checks = {
        c.value: c.name.split(": ", 1)[-1]
        for c in checks
        if services.hidden_from_roller(check=c.value, rules=rules, campaign=campaign, is_gm=is_gm)
    }
    chosen = form["check"].value() if form.is_bound else None
    context = {
        "secret_checks": secret_checks,
        "secret_chosen": secret_checks.get(chosen or ""),
        "form": form,
        "odds": odds,
        "campaign": campaign,
        "access": access,
        "last_roll": last_roll,
        "log": log,
        # in words: "Stat points per die: 2", never the engine's key
        "rules_changed": [
            f"{_(HOUSE_RULES_META[key].label)}: {value}" for key, value in rules.changed().items()
        ],
    }
    return render(request, "dice/roller.html", context, status=status)


def _character_checks(request: HttpRequest, access: CampaignAccess | None) -> list[Any]:
    """The character checks this user may roll here (none for anonymous visitors)."""
    if not request.user.is_authenticated:
        return []
    return roll_checks(request.user, access)


def _login_url() -> str:
    from django.urls import reverse

    return reverse("login")


def _visible_roll(
    request: HttpRequest, access: CampaignAccess | None, roll_id: str | None
) -> Roll | None:
    pk = object_id(roll_id or "")
    if pk is None or not request.user.is_authenticated:
        return None
    roll = Roll.objects.filter(pk=pk).select_related("user").first()
    if roll is None:
        return None
    if roll.campaign_id is None:
        return roll if roll.user_id == request.user.pk else None
    roll_access = access if access is not None else access_for(request.user, roll.campaign_id)
    return roll if roll_access.can_see_roll(roll) else None


@require_http_methods(["GET", "POST"])
def dice(request: HttpRequest) -> HttpResponse:
    """The dice roller outside any campaign: odds for anyone, rolls logged for the user."""
    return _dice_page(request, None, None)


@login_required
@require_http_methods(["GET", "POST"])
def campaign_dice(request: HttpRequest, pk: int) -> HttpResponse:
    """The dice roller inside a campaign: rolls go to the campaign's roll log."""
    campaign, access = campaign_for(request.user, pk)
    if request.method == "POST" and not access.is_member:
        raise PermissionDenied
    return _dice_page(request, campaign, access)
