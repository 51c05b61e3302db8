"""Writes for battles: setting up the arena, placing combatants, and applying actions.

Every function is keyword-only and checks access through :mod:`campaign.permissions` first.
Rules are the engine's (:mod:`westernroses.battle`); this module adds what the engine cannot
know: who the users are, which of them may send what, and how the state is stored.

**Applying an action** (:func:`battle_action_apply`, through the table core): the battle row is
read with the actor's role, the version the client saw is compared with the stored one (a
mismatch is :class:`StaleVersion`, the API's 409), the engine applies the action to a copy (an
``IllegalAction`` is a 400 and nothing is saved), and the new state, version and the
:class:`BattleAction` row are written by one statement that writes only while the row is still
at the version read (two clicks or two browsers never apply the same move twice: the second
finds the version moved on, a 409). A move that brings or takes pieces also updates the
combatants index, in the same transaction. "Your turn" notifications are enqueued on commit.

**Setup** happens before the engine's ``start`` action and is not logged: each change rebuilds
the engine state from the arena and the combatants placed so far (``engine.new_battle`` with the
battle's own seed) and bumps the version, so the log replays from the snapshot the battle
started from. Once a battle runs, changes are GM overrides (logged engine actions).
"""

from __future__ import annotations

import dataclasses
import logging
import re
import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any, Final, cast

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import Http404
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from apibase.engine_words import reason_in_language
from apibase.numbers import object_id
from campaign.models import Campaign, Membership
from campaign.permissions import CampaignAccess, access_for, access_from_row, role_column
from campaign.table_access import CAMPAIGN_AUDIENCE, campaign_notice
from notifications import texts
from tables import services as tables
from tables import store
from tables.errors import StaleVersion
from tables.registry import TableAccess, TableGame, TableHooks, Wait, register
from westernroses import battle as engine
from westernroses.battle import GM_SEAT as GM
from westernroses.battle import Square, parse_square

from . import table_talk
from .models import Battle, BattleAction, BattleStatus, Combatant
from .replay import move_words, replay_apply, replay_page

if TYPE_CHECKING:
    from accounts.models import User
    from characters.models import Character

logger = logging.getLogger(__name__)

#: Arena sides a GM may choose (the engine allows up to 100; a browser grid stays usable).
MIN_SIDE: Final = 2
MAX_SIDE: Final = 40
#: Side names are short slugs, shown on the board and in the log.
SIDE_PATTERN: Final = re.compile(r"^[a-z0-9][a-z0-9_-]{0,29}$")
TERRAINS: Final = ("open", "blocked", "difficult")
#: Action fields the server sets itself: the client never chooses who it is or when it acted.
SERVER_FIELDS: Final = ("player", "at", "expected_version")


__all__ = ["StaleVersion"]  # the table core's one stale-version error (409), re-exported


@dataclass(frozen=True, slots=True)
class Applied:
    """The result of a write: the saved battle, its new engine state and who asked (the
    engine player id). Send ``engine.view(state, player)``, never ``state`` itself."""

    battle: Battle
    state: engine.BattleState
    player: str


@dataclass(frozen=True, slots=True)
class NpcSpec:
    """The numbers a GM types in for an NPC (``engine.npc``)."""

    name: str
    stats: Mapping[str, int]
    hp: int
    speed: int
    range: int
    element: str | None = None
    weapons: tuple[str, ...] = ()
    damage_reduction: int = 0
    #: The spell power she starts with (None: the house rule's start, ruling 8).
    spell_power: int | None = None


# --------------------------------------------------------------------------- helpers


def engine_player(access: CampaignAccess) -> str:
    """The engine's player id for a member: ``"gm"`` for the campaign's GMs, else the user
    id. Players act for the combatants whose controller they are; the GM for everyone."""
    if access.is_gm:
        return GM
    if access.user_id is None:
        raise PermissionDenied(gettext("Log in to take part in a battle."))
    return str(access.user_id)


def controller_user_id(controller: str) -> int | None:
    """The user id behind an engine controller (None for the GM, or anything else that is not
    a user id: a GM's reinforcement may name any controller)."""
    return object_id(controller)


def load_state(
    battle: Battle, log: Iterable[BattleAction] = (), *, initial: bool = True
) -> engine.BattleState:
    """The engine state of a stored battle, with ``log`` rows as its log entries (only those
    the caller needs: apply needs none, undo all, a view the recent ones). ``initial`` False
    leaves out the snapshot (only setup and undo need it)."""
    return fresh_with_history(
        engine.ENGINE.from_json(battle.state),
        battle.initial if initial else None,
        [row.log_entry() for row in log],
    )


def fresh_with_history(
    state: engine.BattleState,
    initial: Mapping[str, Any] | None,
    entries: Iterable[Mapping[str, Any]],
) -> engine.BattleState:
    """``engine.with_history`` for a state just parsed from JSON: nothing else holds it, so
    it takes the history in place instead of through the engine's private copy (which copies
    every combatant: a tenth of a move's time on a 4-vs-4 battle)."""
    state.initial = dict(initial) if initial else None
    state.log = tuple(dict(e) for e in entries)
    return state


def full_state(battle: Battle) -> engine.BattleState:
    """The whole state: snapshot, every logged action (replays, undo, audits)."""
    return load_state(battle, BattleAction.objects.filter(battle=battle).order_by("seq"))


