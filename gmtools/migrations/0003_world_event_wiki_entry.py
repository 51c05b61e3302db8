"""A calendar event's wiki entry becomes a real reference (it was a plain number kept for the
wiki). The number is kept where it names an entry of the event's own campaign; any other
number (an entry deleted since, or never there) becomes no entry."""

from typing import Any

import django.db.models.deletion
from django.apps.registry import Apps
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor


def keep_existing(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    # the historical model, with the old number beside the new reference
    WorldEvent: Any = apps.get_model("gmtools", "WorldEvent")
    Entry = apps.get_model("wiki", "Entry")
    for event in WorldEvent.objects.exclude(wiki_entry_number=None).only(
        "pk", "campaign_id", "wiki_entry_number"
    ):
        if Entry.objects.filter(pk=event.wiki_entry_number, campaign_id=event.campaign_id).exists():
            WorldEvent.objects.filter(pk=event.pk).update(wiki_entry_id=event.wiki_entry_number)


def back_to_numbers(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    WorldEvent: Any = apps.get_model("gmtools", "WorldEvent")
    for event in WorldEvent.objects.exclude(wiki_entry=None).only("pk", "wiki_entry_id"):
        WorldEvent.objects.filter(pk=event.pk).update(wiki_entry_number=event.wiki_entry_id)


class Migration(migrations.Migration):
    dependencies = [
        ("gmtools", "0002_calendar_rsvp_feed"),
        ("wiki", "0001_initial"),
    ]

    operations = [
        migrations.RenameField(
            model_name="worldevent", old_name="wiki_entry_id", new_name="wiki_entry_number"
        ),
        migrations.AddField(
            model_name="worldevent",
            name="wiki_entry",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="world_events",
                to="wiki.entry",
            ),
        ),
        migrations.RunPython(keep_existing, back_to_numbers),
        migrations.RemoveField(model_name="worldevent", name="wiki_entry_number"),
    ]
