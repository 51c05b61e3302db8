"""Seed the load test's database: ``python -m tests.load.seed OUT.json [USERS]``.

Campaigns of ten (two GMs, eight players with a character each), each with a running battle of
four player characters and four NPCs, and an API token per user. Writes the accounts the
locustfile plays (token, campaign, battle, a character to read, GM or not) to OUT.json.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def seed(users: int) -> list[dict[str, object]]:
    from rest_framework.authtoken.models import Token

    from battles import services as battles
    from campaign.models import Membership, Role
    from campaign.permissions import access_for
    from campaign.services import campaign_create
    from minigames import services as tavern_services
    from tests.factories import CharacterFactory, UserFactory, legal_draft

    accounts: list[dict[str, object]] = []
    for c in range(max(1, users // 10)):
        gms = [UserFactory(username=f"load-gm-{c}-{i}") for i in range(2)]
        campaign = campaign_create(name=f"Load table {c}", description="", gm=gms[0])
        Membership.objects.create(campaign=campaign, user=gms[1], role=Role.GM)
        players = [UserFactory(username=f"load-player-{c}-{i}") for i in range(8)]
        characters = []
        for i, player in enumerate(players):
            Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
            characters.append(
                CharacterFactory(
                    owner=player, campaign=campaign, draft=legal_draft(name=f"Fairy {c}-{i}")
                )
            )
        battle = battles.battle_create(
            campaign=campaign,
            by=access_for(gms[0], campaign),
            created_by=gms[0],
            name=f"Skirmish {c}",
            width=12,
            height=8,
        )
        for i, character in enumerate(characters[:4]):
            battles.battle_character_place(
                battle_id=battle.pk, by=gms[0], character_id=character.pk, position=[1, i * 2]
            )
        for i in range(4):
            battles.battle_npc_place(
                battle_id=battle.pk,
                by=gms[0],
                npc=battles.NpcSpec(
                    name=f"Maid {i + 1}",
                    stats={"pwr": 10, "cha": 10, "int": 10, "ins": 10},
                    hp=60,
                    speed=3 + i,
                    range=3,
                    element="water",
                    weapons=("spear",),
                ),
                side="enemies",
                position=[10, i * 2],
            )
        battle.refresh_from_db()
        battles.battle_action_apply(
            battle_id=battle.pk,
            actor=gms[0],
            action={"type": "start"},
            expected_version=battle.version,
        )
        # a Spirit War table between two of the players (no stakes): their moves are tavern moves
        tavern = tavern_services.tavern_create(
            by=players[0],
            game="spirit_war",
            campaign=campaign,
            seats=[tavern_services.SeatSpec(kind="host"), tavern_services.SeatSpec(kind="open")],
        )
        tavern_services.tavern_join(table_id=tavern.pk, by=players[1], index=1)
        tavern_services.tavern_start(table_id=tavern.pk, by=players[0])
        for user, is_gm in [(g, True) for g in gms] + [(p, False) for p in players]:
            own = next((ch for ch in characters if ch.owner_id == user.pk), characters[0])
            accounts.append(
                {
                    "token": Token.objects.create(user=user).key,
                    "campaign": campaign.pk,
                    "battle": battle.pk,
                    "character": own.pk,
                    "gm": is_gm,
                    "tavern": tavern.pk if user in players[:2] else None,
                }
            )
    return accounts


def main() -> None:
    import django

    django.setup()
    out = Path(sys.argv[1])
    users = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    out.write_text(json.dumps(seed(users)))


if __name__ == "__main__":
    main()
