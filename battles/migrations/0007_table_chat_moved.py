"""The battles' chat moved into the table core's (``table_chat`` 0002 copied every line)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0006_table_waits_synced"),
        ("table_chat", "0002_battle_chat"),
    ]

    operations = [
        migrations.DeleteModel(name="TableChatMessage"),
    ]
