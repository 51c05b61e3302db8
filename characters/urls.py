from django.urls import path

from . import views

app_name = "characters"

urlpatterns = [
    path("", views.my_characters, name="mine"),
    path("new/", views.character_create, name="create"),
    path("new/preview/", views.preview, name="preview"),
    path("import/", views.character_import, name="import"),
    path("<int:pk>/", views.character_sheet, name="sheet"),
    path("<int:pk>/edit/", views.character_edit, name="edit"),
    path("<int:pk>/edit/preview/", views.preview, name="edit_preview"),
    path("<int:pk>/delete/", views.character_delete, name="delete"),
    path("<int:pk>/level-up/", views.character_level_up, name="level_up"),
    path("<int:pk>/export/", views.character_export, name="export"),
    path("<int:pk>/portrait/", views.portrait, name="portrait"),
    path("<int:pk>/portrait/upload/", views.portrait_upload, name="portrait_upload"),
]