def _locked(battle_id: int, *, with_initial: bool = True) -> Battle:
    rows = Battle.objects.select_for_update()
    if not with_initial:
        rows = rows.defer("initial")
    battle = rows.filter(pk=battle_id).first()
    if battle is None:
        raise Http404("No such battle.")
    return battle


def _access(user: User, battle: Battle, *, manage: bool) -> CampaignAccess:
    access = access_for(user, battle.campaign_id)
    if not access.can_view:
        raise Http404("No such battle.")
    if manage and not access.can_manage:
        raise PermissionDenied(gettext("Only the campaign's game masters may do that."))
    return access


def _check_version(battle: Battle, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != battle.version:
        raise StaleVersion(battle.version, "battle")


#: Columns an applied action changes (the initial snapshot never changes once play starts, and
#: it is as large as the state: it is written only by setup).
PLAY_FIELDS: Final = (
    "state",
    "version",
    "status",
    "started_at",
    "ended_at",
    "current_combatant",
    "summary",
    "summary_words",
    "updated_at",
)


def _describe(
    battle: Battle, state: engine.BattleState, now: datetime, *, was_setup: bool | None = None
) -> None:
    """What lists show about ``state``: status, start and end times, whose turn, summary."""
    if was_setup is None:
        was_setup = battle.status == BattleStatus.SETUP
    if was_setup and state.phase != "setup":
        battle.started_at = now
    if state.phase == "ended" and battle.ended_at is None:
        battle.ended_at = now
    if state.phase != "ended":
        battle.ended_at = None  # an undo past the end reopens the battle
    battle.status = state.phase
    current = state.combatants.get(state.current or "")
    # Lists name whose turn it is to everyone: never someone in fog (``fog``).
    battle.current_combatant = (
        "" if current is None or engine.in_fog(state, current) else current.id
    )
    words = engine.summary_words(state)
    battle.summary = str(words)[:200]
    battle.summary_words = words.to_json()


def _store(battle: Battle, state: engine.BattleState, now: datetime, *, setup: bool) -> None:
    """Write ``state`` (and what lists show about it) to ``battle`` and save; ``setup`` also
    writes the initial snapshot the log replays from."""
    battle.state = engine.ENGINE.to_json(state)
    if setup:
        battle.initial = state.initial
    battle.version = state.version
    _describe(battle, state, now)
    if setup:
        battle.save()
    else:
        battle.save(update_fields=PLAY_FIELDS)


def _members(campaign_id: int) -> set[int]:
    return set(Membership.objects.filter(campaign_id=campaign_id).values_list("user_id", flat=True))


def _sync_combatants(battle: Battle, state: engine.BattleState) -> None:
    """Make the :class:`Combatant` index match the state (ids added or removed by placing,
    by the engine, or by a GM override). A controller who is not a member maps to the GM."""
    rows = {row.engine_id: row for row in Combatant.objects.filter(battle=battle)}
    members: set[int] | None = None
    for cid, c in state.combatants.items():
        user_id = controller_user_id(c.controller)
        if user_id is not None:
            members = _members(battle.campaign_id) if members is None else members
            if user_id not in members:
                user_id = None
        row = rows.pop(cid, None)
        if row is None:
            Combatant.objects.create(
                battle=battle,
                engine_id=cid,
                name=c.name[:120],
                kind=c.kind,
                side=c.side[:30],
                controller_id=user_id,
            )
        elif (row.name, row.side, row.kind, row.controller_id) != (
            c.name[:120],
            c.side[:30],
            c.kind,
            user_id,
        ):
            row.name, row.side, row.kind, row.controller_id = (
                c.name[:120],
                c.side[:30],
                c.kind,
                user_id,
            )
            row.save(update_fields=["name", "side", "kind", "controller"])
    if rows:
        Combatant.objects.filter(pk__in=[r.pk for r in rows.values()]).delete()


# --------------------------------------------------------------------------- creating


def _arena_errors(width: Any, height: Any) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = {}
    for name, value in (("width", width), ("height", height)):
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not MIN_SIDE <= value <= MAX_SIDE
        ):
            errors[name] = [
                gettext("Give a whole number of squares from %(low)s to %(high)s.")
                % {"low": MIN_SIDE, "high": MAX_SIDE}
            ]
    return errors


def _name(name: Any) -> str:
    text = str(name or "").strip()
    if not text:
        raise ValidationError({"name": [gettext("Give the battle a name.")]})
    if len(text) > 120:
        raise ValidationError({"name": [gettext("At most 120 characters.")]})
    return text


def battle_create(
    *,
    campaign: Campaign,
    by: CampaignAccess,
    created_by: User,
    name: str,
    width: int,
    height: int,
    seed: int | None = None,
) -> Battle:
    """A battle in setup: an empty ``width`` × ``height`` arena under the campaign's house
    rules, with a fresh secret seed (GMs only). A fixed ``seed`` replays a known battle: the
    tests use one so every run rolls the same dice; pages and the API never pass it."""
    if not by.can_manage or by.campaign_id != campaign.pk:
        raise PermissionDenied(gettext("Only the campaign's game masters start battles."))
    name = _name(name)
    errors = _arena_errors(width, height)
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        battle = Battle.objects.create(
            campaign=campaign, name=name, state={}, initial={}, created_by=created_by
        )
        state = engine.new_battle(
            arena={"width": width, "height": height},
            combatants=[],
            seed=secrets.randbits(53) if seed is None else seed,
            rules=campaign.rules(),
            battle_id=str(battle.pk),
        )
        _store(battle, state, timezone.now(), setup=True)
    return battle


