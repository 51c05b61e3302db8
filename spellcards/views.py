"""Spellcard pages: the builder, the deck and the campaign's template library.

Views parse input, ask :mod:`spellcards.selectors` (which asks :mod:`campaign.permissions`) who
may do what, call :mod:`spellcards.services`, and render. Every page works without JavaScript;
``static/js/spellcard_builder.js`` only swaps in the server-rendered preview fragment.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.datastructures import MultiValueDict
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from accounts.typing import AuthedRequest
from apibase.engine_words import reason_in_language
from apibase.words import quoted
from campaign.permissions import access_for, campaign_for
from characters.models import Character
from characters.sheet_words import problem_in_language
from westernroses.spellcards import CardFormatError, SpellcardDraft

from . import selectors, services
from .forms import DEFAULT_INITIAL, CopiesForm, CopyTemplateForm, SpellcardForm
from .models import Spellcard, TemplateCard


def _caster_or_page(request: HttpRequest, character: Character) -> Any:
    """The caster context, or a page explaining what the character still lacks."""
    try:
        return selectors.caster_context(character)
    except selectors.CharacterIncomplete as exc:
        return render(
            request,
            "spellcards/incomplete.html",
            {"character": character, "reason": reason_in_language(exc)},
            status=409,
        )


def _initial_draft(form: SpellcardForm, initial: dict[str, Any]) -> SpellcardDraft | None:
    try:
        return SpellcardDraft.from_dict(form.draft_data(initial))
    except (CardFormatError, TypeError, ValueError):
        return None


def _as_data(initial: dict[str, Any]) -> MultiValueDict[str, Any]:
    """Form data equal to ``initial`` (lists stay lists, None becomes empty)."""
    data: MultiValueDict[str, Any] = MultiValueDict()
    for key, value in initial.items():
        if isinstance(value, list):
            data.setlist(key, [str(v) for v in value])
        elif isinstance(value, bool):
            if value:
                data[key] = "on"
        elif value is not None:
            data[key] = str(value)
    return data


def _builder(
    request: AuthedRequest,
    character: Character,
    *,
    card: Spellcard | None = None,
    initial: dict[str, Any] | None = None,
    template: TemplateCard | None = None,
) -> HttpResponse:
    ctx = _caster_or_page(request, character)
    if isinstance(ctx, HttpResponse):
        return ctx
    data: MultiValueDict[str, Any] | None = None
    if request.method == "POST":
        data = request.POST
    elif request.GET.get("type"):  # "Show cost" without JavaScript, or the live preview
        data = request.GET
    elif template is not None and initial is not None:
        # A copied template is checked at once: what does not fit shows beside its field.
        data = _as_data(initial)
    initial = initial or dict(DEFAULT_INITIAL)
    form = SpellcardForm(data, initial=initial, caster=ctx.caster, rules=ctx.rules)
    status = 200
    rejected: services.SpellcardRejected | None = None
    if data is not None:
        valid = form.is_valid()
        if request.method == "POST" and valid and form.draft is not None:
            response = _save(request, character, form, card, template)
            if isinstance(response, HttpResponse):
                return response
            rejected = response
        if request.method == "POST":
            status = 400
        draft = form.draft
    else:
        draft = _initial_draft(form, initial)
    preview = services.preview_for(ctx, draft) if draft is not None else None
    field_errors = sum(len(errors) for errors in form.errors.values()) if data is not None else 0
    context = {
        "field_error_count": field_errors,
        "character": character,
        "card": card,
        "form": form,
        "preview": preview,
        "ctx": ctx,
        "bound": data is not None,
        "rejected": rejected,
        "is_gm": character.campaign_id is not None
        and access_for(request.user, character.campaign_id).is_gm,
    }
    if request.GET.get("partial") == "preview":
        return render(request, "spellcards/_preview.html", context)
    return render(request, "spellcards/builder.html", context, status=status)


def _save(
    request: AuthedRequest,
    character: Character,
    form: SpellcardForm,
    card: Spellcard | None,
    template: TemplateCard | None,
) -> HttpResponse | services.SpellcardRejected:
    assert form.draft is not None  # noqa: S101 - checked by the caller
    description = form.cleaned_data.get("description") or ""
    action = request.POST.get("action", "save")
    try:
        if action == "template":
            if character.campaign is None:
                raise PermissionDenied
            services.template_card_create(
                by=request.user,
                campaign=character.campaign,
                draft=form.draft,
                description=description,
            )
            messages.success(
                request,
                gettext("%(name)s is in the campaign's template cards.")
                % {"name": quoted(form.draft.name)},
            )
            return redirect("spellcards:templates", character.campaign_id)
        if card is None:
            saved = services.spellcard_create(
                by=request.user,
                character=character,
                draft=form.draft,
                description=description,
                add_to_deck=1,
                source_template=template,
            )
            messages.success(
                request,
                gettext("%(card)s is in %(character)s's deck.")
                % {"card": quoted(saved.name), "character": character.name},
            )
        else:
            saved = services.spellcard_update(
                by=request.user, spellcard=card, draft=form.draft, description=description
            )
            messages.success(request, gettext("%(card)s saved.") % {"card": quoted(saved.name)})
    except services.SpellcardRejected as exc:
        for violation in exc.violations:
            problem = problem_in_language(violation.to_dict(words=True))
            form.add_error(form.field_for(violation.field), problem["message"])
        for deck_violation in exc.deck_violations:
            form.add_error(None, problem_in_language(deck_violation.to_dict(words=True))["message"])
        return exc
    return redirect("spellcards:deck", character.pk)


@login_required
@require_http_methods(["GET", "POST"])
def builder_new(request: AuthedRequest, character_id: int) -> HttpResponse:
    """Design a new card for a character; "Save to deck" creates it with one copy in the deck."""
    character = selectors.character_for(request.user, character_id)
    initial = None
    template = None
    template_id = request.GET.get("template")
    if template_id:
        template, _ = selectors.template_card_for(request.user, template_id)
        if template.campaign_id != character.campaign_id:
            raise PermissionDenied(gettext("That template belongs to another campaign."))
        initial = SpellcardForm.initial_from(template.draft, template.description)
    return _builder(request, character, initial=initial, template=template)


@login_required
@require_http_methods(["GET", "POST"])
def builder_edit(request: AuthedRequest, pk: int) -> HttpResponse:
    card = selectors.spellcard_for(request.user, pk)
    initial = SpellcardForm.initial_from(card.draft, card.description)
    return _builder(request, card.character, card=card, initial=initial)


@login_required
@require_http_methods(["POST"])
def spellcard_delete(request: AuthedRequest, pk: int) -> HttpResponse:
    card = selectors.spellcard_for(request.user, pk)
    character_id = card.character_id
    services.spellcard_delete(by=request.user, spellcard=card)
    messages.success(request, gettext("%(card)s deleted.") % {"card": quoted(card.name)})
    return redirect("spellcards:deck", character_id)


def _deck_context(request: HttpRequest, character: Character) -> dict[str, Any]:
    return {
        "character": character,
        "deck": services.deck_summary(character),
        "can_edit": True,
    }


@login_required
def deck(request: HttpRequest, character_id: int) -> HttpResponse:
    """A character's deck (owner and GMs only: decks are private, docs/spellcards.md)."""
    character = selectors.character_for(request.user, character_id)
    return render(request, "spellcards/deck.html", _deck_context(request, character))


