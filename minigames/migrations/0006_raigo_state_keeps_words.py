"""RAIGO's state keeps its scoring rows' and result's words as message ids with parameters
(``westernroses.words``: a reader sees them in her language), beside their English ``text``.
A state saved before has the English alone, so its log would no longer replay to it byte for
byte: each RAIGO table's state is replayed once from its initial state and its log, the moves
that stand, and saved as the engine writes it now. The moves, the scores and the outcome are
the same; only the words' form changes."""

from django.apps.registry import Apps
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

from minigames.upgrades import replay_states


def replay_raigo_states(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    replay_states(apps, "raigo")


class Migration(migrations.Migration):
    dependencies = [
        ("minigames", "0005_rated_tables"),
    ]

    operations = [migrations.RunPython(replay_raigo_states, migrations.RunPython.noop)]
