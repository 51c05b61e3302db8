from django.apps import AppConfig


class TableClocksConfig(AppConfig):
    """Each table's time control and its seats' deadlines, kept beside the table core."""

    name = "tables.clocks"
    label = "table_clocks"
    default_auto_field = "django.db.models.BigAutoField"
