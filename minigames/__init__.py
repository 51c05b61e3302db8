"""Tavern minigames: tables, seats and bots; the pure game engines live in minigames/engines."""
