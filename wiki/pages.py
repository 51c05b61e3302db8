"""The wiki's pages: members read what they may see (anything else is a 404 for them); GMs
write entries and sections, reveal secrets, read the history and restore a version."""

from __future__ import annotations

from typing import Any, TypeVar

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.typing import AuthedRequest
from apibase.media import private_file
from apibase.words import quoted
from campaign.form_errors import add_service_errors
from campaign.models import Membership, Role
from campaign.permissions import CampaignAccess, campaign_for

from . import search as wiki_search
from . import selectors, services
from .forms import EntryForm, KindForm, RevealForm, SectionForm
from .models import Entry, Revision, Section
from .render import Renderer
from .stat_blocks import stat_block_rows


def _players(campaign_id: int) -> list[tuple[int, str]]:
    rows = (
        Membership.objects.filter(campaign_id=campaign_id, role=Role.PLAYER)
        .select_related("user")
        .order_by("user__username")
    )
    return [(m.user_id, m.user.shown_name) for m in rows]


FormT = TypeVar("FormT", bound=forms.Form)


def _mentions(form: FormT, campaign_id: int) -> FormT:
    """The text box offers mentions as you type (static/js/wiki_mentions.js)."""
    if "body" in form.fields:
        url = reverse("api-wiki-mentions", args=[campaign_id])
        form.fields["body"].widget.attrs["data-mentions"] = url
    return form


def _entry_form(
    access: CampaignAccess, data: Any = None, files: Any = None, **kw: Any
) -> EntryForm:
    entries = list(selectors.entries_visible_to(access).order_by("title"))
    form = EntryForm(
        data,
        files,
        kinds=selectors.kinds_of(access.campaign_id),
        entries=entries,
        players=_players(access.campaign_id),
        **kw,
    )
    return _mentions(form, access.campaign_id)


@login_required
@require_http_methods(["GET", "POST"])
def entry_list(request: AuthedRequest, pk: int) -> HttpResponse:
    """Every entry she may see, by kind or tag, or what the search finds; GMs add a kind."""
    campaign, access = campaign_for(request.user, pk, manage=request.method == "POST")
    kind_form = KindForm(request.POST or None) if access.can_manage else None
    if request.method == "POST" and kind_form is not None and kind_form.is_valid():
        try:
            kind = services.kind_add(
                campaign_id=campaign.pk, by=access, name=kind_form.cleaned_data["name"]
            )
        except ValidationError as exc:
            add_service_errors(kind_form, exc)
        else:
            messages.success(request, _("Kind %(name)s added.") % {"name": quoted(kind.name)})
            return redirect("wiki:list", campaign.pk)
    kinds = selectors.kinds_of(campaign.pk)
    query = request.GET.get("q", "")[: wiki_search.MAX_QUERY]
    kind_key = request.GET.get("kind", "").replace("\x00", "")[:40]
    tag = request.GET.get("tag", "").replace("\x00", "")[:40].strip().lower()
    found = None
    entries: list[Entry] = []
    if query.strip():
        found = wiki_search.search(access, query)
    else:
        rows = selectors.entries_visible_to(access).order_by("title", "pk")
        if kind_key:
            rows = rows.filter(kind__key=kind_key)
        if tag:
            rows = rows.filter(tags__icontains=f'"{tag}"')
        entries = list(rows[:500])
    context = {
        "campaign": campaign,
        "access": access,
        "kinds": kinds,
        "kind_key": kind_key,
        "tag": tag,
        "query": query,
        "found": found,
        "entries": entries,
        "kind_form": kind_form,
        "method": wiki_search.default_method(),
    }
    status = 400 if kind_form is not None and kind_form.errors else 200
    return render(request, "wiki/list.html", context, status=status)


