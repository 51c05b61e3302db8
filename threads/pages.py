"""Thread pages: the campaign's threads, one thread with its posts and the reply form, the
posts alone (what an open page fetches when its socket says "changed"), and the GMs' and
authors' actions. Every read and write goes through :mod:`threads.services`."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.typing import AuthedRequest
from apibase.words import quoted
from campaign.form_errors import add_service_errors
from campaign.permissions import CampaignAccess, campaign_for
from characters.models import Character

from . import services
from .forms import (
    EditForm,
    HandoutFromPostForm,
    ManageForm,
    PostForm,
    ReactionForm,
    ThreadForm,
    WikiEntryFromPostForm,
)


def speakers(access: CampaignAccess) -> list[Character]:
    """Who the member may post as: her own characters in the campaign (GMs: and its NPCs)."""
    mine = Q(owner_id=access.user_id)
    if access.is_gm:
        mine |= Q(is_npc=True)
    return list(Character.objects.filter(mine, campaign_id=access.campaign_id).order_by("name"))


@login_required
@require_http_methods(["GET", "POST"])
def thread_list(request: AuthedRequest, pk: int) -> HttpResponse:
    campaign, access = campaign_for(request.user, pk)
    form = ThreadForm(request.POST or None, characters=speakers(access))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            thread = services.thread_create(
                campaign=campaign,
                by=access,
                user=request.user,
                title=data["title"],
                category=data["category"],
                body=data["body"] or "",
                character_id=data["character"],
            )
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(
                request, _("Thread %(title)s started.") % {"title": quoted(thread.title)}
            )
            return redirect("threads:detail", campaign.pk, thread.pk)
    context = {
        "campaign": campaign,
        "access": access,
        "form": form,
        "threads": services.threads_for(access),
    }
    return render(request, "threads/list.html", context, status=400 if form.errors else 200)


def _detail_context(access: CampaignAccess, thread: Any) -> dict[str, Any]:
    return {
        "thread": thread,
        "posts": services.posts_for(access, thread),
        "access": access,
    }


@login_required
@require_http_methods(["GET", "POST"])
def thread_detail(request: AuthedRequest, pk: int, thread_id: int) -> HttpResponse:
    campaign, access = campaign_for(request.user, pk)
    thread = services.thread_for(access, thread_id)
    form = PostForm(request.POST or None, characters=speakers(access))
    if request.method == "POST" and form.is_valid():
        try:
            post = services.post_create(
                thread=thread,
                by=access,
                user=request.user,
                body=form.cleaned_data["body"],
                character_id=form.cleaned_data["character"],
            )
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            return redirect(f"{request.path}#post-{post.pk}")
    services.mark_read(access, thread)
    context = {
        **_detail_context(access, thread),
        "campaign": campaign,
        "form": form,
        "manage_form": ManageForm(
            initial={
                "title": thread.title,
                "category": thread.category,
                "position": thread.position,
                "pinned": thread.pinned,
                "locked": thread.locked,
            }
        )
        if access.is_gm
        else None,
        "may_post": not thread.locked or access.is_gm,
    }
    return render(request, "threads/detail.html", context, status=400 if form.errors else 200)


@login_required
@require_GET
def thread_posts(request: AuthedRequest, pk: int, thread_id: int) -> HttpResponse:
    """The posts alone, for an open page to swap in when its socket says "changed"."""
    campaign, access = campaign_for(request.user, pk)
    thread = services.thread_for(access, thread_id)
    services.mark_read(access, thread)
    context = {**_detail_context(access, thread), "campaign": campaign}
    response = render(request, "threads/_posts.html", context)
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_POST
def thread_manage(request: AuthedRequest, pk: int, thread_id: int) -> HttpResponse:
    campaign, access = campaign_for(request.user, pk, manage=True)
    thread = services.thread_for(access, thread_id)
    form = ManageForm(request.POST)
    if form.is_valid():
        try:
            services.thread_update(thread=thread, by=access, **form.cleaned_data)
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, _("Thread updated."))
            return redirect("threads:detail", campaign.pk, thread.pk)
    context = {
        **_detail_context(access, thread),
        "campaign": campaign,
        "form": PostForm(characters=speakers(access)),
        "manage_form": form,
        "may_post": True,
    }
    return render(request, "threads/detail.html", context, status=400)


@login_required
@require_http_methods(["GET", "POST"])
def post_edit(request: AuthedRequest, pk: int, thread_id: int, post_id: int) -> HttpResponse:
    campaign, access = campaign_for(request.user, pk)
    thread = services.thread_for(access, thread_id)
    post = services.post_for(access, thread, post_id)
    if not access.owns(post.author_id):
        from django.core.exceptions import PermissionDenied

        raise PermissionDenied(_("Only its author edits a post."))
    form = EditForm(request.POST or None, initial={"body": post.body})
    if request.method == "POST" and form.is_valid():
        try:
            services.post_edit(post=post, by=access, body=form.cleaned_data["body"])
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            return redirect(f"{thread_url(campaign.pk, thread.pk)}#post-{post.pk}")
    context = {"campaign": campaign, "access": access, "thread": thread, "post": post, "form": form}
    return render(request, "threads/edit.html", context, status=400 if form.errors else 200)


def thread_url(campaign_id: int, thread_id: int) -> str:
    from django.urls import reverse

    return reverse("threads:detail", args=[campaign_id, thread_id])


@login_required
@require_POST
def post_react(request: AuthedRequest, pk: int, thread_id: int, post_id: int) -> HttpResponse:
    campaign, access = campaign_for(request.user, pk)
    thread = services.thread_for(access, thread_id)
    post = services.post_for(access, thread, post_id)
    form = ReactionForm(request.POST)
    if not form.is_valid():
        return HttpResponse(_("Choose a reaction."), status=400, content_type="text/plain")
    services.reaction_toggle(post=post, by=access, kind=form.cleaned_data["kind"])
    return redirect(f"{thread_url(campaign.pk, thread.pk)}#post-{post.pk}")


@login_required
@require_http_methods(["GET", "POST"])
def post_handout(request: AuthedRequest, pk: int, thread_id: int, post_id: int) -> HttpResponse:
    campaign, access = campaign_for(request.user, pk, manage=True)
    thread = services.thread_for(access, thread_id)
    post = services.post_for(access, thread, post_id)
    form = HandoutFromPostForm(request.POST or None, initial={"title": thread.title})
    if request.method == "POST" and form.is_valid():
        try:
            handout = services.excerpt_to_handout(
                post=post,
                by=access,
                author=request.user,
                title=form.cleaned_data["title"],
                excerpt=form.cleaned_data["excerpt"],
            )
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(
                request,
                _("Handout %(title)s shared with everyone.") % {"title": quoted(handout.title)},
            )
            return redirect("gmtools:handout_detail", campaign.pk, handout.pk)
    context = {"campaign": campaign, "access": access, "thread": thread, "post": post, "form": form}
    return render(request, "threads/handout.html", context, status=400 if form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def post_wiki_entry(request: AuthedRequest, pk: int, thread_id: int, post_id: int) -> HttpResponse:
    """GMs make a wiki entry of a post's passage (the GMs only see it until they reveal it)."""
    from wiki.selectors import kinds_of

    campaign, access = campaign_for(request.user, pk, manage=True)
    thread = services.thread_for(access, thread_id)
    post = services.post_for(access, thread, post_id)
    kinds = [(k.key, k.label) for k in kinds_of(campaign.pk)]
    form = WikiEntryFromPostForm(
        request.POST or None, kinds=kinds, initial={"title": thread.title, "kind": "lore"}
    )
    if request.method == "POST" and form.is_valid():
        try:
            entry = services.excerpt_to_wiki_entry(
                post=post,
                by=access,
                author=request.user,
                title=form.cleaned_data["title"],
                excerpt=form.cleaned_data["excerpt"],
                kind=form.cleaned_data["kind"],
                visibility=form.cleaned_data["visibility"],
            )
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(
                request, _("Wiki entry %(title)s written.") % {"title": quoted(entry.title)}
            )
            return redirect("wiki:detail", campaign.pk, entry.pk)
    context = {"campaign": campaign, "access": access, "thread": thread, "post": post, "form": form}
    return render(request, "threads/wiki_entry.html", context, status=400 if form.errors else 200)
