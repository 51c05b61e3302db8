"""Battle pages: a campaign's battles (and the GMs' form to create one), and the battle screen.

The battle screen is a live board (``static/js/battle_screen.js``): it polls the view API every
second and sends actions to the action API, so the page itself carries only the URLs and the
lookups the script needs (member names, the campaign's characters for the GMs' setup, the
status effects and target numbers the overrides offer), never the battle state.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_http_methods

from accounts.typing import AuthedRequest
from apibase.engine_words import data_text
from apibase.media import private_file
from campaign.permissions import campaign_for
from notifications import turn_alerts_mark_read
from tables.clocks.forms import clock_form_for
from tables.clocks.hooks import hooks_for
from tables.clocks.services import clock_payload
from westernroses import battle as engine
from westernroses.catalog import get_catalog
from westernroses.elements import Element

from . import maps, selectors, services
from .models import Battle
from .wiki_npcs import wiki_npc_choices

#: How often the screen polls for changes (the issue: everyone sees a move within 2 s).
POLL_MILLISECONDS = 1000


class BattleCreateForm(forms.Form):
    name = forms.CharField(max_length=120, initial=_("Battle"), label=_("Name"))
    width = forms.IntegerField(
        min_value=services.MIN_SIDE, max_value=services.MAX_SIDE, initial=12, label=_("Width")
    )
    height = forms.IntegerField(
        min_value=services.MIN_SIDE, max_value=services.MAX_SIDE, initial=8, label=_("Height")
    )


@login_required
@require_http_methods(["GET", "POST"])
def battle_list(request: AuthedRequest, campaign_id: int) -> HttpResponse:
    """The campaign's battles (members); GMs create one here and land on its setup."""
    campaign, access = campaign_for(request.user, campaign_id, manage=request.method == "POST")
    form = BattleCreateForm(request.POST or None) if access.can_manage else None
    status = 200
    if request.method == "POST" and form is not None:
        if form.is_valid():
            try:
                battle = services.battle_create(
                    campaign=campaign, by=access, created_by=request.user, **form.cleaned_data
                )
            except ValidationError as exc:
                for field, messages in exc.message_dict.items():
                    form.add_error(field if field in form.fields else None, messages)
            else:
                return redirect(services.battle_url(battle))
        status = 400
    battles: list[Battle] = list(selectors.battles_of(access))
    context = {"campaign": campaign, "access": access, "battles": battles, "form": form}
    return render(request, "battles/list.html", context, status=status)


def _screen_config(battle: Battle, access: Any) -> dict[str, Any]:
    pk = battle.pk
    catalog = get_catalog()
    config: dict[str, Any] = {
        "id": pk,
        "name": battle.name,
        "player": services.engine_player(access),
        "is_gm": access.is_gm,
        "poll_ms": POLL_MILLISECONDS,
        # the version the page was drawn at: a GM's setup click before the board's first view
        # arrives acts on it (a 409 if the battle moved since), not on "no version yet"
        "version": battle.version,
        "members": selectors.member_names(battle.campaign_id),
        "urls": {
            "state": reverse("api-battle-state", args=[pk]),
            # pushed versions and who is here (docs/push.md)
            "socket": f"/ws/tables/battle/{pk}/",
            "actions": reverse("api-battle-actions", args=[pk]),
            "log": reverse("api-battle-log", args=[pk]),
            "detail": reverse("api-battle", args=[pk]),
            "squares": reverse("api-battle-squares", args=[pk]),
            "combatants": reverse("api-battle-combatants", args=[pk]),
            "map": reverse("api-battle-map", args=[pk]),
            "maps": reverse("api-campaign-maps", args=[battle.campaign_id]),
            "map_detail": reverse("api-map", args=[0]).replace("/0/", "/{id}/"),
            "list": reverse("battles:list", args=[battle.campaign_id]),
            "table": reverse("api-battle-table", args=[pk]),
            "chat": reverse("api-battle-chat", args=[pk]),
            "pings": reverse("api-battle-pings", args=[pk]),
            "portraits": reverse("api-battle-portraits", args=[pk]),
        },
        "me": access.user_id,
        "log_tail": selectors.LOG_TAIL,
        "players": selectors.player_names(battle.campaign_id),
    }
    if access.is_gm:
        config["characters"] = selectors.setup_characters(access)
        # the wiki's Character or NPC entries with a stat block (battles/wiki_npcs.py)
        config["wiki_npcs"] = wiki_npc_choices(access)
        statuses = catalog.status_effects
        config["statuses"] = [
            [s, data_text(statuses[s].name) if s in statuses else s] for s in engine.STATUS_KEYS
        ]
        config["targets"] = list(engine.TARGET_KEYS)
        config["elements"] = [e.value for e in Element]
        config["weapons"] = [
            [i.slug, i.name]
            for i in catalog.items.values()
            if i.is_weapon and i.slug != "bare_fists"
        ]
    return config


@login_required
@require_GET
def battle_detail(request: AuthedRequest, pk: int) -> HttpResponse:
    """The battle screen: the same page for the GMs (with the setup and override panels) and
    the players; what each sees comes from the view API."""
    battle, access = selectors.battle_for(request.user, pk)
    # she has seen it: her "your turn in …" alerts for this battle are read
    turn_alerts_mark_read(user=request.user, url=services.battle_url(battle))
    context = {
        "battle": battle,
        "campaign": battle.campaign,
        "access": access,
        "config": _screen_config(battle, access),
        "clock_url": reverse("api-battle-clock", args=[pk]),
    }
    if access.is_gm:
        # the GM's control of the turn clock: the tavern's own fields, the rules a battle has
        context["clock_form"] = clock_form_for(clock_payload(battle), hooks_for("battle").rules)
    return render(request, "battles/screen.html", context)


@login_required
@require_GET
def map_image(request: AuthedRequest, pk: int) -> HttpResponseBase:
    """A map's image, for the campaign's members only (never a public media URL), served with
    the content type its checked content gave it (``maps.map_validate``)."""
    battle_map, _access = maps.map_for(request.user, pk)
    return private_file(
        battle_map.image,
        content_type=battle_map.content_type,
        cache_control="private, max-age=86400",
        missing="No such map.",
    )
