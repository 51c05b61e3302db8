"""A battle last written before its summary was kept as words (``summary_words``, 0008)
has the English alone: its words are found again from its stored state (the engine's summary
of it), and kept only when their English is exactly the English it shows, so nothing a
battle says changes (docs/decisions/battle-summary-kept-as-words.md). A state the engine no
longer reads keeps its English, which the lists show as before."""

from __future__ import annotations

from django.apps.registry import Apps
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor


def fill_summary_words(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    from westernroses import battle as engine

    battle_model = apps.get_model("battles", "Battle")
    for battle in battle_model.objects.filter(summary_words={}).iterator():
        if not battle.state:
            continue
        try:
            words = engine.summary_words(engine.ENGINE.from_json(battle.state))
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            continue
        if str(words)[:200] == battle.summary:
            battle.summary_words = words.to_json()
            battle.save(update_fields=["summary_words"])


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0008_battle_summary_words"),
    ]

    operations = [migrations.RunPython(fill_summary_words, migrations.RunPython.noop)]
