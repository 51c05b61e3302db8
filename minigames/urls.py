"""Tavern pages (``urlpatterns``, namespace ``tavern``, from ``config/urls.py``) and API routes
(``api_urlpatterns``, from ``config/api_urls.py``)."""

from django.urls import path

from tables.api import table_api_urls

from . import api, views
from .models import TavernTable

app_name = "tavern"

urlpatterns = [
    path("tavern/", views.tavern, name="list"),
    path("campaigns/<int:campaign_id>/tavern/", views.campaign_tavern, name="campaign"),
    path("tavern/rules/<str:slug>/", views.rules_page, name="rules"),
    path("tavern/invite/<str:token>/", views.invite_page, name="invite"),
    path("tavern/tables/<int:pk>/", views.table_page, name="table"),
    path("tavern/tables/<int:pk>/<str:op>/", views.table_op, name="op"),
]

_T = "tavern/tables/<int:pk>/"

api_urlpatterns = [
    path("tavern/games/", api.GameListView.as_view(), name="api-tavern-games"),
    path("tavern/tables/", api.TableListView.as_view(), name="api-tavern-tables"),
    path(_T, api.TableDetailView.as_view(), name="api-tavern-table"),
    path(_T + "join/", api.JoinView.as_view(), name="api-tavern-join"),
    path(_T + "leave/", api.LeaveView.as_view(), name="api-tavern-leave"),
    path(_T + "seats/", api.SeatSetView.as_view(), name="api-tavern-seats"),
    path(_T + "start/", api.StartView.as_view(), name="api-tavern-start"),
    path(_T + "resign/", api.ResignView.as_view(), name="api-tavern-resign"),
    path(_T + "rematch/", api.RematchView.as_view(), name="api-tavern-rematch"),
    path(_T + "abandon/", api.AbandonView.as_view(), name="api-tavern-abandon"),
    # state/, actions/, log/: the table core's, for the four games (the row names the game)
    *table_api_urls("tavern", "tavern/tables", model=TavernTable, schemas=api.TABLE_SCHEMAS),
    path(_T + "advice/", api.AdviceView.as_view(), name="api-tavern-advice"),
    path(_T + "spectators/", api.SpectatorsView.as_view(), name="api-tavern-spectators"),
    path("tavern/invites/<str:token>/", api.InviteView.as_view(), name="api-tavern-invite"),
]
