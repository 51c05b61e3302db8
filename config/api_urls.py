"""The REST API, one router for every app so the OpenAPI schema lists it all."""

from django.urls import include, path
from rest_framework.routers import DefaultRouter

from accounts.api import AccountView, ObtainTokenView
from battles.urls import api_urlpatterns as battle_api_urlpatterns
from campaign.rest import campaigns as campaign_api
from characters import api as characters_api
from config.health import HealthView
from decks import api as decks_api
from decks.urls import api_urlpatterns as decks_api_urlpatterns
from minigames.urls import api_urlpatterns as tavern_api_urlpatterns
from notifications import api as notifications_api
from spellcards import api as spellcards_api
from tables.ratings.urls import api_urlpatterns as ratings_api_urlpatterns
from threads.api import api_urlpatterns as threads_api_urlpatterns

router = DefaultRouter()
router.register("campaigns", campaign_api.CampaignViewSet, basename="campaign")
router.register("rolls", campaign_api.RollViewSet, basename="roll")
router.register("spellcards", spellcards_api.SpellcardViewSet, basename="spellcard")
router.register(
    "spellcard-templates", spellcards_api.TemplateCardViewSet, basename="spellcard-template"
)
router.register("characters", characters_api.CharacterViewSet, basename="character")
router.register("custom-cards", decks_api.CustomCardViewSet, basename="custom-card")
router.register("decks", decks_api.GameDeckViewSet, basename="game-deck")
router.register("notifications", notifications_api.NotificationViewSet, basename="notification")

urlpatterns = [
    path("auth/token/", ObtainTokenView.as_view(), name="api-token"),
    path("account/", AccountView.as_view(), name="api-account"),
    path("health/", HealthView.as_view(), name="api-health"),
    path("probability/", campaign_api.ProbabilityView.as_view(), name="api-probability"),
    path(
        "notifications/preferences/",
        notifications_api.PreferenceView.as_view(),
        name="api-notification-preferences",
    ),
    path(
        "notifications/push/",
        notifications_api.PushDevicesView.as_view(),
        name="api-push-devices",
    ),
    path(
        "notifications/push/<int:pk>/",
        notifications_api.PushDeviceView.as_view(),
        name="api-push-device",
    ),
    path(
        "campaigns/<int:pk>/webhook/",
        notifications_api.CampaignWebhookView.as_view(),
        name="api-campaign-webhook",
    ),
    # Before the router, so "price" is not read as a spellcard id.
    path(
        "spellcards/price/", spellcards_api.SpellcardPriceView.as_view(), name="api-spellcard-price"
    ),
    path("characters/<int:pk>/deck/", spellcards_api.DeckView.as_view(), name="api-deck"),
    path(
        "characters/<int:pk>/deck/validate/",
        spellcards_api.DeckValidateView.as_view(),
        name="api-deck-validate",
    ),
    # Grid battles and the tavern first: their moves and polls are most of the API's
    # requests, and Django tries patterns in order (none of theirs matches another's paths).
    path("", include(battle_api_urlpatterns)),  # grid battles (battles/api.py)
    path("", include(tavern_api_urlpatterns)),  # the tavern (minigames/api.py)
    # The GM tools (invitations, members, sessions, notes, handouts, awards, timeline,
    # dashboard): before the router, so those paths are never read as router actions.
    path("", include("gmtools.rest.urls")),
    path("", include("wiki.rest.urls")),  # the campaign wiki (wiki/rest/views.py)
    # Play-by-post (threads/api.py): before the router, like the GM tools.
    path("", include(threads_api_urlpatterns)),
    path("", include(ratings_api_urlpatterns)),  # leaderboards, ratings (tables/ratings/api.py)
    path("", include(decks_api_urlpatterns)),  # tavern card games' cards (decks/urls.py)
    path("", include(router.urls)),
]