# --------------------------------------------------------------------------- setup


def _rebuild(
    battle: Battle,
    state: engine.BattleState,
    *,
    arena: engine.Arena | None = None,
    combatants: list[engine.Combatant] | None = None,
) -> engine.BattleState:
    """A new setup state from an arena and combatants, with the battle's own seed, one
    version on (so pollers see the change)."""
    try:
        return engine.rebuild_setup(
            state, arena=arena, combatants=combatants, rules=battle.campaign.rules()
        )
    except ValueError as exc:
        raise ValidationError({"position": [str(exc)]}) from None


def setup_change(
    *,
    battle_id: int,
    by: User,
    expected_version: int | None,
    change: Callable[[Battle, engine.BattleState], engine.BattleState],
) -> Applied:
    """Run one setup change under the battle's row lock (GMs only, setup phase only)."""
    battle = Battle.objects.select_related("campaign").filter(pk=battle_id).first()
    if battle is None:
        raise Http404("No such battle.")
    access = _access(by, battle, manage=True)
    with transaction.atomic():
        battle = _locked(battle_id)
        _check_version(battle, expected_version)
        if battle.status != BattleStatus.SETUP:
            raise ValidationError(
                {"non_field_errors": [gettext("The battle has started: use the GM overrides.")]}
            )
        new = change(battle, load_state(battle))
        _store(battle, new, timezone.now(), setup=True)
        _sync_combatants(battle, new)
    return Applied(battle=battle, state=new, player=engine_player(access))


def battle_setup_update(
    *,
    battle_id: int,
    by: User,
    name: str | None = None,
    width: int | None = None,
    height: int | None = None,
    expected_version: int | None = None,
) -> Applied:
    """Rename the battle or resize its arena (squares outside the new size are dropped; a
    piece standing outside it must be moved first)."""

    def change(battle: Battle, state: engine.BattleState) -> engine.BattleState:
        if name is not None:
            battle.name = _name(name)
        w = state.arena.width if width is None else width
        h = state.arena.height if height is None else height
        if battle.map_id is not None and (w, h) != (state.arena.width, state.arena.height):
            raise ValidationError(
                {
                    "width": [
                        gettext("The map sets the arena's size: align its grid, or take it away.")
                    ]
                }
            )
        return rebuild_arena(battle, state, w, h)

    return setup_change(
        battle_id=battle_id, by=by, expected_version=expected_version, change=change
    )


def rebuild_arena(battle: Battle, state: engine.BattleState, w: int, h: int) -> engine.BattleState:
    """The setup state on a ``w`` × ``h`` arena: terrain and fog outside it are dropped; a
    piece standing outside must be moved first (400 naming her)."""
    errors = _arena_errors(w, h)
    if errors:
        raise ValidationError(errors)
    outside = [
        c.name
        for c in state.combatants.values()
        if c.position is not None and not (c.position[0] < w and c.position[1] < h)
    ]
    if outside:
        raise ValidationError(
            {
                "width": [
                    gettext("Move %(names)s inside the new arena first.")
                    % {"names": ", ".join(outside)}
                ]
            }
        )

    def inside(squares: frozenset[Square]) -> frozenset[Square]:
        return frozenset(s for s in squares if s[0] < w and s[1] < h)

    arena = engine.Arena(
        w,
        h,
        blocked=inside(state.arena.blocked),
        difficult=inside(state.arena.difficult),
        fog=inside(state.arena.fog),
    )
    return _rebuild(battle, state, arena=arena)


def battle_map_swap(
    *,
    battle_id: int,
    by: User,
    battle_map: Any,
    expected_version: int | None = None,
) -> Applied:
    """Change the map under a running battle (GMs): only a map of the arena's own size (the
    engine's arena never changes once play starts). Not an engine action: screens pick the new
    image up at the battle's next change or on reload."""
    battle = Battle.objects.select_related("campaign").filter(pk=battle_id).first()
    if battle is None:
        raise Http404("No such battle.")
    access = _access(by, battle, manage=True)
    with transaction.atomic():
        battle = _locked(battle_id, with_initial=False)
        _check_version(battle, expected_version)
        state = load_state(battle, initial=False)
        if battle_map is not None and (battle_map.cols, battle_map.rows) != (
            state.arena.width,
            state.arena.height,
        ):
            raise ValidationError(
                {
                    "map": [
                        gettext(
                            "The battle has started on %(width)s×%(height)s squares; this map"
                            " has %(cols)s×%(rows)s."
                        )
                        % {
                            "width": state.arena.width,
                            "height": state.arena.height,
                            "cols": battle_map.cols,
                            "rows": battle_map.rows,
                        }
                    ]
                }
            )
        battle.map = battle_map
        battle.save(update_fields=["map", "updated_at"])
        table_talk.feed_changed([battle.pk])
    return Applied(battle=battle, state=state, player=engine_player(access))


def _square(value: Any, field: str = "square") -> Square:
    try:
        return parse_square(value)
    except ValueError as exc:
        raise ValidationError({field: [str(exc)]}) from None