@login_required
@require_http_methods(["POST"])
def deck_copies(request: AuthedRequest, character_id: int) -> HttpResponse:
    """Set how many copies of a card the deck holds; a deck over its limits is refused (400)."""
    character = selectors.character_for(request.user, character_id)
    form = CopiesForm(request.POST)
    errors: list[str] = []
    if form.is_valid():
        card = Spellcard.objects.filter(
            pk=form.cleaned_data["spellcard"], character=character
        ).first()
        if card is None:
            errors.append(gettext("That card is not one of this character's spellcards."))
        else:
            try:
                services.deck_set_copies(
                    by=request.user,
                    character=character,
                    spellcard=card,
                    copies=form.cleaned_data["copies"],
                )
            except services.SpellcardRejected as exc:
                errors += [
                    problem_in_language(v.to_dict(words=True))["message"]
                    for v in exc.deck_violations
                ]
            else:
                copies = form.cleaned_data["copies"]
                messages.success(
                    request,
                    gettext("%(card)s: %(copies)s in the deck.")
                    % {"card": card.name, "copies": copies},
                )
                return redirect("spellcards:deck", character.pk)
    else:
        errors += [
            gettext("%(field)s: %(problem)s")
            % {
                "field": form[k].label if k in form.fields else k,
                "problem": " ".join(str(m) for m in v),
            }
            for k, v in form.errors.items()
        ]
    context = _deck_context(request, character)
    context["copy_errors"] = errors
    return render(request, "spellcards/deck.html", context, status=400)


