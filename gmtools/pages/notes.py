"""GM notes pages: GMs only (players 403, outsiders 404), like every other read of notes."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from accounts.typing import AuthedRequest
from campaign.permissions import campaign_for

from .. import notes as note_services
from ..forms import NoteForm, add_service_errors


@login_required
@require_http_methods(["GET", "POST"])
def note_list(request: AuthedRequest, pk: int) -> HttpResponse:
    campaign, access = campaign_for(request.user, pk, manage=True)
    form = NoteForm(request.POST or None, campaign_id=campaign.pk)
    if request.method == "POST" and form.is_valid():
        try:
            note_services.note_create(
                campaign=campaign,
                by=access,
                author=request.user,
                title=form.cleaned_data["title"],
                body=form.cleaned_data["body"],
                session=form.cleaned_data["session"],
            )
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, gettext("Note saved (only the GMs see it)."))
            return redirect("gmtools:notes", campaign.pk)
    context = {
        "campaign": campaign,
        "access": access,
        "form": form,
        "notes": note_services.notes_visible_to(access),
    }
    return render(request, "gmtools/notes.html", context, status=400 if form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def note_edit(request: HttpRequest, pk: int, note_id: int) -> HttpResponse:
    campaign, access = campaign_for(request.user, pk, manage=True)
    note = note_services.note_for(access, note_id)
    form = NoteForm(
        request.POST or None,
        campaign_id=campaign.pk,
        initial={"title": note.title, "body": note.body, "session": note.session_id},
    )
    if request.method == "POST" and form.is_valid():
        try:
            note_services.note_update(
                note=note,
                by=access,
                title=form.cleaned_data["title"],
                body=form.cleaned_data["body"],
                session=form.cleaned_data["session"],
            )
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, gettext("Note saved."))
            return redirect("gmtools:notes", campaign.pk)
    context = {"campaign": campaign, "access": access, "form": form, "note": note}
    return render(request, "gmtools/note_edit.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def note_delete(request: HttpRequest, pk: int, note_id: int) -> HttpResponse:
    campaign, access = campaign_for(request.user, pk, manage=True)
    note_services.note_delete(note=note_services.note_for(access, note_id), by=access)
    messages.success(request, gettext("Note deleted."))
    return redirect("gmtools:notes", campaign.pk)