def battle_square_set(
    *,
    battle_id: int,
    by: User,
    square: Any,
    terrain: str,
    expected_version: int | None = None,
) -> Applied:
    """Make one square open, blocking or difficult (ruling 1: difficult costs 2 to enter)."""
    if terrain not in TERRAINS:
        raise ValidationError(
            {"terrain": [gettext("One of %(choices)s.") % {"choices": ", ".join(TERRAINS)}]}
        )
    sq = _square(square)

    def change(battle: Battle, state: engine.BattleState) -> engine.BattleState:
        arena = state.arena
        if not arena.inside(sq):
            raise ValidationError(
                {"square": [gettext("%(square)s is outside the arena.") % {"square": list(sq)}]}
            )
        if terrain == "blocked":
            standing = [c.name for c in state.combatants.values() if c.position == sq]
            if standing:
                raise ValidationError(
                    {
                        "square": [
                            gettext("%(name)s stands on %(square)s.")
                            % {"name": standing[0], "square": list(sq)}
                        ]
                    }
                )
        blocked = set(arena.blocked) - {sq}
        difficult = set(arena.difficult) - {sq}
        if terrain == "blocked":
            blocked.add(sq)
        elif terrain == "difficult":
            difficult.add(sq)
        new_arena = engine.Arena(
            arena.width,
            arena.height,
            blocked=frozenset(blocked),
            difficult=frozenset(difficult),
            fog=arena.fog,
        )
        return _rebuild(battle, state, arena=new_arena)

    return setup_change(
        battle_id=battle_id, by=by, expected_version=expected_version, change=change
    )


def _side(side: Any) -> str:
    text = str(side or "").strip().lower()
    if not SIDE_PATTERN.match(text):
        raise ValidationError(
            {"side": [gettext("A side is a short name: letters, digits, - and _ (e.g. heroes).")]}
        )
    return text


def _position(value: Any) -> Square | None:
    return None if value is None else _square(value, "position")


def character_combatant(
    character: Character,
    *,
    cid: str,
    controller: str,
    side: str,
    position: Square | None,
    rules: Any,
    others: Iterable[engine.Combatant] = (),
) -> engine.Combatant:
    """A campaign character as an engine combatant: its sheet derived sober (the battle
    tracks drink itself), its deck from the spellcards app, its HP and spell power as they
    are. A Guardian's charge is matched by name among ``others`` (place the charge first)."""
    from characters.services import CharacterFormatError, character_to_draft
    from spellcards.selectors import deck_entries, parse_draft
    from westernroses.characters import derive_sheet
    from westernroses.characters.sheet import SheetError

    try:
        draft = character_to_draft(character)
        drunk = draft.drunkenness
        sheet = derive_sheet(replace(draft, drunkenness="sober"), rules)
    except (CharacterFormatError, SheetError, KeyError, ValueError) as exc:
        raise ValidationError(
            {
                "character": [
                    gettext("%(name)s cannot fight yet: %(problem)s")
                    % {"name": character.name, "problem": reason_in_language(exc)}
                ]
            }
        ) from None
    deck = []
    for entry in deck_entries(character):
        card = parse_draft(entry.spellcard.draft)
        if card is not None:
            deck.append((f"card{entry.spellcard_id}", card, entry.copies))
    charge = None
    wanted = (getattr(draft, "guardian_charge", None) or "").strip().casefold()
    if wanted:
        for other in others:
            name = other.name.casefold()
            if name == wanted or name.split()[0] == wanted:
                charge = other.id
                break
    try:
        combatant = engine.combatant_from_sheet(
            sheet,
            id=cid,
            controller=controller,
            side=side,
            position=position,
            deck=deck,
            spell_power=character.spell_power,
            charge=charge,
        )
    except ValueError as exc:
        raise ValidationError({"character": [str(exc)]}) from None
    combatant.drunkenness = drunk
    return combatant


def _next_npc_id(state: engine.BattleState) -> str:
    numbers = [
        int(cid[3:]) for cid in state.combatants if cid.startswith("npc") and cid[3:].isdigit()
    ]
    return f"npc{max(numbers, default=0) + 1}"


def npc_combatant(
    spec: NpcSpec, *, cid: str, side: str, position: Square | None
) -> engine.Combatant:
    """A GM's NPC from the numbers typed in (``engine.npc``; invalid numbers are a 400)."""
    try:
        return engine.npc(
            id=cid,
            name=spec.name,
            stats=dict(spec.stats),
            hp=spec.hp,
            speed=spec.speed,
            range=spec.range,
            side=side,
            position=position,
            element=spec.element or None,
            weapons=spec.weapons,
            damage_reduction=spec.damage_reduction,
            spell_power=spec.spell_power,
        )
    except (KeyError, ValueError) as exc:
        raise ValidationError({"npc": [str(exc)]}) from None


