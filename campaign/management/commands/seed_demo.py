"""Demo data a newcomer can click through: a GM, two players, a campaign and some rolls.

Idempotent: running it again resets the demo users' passwords and adds nothing twice. Later
features add their own demo data through :data:`DEMO_EXTENSIONS` hooks in their apps.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from campaign import services
from campaign.models import Campaign, Membership, Role
from westernroses.rng import RandomSource

DEMO_USERS = (
    # username, password, display name, role in the demo campaign
    ("gm", "roses-gm-demo", "Yukari (GM)", Role.GM),
    ("reimu", "roses-reimu-demo", "Reimu", Role.PLAYER),
    ("marisa", "roses-marisa-demo", "Marisa", Role.PLAYER),
)
DEMO_CAMPAIGN = "The Scarlet Mist Incident"


class Command(BaseCommand):
    help = "Create or refresh the demo users, campaign and roll log."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        user_model = get_user_model()
        users = {}
        for username, password, name, _ in DEMO_USERS:
            user, _ = user_model.objects.get_or_create(username=username)
            user.display_name = name
            user.set_password(password)
            user.save()
            users[username] = user
        campaign = Campaign.objects.filter(name=DEMO_CAMPAIGN, created_by=users["gm"]).first()
        if campaign is None:
            campaign = services.campaign_create(
                name=DEMO_CAMPAIGN,
                description=(
                    "A crimson fog covers Gensokyo. Reimu and Marisa set out for the "
                    "mansion by the lake. (Demo campaign: look around, roll some dice.)"
                ),
                gm=users["gm"],
            )
            rng = RandomSource(seed=20261121)
            demo_rolls = (
                ("reimu", "Spot the hidden path", "4d", 12, False),
                ("marisa", "Lift the boulder", "6d-4", 25, False),
                ("gm", "Sneaking fairy (INS)", "3d+1", 10, True),
            )
            for username, label, notation, target, secret in demo_rolls:
                services.roll_make(
                    user=users[username],
                    dice=services.dice_request_from(notation=notation, target=target),
                    campaign=campaign,
                    label=label,
                    secret=secret,
                    rng=rng,
                )
        for username, _, _, role in DEMO_USERS:
            Membership.objects.update_or_create(
                campaign=campaign, user=users[username], defaults={"role": role}
            )
        self.stdout.write(self.style.SUCCESS("Demo data ready. Log in at http://127.0.0.1:8000/"))
        for username, password, name, role in DEMO_USERS:
            self.stdout.write(
                f"  {Role(role).label:<12} {username:<8} password: {password}  ({name})"
            )
