"""Tavern pages (``urlpatterns``, namespace ``tavern``, from ``config/urls.py``) and API routes
(``api_urlpatterns``, from ``config/api_urls.py``)."""

from django.urls import path

from . import api, views

app_name = "tavern"

urlpatterns = [
    path("tavern/", views.tavern, name="list"),
    path("campaigns/<int:campaign_id>/tavern/", views.campaign_tavern, name="campaign"),
    path("tavern/rules/<str:slug>/", views.rules_page, name="rules"),
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
    path(_T + "state/", api.StateView.as_view(), name="api-tavern-state"),
    path(_T + "actions/", api.ActionView.as_view(), name="api-tavern-actions"),
    path(_T + "log/", api.LogView.as_view(), name="api-tavern-log"),
    path(_T + "advice/", api.AdviceView.as_view(), name="api-tavern-advice"),
]
