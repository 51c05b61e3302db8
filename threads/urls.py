"""Thread pages under /campaigns/<id>/threads/ (the API's are in threads/api.py)."""

from django.urls import path

from . import pages

app_name = "threads"

urlpatterns = [
    path("<int:pk>/threads/", pages.thread_list, name="list"),
    path("<int:pk>/threads/<int:thread_id>/", pages.thread_detail, name="detail"),
    path("<int:pk>/threads/<int:thread_id>/posts/", pages.thread_posts, name="posts"),
    path("<int:pk>/threads/<int:thread_id>/manage/", pages.thread_manage, name="manage"),
    path(
        "<int:pk>/threads/<int:thread_id>/posts/<int:post_id>/edit/",
        pages.post_edit,
        name="post_edit",
    ),
    path(
        "<int:pk>/threads/<int:thread_id>/posts/<int:post_id>/react/",
        pages.post_react,
        name="post_react",
    ),
    path(
        "<int:pk>/threads/<int:thread_id>/posts/<int:post_id>/handout/",
        pages.post_handout,
        name="post_handout",
    ),
    path(
        "<int:pk>/threads/<int:thread_id>/posts/<int:post_id>/wiki-entry/",
        pages.post_wiki_entry,
        name="post_wiki_entry",
    ),
]
