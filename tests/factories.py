"""factory_boy factories for the app models."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model
from django.utils import timezone

from campaign.models import Campaign

PASSWORD = "correct-horse-battery-staple"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    password = factory.django.Password(PASSWORD)


class CampaignFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Campaign

    name = factory.Sequence(lambda n: f"Campaign {n}")
    created_by = factory.SubFactory(UserFactory)


class NotificationFactory(factory.django.DjangoModelFactory):
    """A notification the in-app channel already delivered (it shows in the recipient's list)."""

    class Meta:
        model = "notifications.Notification"

    recipient = factory.SubFactory(UserFactory)
    event = "level_up"
    title = factory.Sequence(lambda n: f"Notification {n}")
    in_app_at = factory.LazyFunction(timezone.now)


# --------------------------------------------------------------------------- spellcards
# Cards are stored as the engine's SpellcardDraft.to_dict(); the factories build that shape so
# tests read like the rulebook ("2d attack card, single target").


def attack_draft(name: str = "Fantasy Seal", **changes: object) -> dict[str, object]:
    """A legal attack card for any caster: 2d, single target, no element (cost 20)."""
    draft: dict[str, object] = {
        "name": name,
        "type": "attack",
        "bomb": False,
        "to_hit": "none",
        "targets": "single",
        "aoe": 0,
        "duration": "instantaneous",
        "attack_power": {"dice": 2, "modifier": 0},
        "element": None,
        "skills": [],
    }
    draft.update(changes)
    return draft


class SpellcardFactory(factory.django.DjangoModelFactory):
    """A stored card. Its cost is whatever the test says: only services compute real costs."""

    class Meta:
        model = "spellcards.Spellcard"

    name = factory.Sequence(lambda n: f"Card {n}")
    card_type = "attack"
    cost = 20
    draft = factory.LazyAttribute(lambda o: attack_draft(o.name))


class TemplateCardFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "spellcards.TemplateCard"

    name = factory.Sequence(lambda n: f"Template {n}")
    description = "A campaign card."
    draft = factory.LazyAttribute(lambda o: attack_draft(o.name))


# --------------------------------------------------------------------------- characters


def legal_draft(**changes):
    """A legal level-1 character with its starting kit: a water fairy Carefree Soul with
    Homing Amulets. ``changes`` set draft fields afterwards (legal or not)."""
    from westernroses.characters import CharacterDraft, with_starting_kit

    draft = with_starting_kit(
        CharacterDraft(
            name="Cirno",
            shot_type="homing_amulets",
            race="fairy",
            profession="carefree_soul",
            element="water",
            bonus_points={"cha": 5, "int": 10, "ins": 5},
            skill_points={"flying": 5, "sense": 5},
            abilities=["keen_senses"],
        )
    )
    for key, value in changes.items():
        setattr(draft, key, value)
    return draft


class CharacterFactory(factory.django.DjangoModelFactory):
    """A stored character; ``draft=`` a CharacterDraft (default :func:`legal_draft`).

    Stored through ``character_apply_draft`` without validation, so tests can also store
    characters that break rules (as a house-rule change can leave them).
    """

    class Meta:
        model = "characters.Character"

    owner = factory.SubFactory(UserFactory)
    campaign = None
    name = factory.Sequence(lambda n: f"Character {n}")

    @classmethod
    def _create(cls, model_class, *args, draft=None, **kwargs):
        from characters.services import character_apply_draft

        draft = draft if draft is not None else legal_draft()
        draft.name = kwargs.pop("name", None) or draft.name
        return character_apply_draft(character=model_class(**kwargs), draft=draft)