def _place(
    *,
    battle_id: int,
    by: User,
    build: Callable[[Battle, engine.BattleState], engine.Combatant],
    character_id: int | None,
    expected_version: int | None,
) -> Applied:
    """Place a combatant: in setup by rebuilding; in a running battle as the GM's logged
    ``gm_add_combatant`` (a reinforcement joins the turn order by Speed, ruling 3)."""
    battle = Battle.objects.select_related("campaign").filter(pk=battle_id).first()
    if battle is None:
        raise Http404("No such battle.")
    _access(by, battle, manage=True)
    if battle.status == BattleStatus.SETUP:
        built: list[str] = []

        def change(battle: Battle, state: engine.BattleState) -> engine.BattleState:
            combatant = build(battle, state)
            built.append(combatant.id)
            fighters = [c for c in state.combatants.values() if c.kind != "doll"]
            return _rebuild(battle, state, combatants=[*fighters, combatant])

        result = setup_change(
            battle_id=battle_id, by=by, expected_version=expected_version, change=change
        )
    else:
        combatant = build(battle, load_state(battle))
        built = [combatant.id]
        result = battle_action_apply(
            battle_id=battle_id,
            actor=by,
            action={"type": "gm_add_combatant", "combatant": combatant.to_dict()},
            expected_version=battle.version if expected_version is None else expected_version,
        )
    if character_id is not None:
        Combatant.objects.filter(battle=result.battle, engine_id__in=built).update(
            character_id=character_id
        )
    return result


def battle_character_place(
    *,
    battle_id: int,
    by: User,
    character_id: int,
    side: str = "heroes",
    position: Any = None,
    controller: str = "owner",
    expected_version: int | None = None,
) -> Applied:
    """Place one of the campaign's characters (GMs). ``controller`` "owner": its owner plays
    it (the GMs for an NPC character); "gm": the GMs play it (an absent player)."""
    from characters.selectors import characters_in_campaign

    if controller not in ("owner", "gm"):
        raise ValidationError({"controller": ["owner or gm."]})
    side = _side(side)
    sq = _position(position)
    battle = Battle.objects.filter(pk=battle_id).only("campaign_id").first()
    if battle is None:
        raise Http404("No such battle.")
    access = _access(by, battle, manage=True)
    character = characters_in_campaign(access).filter(pk=character_id).first()
    if character is None:
        raise ValidationError({"character": [gettext("No such character in this campaign.")]})
    cid = f"pc{character.pk}"

    def build(battle: Battle, state: engine.BattleState) -> engine.Combatant:
        if cid in state.combatants:
            raise ValidationError(
                {
                    "character": [
                        gettext("%(name)s is already in the battle.") % {"name": character.name}
                    ]
                }
            )
        player = GM if controller == "gm" or character.is_npc else str(character.owner_id)
        return character_combatant(
            character,
            cid=cid,
            controller=player,
            side=side,
            position=sq,
            rules=battle.campaign.rules(),
            others=state.combatants.values(),
        )

    return _place(
        battle_id=battle_id,
        by=by,
        build=build,
        character_id=character.pk,
        expected_version=expected_version,
    )


def battle_npc_place(
    *,
    battle_id: int,
    by: User,
    npc: NpcSpec,
    side: str = "enemies",
    position: Any = None,
    expected_version: int | None = None,
) -> Applied:
    """Place an NPC from the GM's numbers (GMs; played by the GMs)."""
    side = _side(side)
    sq = _position(position)

    def build(battle: Battle, state: engine.BattleState) -> engine.Combatant:
        return npc_combatant(npc, cid=_next_npc_id(state), side=side, position=sq)

    return _place(
        battle_id=battle_id,
        by=by,
        build=build,
        character_id=None,
        expected_version=expected_version,
    )


_UNSET: Final = object()


def battle_combatant_update(
    *,
    battle_id: int,
    by: User,
    combatant: str,
    position: Any = _UNSET,
    side: str | None = None,
    expected_version: int | None = None,
) -> Applied:
    """Move a piece (``position`` None: off the board) or change its side, in setup. In a
    running battle moving a piece is the GM's ``gm_move`` override."""

    def change(battle: Battle, state: engine.BattleState) -> engine.BattleState:
        if combatant not in state.combatants:
            raise ValidationError({"combatant": [gettext("No such combatant in this battle.")]})
        fighters = [c for c in state.combatants.values() if c.kind != "doll"]
        target = state.combatants[combatant]
        if target.kind == "doll":
            raise ValidationError({"combatant": [gettext("Dolls come out during the battle.")]})
        if position is not _UNSET:
            target.position = _position(position)
        if side is not None:
            target.side = _side(side)
        return _rebuild(battle, state, combatants=fighters)

    return setup_change(
        battle_id=battle_id, by=by, expected_version=expected_version, change=change
    )


def battle_combatant_remove(
    *, battle_id: int, by: User, combatant: str, expected_version: int | None = None
) -> Applied:
    """Take a combatant (and her dolls) out of the battle being set up."""

    def change(battle: Battle, state: engine.BattleState) -> engine.BattleState:
        if combatant not in state.combatants or state.combatants[combatant].kind == "doll":
            raise ValidationError({"combatant": [gettext("No such combatant in this battle.")]})
        fighters = [c for c in state.combatants.values() if c.kind != "doll" and c.id != combatant]
        return _rebuild(battle, state, combatants=fighters)

    return setup_change(
        battle_id=battle_id, by=by, expected_version=expected_version, change=change
    )


def battle_delete(*, battle_id: int, by: User) -> None:
    """Delete a battle that never started (GMs). Started battles stay: their log is a record."""
    battle = Battle.objects.filter(pk=battle_id).only("campaign_id", "status").first()
    if battle is None:
        raise Http404("No such battle.")
    _access(by, battle, manage=True)
    with transaction.atomic():
        battle = _locked(battle_id)
        if battle.status != BattleStatus.SETUP:
            raise ValidationError(
                {"non_field_errors": [gettext("A battle that has started is kept as a record.")]}
            )
        battle.delete()


