"""Seed the load test's database: ``python -m tests.load.seed OUT.json [USERS]``.

Campaigns of ten (two GMs, eight players with a character each of 100 yen), each with a running
battle of four player characters and four NPCs, a Spirit War table between two of the players'
characters for a stake of 10 yen, an API token and a signed-in session per user (accounts have
no password: nobody signs in with one, and hashing a thousand would take minutes). Writes the
accounts the locustfile plays (token, session key, campaign, battle, a character to read, GM or
not, the tavern table of the two who sit at it) to OUT.json.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

#: Each character's purse, and the stake of each campaign's tavern table (the yen ledger's
#: check after the run: tests/load/verify.py).
PURSE = 100
STAKE = 10


def _user(username: str) -> object:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(username=username, email=f"{username}@example.com")


def _session(user: object) -> str:
    """A signed-in session for ``user`` (what a browser holds after signing in)."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)  # type: ignore[attr-defined]
    store[BACKEND_SESSION_KEY] = "accounts.backends.CachedModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()  # type: ignore[attr-defined]
    store.create()
    return str(store.session_key)


def seed(users: int, prefix: str = "load", first: int = 0) -> list[dict[str, object]]:
    """Campaigns ``first`` to ``first + users // 10`` of the load (their users' accounts)."""
    from rest_framework.authtoken.models import Token

    from battles import services as battles
    from campaign.models import Membership, Role
    from campaign.permissions import access_for
    from campaign.services import campaign_create
    from characters.models import Character
    from minigames import services as tavern_services
    from tests.factories import CharacterFactory, legal_draft

    accounts: list[dict[str, object]] = []
    for c in range(first, first + max(1, users // 10)):
        gms = [_user(f"{prefix}-gm-{c}-{i}") for i in range(2)]
        campaign = campaign_create(name=f"{prefix.title()} table {c}", description="", gm=gms[0])
        Membership.objects.create(campaign=campaign, user=gms[1], role=Role.GM)
        players = [_user(f"{prefix}-player-{c}-{i}") for i in range(8)]
        characters = []
        for i, player in enumerate(players):
            Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
            characters.append(
                CharacterFactory(
                    owner=player, campaign=campaign, draft=legal_draft(name=f"Fairy {c}-{i}")
                )
            )
        Character.objects.filter(pk__in=[ch.pk for ch in characters]).update(yen=PURSE)
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
        # a Spirit War table between two of the players' characters, for a stake: their moves
        # are tavern moves, and a game played out pays the pot
        tavern = tavern_services.tavern_create(
            by=players[0],
            game="spirit_war",
            campaign=campaign,
            seats=[
                tavern_services.SeatSpec(kind="host", character=characters[0].pk),
                tavern_services.SeatSpec(kind="open"),
            ],
            stake=STAKE,
        )
        tavern_services.tavern_join(
            table_id=tavern.pk, by=players[1], index=1, character=characters[1].pk
        )
        tavern_services.tavern_start(table_id=tavern.pk, by=players[0])
        for user, is_gm in [(g, True) for g in gms] + [(p, False) for p in players]:
            own = next((ch for ch in characters if ch.owner_id == user.pk), characters[0])
            accounts.append(
                {
                    "token": Token.objects.create(user=user).key,
                    "session": _session(user),
                    "campaign": campaign.pk,
                    "battle": battle.pk,
                    "character": own.pk,
                    "gm": is_gm,
                    "tavern": tavern.pk if user in players[:2] else None,
                }
            )
    return accounts


def main() -> None:
    """``OUT.json [USERS] [FIRST CAMPAIGN] [PREFIX]``: several of these, each with its own
    campaigns, seed a large load side by side."""
    import django

    django.setup()
    out = Path(sys.argv[1])
    users = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    first = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    prefix = sys.argv[4] if len(sys.argv) > 4 else "load"
    out.write_text(json.dumps(seed(users, prefix, first)))


if __name__ == "__main__":
    main()
