"""Fixtures for the battle tests: a campaign with two players' characters, a GM's NPC
character, and battles built through the services (setup, or started)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from battles import services
from battles.models import Battle
from campaign.permissions import access_for
from tests.factories import CharacterFactory, SpellcardFactory, attack_draft


@pytest.fixture
def character(campaign, player):
    """The player's legal character (a Cirno) with a 1-AOE attack card (two copies)."""
    character = CharacterFactory(owner=player, campaign=campaign, name="Cirno")
    deck_card(character, "Icicle Fall", aoe=1)
    return character


@pytest.fixture
def other_character(campaign, other_player):
    character = CharacterFactory(owner=other_player, campaign=campaign, name="Daiyousei")
    deck_card(character, "Secret Card")
    return character


@pytest.fixture
def npc_character(campaign, gm):
    return CharacterFactory(owner=gm, campaign=campaign, name="Hong Meiling", is_npc=True)


def deck_card(character: Any, name: str, **changes: Any) -> Any:
    """A card in ``character``'s deck (two copies)."""
    from spellcards.models import DeckEntry

    card = SpellcardFactory(character=character, name=name, draft=attack_draft(name, **changes))
    DeckEntry.objects.create(character=character, spellcard=card, copies=2)
    return card


FAIRY = services.NpcSpec(
    name="Fairy", stats={"pwr": 3, "cha": 3, "int": 3, "ins": 3}, hp=30, speed=1, range=2
)


def fairy(name: str = "Fairy", **changes: Any) -> services.NpcSpec:
    from dataclasses import replace

    return replace(FAIRY, name=name, **changes)


@dataclass
class BattleSetup:
    """A battle and the engine ids of its pieces."""

    battle: Battle
    pc: str  # the player's character
    other_pc: str  # the other player's character
    npcs: list[str]

    def refresh(self) -> Battle:
        self.battle.refresh_from_db()
        return self.battle

    @property
    def version(self) -> int:
        return self.refresh().version


BATTLE_SEED = 20261122


def build_battle(
    campaign: Any,
    gm: Any,
    characters: list[Any],
    *,
    npcs: int = 2,
    width: int = 8,
    height: int = 6,
    npc: services.NpcSpec = FAIRY,
) -> Battle:
    """Characters on the left column, NPCs on the right, through the services. A fixed seed:
    every run rolls the same dice, so a test cannot pass or fail by luck."""
    battle = services.battle_create(
        campaign=campaign,
        by=access_for(gm, campaign),
        created_by=gm,
        seed=BATTLE_SEED,
        name="Battle at the lake",
        width=width,
        height=height,
    )
    for i, character in enumerate(characters):
        services.battle_character_place(
            battle_id=battle.pk, by=gm, character_id=character.pk, position=[1, i]
        )
    for i in range(npcs):
        from dataclasses import replace

        services.battle_npc_place(
            battle_id=battle.pk,
            by=gm,
            npc=replace(npc, name=f"{npc.name} {i + 1}"),
            position=[width - 2, i],
        )
    battle.refresh_from_db()
    return battle


@pytest.fixture
def setup_battle(campaign, gm, character, other_character) -> BattleSetup:
    """A battle being set up: the two players' characters against two fairies."""
    battle = build_battle(campaign, gm, [character, other_character])
    return BattleSetup(battle, f"pc{character.pk}", f"pc{other_character.pk}", ["npc1", "npc2"])


@pytest.fixture
def started(setup_battle, gm) -> BattleSetup:
    """The same battle, started (the turn order rolled, the opening cards drawn)."""
    services.battle_action_apply(
        battle_id=setup_battle.battle.pk,
        actor=gm,
        action={"type": "start"},
        expected_version=setup_battle.battle.version,
    )
    setup_battle.refresh()
    return setup_battle


def current(setup: BattleSetup) -> str:
    return setup.refresh().state["current"]


def play_until(setup: BattleSetup, gm: Any, combatant: str, *, limit: int = 40) -> None:
    """End turns as the GM until it is ``combatant``'s turn."""
    for _ in range(limit):
        battle = setup.refresh()
        if battle.state["current"] == combatant and not battle.state["pending"]:
            return
        action = {"type": "end_turn", "combatant": battle.state["current"]}
        if battle.state["pending"]:
            action = take_the_hit(battle)
        services.battle_action_apply(
            battle_id=battle.pk, actor=gm, action=action, expected_version=battle.version
        )
    raise AssertionError(f"{combatant} never got a turn")


def act(setup: BattleSetup, actor: Any, action: dict[str, Any]) -> None:
    """``actor`` plays ``action``, at the battle's version as it stands now."""
    battle = setup.refresh()
    services.battle_action_apply(
        battle_id=battle.pk, actor=actor, action=action, expected_version=battle.version
    )


def end_turn(setup: BattleSetup, actor: Any, combatant: str) -> None:
    """``actor`` ends ``combatant``'s turn."""
    act(setup, actor, {"type": "end_turn", "combatant": combatant})


def take_the_hit(battle: Battle) -> dict[str, Any]:
    """The GM's plainest answer to a waiting hit (take it, don't graze, pass)."""
    from westernroses import battle as engine

    options = engine.legal_actions(services.load_state(battle), "gm")
    plain = [o for o in options if o["choice"] in ("take", "no_graze", "pass", "accept")]
    o = (plain or options)[0]
    return {k: o.get(k) for k in ("type", "combatant", "hit", "choice", "card")}
