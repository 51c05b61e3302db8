"""The Western Roses battle engine: grid battles as plain, replayable state.

Public API (see docs/battle.md for the shapes and the rulings):

* :func:`new_battle` - a battle in ``setup`` from an arena, combatants, a seed and house rules;
  :func:`combatant_from_sheet` and :func:`npc` build the combatants.
* :func:`legal_actions` ``(state, player)`` - what that player may do now, with reach and AOE
  previews; :func:`apply` ``(state, action) -> (new_state, events)`` - never mutates its input,
  applies completely or raises :class:`IllegalAction`.
* :func:`view` ``(state, player)`` - what that player may see (no other hands, no seed).
* :func:`replay` ``(initial, actions)`` - the same final state, byte for byte (:func:`dumps`).
* :data:`ENGINE` - the battle as a game of the one protocol (:mod:`westernroses.protocol`),
  with :func:`waiting` (whom it waits on), :func:`summary`, :func:`rebuild_setup`: what the
  table core and the battles app use (``westernroses/battle/game.py``).

Pure Python: nothing here imports Django, DRF or Celery. Its modules may run compiled with
mypyc (``westernroses.native``, docs/native.md): the same source, built by ``make native``.
"""

# The compiled modules' folder goes first on ``__path__`` before any of them is imported.
# ruff: noqa: E402
from westernroses import native as _native

_native.enable(__path__, __name__)


from westernroses.battle.actions import apply, legal_actions
from westernroses.battle.arena import Arena, Square
from westernroses.battle.arena import square as parse_square
from westernroses.battle.combatants import combatant_from_sheet, npc, profile_from_sheet
from westernroses.battle.creation import new_battle
from westernroses.battle.errors import IllegalAction
from westernroses.battle.fog import changed_arena as fog_changed_arena
from westernroses.battle.fog import hidden_ids, in_fog
from westernroses.battle.game import (
    ENGINE,
    GM_SEAT,
    SPECTATOR,
    STATUS_KEYS,
    TARGET_KEYS,
    BattleEngine,
    Waiting,
    rebuild_setup,
    replay_actions,
    summary,
    summary_words,
    visible_events,
    waiting,
    with_history,
)
from westernroses.battle.player_view import log_view, view
from westernroses.battle.replay import dumps, effective_actions, replay, replay_log
from westernroses.battle.spellcasting import preview as _preview
from westernroses.battle.state import AttackProfile, BattleState, Combatant, Profile

__all__ = [
    "ENGINE",
    "GM_SEAT",
    "SPECTATOR",
    "STATUS_KEYS",
    "TARGET_KEYS",
    "Arena",
    "AttackProfile",
    "BattleEngine",
    "BattleState",
    "Combatant",
    "IllegalAction",
    "Profile",
    "Square",
    "Waiting",
    "apply",
    "combatant_from_sheet",
    "dumps",
    "effective_actions",
    "fog_changed_arena",
    "hidden_ids",
    "in_fog",
    "legal_actions",
    "log_view",
    "new_battle",
    "npc",
    "parse_square",
    "profile_from_sheet",
    "rebuild_setup",
    "replay",
    "replay_actions",
    "replay_log",
    "summary",
    "summary_words",
    "view",
    "visible_events",
    "waiting",
    "with_history",
]

del _preview