@login_required
def entry_detail(request: HttpRequest, pk: int, entry_id: int) -> HttpResponse:
    campaign, access = campaign_for(request.user, pk)
    entry = selectors.entry_for(access, entry_id)
    sections = list(entry.sections.all())
    renderer = Renderer(access, [entry.body, *(s.body for s in sections)])
    context = {
        "campaign": campaign,
        "access": access,
        "entry": entry,
        "body_html": renderer.html(entry.body),
        "sections": [(s, renderer.html(s.body)) for s in sections],
        "backlinks": selectors.backlinks(access, entry),
        # the GMs' alone (wiki/stat_blocks.py); a player's page has no trace of it
        "stat_block": stat_block_rows(entry) if access.is_gm else [],
        "section_form": _mentions(SectionForm(players=_players(campaign.pk)), campaign.pk)
        if access.is_gm
        else None,
        "reveal_form": RevealForm(players=_players(campaign.pk)) if access.is_gm else None,
    }
    return render(request, "wiki/detail.html", context)


def _save_entry(request: AuthedRequest, pk: int, entry_id: int | None) -> HttpResponse:
    campaign, access = campaign_for(request.user, pk, manage=True)
    entry = selectors.entry_for(access, entry_id) if entry_id is not None else None
    initial: dict[str, Any] = {}
    if entry is not None:
        initial = {
            "title": entry.title,
            "kind": entry.kind.key,
            "body": Renderer(access, [entry.body]).source(entry.body),
            "tags": ", ".join(entry.tags),
            "visibility": entry.visibility,
            "viewers": [u.pk for u in entry.viewers.all()],
            "parent": entry.parent_id,
            "members": list(entry.members.values_list("pk", flat=True)),
        }
    else:
        initial = {"kind": request.GET.get("kind", "").replace("\x00", "")[:40]}
    form = _entry_form(access, request.POST or None, request.FILES or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        fields = {
            "title": data["title"],
            "kind": data["kind"],
            "body": data["body"],
            "tags": data["tags"],
            "visibility": data["visibility"],
            "viewer_ids": data["viewers"],
            "parent_id": data["parent"],
            "member_ids": data["members"],
            "image": data["image"],
        }
        try:
            if entry is None:
                entry = services.entry_create(
                    campaign_id=campaign.pk, by=access, author=request.user, **fields
                )
            else:
                entry = services.entry_update(
                    entry=entry,
                    by=access,
                    author=request.user,
                    remove_image=data["remove_image"],
                    **fields,
                )
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, _("Entry %(title)s saved.") % {"title": quoted(entry.title)})
            return redirect("wiki:detail", campaign.pk, entry.pk)
    if entry is None:
        del form.fields["remove_image"]
    context = {"campaign": campaign, "access": access, "form": form, "entry": entry}
    return render(request, "wiki/entry_form.html", context, status=400 if form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def entry_new(request: AuthedRequest, pk: int) -> HttpResponse:
    return _save_entry(request, pk, None)


@login_required
@require_http_methods(["GET", "POST"])
def entry_edit(request: AuthedRequest, pk: int, entry_id: int) -> HttpResponse:
    return _save_entry(request, pk, entry_id)


@login_required
@require_POST
def entry_delete(request: HttpRequest, pk: int, entry_id: int) -> HttpResponse:
    campaign, access = campaign_for(request.user, pk, manage=True)
    entry = selectors.entry_for(access, entry_id)
    services.entry_delete(entry=entry, by=access)
    messages.success(request, _("Entry %(title)s deleted.") % {"title": quoted(entry.title)})
    return redirect("wiki:list", campaign.pk)


@login_required
def entry_image(request: HttpRequest, pk: int, entry_id: int) -> HttpResponseBase:
    """The entry's picture, for whoever may see the entry (never a public media URL)."""
    _campaign, access = campaign_for(request.user, pk)
    entry = selectors.entry_for(access, entry_id)
    extension = (entry.image.name or "").rsplit(".", 1)[-1].lower()
    return private_file(
        entry.image,
        content_type=services.IMAGE_TYPES.get(extension, "application/octet-stream"),
        cache_control="private, max-age=300",
        missing=_("This entry has no picture."),
    )


@login_required
@require_http_methods(["GET", "POST"])
def section_save(
    request: AuthedRequest, pk: int, entry_id: int, section_id: int | None = None
) -> HttpResponse:
    campaign, access = campaign_for(request.user, pk, manage=True)
    entry = selectors.entry_for(access, entry_id)
    section = selectors.section_for(access, entry, section_id) if section_id else None
    initial = {}
    if section is not None:
        initial = {
            "heading": section.heading,
            "body": Renderer(access, [section.body]).source(section.body),
            "visibility": section.visibility,
            "viewers": [u.pk for u in section.viewers.all()],
        }
    form = SectionForm(request.POST or None, players=_players(campaign.pk), initial=initial)
    _mentions(form, campaign.pk)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.section_save(
                entry=entry,
                by=access,
                author=request.user,
                heading=data["heading"],
                body=data["body"],
                visibility=data["visibility"],
                viewer_ids=data["viewers"],
                section=section,
            )
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, _("Section saved."))
            return redirect("wiki:detail", campaign.pk, entry.pk)
    context = {
        "campaign": campaign,
        "access": access,
        "form": form,
        "entry": entry,
        "section": section,
    }
    return render(request, "wiki/section_form.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def section_delete(request: AuthedRequest, pk: int, entry_id: int, section_id: int) -> HttpResponse:
    campaign, access = campaign_for(request.user, pk, manage=True)
    entry = selectors.entry_for(access, entry_id)
    section = selectors.section_for(access, entry, section_id)
    services.section_delete(section=section, by=access, author=request.user)
    messages.success(request, _("Section deleted."))
    return redirect("wiki:detail", campaign.pk, entry.pk)


@login_required
@require_POST
def entry_reveal(request: AuthedRequest, pk: int, entry_id: int) -> HttpResponse:
    """One click: to everyone (``to=all``), or to the ticked players; a whole entry or one
    section (``section``)."""
    campaign, access = campaign_for(request.user, pk, manage=True)
    entry = selectors.entry_for(access, entry_id)
    form = RevealForm(request.POST, players=_players(campaign.pk))
    if not form.is_valid():
        messages.error(request, _("Choose who to show it to."))
        return redirect("wiki:detail", campaign.pk, entry.pk)
    section: Section | None = None
    if form.cleaned_data["section"]:
        section = selectors.section_for(access, entry, form.cleaned_data["section"])
    try:
        services.reveal(
            entry=entry,
            by=access,
            author=request.user,
            section=section,
            to_all=request.POST.get("to") == "all",
            player_ids=form.cleaned_data["players"],
        )
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, _("Revealed; the timeline shows it."))
    return redirect("wiki:detail", campaign.pk, entry.pk)


@login_required
def entry_history(request: HttpRequest, pk: int, entry_id: int) -> HttpResponse:
    campaign, access = campaign_for(request.user, pk, manage=True)
    entry = selectors.entry_for(access, entry_id)
    revisions = list(
        Revision.objects.filter(entry=entry).select_related("by").order_by("-number")[:200]
    )
    texts = [str(r.snapshot.get("body", "")) for r in revisions]
    renderer = Renderer(access, texts)
    context = {
        "campaign": campaign,
        "access": access,
        "entry": entry,
        "revisions": [(r, renderer.source(text)) for r, text in zip(revisions, texts, strict=True)],
    }
    return render(request, "wiki/history.html", context)


@login_required
@require_POST
def entry_restore(request: AuthedRequest, pk: int, entry_id: int, number: int) -> HttpResponse:
    campaign, access = campaign_for(request.user, pk, manage=True)
    entry = selectors.entry_for(access, entry_id)
    try:
        services.entry_restore(entry=entry, by=access, author=request.user, number=number)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("wiki:history", campaign.pk, entry.pk)
    messages.success(
        request, _("Version %(number)s restored as a new version.") % {"number": number}
    )
    return redirect("wiki:detail", campaign.pk, entry.pk)
