from django.urls import path

from .pages import campaigns as views

app_name = "campaign"

# The GM tools' pages share the /campaigns/ prefix: gmtools/urls.py (config/urls.py includes both).
urlpatterns = [
    path("", views.campaign_list, name="list"),
    path("new/", views.campaign_create, name="create"),
    path("<int:pk>/", views.campaign_detail, name="detail"),
    path("<int:pk>/settings/", views.campaign_settings, name="settings"),
    path("<int:pk>/members/add/", views.member_add, name="member_add"),
    path("<int:pk>/dice/", views.campaign_dice, name="dice"),
]
