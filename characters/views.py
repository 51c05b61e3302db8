"""Character pages: parse input, ask the permission layer and services, render. No rules here.

Every page works without JavaScript (plain form posts); ``static/js/character_wizard.js`` adds
steps and the live preview, which posts the same form to :func:`preview` and swaps the panel.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.text import slugify
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from accounts.typing import AuthedRequest
from apibase.engine_words import in_language
from apibase.media import private_file
from campaign.models import Campaign
from campaign.permissions import OwnedAccess, campaign_for, owned_access
from campaign.selectors import campaigns_for_user
from westernroses.characters import CharacterDraft, RuleViolation

from . import selectors, services
from .forms import WAIVER_MANIPULATION, CharacterForm, ImportForm, PortraitForm, error_slots
from .models import Character
from .sheet_words import options_in_language, problem_in_language, sheet_in_language

# --------------------------------------------------------------------------- lists


def _list_rows(characters: list[Character]) -> list[dict[str, Any]]:
    """Rows for the lists: stored columns plus derived max HP (inventory is prefetched)."""
    names = selectors.choice_names()
    rows = []
    for c in characters:
        view = selectors.character_sheet(c)
        hp = view.sheet["hp"] if view.sheet else None
        rows.append(
            {
                "character": c,
                "shot_type": names["shot_type"].get(c.shot_type, c.shot_type),
                "race": names["race"].get(c.race, c.race),
                "profession": names["profession"].get(c.profession, c.profession),
                "hp": hp,
                "valid": view.valid,
            }
        )
    return rows


@login_required
def my_characters(request: AuthedRequest) -> HttpResponse:
    """The characters you own, in any campaign or none."""
    characters = list(selectors.characters_of_user(request.user))
    return render(
        request,
        "characters/list.html",
        {"rows": _list_rows(characters), "campaign": None, "access": None},
    )


@login_required
def campaign_characters(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Every character and NPC in a campaign (members only; outsiders 404)."""
    campaign, access = campaign_for(request.user, campaign_id)
    characters = list(selectors.characters_in_campaign(access))
    return render(
        request,
        "characters/list.html",
        {"rows": _list_rows(characters), "campaign": campaign, "access": access},
    )


# --------------------------------------------------------------------------- wizard and edit


def _wizard_context(
    *,
    form: CharacterForm,
    draft: CharacterDraft,
    problems: list[RuleViolation] | list[dict[str, str]],
    rules_campaign: Campaign | None,
    **extra: Any,
) -> dict[str, Any]:
    view = selectors.sheet_for_draft(draft, services.rules_for(rules_campaign))
    view = replace(view, sheet=sheet_in_language(view.sheet))
    # A fresh wizard has every choice still missing: list that in the live panel only, not
    # beside every input before the player has touched anything.
    fresh = form.mode == "create" and not form.is_bound
    return {
        "form": form,
        "draft": draft,
        "options": options_in_language(selectors.creation_options()),
        "errors": {} if fresh else error_slots(_merged(problems, view.problems), form.errors),
        "problems": _merged(problems, view.problems),
        "fresh": fresh,
        "preview": view,
        "skill_bases": selectors.skill_bases(view),
        "waiver_manipulation": WAIVER_MANIPULATION in draft.gm_waivers,
        **extra,
    }


def _merged(*groups: Any) -> list[dict[str, str]]:
    """Problems from several checks as dicts, each once, in order, in the reader's language."""
    out: list[dict[str, str]] = []
    for group in groups:
        for p in group:
            d = problem_in_language(
                p.to_dict(words=True) if isinstance(p, RuleViolation) else dict(p)
            )
            if d not in out:
                out.append(d)
    return out


def _create_target(
    request: HttpRequest,
) -> tuple[Campaign | None, OwnedAccess]:
    """The campaign a new character joins (``?campaign=``), checked: outsiders 404."""
    campaign_id = request.POST.get("campaign") or request.GET.get("campaign")
    campaign = campaign_for(request.user, campaign_id)[0] if campaign_id else None
    return campaign, owned_access(request.user, campaign, request.user.pk)


