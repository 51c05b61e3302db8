"""Spirit War's state keeps its final result's words as a message id with parameters
(``westernroses.words.said``: a reader sees the result in her language), beside its English
``text``. A war that ended before has the English alone, so its log would no longer replay to
it byte for byte: each Spirit War table's state is replayed once from its initial state and its
log, the moves that stand, and saved as the engine writes it now. The moves, the cards and the
outcome are the same; only the words' form changes. Log lines stored in English stay as they
are (they read in English in every language)."""

from typing import Any

from django.apps.registry import Apps
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor


def replay_spirit_war_states(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    from minigames.engines.registry import get_engine
    from tables.undo.services import effective_log
    from westernroses.protocol import replay

    engine: Any = get_engine("spirit_war")
    table_model = apps.get_model("minigames", "TavernTable")
    action_model = apps.get_model("minigames", "TavernAction")
    for table in table_model.objects.filter(game="spirit_war").iterator():
        if not table.initial:  # a table not started yet has no state to replay
            continue
        rows = action_model.objects.filter(table=table).order_by("seq")
        log = [(int(r.seat), r.action) for r in effective_log(rows)]
        state = engine.to_json(replay(engine, engine.from_json(table.initial), log))
        if state != table.state:
            table.state = state
            table.save(update_fields=["state"])


class Migration(migrations.Migration):
    dependencies = [
        ("minigames", "0008_rso_words"),
    ]

    operations = [migrations.RunPython(replay_spirit_war_states, migrations.RunPython.noop)]
