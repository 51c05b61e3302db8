"""The wiki's API routes, included by ``config/api_urls.py`` before the router."""

from django.urls import path

from . import stat_blocks, views

W = "campaigns/<int:pk>/wiki/"
E = W + "entries/<int:entry_id>/"

urlpatterns = [
    path(W + "kinds/", views.KindListView.as_view(), name="api-wiki-kinds"),
    path(W + "search/", views.SearchView.as_view(), name="api-wiki-search"),
    path(W + "mentions/", views.MentionView.as_view(), name="api-wiki-mentions"),
    path(W + "entries/", views.EntryListView.as_view(), name="api-wiki-entries"),
    path(E, views.EntryDetailView.as_view(), name="api-wiki-entry"),
    path(E + "sections/", views.SectionListView.as_view(), name="api-wiki-sections"),
    path(
        E + "sections/<int:section_id>/",
        views.SectionDetailView.as_view(),
        name="api-wiki-section",
    ),
    path(E + "reveal/", views.RevealView.as_view(), name="api-wiki-reveal"),
    path(E + "stat-block/", stat_blocks.StatBlockView.as_view(), name="api-wiki-stat-block"),
    path(E + "history/", views.HistoryView.as_view(), name="api-wiki-history"),
    path(E + "history/<int:number>/restore/", views.RestoreView.as_view(), name="api-wiki-restore"),
]
