"""Rumbling Spell Orchestra's state keeps why a game ended as message ids with parameters
(``reason_words``, ``westernroses.words``: a reader sees it in her language) beside its English
``reason``. A finished game saved before has the English alone, so its log would no longer
replay to it byte for byte: each RSO table's state is replayed once from its initial state and
its log, the moves that stand, and saved as the engine writes it now. The moves, the cards and
the outcome are the same; only the words' form changes."""

from django.apps.registry import Apps
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

from minigames.upgrades import replay_states


def replay_rso_states(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    replay_states(apps, "rso")


class Migration(migrations.Migration):
    dependencies = [
        ("minigames", "0007_dbs_words"),
    ]

    operations = [migrations.RunPython(replay_rso_states, migrations.RunPython.noop)]
