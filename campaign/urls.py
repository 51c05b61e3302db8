from django.urls import path

from . import views

app_name = "campaign"

urlpatterns = [
    path("", views.campaign_list, name="list"),
    path("new/", views.campaign_create, name="create"),
    path("<int:pk>/", views.campaign_detail, name="detail"),
    path("<int:pk>/settings/", views.campaign_settings, name="settings"),
    path("<int:pk>/members/add/", views.member_add, name="member_add"),
    path("<int:pk>/dice/", views.campaign_dice, name="dice"),
]
