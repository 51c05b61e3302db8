"""Pure game engines for the tavern games: no Django imports, JSON-serialisable states."""
