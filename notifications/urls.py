"""Notification pages, included at ``/notifications/`` by ``config/urls.py``."""

from django.urls import path

from . import views

app_name = "notifications"

urlpatterns = [
    path("", views.notification_list, name="list"),
    path("<int:pk>/read/", views.notification_read, name="read"),
    path("read-all/", views.notification_read_all, name="read_all"),
    path("preferences/", views.preferences, name="preferences"),
    path("devices/<int:pk>/remove/", views.push_device_remove, name="push_device_remove"),
    path("campaigns/<int:pk>/", views.campaign_webhook, name="campaign_webhook"),
]
