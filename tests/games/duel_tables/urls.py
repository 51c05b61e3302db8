"""The project's URLs plus the duel's page and its three table endpoints (``@pytest.mark.urls``)."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import include, path, reverse

from config.urls import urlpatterns as project
from tables.api import table_api_urls
from tables.registry import game_for
from tables.selectors import table_for


@login_required
def duel_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The table page: everything on it comes from the client's polls of the core's API."""
    table, _ = table_for(game_for("duel"), request.user, pk)
    urls = {
        "state_url": reverse("api-duel-state", args=[table.pk]),
        "action_url": reverse("api-duel-actions", args=[table.pk]),
    }
    return render(request, "duel_tables/table.html", urls)


# The duel's routes first: the project's last route answers every other /api/ path with a 404.
urlpatterns = [
    path("duels/<int:pk>/", duel_page, name="duel"),
    path("api/", include(table_api_urls("duel", "duels"))),
    *project,
]
