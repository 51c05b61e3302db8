"""The project's URLs plus the duel's three table endpoints (``@pytest.mark.urls``)."""

from django.urls import include, path

from config.urls import urlpatterns as project
from tables.api import table_api_urls

urlpatterns = [*project, path("api/", include(table_api_urls("duel", "duels")))]