# --------------------------------------------------------------------------- playing
# Battles run on the table core (tables.services): it locks the row, checks the version, logs
# the action and enqueues "your turn" on commit. What is battle-specific comes in through the
# hooks of BATTLE_GAME below: who sits in which seat, who may send what, and the combatants
# index kept in step.


def _battle_access(user: Any, battle: Battle) -> CampaignAccess:
    """``access_for`` memoised on the battle row: the core asks for the seat, then the
    authorisation, in one request (one membership query)."""
    cache: dict[int | None, CampaignAccess] = battle.__dict__.setdefault("_access", {})
    key = user.pk if user is not None and user.is_authenticated else None
    if key not in cache:
        known = access_from_row(battle, user, battle.campaign_id)  # read with the row
        if known is not None and not known.can_view:
            raise Http404("No such battle.")
        cache[key] = known if known is not None else _access(user, battle, manage=False)
    return cache[key]


def _seat_columns(user: Any) -> dict[str, Any]:
    """The acting user's campaign role, read with the battle's row."""
    return role_column(user)


def _seat_of(user: Any, battle: Battle) -> str:
    return engine_player(_battle_access(user, battle))


def _players_of(battle: Battle, seat: Any) -> list[int]:
    user_id = controller_user_id(str(seat))
    return [] if user_id is None else [user_id]


def _authorize(
    user: Any, battle: Battle, seat: Any, state: engine.BattleState, action: Mapping[str, Any]
) -> None:
    _check_actor(_battle_access(user, battle), state, action)


def _prepare(battle: Battle, seat: Any, action: dict[str, Any], now: datetime) -> dict[str, Any]:
    """The engine's log records who acted and when (the engine never reads a clock)."""
    return {**action, "player": str(seat), "at": now.isoformat()}


def _load(battle: Battle, action: Mapping[str, Any]) -> engine.BattleState:
    """An undo replays the whole log from the initial snapshot; everything else needs only
    the current state. The log up to the version read: the row is read without a lock, and
    a move that lands in between (its row logged later) makes the write a 409 anyway."""
    if action.get("type") == "gm_undo":
        rows = BattleAction.objects.filter(battle=battle, seq__lte=battle.version)
        return load_state(battle, rows.order_by("seq"))
    kept = store.kept_state(battle)
    return kept if kept is not None else load_state(battle, initial=False)


def _keep(state: engine.BattleState) -> engine.BattleState:
    """What the next move may start from: ``state`` as :func:`_load` reads it (no log, no
    snapshot), sharing everything else (a state is never changed in place)."""
    return dataclasses.replace(state, log=(), initial=None)


def _columns(
    battle: Battle, before: engine.BattleState, after: engine.BattleState
) -> tuple[str, ...]:
    """The battle's own columns follow the state (saved with the core's one write, which
    writes the summary and its words too: ``_describe`` sets them after the core did)."""
    _describe(battle, after, timezone.now(), was_setup=before.phase == "setup")
    return ("started_at", "ended_at", "current_combatant")


def _pieces_changed(battle: Battle, before: engine.BattleState, after: engine.BattleState) -> bool:
    return after.combatants.keys() != before.combatants.keys()


def _after_apply(battle: Battle, before: engine.BattleState, after: engine.BattleState) -> None:
    """The combatants index follows the engine's pieces (only when they came or went:
    ``_pieces_changed``; every other move is the core's one statement)."""
    _sync_combatants(battle, after)


def _waits(battle: Battle, state: engine.BattleState) -> list[Wait]:
    out = []
    for w in waits(battle.pk, state):
        name = state.combatants[w.combatant].name
        title = (
            texts.gettext_lazy("%(name)s must react in %(battle)s", name=name, battle=battle.name)
            if w.reacting
            else texts.gettext_lazy(
                "Your turn: %(name)s in %(battle)s", name=name, battle=battle.name
            )
        )
        out.append(Wait(key=w.key, user_id=w.user_id, title=title))
    return out


def _campaign_of(battle: Battle) -> Campaign:
    return battle.campaign


def _replay(battle: Battle) -> engine.BattleState:
    """The whole log replayed from the initial snapshot (undos replay their history)."""
    return engine.replay_log(full_state(battle))


def battle_url(battle: Battle | int) -> str:
    return reverse("battles:detail", args=[battle if isinstance(battle, int) else battle.pk])


def _notify_task() -> Any:
    from .tasks import battle_turn_notify

    return battle_turn_notify


@dataclass(frozen=True, slots=True)
class BattleWait:
    """Someone a battle waits on: a player's turn, or a player's decision on a hit."""

    key: str
    combatant: str
    user_id: int
    reacting: bool


def waits(battle_id: int, state: engine.BattleState) -> list[BattleWait]:
    """Whom the battle waits on now, among players (the GMs are at the table already)."""
    out = []
    for w in engine.waiting(state):
        user_id = controller_user_id(w.seat)
        if user_id is not None:
            out.append(BattleWait(f"battle:{battle_id}:{w.key}", w.combatant, user_id, w.reacting))
    return out


