from django.apps import AppConfig


class TableUndoConfig(AppConfig):
    """Requests to take back a move, the other seats' votes, and whether a host allows them."""

    name = "tables.undo"
    label = "table_undo"
    default_auto_field = "django.db.models.BigAutoField"
