"""Issue 15: a move starts from the state the previous move left in the process
(``tables.kept_states``) instead of decoding the stored JSON. The straightforward path is the
oracle: at every step of random battles played through the service, the kept state is the
stored one, and the move it starts gives the state and events the stored JSON would have."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction

from battles import services
from battles.models import Battle, BattleAction
from tables import kept_states
from tests.engine.battle.random_play import random_action
from westernroses.battle.game import ENGINE

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run what would run on commit (the test's transaction never commits)."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def _adjust(battle: Battle, gm) -> None:
    """The GM takes a point from the first fairy (a plain move)."""
    services.battle_action_apply(
        battle_id=battle.pk,
        actor=gm,
        action={"type": "gm_adjust", "combatant": "npc1", "hp": -1},
        expected_version=battle.version,
    )


def _actor(gm, controller: str):
    user_id = services.controller_user_id(controller)
    return gm if user_id is None else get_user_model().objects.get(pk=user_id)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_move_from_a_kept_state_is_the_move_from_the_stored_one(started, gm, committed, seed):
    rng = random.Random(seed)
    kept_states.forget_all()
    hits = 0
    for step in range(60):
        battle = Battle.objects.get(pk=started.battle.pk)
        stored = services.load_state(battle, initial=False)
        action = random_action(stored, rng)
        if action is None:
            break
        kept = kept_states.kept(battle)
        if step > 0:  # the start was committed like every move since
            assert kept is not None, f"step {step}: nothing kept at version {battle.version}"
            assert ENGINE.to_json(kept) == battle.state, f"step {step}"
            hits += 1
        player = action.pop("player")
        clean = {k: v for k, v in action.items() if k not in services.SERVER_FIELDS}
        # the oracle: the same move applied to the state decoded from the stored JSON
        expected, events = ENGINE.apply(
            stored, player, {**clean, "player": player, "at": NOW.isoformat()}
        )
        with committed():
            services.battle_action_apply(
                battle_id=battle.pk,
                actor=_actor(gm, player),
                action=clean,
                expected_version=battle.version,
                now=NOW,
            )
        after = Battle.objects.get(pk=battle.pk)
        assert after.state == ENGINE.to_json(expected), f"step {step}: {clean}"
        row = BattleAction.objects.get(battle=battle, seq=after.version)
        assert row.events == events, f"step {step}: {clean}"
    assert hits >= 20


def test_a_move_rolled_back_leaves_nothing_kept(started, gm, committed):
    kept_states.forget_all()
    battle = started.refresh()
    with committed():
        try:
            with transaction.atomic():
                _adjust(battle, gm)
                raise RuntimeError("the caller's transaction fails after the move")
        except RuntimeError:
            pass
    battle = started.refresh()
    assert battle.version == started.battle.version  # the move did not land...
    assert kept_states.kept(battle) is None  # ...and left nothing behind
    battle.version += 1
    assert kept_states.kept(battle) is None


def test_a_change_made_elsewhere_is_never_answered_from_a_kept_state(started, gm, committed):
    """A GM's change outside the move path adds one to the version: the kept state is for
    the version before, so the next move reads what is stored."""
    kept_states.forget_all()
    with committed():
        _adjust(started.refresh(), gm)
    battle = started.refresh()
    assert kept_states.kept(battle) is not None
    state = dict(battle.state)
    state["round"] = state["round"] + 5
    state["version"] = battle.version + 1
    Battle.objects.filter(pk=battle.pk).update(state=state, version=battle.version + 1)
    battle = started.refresh()
    assert kept_states.kept(battle) is None
    with committed():
        _adjust(battle, gm)
    assert started.refresh().state["round"] == state["round"]
