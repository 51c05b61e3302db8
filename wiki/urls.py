"""The wiki's pages, under /campaigns/<id>/wiki/."""

from django.urls import path

from . import pages, stat_block_pages

app_name = "wiki"

urlpatterns = [
    path("<int:pk>/wiki/", pages.entry_list, name="list"),
    path("<int:pk>/wiki/new/", pages.entry_new, name="new"),
    path("<int:pk>/wiki/<int:entry_id>/", pages.entry_detail, name="detail"),
    path("<int:pk>/wiki/<int:entry_id>/edit/", pages.entry_edit, name="edit"),
    path("<int:pk>/wiki/<int:entry_id>/delete/", pages.entry_delete, name="delete"),
    path("<int:pk>/wiki/<int:entry_id>/picture/", pages.entry_image, name="image"),
    path("<int:pk>/wiki/<int:entry_id>/reveal/", pages.entry_reveal, name="reveal"),
    path("<int:pk>/wiki/<int:entry_id>/history/", pages.entry_history, name="history"),
    path(
        "<int:pk>/wiki/<int:entry_id>/stat-block/",
        stat_block_pages.stat_block_edit,
        name="stat_block",
    ),
    path(
        "<int:pk>/wiki/<int:entry_id>/history/<int:number>/restore/",
        pages.entry_restore,
        name="restore",
    ),
    path("<int:pk>/wiki/<int:entry_id>/sections/new/", pages.section_save, name="section_new"),
    path(
        "<int:pk>/wiki/<int:entry_id>/sections/<int:section_id>/edit/",
        pages.section_save,
        name="section_edit",
    ),
    path(
        "<int:pk>/wiki/<int:entry_id>/sections/<int:section_id>/delete/",
        pages.section_delete,
        name="section_delete",
    ),
]
