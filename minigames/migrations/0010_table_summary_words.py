"""A tavern table keeps its summary as words (``summary_words``: a message id and its
parameters, ``westernroses.words``) beside the English ``summary``, so every reader reads it in
her language (docs/decisions/table-summary-kept-as-words.md).

Tables saved before have the English alone. Their words are found again: from the stored
state for a game in play or finished by its rules (the engine's summary of it), from the
table's own sentences for one in setup, resigned, timed out, left or abandoned. A table gets
its words only when their English is exactly the English it shows, so nothing a table says
changes; one whose words cannot be found (a state the engine no longer reads) keeps its
English, which the lists show as before."""

from __future__ import annotations

from typing import Any

from django.apps.registry import Apps
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

#: The tavern's own sentences (``minigames.services``) as they were written in English, each
#: with the parameter that varies: the game's title for a table in setup, a seat's name for an
#: ending the players caused.
SETUP = ("%(game)s: waiting for players", "%(game)s: ready to start")
ENDINGS = (
    "%(name)s resigned.",
    "%(name)s left.",
    "%(name)s left the campaign.",
    "%(name)s ran out of time.",
    "Abandoned by %(name)s.",
)


def _said(sentence: str, param: str, summary: str) -> dict[str, Any] | None:
    """``sentence``'s words if ``summary`` is it with some value of ``param``."""
    head, tail = sentence.split(f"%({param})s")
    value = summary[len(head) : len(summary) - len(tail)]
    if summary.startswith(head) and summary.endswith(tail) and value:
        return {"text": sentence, "params": {param: value}}
    return None


def _words_of(table: Any) -> dict[str, Any] | None:
    """The words whose English is ``table.summary`` (None: none found)."""
    from minigames.engines.registry import get_engine
    from westernroses.words import Words

    try:
        engine: Any = get_engine(table.game)
    except (KeyError, LookupError):
        return None
    candidates: list[dict[str, Any] | None] = []
    if table.status == "setup":
        candidates += [_said(s, "game", table.summary) for s in SETUP]
    elif table.state:
        try:
            words = engine.summary(engine.from_json(table.state))
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            words = None
        if isinstance(words, Words):
            candidates.append(words.to_json())
        candidates += [_said(s, "name", table.summary) for s in ENDINGS]
    for found in candidates:
        if found is not None and str(Words.from_json(found))[:200] == table.summary:
            return found
    return None


def fill_summary_words(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    table_model = apps.get_model("minigames", "TavernTable")
    rows = table_model.objects.filter(summary_words={}).exclude(summary="")
    for table in rows.iterator():
        found = _words_of(table)
        if found is not None:
            table.summary_words = found
            table.save(update_fields=["summary_words"])


class Migration(migrations.Migration):
    dependencies = [
        ("minigames", "0009_spirit_war_words"),
    ]

    operations = [
        migrations.AddField(
            model_name="taverntable",
            name="summary_words",
            field=models.JSONField(
                blank=True,
                default=dict,
                help_text="The summary as words (westernroses/words.py), read in the reader's "
                "language.",
            ),
        ),
        migrations.RunPython(fill_summary_words, migrations.RunPython.noop),
    ]
