"""Battle pages (``urlpatterns``, included from ``config/urls.py``) and API routes
(``api_urlpatterns``, included from ``config/api_urls.py`` before the router)."""

from django.urls import path

from tables.api import table_api_urls

from . import api, map_api, table_api, views
from .serializers import ChangeResultSerializer, LogPageSerializer, StaleSerializer

app_name = "battles"

urlpatterns = [
    path("campaigns/<int:campaign_id>/battles/", views.battle_list, name="list"),
    path("battles/<int:pk>/", views.battle_detail, name="detail"),
    path("battles/maps/<int:pk>/image/", views.map_image, name="map-image"),
]

api_urlpatterns = [
    path(
        "campaigns/<int:pk>/battles/",
        api.CampaignBattleListView.as_view(),
        name="api-campaign-battles",
    ),
    path("battles/<int:pk>/", api.BattleDetailView.as_view(), name="api-battle"),
    # state/, actions/, log/: the table core's (api-battle-state, -actions, -log)
    *table_api_urls(
        "battle",
        "battles",
        schemas={
            "state": ChangeResultSerializer,
            "stale": StaleSerializer,
            "log": LogPageSerializer,
        },
    ),
    path(
        "battles/<int:pk>/legal-actions/",
        api.BattleLegalActionsView.as_view(),
        name="api-battle-legal-actions",
    ),
    path("battles/<int:pk>/map/", map_api.BattleMapView.as_view(), name="api-battle-map"),
    path(
        "campaigns/<int:pk>/maps/",
        map_api.CampaignMapListView.as_view(),
        name="api-campaign-maps",
    ),
    path("maps/<int:pk>/", map_api.MapDetailView.as_view(), name="api-map"),
    path("battles/<int:pk>/squares/", api.BattleSquareView.as_view(), name="api-battle-squares"),
    path(
        "battles/<int:pk>/combatants/",
        api.BattleCombatantListView.as_view(),
        name="api-battle-combatants",
    ),
    path(
        "battles/<int:pk>/combatants/<str:combatant>/",
        api.BattleCombatantView.as_view(),
        name="api-battle-combatant",
    ),
    path(
        "battles/<int:pk>/table/", table_api.BattleTableFeedView.as_view(), name="api-battle-table"
    ),
    path("battles/<int:pk>/pings/", table_api.BattlePingView.as_view(), name="api-battle-pings"),
    path(
        "battles/<int:pk>/portraits/",
        table_api.BattlePortraitsView.as_view(),
        name="api-battle-portraits",
    ),
]
