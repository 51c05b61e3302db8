from django.apps import AppConfig


class TableChatConfig(AppConfig):
    """Chat at every game table (:mod:`tables.chat`)."""

    name = "tables.chat"
    label = "table_chat"
    verbose_name = "Table chat"

    def ready(self) -> None:
        # A table deleted (a finished one past retention, an abandoned setup) takes its talk.
        from django.db.models.signals import post_delete

        from .services import table_deleted

        post_delete.connect(table_deleted, dispatch_uid="table-chat-deleted")
