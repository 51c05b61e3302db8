"""RSO and DBS cards share one shape (docs/decks.md, "One card shape"): the cards an RSO
table's state and initial state carry name their kind ``kind`` instead of ``type``. Both are
renamed alike, so the log still replays from ``initial`` to ``state`` byte for byte. (The
engine reads a state saved before this either way: ``minigames.engines.rso.upgrade_card``.)"""

from typing import Any

from django.apps.registry import Apps
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor


def _renamed(state: Any, old: str, new: str) -> Any:
    """``state`` with each carried card's key ``old`` renamed ``new`` (in place, keeping the
    keys' order); ``None`` when nothing changed."""
    cards = state.get("cards") if isinstance(state, dict) else None
    if not isinstance(cards, dict):
        return None
    changed = False
    for number, card in list(cards.items()):
        if isinstance(card, dict) and old in card and new not in card:
            cards[number] = {(new if key == old else key): value for key, value in card.items()}
            changed = True
    return state if changed else None


def _convert(apps: Apps, old: str, new: str) -> None:
    TavernTable = apps.get_model("minigames", "TavernTable")
    for table in TavernTable.objects.filter(game="rso").only("pk", "state", "initial").iterator():
        changes: dict[str, Any] = {}
        for field in ("state", "initial"):
            value = _renamed(getattr(table, field), old, new)
            if value is not None:
                changes[field] = value
        if changes:
            TavernTable.objects.filter(pk=table.pk).update(**changes)


def forward(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _convert(apps, "type", "kind")


def backward(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _convert(apps, "kind", "type")


class Migration(migrations.Migration):
    dependencies = [("minigames", "0003_table_waits_synced")]

    operations = [migrations.RunPython(forward, backward)]
