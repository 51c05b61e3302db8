"""Leaderboard pages (``urlpatterns``, namespace ``ratings``, from ``config/urls.py``) and the
API's routes (``api_urlpatterns``, from ``config/api_urls.py``)."""

from django.urls import path

from . import api, views

app_name = "ratings"

urlpatterns = [
    path("tavern/ratings/", views.first_leaderboard, name="index"),
    path("tavern/ratings/<str:game>/", views.leaderboard, name="board"),
    path(
        "campaigns/<int:campaign_id>/tavern/ratings/<str:game>/",
        views.campaign_leaderboard,
        name="campaign-board",
    ),
]

api_urlpatterns = [
    path("leaderboards/<str:game>/", api.LeaderboardView.as_view(), name="api-leaderboard"),
    path("ratings/mine/", api.MyRatingsView.as_view(), name="api-my-ratings"),
]
