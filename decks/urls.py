"""Card and deck pages (``/cards/...``, ``/decks/...``, a campaign's GM cards) and the API's
routes (``api_urlpatterns``, mounted under /api/ by config/api_urls.py)."""

from django.urls import path

from . import api, views

app_name = "decks"

urlpatterns = [
    path("cards/", views.games, name="games"),
    path("cards/site/", views.site_cards, name="site_cards"),
    path("cards/gm/<int:pk>/", views.custom_card, name="custom_card"),
    path("cards/gm/<int:pk>/edit/", views.custom_card_edit, name="custom_card_edit"),
    path("cards/gm/<int:pk>/delete/", views.custom_card_delete, name="custom_card_delete"),
    path("cards/<slug:game>/", views.card_list, name="cards"),
    path("cards/<slug:game>/<str:number>/", views.card_detail, name="card"),
    path("campaigns/<int:campaign_id>/cards/", views.campaign_cards, name="campaign_cards"),
    path("decks/", views.deck_list, name="list"),
    path("decks/<int:pk>/", views.builder, name="builder"),
    path("decks/<int:pk>/cards/", views.deck_set_count, name="set_count"),
    path("decks/<int:pk>/import/", views.deck_import, name="import"),
    path("decks/<int:pk>/export/", views.deck_export, name="export"),
    path("decks/<int:pk>/delete/", views.deck_delete, name="delete"),
]

api_urlpatterns = [
    path("card-games/<slug:game>/cards/", api.CardListView.as_view(), name="api-game-cards"),
    path(
        "card-games/<slug:game>/cards/<str:number>/",
        api.CardDetailView.as_view(),
        name="api-game-card",
    ),
    path(
        "card-games/<slug:game>/seat-decks/",
        api.SeatDecksView.as_view(),
        name="api-seat-decks",
    ),
]
