"""The Western Roses battle engine: grid battles as plain, replayable state.

Public API (see docs/battle.md for the shapes and the rulings):

* :func:`new_battle` - a battle in ``setup`` from an arena, combatants, a seed and house rules;
  :func:`combatant_from_sheet` and :func:`npc` build the combatants.
* :func:`legal_actions` ``(state, player)`` - what that player may do now, with reach and AOE
  previews; :func:`apply` ``(state, action) -> (new_state, events)`` - never mutates its input,
  applies completely or raises :class:`IllegalAction`.
* :func:`view` ``(state, player)`` - what that player may see (no other hands, no seed).
* :func:`replay` ``(initial, actions)`` - the same final state, byte for byte (:func:`dumps`).

Pure Python: nothing here imports Django, DRF or Celery.
"""

from westernroses.battle.actions import apply, legal_actions
from westernroses.battle.arena import Arena
from westernroses.battle.combatants import combatant_from_sheet, npc, profile_from_sheet
from westernroses.battle.creation import new_battle
from westernroses.battle.errors import IllegalAction
from westernroses.battle.replay import dumps, effective_actions, replay, replay_log
from westernroses.battle.spellcasting import preview as _preview
from westernroses.battle.state import AttackProfile, BattleState, Combatant, Profile
from westernroses.battle.views import view

__all__ = [
    "Arena",
    "AttackProfile",
    "BattleState",
    "Combatant",
    "IllegalAction",
    "Profile",
    "apply",
    "combatant_from_sheet",
    "dumps",
    "effective_actions",
    "legal_actions",
    "new_battle",
    "npc",
    "profile_from_sheet",
    "replay",
    "replay_log",
    "view",
]

del _preview