def _check_actor(
    access: CampaignAccess, state: engine.BattleState, action: Mapping[str, Any]
) -> None:
    """Players act only for their own combatants; GM-only actions need a GM (403)."""
    kind = action["type"]
    if kind == "start" or kind.startswith("gm_"):
        if not access.can_manage:
            raise PermissionDenied(gettext("Only the campaign's game masters may do that."))
        if kind == "gm_add_combatant":
            data = action.get("combatant")
            controller = data.get("controller") if isinstance(data, Mapping) else None
            member = object_id(controller) if isinstance(controller, str) else None
            if controller != GM and not (
                member is not None and member in _members(access.campaign_id)
            ):
                raise ValidationError(
                    {
                        "action": [
                            gettext("A new combatant's controller is gm or a member's user id.")
                        ]
                    }
                )
        return
    cid = action.get("combatant")
    if isinstance(cid, str) and cid in state.combatants:
        c = state.combatants[cid]
        owner = controller_user_id(c.controller)
        if not (access.is_gm or (owner is not None and access.can_act_for(owner))):
            raise PermissionDenied(gettext("You do not control %(name)s.") % {"name": c.name})


def _arrival_statuses(battle: Battle, state: engine.BattleState) -> list[dict[str, Any]]:
    """``gm_add_status`` actions for the status effects on the sheets of the characters in
    ``battle`` (those the battle engine tracks), in a fixed order."""
    actions = []
    rows = Combatant.objects.filter(battle=battle, character__isnull=False).select_related(
        "character"
    )
    for row in sorted(rows, key=lambda r: r.engine_id):
        if row.engine_id not in state.combatants or row.character is None:
            continue
        for status in row.character.status_effects or []:
            if status in engine.STATUS_KEYS:
                actions.append(
                    {"type": "gm_add_status", "combatant": row.engine_id, "status": status}
                )
    return actions


def _payload(
    battle: Battle, user: Any, seat: Any, state: engine.BattleState | None, since: int | None
) -> Any:
    """The core's answer about a battle: :func:`battles.selectors.battle_payload`."""
    from .selectors import battle_payload

    return battle_payload(battle, user, seat, state, since)


