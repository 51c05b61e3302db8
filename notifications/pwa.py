"""The installable app: the Web App Manifest, the service worker and the page it shows offline.

All three are served from the site's root (``/manifest.webmanifest``, ``/service-worker.js``,
``/offline/``), so the service worker's scope is the whole site. The service worker shows push
messages (:mod:`notifications.webpush`), opens the notification's page when one is tapped, and
answers a page load that cannot reach the site with the offline page. It keeps nothing else:
no page, no game state and no API answer is ever stored, so nothing stale can be shown as
current.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

#: Bump to make browsers replace the cached offline page (the service worker's cache name).
OFFLINE_CACHE = "wr-offline-v1"


@require_safe
@cache_control(max_age=3600, public=True)
def manifest(request: HttpRequest) -> JsonResponse:
    """The Web App Manifest: name, icons, colours and the start page."""
    data = {
        "id": "/",
        "name": "Western Roses",
        "short_name": "Western Roses",
        "description": "Touhou tabletop games: campaigns, battles and card tables.",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#fdf7f2",
        "theme_color": "#b0243c",
        "icons": [
            {"src": static("img/app-icon.svg"), "sizes": "any", "type": "image/svg+xml"},
            {"src": static("img/app-icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("img/app-icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("img/app-icon-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }
    response = JsonResponse(data)
    response["Content-Type"] = "application/manifest+json"
    return response


@require_safe
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker's script; ``no-cache`` so a new version reaches browsers at once."""
    context = {
        "cache_name": OFFLINE_CACHE,
        "offline_url": "/offline/",
        "precache": ["/offline/", static("css/site.css"), static("img/app-icon.svg")],
        "icon": static("img/app-icon-192.png"),
    }
    response = render(
        request, "pwa/service-worker.js", context, content_type="text/javascript; charset=utf-8"
    )
    response["Service-Worker-Allowed"] = "/"
    return response


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """The page the service worker shows when the site cannot be reached. It names nobody and
    shows no game: the same for every visitor, so a cached copy is never someone's state."""
    return render(request, "pwa/offline.html")
