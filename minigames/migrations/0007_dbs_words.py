"""Dream Battle of SpellCard's state keeps its result's words as message ids with parameters
(``westernroses.words``: a reader sees "X wins by Knock Out" in her language), beside their
English ``text``. A finished table saved before has the English alone, so its log would no
longer replay to it byte for byte: each DBS table's state is replayed once from its initial
state and its log, the moves that stand, and saved as the engine writes it now. The moves, the
cards and the outcome are the same; only the result's words gain their message id."""

from django.apps.registry import Apps
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

from minigames.upgrades import replay_states


def replay_dbs_states(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    replay_states(apps, "dbs")


class Migration(migrations.Migration):
    dependencies = [
        ("minigames", "0006_raigo_state_keeps_words"),
    ]

    operations = [migrations.RunPython(replay_dbs_states, migrations.RunPython.noop)]
