"""Top-level URLs: pages per app, the REST API under /api/, its schema and docs."""

from django.conf import settings
from django.conf.urls.static import static
from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularSwaggerSplitView

from accounts.views import set_language
from campaign.pages import campaigns as campaign_views
from characters import views as character_views
from config.api_errors import no_such_route
from config.backup_page import campaign_backup_download
from config.health import FullHealthView, ReadinessView
from config.i18n import JavaScriptCatalog
from config.metrics import metrics_view
from config.schema_view import CachedSchemaView
from gmtools.urls import moved_admin_urlpatterns

from .home import home

urlpatterns = [
    # The API first: Django tries patterns in order, and each include with an empty prefix
    # below is searched whole before a later one is reached (about 0.1 ms of every API request
    # when the API came last; no page's path begins with api/).
    path("api/", include("config.api_urls")),
    path("api/schema/", CachedSchemaView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("", home, name="home"),
    path("accounts/", include("accounts.urls")),
    # The header's language switcher (Django's set_language; it also saves a signed-in user's
    # choice) and the scripts' catalog (docs/i18n.md).
    path("i18n/setlang/", set_language, name="set_language"),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("campaigns/", include("campaign.urls")),
    # The GM tools' pages under the same prefix: members, sessions, ..., the dashboard.
    path("campaigns/", include("gmtools.urls")),
    # The campaign wiki: /campaigns/<id>/wiki/... (wiki/urls.py).
    path("campaigns/", include("wiki.urls")),
    # Play-by-post: /campaigns/<id>/threads/... (threads/urls.py).
    path("campaigns/", include("threads.urls")),
    # The GM's campaign backup (config/backup.py knows every app, so it lives in config).
    path("campaigns/<int:pk>/backup/", campaign_backup_download, name="campaign-backup"),
    path(
        "campaigns/<int:campaign_id>/characters/",
        character_views.campaign_characters,
        name="campaign-characters",
    ),
    path("characters/", include("characters.urls")),
    path("dice/", campaign_views.dice, name="dice"),
    path("notifications/", include("notifications.urls")),
    path("", include("notifications.pwa_urls")),
    # Grid battles: /campaigns/<id>/battles/ and /battles/<id>/ (battles/urls.py).
    path("", include("battles.urls")),
    # The tavern: /tavern/, /campaigns/<id>/tavern/, /tavern/tables/<id>/ (minigames/urls.py).
    path("", include("minigames.urls")),
    # Leaderboards: /tavern/ratings/<game>/, /campaigns/<id>/tavern/ratings/<game>/.
    path("", include("tables.ratings.urls")),
    # Any table's replay: /tables/<game>/<id>/replay/ (tables/urls.py).
    path("", include("tables.urls")),
    # Spellcard pages hang off characters, cards and campaigns: full paths in spellcards/urls.py.
    path("", include("spellcards.urls")),
    path("health/", FullHealthView.as_view(), name="health"),
    path("health/ready/", ReadinessView.as_view(), name="health-ready"),
    # Prometheus's scrape, for the holder of METRICS_TOKEN (config/metrics.py).
    path("metrics", metrics_view, name="metrics"),
    # Tavern card games: /cards/, /decks/, /campaigns/<id>/cards/ (decks/urls.py).
    path("", include("decks.urls")),
    # The GM tools' admin pages at their addresses from before they were an app (bookmarks).
    path("admin/campaign/", include(moved_admin_urlpatterns)),
    path("admin/", admin.site.urls),
]

if settings.DEBUG:
    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)

# Last: an /api/ path no route above matches is the API's JSON 404, DEBUG or not.
urlpatterns.append(re_path(r"^api/(?P<rest>.*)$", no_such_route, name="api-no-such-route"))

# API paths answer errors in the API's JSON shape even before a view runs (config/api_errors.py).
handler400 = "config.api_errors.bad_request"
handler403 = "config.api_errors.permission_denied"
handler404 = "config.api_errors.not_found"
