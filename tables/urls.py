"""The table core's pages (from ``config/urls.py``): the replay page of any game's table."""

from django.urls import path

from . import pages

app_name = "tables"

urlpatterns = [
    path("tables/<slug:game>/<int:pk>/replay/", pages.replay_page, name="replay"),
]
