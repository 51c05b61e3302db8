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
        seed_spellcards(campaign, users, self.stdout)  # spellcards app: see the end of this file
        self.stdout.write(self.style.SUCCESS("Demo data ready. Log in at http://127.0.0.1:8000/"))
        for username, password, name, role in DEMO_USERS:
            self.stdout.write(
                f"  {Role(role).label:<12} {username:<8} password: {password}  ({name})"
            )


# --------------------------------------------------------------------------- spellcards
# Demo spellcards (spellcards app): two cards in each demo player's character's deck and one GM
# template card. Idempotent: cards are found by name; everything goes through the services, so
# the demo cards are legal and priced by the engine. Characters come from the characters demo
# data; a character that is missing or incomplete is skipped with a note.

DEMO_SPELLCARDS = (
    # name, description, draft fields (on top of a single-target instantaneous attack card)
    (
        "Spirit Sign “Fantasy Seal”",
        "Homing orbs of light seal the target's power.",
        {"type": "attack", "attack_power": {"dice": 3, "modifier": 2}, "aoe": 1},
    ),
    (
        "Barrier Sign “Warding Circle”",
        "A ring of talismans around the caster for three rounds (the GM adjudicates the buff).",
        {"type": "defensive", "targets": "self", "duration": "single_space_3"},
    ),
)
DEMO_TEMPLATE = (
    "Scarlet Sign “Red Mist”",
    "The mist itself lashes out: a card any member may copy.",
    {"type": "attack", "attack_power": {"dice": 4, "modifier": 0}, "targets": "two"},
)


def _demo_draft(name: str, fields: dict[str, Any]) -> Any:
    from westernroses.spellcards import SpellcardDraft

    data = {"name": name, "type": "attack", "targets": "single", "skills": []}
    data.update(fields)
    return SpellcardDraft.from_dict(data)


def seed_spellcards(campaign: Campaign, users: dict[str, Any], stdout: Any) -> None:
    """Demo cards for the demo players' characters and a GM template card (idempotent)."""
    from characters.models import Character
    from spellcards import selectors as spellcard_selectors
    from spellcards import services as spellcard_services
    from spellcards.models import Spellcard, TemplateCard

    name, description, fields = DEMO_TEMPLATE
    if not TemplateCard.objects.filter(campaign=campaign, name=name).exists():
        spellcard_services.template_card_create(
            by=users["gm"],
            campaign=campaign,
            draft=_demo_draft(name, fields),
            description=description,
        )
    characters = Character.objects.filter(
        campaign=campaign, owner__in=[users["reimu"], users["marisa"]]
    )
    for character in characters:
        for name, description, fields in DEMO_SPELLCARDS:
            if Spellcard.objects.filter(character=character, name=name).exists():
                continue
            try:
                spellcard_services.spellcard_create(
                    by=character.owner,
                    character=character,
                    draft=_demo_draft(name, fields),
                    description=description,
                    add_to_deck=2,
                )
            except (
                spellcard_services.SpellcardRejected,
                spellcard_selectors.CharacterIncomplete,
            ) as exc:
                stdout.write(f"  (demo spellcard {name} skipped for {character.name}: {exc})")