@login_required
@require_http_methods(["GET", "POST"])
def character_create(request: AuthedRequest) -> HttpResponse:
    """The step-by-step wizard. A plain POST saves; the engine validates on the server."""
    campaign, access = _create_target(request)
    form = CharacterForm(request.POST or None, mode="create", is_gm=access.is_gm)
    draft, problems = form.draft()
    status = 200
    if request.method == "POST":
        if form.is_valid() and not problems:
            try:
                character = services.character_create(
                    owner=request.user,
                    campaign=campaign,
                    draft=draft,
                    by=access,
                    is_npc=bool(form.cleaned_data.get("is_npc")),
                    public_notes=form.cleaned_data["public_notes"],
                    private_notes=form.cleaned_data["private_notes"],
                )
            except services.CharacterRulesError as exc:
                problems = exc.violations
            else:
                messages.success(request, gettext("%(name)s is ready.") % {"name": character.name})
                return redirect("characters:sheet", character.pk)
        status = 400
    context = _wizard_context(
        form=form,
        draft=draft,
        problems=problems,
        rules_campaign=campaign,
        mode="create",
        campaign=campaign,
        access=access,
        character=None,
        submitted=request.method == "POST",
    )
    return render(request, "characters/wizard.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def character_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Edit a character (owner and the campaign's GMs): choices, inventory, play state, notes."""
    character, access = selectors.character_for(request.user, pk, edit=True)
    base = selectors.character_sheet(character).draft
    form = CharacterForm(request.POST or None, mode="edit", is_gm=access.is_gm)
    problems: list[RuleViolation] = []
    draft = base
    status = 200
    if request.method == "POST":
        draft, problems = form.draft(base)
        if form.is_valid() and not problems:
            try:
                services.character_update(
                    character=character,
                    by=access,
                    draft=draft,
                    public_notes=form.cleaned_data["public_notes"],
                    private_notes=form.cleaned_data["private_notes"],
                )
            except services.CharacterRulesError as exc:
                problems = exc.violations
            else:
                messages.success(request, gettext("%(name)s saved.") % {"name": character.name})
                return redirect("characters:sheet", character.pk)
        status = 400
    context = _wizard_context(
        form=form,
        draft=draft,
        problems=problems,
        rules_campaign=character.campaign,
        mode="edit",
        campaign=character.campaign,
        access=access,
        character=character,
        submitted=request.method == "POST",
        notes={
            "public": form.data.get("public_notes", character.public_notes)
            if form.is_bound
            else character.public_notes,
            "private": form.data.get("private_notes", character.private_notes)
            if form.is_bound
            else character.private_notes,
        },
    )
    return render(request, "characters/wizard.html", context, status=status)


@login_required
@require_POST
def preview(request: HttpRequest, pk: int | None = None) -> JsonResponse:
    """The live panel: the posted form as a derived sheet and errors by field. Writes nothing."""
    base: CharacterDraft | None = None
    if pk is None:
        campaign, access = _create_target(request)
        form = CharacterForm(request.POST, mode="create", is_gm=access.is_gm)
        draft, problems = form.draft()
    else:
        character, access = selectors.character_for(request.user, pk, edit=True)
        campaign = character.campaign
        base = selectors.character_sheet(character).draft
        form = CharacterForm(request.POST, mode="edit", is_gm=access.is_gm)
        draft, problems = form.draft(base)
    rules = services.rules_for(campaign)
    view = selectors.sheet_for_draft(draft, rules)
    view = replace(view, sheet=sheet_in_language(view.sheet))
    # The same checks as saving (engine rules, GM-only changes, storage limits).
    checked = services.character_check(draft=draft, by=access, rules=rules, before=base)
    all_problems = _merged(problems, checked)
    html = render_to_string(
        "characters/_live.html", {"preview": view, "problems": all_problems}, request=request
    )
    return JsonResponse(
        {
            "valid": not all_problems and not form.errors,
            "errors": error_slots(all_problems, form.errors),
            "html": html,
            "skill_bases": selectors.skill_bases(view),
        }
    )


# --------------------------------------------------------------------------- sheet


@login_required
def character_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """The printable sheet: every stat with its breakdown and exact odds against 12."""
    character, access = selectors.character_for(request.user, pk)
    view = selectors.character_sheet(character)
    context = {
        "character": character,
        "access": access,
        "view": view,
        "sheet": sheet_in_language(view.sheet),
        "problems": [problem_in_language(p) for p in view.problems],
        "item_names": selectors.item_names(),
    }
    return render(request, "characters/sheet.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def character_delete(request: HttpRequest, pk: int) -> HttpResponse:
    character, access = selectors.character_for(request.user, pk, edit=True)
    if request.method == "POST":
        campaign_id = character.campaign_id
        name = character.name
        services.character_delete(character=character, by=access)
        messages.success(request, gettext("%(name)s was deleted.") % {"name": name})
        if campaign_id is not None:
            return redirect("campaign-characters", campaign_id)
        return redirect("characters:mine")
    return render(request, "characters/confirm_delete.html", {"character": character})


@login_required
@require_POST
def character_level_up(request: HttpRequest, pk: int) -> HttpResponse:
    """Raise the level by one (the campaign's GMs only), through the campaign's level-up
    service so the timeline and the table hear of it as from the dashboard."""
    from django.core.exceptions import ValidationError

    from campaign.permissions import access_for
    from campaign.registry import level_up_grant

    character, _ = selectors.character_for(request.user, pk, manage=True)
    try:
        grant = level_up_grant(
            character=character,
            by=access_for(request.user, character.campaign_id or 0),
            raised_by=request.user,
        )
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(
            request,
            gettext("%(name)s is now level %(level)s.")
            % {"name": character.name, "level": grant.to_level},
        )
    return redirect("characters:sheet", character.pk)


# --------------------------------------------------------------------------- portrait


@login_required
def portrait(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The portrait, for whoever may see the sheet (never a public media URL)."""
    character, _ = selectors.character_for(request.user, pk)
    return private_file(
        character.portrait,
        content_type=services.portrait_content_type(character.portrait.name or ""),
        cache_control="private, max-age=300",
        missing=gettext("No portrait."),
    )


@login_required
@require_http_methods(["GET", "POST"])
def portrait_upload(request: HttpRequest, pk: int) -> HttpResponse:
    character, access = selectors.character_for(request.user, pk, edit=True)
    form = PortraitForm(request.POST or None, request.FILES or None)
    if request.method == "POST":
        if request.POST.get("remove"):
            services.character_portrait_set(character=character, by=access, file=None)
            messages.success(request, gettext("Portrait removed."))
            return redirect("characters:sheet", character.pk)
        if form.is_valid():
            try:
                services.character_portrait_set(
                    character=character, by=access, file=form.cleaned_data["portrait"]
                )
            except services.PortraitError as exc:
                form.add_error("portrait", str(exc))
            else:
                messages.success(request, "Portrait saved.")
                return redirect("characters:sheet", character.pk)
    status = 400 if form.errors else 200
    return render(
        request, "characters/portrait.html", {"form": form, "character": character}, status=status
    )


# --------------------------------------------------------------------------- export / import


@login_required
def character_export(request: HttpRequest, pk: int) -> HttpResponse:
    """Download the versioned JSON document (private notes only for owner and GMs)."""
    character, access = selectors.character_for(request.user, pk)
    document = services.character_export(character=character, access=access)
    response = HttpResponse(services.export_bytes(document), content_type="application/json")
    filename = f"{slugify(character.name) or 'character'}.westernroses.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def character_import(request: AuthedRequest) -> HttpResponse:
    """Upload an exported character; a bad file is refused with the field and the reason."""
    campaigns = list(campaigns_for_user(request.user))
    form = ImportForm(request.POST or None, request.FILES or None, campaigns=campaigns)
    problems: list[RuleViolation] = []
    if request.method == "POST" and form.is_valid():
        campaign = None
        if form.cleaned_data["campaign"]:
            campaign, _ = campaign_for(request.user, form.cleaned_data["campaign"])
        upload = form.cleaned_data["file"]
        try:
            if upload.size > services.IMPORT_MAX_BYTES:
                raise services.file_too_large()
            character = services.character_import(
                owner=request.user,
                campaign=campaign,
                document=upload.read(),
                by=owned_access(request.user, campaign, request.user.pk),
            )
        except services.CharacterFormatError as exc:
            form.add_error("file", in_language(exc.detail_words))
        except services.CharacterRulesError as exc:
            form.add_error("file", exc.detail)
            problems = exc.violations
        else:
            messages.success(request, f"{character.name} was imported.")
            return redirect("characters:sheet", character.pk)
    status = 400 if form.errors else 200
    return render(
        request, "characters/import.html", {"form": form, "problems": problems}, status=status
    )
