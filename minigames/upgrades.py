"""What the data migrations that replay tavern tables share.

A game whose state starts keeping something new (its words as message ids, say) writes a
different state for the same moves, so a table saved before no longer replays to its stored
state byte for byte (the table core checks that it does). Such a migration replays each of the
game's tables once from its initial state and the moves that stand, and saves the state as the
engine writes it now: the moves and the outcome stay the same, only the state's form changes."""

from __future__ import annotations

from typing import Any

from django.apps.registry import Apps


def replay_states(apps: Apps, game: str) -> None:
    """Replay and save every started table of ``game`` (a slug of the registry), through the
    migration's historical models."""
    from minigames.engines.registry import get_engine
    from tables.undo.services import effective_log
    from westernroses.protocol import replay

    engine: Any = get_engine(game)
    table_model = apps.get_model("minigames", "TavernTable")
    action_model = apps.get_model("minigames", "TavernAction")
    for table in table_model.objects.filter(game=game).iterator():
        if not table.initial:  # a table not started yet has no state to replay
            continue
        rows = action_model.objects.filter(table=table).order_by("seq")
        log = [(int(r.seat), r.action) for r in effective_log(rows)]
        state = engine.to_json(replay(engine, engine.from_json(table.initial), log))
        if state != table.state:
            table.state = state
            table.save(update_fields=["state"])
