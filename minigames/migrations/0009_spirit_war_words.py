"""Spirit War's state keeps its final result's words as a message id with parameters
(``westernroses.words.said``: a reader sees the result in her language), beside its English
``text``. A war that ended before has the English alone, so its log would no longer replay to
it byte for byte: each Spirit War table's state is replayed once from its initial state and its
log, the moves that stand, and saved as the engine writes it now. The moves, the cards and the
outcome are the same; only the words' form changes. Log lines stored in English stay as they
are (they read in English in every language)."""

from django.apps.registry import Apps
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

from minigames.upgrades import replay_states


def replay_spirit_war_states(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    replay_states(apps, "spirit_war")


class Migration(migrations.Migration):
    dependencies = [
        ("minigames", "0008_rso_words"),
    ]

    operations = [migrations.RunPython(replay_spirit_war_states, migrations.RunPython.noop)]