def _log_view(
    state: engine.BattleState, seat: Any, entries: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """A page of the log as ``seat`` may see it (the view's own log entries), its roll
    purposes in the reader's language."""
    from .selectors import log_in_language

    return log_in_language(
        engine.log_view(state, engine.SPECTATOR if seat is None else str(seat), entries)
    )


def _api_move(
    *, actor: Any, table_id: int, action: Any, expected_version: int
) -> tuple[Battle, engine.BattleState, str]:
    """A move sent to the core's API: :func:`battle_action_apply` (fog painted in setup is a
    setup change; the start brings the characters' statuses)."""
    result = battle_action_apply(
        battle_id=table_id, actor=actor, action=action, expected_version=expected_version
    )
    return result.battle, result.state, result.player


class _LazyTask:
    """The battle's notify task, imported when first published (tasks import services)."""

    def apply_async(self, *args: Any, **kwargs: Any) -> Any:
        return _notify_task().apply_async(*args, **kwargs)

    @property
    def name(self) -> str:
        return str(_notify_task().name)


#: Grid battles as a game of the table core.
BATTLE_GAME: Final = register(
    TableGame(
        slug="battle",
        name=gettext_noop("battle"),
        engine=engine.ENGINE,
        table_model=Battle,
        action_model=BattleAction,
        access=TableAccess(
            seat_of=_seat_of,
            players_of=_players_of,
            authorize=_authorize,
            seat_columns=_seat_columns,
            audience=CAMPAIGN_AUDIENCE,
        ),
        hooks=TableHooks(
            url=battle_url,
            prepare=_prepare,
            load=_load,
            keep=_keep,
            # a move reads the row for its state and the user's role only (the map, the
            # name: read back by the write)
            keep_rows=True,
            columns=_columns,
            after_apply=_after_apply,
            after_apply_when=_pieces_changed,
            waits=_waits,
            notice=campaign_notice(_campaign_of),
            notify_task=_LazyTask(),
            replay=_replay,
            replay_apply=replay_apply,
            move_words=move_words,
            replay_page=replay_page,
            visible_events=engine.visible_events,
            log_view=_log_view,
            move=_api_move,
            payload=_payload,
        ),
    )
)


def battle_clock_manages(user: Any, battle: Battle) -> bool:
    """Who sets and pauses a battle's turn clock (``tables.clocks``): its campaign's GMs."""
    return bool(getattr(user, "is_authenticated", False)) and _battle_access(user, battle).is_gm


def battle_clock_skip(state: engine.BattleState, seat: Any) -> dict[str, Any] | None:
    """A player whose turn clock ran out ends her combatant's turn (nothing else is played for
    her: the clock's only rule at a battle)."""
    return next(
        (a for a in engine.ENGINE.legal_actions(state, seat) if a.get("type") == "end_turn"), None
    )


def battle_action_apply(
    *,
    battle_id: int,
    actor: User,
    action: Mapping[str, Any],
    expected_version: int,
    now: datetime | None = None,
) -> Applied:
    """Apply one action for ``actor`` against ``expected_version``, completely or not at all
    (through the table core: :func:`tables.services.table_action_apply`).

    Raises Http404 (not a member), PermissionDenied (not your combatant, GM-only action),
    :class:`StaleVersion` (someone moved first: 409) or ValidationError (a malformed action,
    or the engine refused: ``{"action": [reason]}``). Only the first of two identical clicks
    applies: both carry the same ``expected_version``, the second's write finds the version
    moved on and writes nothing.
    """
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
        raise ValidationError({"action": [gettext("An action is an object with a type.")]})
    if isinstance(expected_version, bool) or not isinstance(expected_version, int):
        raise ValidationError({"expected_version": [gettext("A whole number.")]})
    # What the server decides itself: the client never chooses who it is or when it acted.
    clean = {k: v for k, v in action.items() if k not in SERVER_FIELDS}
    if clean["type"] in SETUP_ACTIONS and _in_setup(battle_id):
        return _setup_fog(battle_id=battle_id, by=actor, action=clean, version=expected_version)
    battle, state, seat = tables.table_action_apply(
        BATTLE_GAME,
        table_id=battle_id,
        actor=actor,
        action=clean,
        expected_version=expected_version,
        now=now,
    )
    if clean["type"] == "start":
        # The characters bring the lasting statuses on their sheets into the battle, each as
        # the GM's logged override right after the start (one action each, like any other).
        for arrival in _arrival_statuses(cast(Battle, battle), state):
            try:
                battle, state, seat = tables.table_action_apply(
                    BATTLE_GAME,
                    table_id=battle_id,
                    actor=actor,
                    action=arrival,
                    expected_version=battle.version,
                    now=now,
                )
            except ValidationError:
                continue  # a status the battle refuses (fear needs a source): left on the sheet
    return Applied(battle=cast(Battle, battle), state=state, player=str(seat))


#: The GM's fog of war actions (``westernroses/battle/fog.py``).
FOG_ACTIONS: Final = ("gm_fog", "gm_reveal")
#: What the GM hides or shows while setting up: fog, and a combatant off the board.
SETUP_ACTIONS: Final = (*FOG_ACTIONS, "gm_show")


def _in_setup(battle_id: Any) -> bool:
    status = Battle.objects.filter(pk=battle_id).values_list("status", flat=True).first()
    return status == BattleStatus.SETUP


def _setup_fog(*, battle_id: int, by: User, action: Mapping[str, Any], version: int) -> Applied:
    """Fog painted while setting up is part of the setup (a rebuild, not logged, like terrain:
    the log starts at the start), with the same checks as any action: GMs only (403), the
    version the GM saw (409), the engine's rectangle rules (400). So is showing (or hiding) a
    combatant off the board (``gm_show``)."""
    from tables.schema import validate_action  # the same shape checks as the table core

    action = validate_action(action, engine.ENGINE.action_shapes())

    def change(battle: Battle, state: engine.BattleState) -> engine.BattleState:
        if action["type"] == "gm_show":
            target = state.combatants.get(action["combatant"])
            if target is None:
                raise ValidationError({"action": [gettext("No such combatant in this battle.")]})
            target.shown = action["shown"]
            fighters = [c for c in state.combatants.values() if c.kind != "doll"]
            return _rebuild(battle, state, combatants=fighters)
        try:
            arena, _ = engine.fog_changed_arena(
                state.arena, action, fogged=action["type"] == "gm_fog"
            )
        except engine.IllegalAction as exc:
            raise ValidationError({"action": [str(exc)]}) from None
        return _rebuild(battle, state, arena=arena)

    return setup_change(battle_id=battle_id, by=by, expected_version=version, change=change)


def battle_waits_sync(*, battle_id: int) -> int:
    """Register the turns the battle waits on now with the notification service (which sends
    "your turn" once per turn and reminds once after the campaign's delay) and end the ones it
    no longer waits on (the table core's :func:`tables.services.table_waits_sync`)."""
    return tables.table_waits_sync(BATTLE_GAME, table_id=battle_id)


def battle_departure(
    *, campaign_id: int, user_id: int | None = None, character_ids: Iterable[int] = ()
) -> None:
    """A player about to leave the campaign (``campaign.registry.departing``): the GMs play
    her combatants in its battles from now on, as they play any combatant whose controller is
    not a member (the GMs may act for every combatant, so no battle waits on her for ever).
    The combatants index names the GMs at once, and each running battle's turns are synced
    on commit: her open turn ends, and she is told of none (``table_waits_sync`` tells only a
    campaign's members). A character leaving alone changes nothing here: its combatant was
    built from the sheet when it was placed and plays on."""
    if user_id is None:
        return
    rows = Combatant.objects.filter(
        battle__campaign_id=campaign_id,
        battle__status__in=[BattleStatus.SETUP, BattleStatus.ACTIVE],
        controller_id=user_id,
    )
    running = sorted(
        set(rows.filter(battle__status=BattleStatus.ACTIVE).values_list("battle_id", flat=True))
    )
    rows.update(controller=None)
    for battle_id in running:
        transaction.on_commit(partial(_resync_turns, battle_id), robust=True)


def _resync_turns(battle_id: int) -> None:
    version = Battle.objects.filter(pk=battle_id).values_list("version", flat=True).first()
    if version is None:
        return
    try:
        _notify_task().apply_async(args=[battle_id, version])
    except Exception:
        logger.exception("could not enqueue turn_notify for battle %s", battle_id)
