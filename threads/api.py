"""The threads API, under ``/api/campaigns/<id>/threads/``: the same permission layer and
services as the pages (a campaign the caller is not in answers 404; a player never receives
another's secret roll)."""

from __future__ import annotations

from typing import Any

from django.urls import path
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.typing import signed_in
from apibase.numbers import object_id
from campaign.permissions import campaign_for

from . import services
from .serializers import (
    ThreadHandoutFromPostSerializer,
    ThreadInputSerializer,
    ThreadPostEditSerializer,
    ThreadPostInputSerializer,
    ThreadPostSerializer,
    ThreadReactionInputSerializer,
    ThreadSerializer,
    ThreadUpdateSerializer,
    ThreadWikiEntryFromPostSerializer,
)


def _thread_out(access: Any, thread_id: int) -> dict[str, Any]:
    thread = services.threads_for(access).get(pk=thread_id)
    return dict(ThreadSerializer(thread).data)


class ThreadListView(APIView):
    """The campaign's threads (pinned first, then by scene or topic and place), with your
    unread counts; any member starts one (POST, with an optional first post)."""

    @extend_schema(responses=ThreadSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        _, access = campaign_for(request.user, pk)
        return Response(ThreadSerializer(services.threads_for(access), many=True).data)

    @extend_schema(request=ThreadInputSerializer, responses={201: ThreadSerializer})
    def post(self, request: Request, pk: int) -> Response:
        campaign, access = campaign_for(request.user, pk)
        serializer = ThreadInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        thread = services.thread_create(
            campaign=campaign,
            by=access,
            user=signed_in(request),
            title=data["title"],
            category=data["category"],
            body=data["body"],
            character_id=data["character"],
        )
        return Response(_thread_out(access, thread.pk), status=status.HTTP_201_CREATED)


class ThreadDetailView(APIView):
    """One thread; GMs rename, file, order, pin and lock it (PATCH) or delete it."""

    @extend_schema(responses=ThreadSerializer)
    def get(self, request: Request, pk: int, thread_id: int) -> Response:
        _, access = campaign_for(request.user, pk)
        thread = services.thread_for(access, thread_id)
        return Response(_thread_out(access, thread.pk))

    @extend_schema(request=ThreadUpdateSerializer, responses=ThreadSerializer)
    def patch(self, request: Request, pk: int, thread_id: int) -> Response:
        _, access = campaign_for(request.user, pk, manage=True)
        thread = services.thread_for(access, thread_id)
        serializer = ThreadUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.thread_update(thread=thread, by=access, **serializer.validated_data)
        return Response(_thread_out(access, thread.pk))

    @extend_schema(responses={204: None})
    def delete(self, request: Request, pk: int, thread_id: int) -> Response:
        _, access = campaign_for(request.user, pk, manage=True)
        thread = services.thread_for(access, thread_id)
        services.thread_delete(thread=thread, by=access)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PostListView(APIView):
    """A thread's posts as you may see them (``since``: only those after a post id); a member
    posts (a locked thread: GMs only). Reading marks the thread read."""

    @extend_schema(
        parameters=[OpenApiParameter("since", int, description="Only posts after this id")],
        responses=ThreadPostSerializer(many=True),
    )
    def get(self, request: Request, pk: int, thread_id: int) -> Response:
        _, access = campaign_for(request.user, pk)
        thread = services.thread_for(access, thread_id)
        since_raw = request.query_params.get("since")
        since = None
        if since_raw not in (None, ""):
            since = object_id(since_raw)
            if since is None:
                return Response(
                    {"since": [gettext("Give a post's id.")]}, status=status.HTTP_400_BAD_REQUEST
                )
        posts = services.posts_for(access, thread, since=since)
        services.mark_read(access, thread)
        return Response(ThreadPostSerializer(posts, many=True).data)

    @extend_schema(request=ThreadPostInputSerializer, responses={201: ThreadPostSerializer})
    def post(self, request: Request, pk: int, thread_id: int) -> Response:
        _, access = campaign_for(request.user, pk)
        thread = services.thread_for(access, thread_id)
        serializer = ThreadPostInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        post = services.post_create(
            thread=thread,
            by=access,
            user=signed_in(request),
            body=serializer.validated_data["body"],
            character_id=serializer.validated_data["character"],
        )
        shown = services.posts_for(access, thread, since=post.pk - 1)[0]
        return Response(ThreadPostSerializer(shown).data, status=status.HTTP_201_CREATED)


def _shown(access: Any, thread: Any, post_id: int) -> Any:
    return next(p for p in services.posts_for(access, thread) if p.post.pk == post_id)


class PostDetailView(APIView):
    """One post; its author edits the text (PATCH: shown as edited, rolls unchanged)."""

    @extend_schema(responses=ThreadPostSerializer)
    def get(self, request: Request, pk: int, thread_id: int, post_id: int) -> Response:
        _, access = campaign_for(request.user, pk)
        thread = services.thread_for(access, thread_id)
        post = services.post_for(access, thread, post_id)
        return Response(ThreadPostSerializer(_shown(access, thread, post.pk)).data)

    @extend_schema(request=ThreadPostEditSerializer, responses=ThreadPostSerializer)
    def patch(self, request: Request, pk: int, thread_id: int, post_id: int) -> Response:
        _, access = campaign_for(request.user, pk)
        thread = services.thread_for(access, thread_id)
        post = services.post_for(access, thread, post_id)
        serializer = ThreadPostEditSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.post_edit(post=post, by=access, body=serializer.validated_data["body"])
        return Response(ThreadPostSerializer(_shown(access, thread, post.pk)).data)


class ReactionView(APIView):
    """React to a post, or take the reaction back (the same kind again)."""

    @extend_schema(request=ThreadReactionInputSerializer, responses=ThreadPostSerializer)
    def post(self, request: Request, pk: int, thread_id: int, post_id: int) -> Response:
        _, access = campaign_for(request.user, pk)
        thread = services.thread_for(access, thread_id)
        post = services.post_for(access, thread, post_id)
        serializer = ThreadReactionInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.reaction_toggle(post=post, by=access, kind=serializer.validated_data["kind"])
        return Response(ThreadPostSerializer(_shown(access, thread, post.pk)).data)


class HandoutFromPostView(APIView):
    """GMs turn a post's text, or a passage of it, into a handout (its id in the answer)."""

    @extend_schema(request=ThreadHandoutFromPostSerializer, responses={201: None})
    def post(self, request: Request, pk: int, thread_id: int, post_id: int) -> Response:
        _, access = campaign_for(request.user, pk, manage=True)
        thread = services.thread_for(access, thread_id)
        post = services.post_for(access, thread, post_id)
        serializer = ThreadHandoutFromPostSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        handout = services.excerpt_to_handout(
            post=post,
            by=access,
            author=signed_in(request),
            title=data["title"],
            excerpt=data["excerpt"],
            recipient_ids=data["recipients"],
        )
        return Response(
            {"handout": handout.pk, "title": handout.title}, status=status.HTTP_201_CREATED
        )


class WikiEntryFromPostView(APIView):
    """GMs turn a post's text, or a passage of it, into a wiki entry (the GMs only see it
    unless ``visibility`` says otherwise); the answer names the entry."""

    @extend_schema(request=ThreadWikiEntryFromPostSerializer, responses={201: None})
    def post(self, request: Request, pk: int, thread_id: int, post_id: int) -> Response:
        _, access = campaign_for(request.user, pk, manage=True)
        thread = services.thread_for(access, thread_id)
        post = services.post_for(access, thread, post_id)
        serializer = ThreadWikiEntryFromPostSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        entry = services.excerpt_to_wiki_entry(
            post=post,
            by=access,
            author=signed_in(request),
            title=data["title"],
            excerpt=data["excerpt"],
            kind=data["kind"],
            visibility=data["visibility"],
            viewer_ids=data["viewers"],
        )
        return Response({"entry": entry.pk, "title": entry.title}, status=status.HTTP_201_CREATED)


api_urlpatterns = [
    path("campaigns/<int:pk>/threads/", ThreadListView.as_view(), name="api-threads"),
    path(
        "campaigns/<int:pk>/threads/<int:thread_id>/",
        ThreadDetailView.as_view(),
        name="api-thread",
    ),
    path(
        "campaigns/<int:pk>/threads/<int:thread_id>/posts/",
        PostListView.as_view(),
        name="api-thread-posts",
    ),
    path(
        "campaigns/<int:pk>/threads/<int:thread_id>/posts/<int:post_id>/",
        PostDetailView.as_view(),
        name="api-thread-post",
    ),
    path(
        "campaigns/<int:pk>/threads/<int:thread_id>/posts/<int:post_id>/reactions/",
        ReactionView.as_view(),
        name="api-thread-post-reactions",
    ),
    path(
        "campaigns/<int:pk>/threads/<int:thread_id>/posts/<int:post_id>/handout/",
        HandoutFromPostView.as_view(),
        name="api-thread-post-handout",
    ),
    path(
        "campaigns/<int:pk>/threads/<int:thread_id>/posts/<int:post_id>/wiki-entry/",
        WikiEntryFromPostView.as_view(),
        name="api-thread-post-wiki-entry",
    ),
]
