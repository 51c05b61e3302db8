"""Spellcard pages. Mounted at the site root because they hang off characters, cards and
campaigns (``/characters/<id>/deck/``, ``/spellcards/<id>/edit/`` ...)."""

from django.urls import path

from . import views

app_name = "spellcards"

urlpatterns = [
    path("characters/<int:character_id>/spellcards/new/", views.builder_new, name="new"),
    path("characters/<int:character_id>/deck/", views.deck, name="deck"),
    path("characters/<int:character_id>/deck/copies/", views.deck_copies, name="deck_copies"),
    path("spellcards/<int:pk>/edit/", views.builder_edit, name="edit"),
    path("spellcards/<int:pk>/delete/", views.spellcard_delete, name="delete"),
    path(
        "campaigns/<int:campaign_id>/spellcard-templates/",
        views.template_list,
        name="templates",
    ),
    path("spellcard-templates/<int:pk>/copy/", views.template_copy, name="template_copy"),
    path("spellcard-templates/<int:pk>/delete/", views.template_delete, name="template_delete"),
]