# --------------------------------------------------------------------------- templates


def _templates_page(
    request: AuthedRequest, campaign_id: int, *, status: int = 200, **extra: Any
) -> HttpResponse:
    campaign, access = campaign_for(request.user, campaign_id)
    characters = list(selectors.campaign_characters_for(request.user, campaign))
    context = {
        "campaign": campaign,
        "access": access,
        "templates": selectors.template_summaries(selectors.template_cards_for(access), characters),
        "characters": characters,
        "copy_form": CopyTemplateForm(characters=characters),
        **extra,
    }
    return render(request, "spellcards/templates.html", context, status=status)


@login_required
def template_list(request: AuthedRequest, campaign_id: int) -> HttpResponse:
    """The campaign's template cards: every member browses; GMs make them in the builder."""
    return _templates_page(request, campaign_id)


@login_required
@require_http_methods(["POST"])
def template_copy(request: AuthedRequest, pk: int) -> HttpResponse:
    """Copy a template onto one of my characters; illegal parts are listed, nothing dropped."""
    template, _ = selectors.template_card_for(request.user, pk)
    characters = list(selectors.campaign_characters_for(request.user, template.campaign))
    form = CopyTemplateForm(request.POST, characters=characters)
    if not form.is_valid():
        return _templates_page(
            request, template.campaign_id, status=400, failed=template, copy_form_errors=form.errors
        )
    character = selectors.character_for(request.user, form.cleaned_data["character"])
    try:
        card = services.template_card_copy(
            by=request.user,
            template=template,
            character=character,
            add_to_deck=1 if form.cleaned_data["add_to_deck"] else 0,
        )
    except services.SpellcardRejected as exc:
        builder = reverse("spellcards:new", args=[character.pk]) + f"?template={template.pk}"
        return _templates_page(
            request,
            template.campaign_id,
            status=400,
            failed=template,
            failed_for=character,
            rejected=exc,
            builder_url=builder,
        )
    except selectors.CharacterIncomplete as exc:
        return _templates_page(
            request,
            template.campaign_id,
            status=400,
            failed=template,
            incomplete=reason_in_language(exc),
        )
    messages.success(
        request,
        gettext("%(card)s copied to %(character)s.")
        % {"card": quoted(card.name), "character": character.name},
    )
    return redirect("spellcards:deck", character.pk)


@login_required
@require_http_methods(["POST"])
def template_delete(request: AuthedRequest, pk: int) -> HttpResponse:
    template, _ = selectors.template_card_for(request.user, pk, manage=True)
    campaign_id = template.campaign_id
    services.template_card_delete(by=request.user, template=template)
    messages.success(
        request, gettext("Template %(name)s deleted.") % {"name": quoted(template.name)}
    )
    return redirect("spellcards:templates", campaign_id)
