"""The wiki API's shapes. Answers are built per viewer (:func:`entry_data`): a player's never
holds the Markdown source (its mentions name hidden entries' ids), who else knows a secret,
nor anything of an entry or section she may not see."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from apibase import serializers
from apibase.fields import ObjectIdField
from campaign.models import MAX_NAMED
from westernroses import stat_block as rules

from ..models import MAX_BODY, MAX_TAG, MAX_TAGS, MAX_TITLE, Entry, Visibility


class KindSerializer(serializers.Serializer[Any]):
    key = serializers.CharField(read_only=True)
    name = serializers.CharField(max_length=40)
    built_in = serializers.BooleanField(read_only=True)


class StatBlockSerializer(serializers.Serializer[Any]):
    """A Character or NPC entry's numbers for battles (docs/wiki.md, "Stat blocks"): the
    bounds every NPC of a battle has (``westernroses/stat_block.py``)."""

    pwr = serializers.IntegerField(min_value=rules.STAT_MIN, max_value=rules.STAT_MAX)
    cha = serializers.IntegerField(min_value=rules.STAT_MIN, max_value=rules.STAT_MAX)
    int = serializers.IntegerField(min_value=rules.STAT_MIN, max_value=rules.STAT_MAX)
    ins = serializers.IntegerField(min_value=rules.STAT_MIN, max_value=rules.STAT_MAX)
    hp = serializers.IntegerField(min_value=rules.HP_MIN, max_value=rules.HP_MAX)
    speed = serializers.IntegerField(min_value=0, max_value=rules.SPEED_MAX)
    range = serializers.IntegerField(min_value=0, max_value=rules.RANGE_MAX)
    element = serializers.CharField(
        max_length=20, required=False, allow_blank=True, allow_null=True,
        help_text="fire, water, wood, metal, wind, light, darkness or spirit; empty for none.",
    )  # fmt: skip
    weapons = serializers.ListField(
        child=serializers.CharField(max_length=40),
        required=False,
        max_length=rules.MAX_WEAPONS,
        help_text="Catalog weapon slugs (sword, throwing_knives, …) beside the bare fists.",
    )
    damage_reduction = serializers.IntegerField(
        min_value=0, max_value=rules.DAMAGE_REDUCTION_MAX, required=False
    )
    spell_power = serializers.IntegerField(
        min_value=0,
        max_value=rules.SPELL_POWER_MAX,
        required=False,
        allow_null=True,
        help_text="The spell power she starts a battle with; null: the house rule (ruling 8).",
    )


class EntryRefSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    title = serializers.CharField()


class SectionSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    heading = serializers.CharField()
    body_html = serializers.CharField(help_text="Sanitized HTML, mentions as links.")
    body = serializers.CharField(allow_null=True, help_text="The Markdown source: GMs only.")
    visibility = serializers.CharField(allow_null=True, help_text="GMs only.")
    viewers = serializers.ListField(
        child=serializers.IntegerField(), allow_null=True, help_text="GMs only."
    )


class EntrySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    kind = KindSerializer()
    title = serializers.CharField()
    tags = serializers.ListField(child=serializers.CharField())
    body_html = serializers.CharField(help_text="Sanitized HTML, mentions as links.")
    body = serializers.CharField(allow_null=True, help_text="The Markdown source: GMs only.")
    image_url = serializers.CharField(allow_null=True)
    parent = EntryRefSerializer(allow_null=True)
    places_inside = EntryRefSerializer(many=True)
    members = EntryRefSerializer(many=True)
    sections = SectionSerializer(many=True)
    linked_from = EntryRefSerializer(many=True)
    visibility = serializers.CharField(allow_null=True, help_text="GMs only.")
    viewers = serializers.ListField(
        child=serializers.IntegerField(), allow_null=True, help_text="GMs only."
    )
    stat_block = StatBlockSerializer(
        allow_null=True, help_text="A Character or NPC's numbers for battles: GMs only."
    )
    url = serializers.CharField()
    updated_at = serializers.DateTimeField()


class EntrySummarySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    kind = KindSerializer()
    title = serializers.CharField()
    tags = serializers.ListField(child=serializers.CharField())
    excerpt = serializers.CharField()
    url = serializers.CharField()


class _VisibilityInput(serializers.Serializer[Any]):
    visibility = serializers.ChoiceField(choices=Visibility.choices, required=False)
    viewers = serializers.ListField(
        child=ObjectIdField(),
        required=False,
        max_length=MAX_NAMED,
        help_text="Players who see it, with visibility 'chosen'.",
    )


class EntryInputSerializer(_VisibilityInput):
    title = serializers.CharField(max_length=MAX_TITLE)
    kind = serializers.CharField(max_length=40, help_text="A kind's key (GET wiki/kinds/).")
    body = serializers.CharField(
        required=False, allow_blank=True, max_length=MAX_BODY, help_text="Markdown, @[[mentions]]."
    )
    tags = serializers.ListField(
        child=serializers.CharField(max_length=MAX_TAG), required=False, max_length=MAX_TAGS
    )
    # "parent" shadows DRF's Field.parent for mypy only: declared fields leave the class.
    parent = ObjectIdField(  # type: ignore[assignment]
        required=False, allow_null=True, help_text="A place's parent place."
    )
    members = serializers.ListField(
        child=ObjectIdField(), required=False, max_length=200, help_text="A faction's members."
    )
    image = serializers.FileField(required=False, allow_null=True)


class EntryUpdateSerializer(EntryInputSerializer):
    title = serializers.CharField(max_length=MAX_TITLE, required=False)
    kind = serializers.CharField(max_length=40, required=False)
    remove_image = serializers.BooleanField(required=False, default=False)


class SectionInputSerializer(_VisibilityInput):
    heading = serializers.CharField(max_length=MAX_TITLE)
    body = serializers.CharField(required=False, allow_blank=True, max_length=MAX_BODY)


class SectionUpdateSerializer(SectionInputSerializer):
    heading = serializers.CharField(max_length=MAX_TITLE, required=False)


class RevealInputSerializer(serializers.Serializer[Any]):
    section = ObjectIdField(required=False, allow_null=True, help_text="One section only.")
    to_everyone = serializers.BooleanField(required=False, default=True)
    players = serializers.ListField(child=ObjectIdField(), required=False, max_length=MAX_NAMED)


class RevisionSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    at = serializers.DateTimeField()
    by = serializers.CharField(allow_null=True)
    changed = serializers.ListField(child=serializers.CharField())
    title = serializers.CharField()
    body = serializers.CharField()


class MentionSerializer(serializers.Serializer[Any]):
    kind = serializers.CharField()
    name = serializers.CharField()
    ref = serializers.CharField(help_text="Write @[[name]] or @[[ref]] in a text.")
    insert = serializers.CharField(
        help_text="What to write between @[[ and ]]: the name, or the ref when the name would "
        "find something else first."
    )


def ref(entry: Entry) -> dict[str, Any]:
    return {"id": entry.pk, "title": entry.title}


def kind_data(entry: Entry) -> dict[str, Any]:
    return {"key": entry.kind.key, "name": entry.kind.name, "built_in": entry.kind.built_in}


def entry_data(access: Any, entry: Entry) -> dict[str, Any]:
    """One entry as ``access`` may see it (``entry`` read by ``selectors.entry_for``)."""
    from ..render import Renderer
    from ..selectors import backlinks

    gm = access.is_gm
    sections = list(entry.sections.all())
    renderer = Renderer(access, [entry.body, *(s.body for s in sections)])
    campaign = entry.campaign_id
    return {
        "id": entry.pk,
        "kind": kind_data(entry),
        "title": entry.title,
        "tags": entry.tags,
        "body_html": renderer.html(entry.body),
        "body": entry.body if gm else None,
        "image_url": reverse("wiki:image", args=[campaign, entry.pk]) if entry.image else None,
        "parent": ref(entry.parent) if entry.parent is not None else None,
        "places_inside": [ref(e) for e in entry.children.all()],
        "members": [ref(e) for e in entry.members.all()],
        "sections": [
            {
                "id": s.pk,
                "heading": s.heading,
                "body_html": renderer.html(s.body),
                "body": s.body if gm else None,
                "visibility": s.visibility if gm else None,
                "viewers": sorted(u.pk for u in s.viewers.all()) if gm else None,
            }
            for s in sections
        ],
        "linked_from": [ref(e) for e in backlinks(access, entry)],
        "visibility": entry.visibility if gm else None,
        "viewers": sorted(u.pk for u in entry.viewers.all()) if gm else None,
        "stat_block": entry.stat_block if gm else None,
        "url": reverse("wiki:detail", args=[campaign, entry.pk]),
        "updated_at": entry.updated_at,
    }
