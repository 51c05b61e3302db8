"""The installable app's files at the site's root (see :mod:`notifications.pwa`)."""

from django.urls import path

from . import pwa

urlpatterns = [
    path("manifest.webmanifest", pwa.manifest, name="pwa-manifest"),
    path("service-worker.js", pwa.service_worker, name="pwa-service-worker"),
    path("offline/", pwa.offline, name="pwa-offline"),
]
