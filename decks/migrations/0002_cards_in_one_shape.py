"""RSO and DBS cards share one shape (docs/decks.md, "One card shape"): the copy of a card's
kind is called ``kind``, and a stored RSO card names its kind ``kind`` instead of ``type``."""

from typing import Any

from django.apps.registry import Apps
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor


def _renamed(data: Any, old: str, new: str) -> Any:
    if isinstance(data, dict) and old in data and new not in data:
        return {(new if key == old else key): value for key, value in data.items()}
    return data


def cards_forward(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    CustomCard = apps.get_model("decks", "CustomCard")
    for card in CustomCard.objects.filter(game="rso").only("pk", "data").iterator():
        data = _renamed(card.data, "type", "kind")
        if data is not card.data:
            CustomCard.objects.filter(pk=card.pk).update(data=data)


def cards_backward(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    CustomCard = apps.get_model("decks", "CustomCard")
    for card in CustomCard.objects.filter(game="rso").only("pk", "data").iterator():
        data = _renamed(card.data, "kind", "type")
        if data is not card.data:
            CustomCard.objects.filter(pk=card.pk).update(data=data)


class Migration(migrations.Migration):
    dependencies = [("decks", "0001_initial")]

    operations = [
        migrations.RenameField(model_name="customcard", old_name="card_type", new_name="kind"),
        migrations.AlterField(
            model_name="customcard",
            name="kind",
            field=models.CharField(
                help_text="A copy of data['kind'], for filters.", max_length=20
            ),
        ),
        migrations.RunPython(cards_forward, cards_backward),
    ]
