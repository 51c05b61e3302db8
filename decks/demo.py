"""Demo data for the tavern card games (called by ``manage.py seed_demo``): one GM card in the
demo campaign and two of Reimu's decks, one legal and one half built, so `make run` shows the
card list, a GM card, the builder's broken rules and a deck a table would accept. Idempotent:
everything is found by number or name, and goes through the services (the engine checks it)."""

from __future__ import annotations

from typing import Any

from campaign.models import Campaign

from . import services
from .games import RSO
from .models import CustomCard, Deck

#: An original GM card for the demo campaign (Rumbling Spell Orchestra, a General Event).
DEMO_GM_CARD: dict[str, Any] = {
    "number": "GM-001",
    "name": "Crimson Fog Rolls In",
    "kind": "event",
    "cost": 1,
    "phases": ["battle"],
    "role": "intercept",
    "target": "opposing_battle_spell",
    "effects": [{"do": "modify", "stat": "hv", "amount": -2}],
}


def seed_decks(
    campaign: Campaign, users: dict[str, Any], stdout: Any, base: str = "http://127.0.0.1:8000"
) -> None:
    gm, reimu = users["gm"], users["reimu"]
    if not CustomCard.objects.filter(game="rso", campaign=campaign, number="GM-001").exists():
        services.custom_card_create(by=gm, game="rso", campaign=campaign, data=DEMO_GM_CARD)
    preset = RSO.engine.preset_decks()[0]
    legal = Deck.objects.filter(owner=reimu, game="rso", name=preset["name"]).first()
    if legal is None:
        legal = services.deck_create(
            by=reimu, game="rso", name=preset["name"], campaign=campaign, cards=preset["cards"]
        )
    if not Deck.objects.filter(owner=reimu, game="rso", name="Half-built mist deck").exists():
        cards = ["RSO-001", "RSO-001", "RSO-101", "RSO-101", "RSO-101", "RSO-101", "GM-001"]
        services.deck_create(
            by=reimu, game="rso", name="Half-built mist deck", campaign=campaign, cards=cards
        )
    stdout.write(f"  Demo deck builder: {base}/decks/{legal.pk}/ (as reimu)")
