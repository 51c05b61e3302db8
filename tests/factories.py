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
        model = "campaign.Notification"

    recipient = factory.SubFactory(UserFactory)
    event = "level_up"
    title = factory.Sequence(lambda n: f"Notification {n}")
    in_app_at = factory.LazyFunction(timezone.now)
