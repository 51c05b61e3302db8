"""The permission sweep: every campaign-scoped page and API endpoint, for every role.

One table, one row per (route name, method). Each row says what every role gets:

* ``gm`` (the campaign's creator), ``co_gm`` (a second GM), ``owner`` (the player who owns the
  character the row acts on), ``other`` (another player), ``outsider`` (logged in, not a
  member), ``anonymous``.
* The policy (docs/architecture.md, docs/campaigns.md): outsiders 404; members read what is
  public; players act for their own things (403 for others'); GMs manage (players 403);
  anonymous visitors are sent to log in (pages, 302) or get 401 (API).

Each (row, role) starts from the same database (the people and the campaign, made once for the
module, each person signed in once: :class:`SignedIn`) and is rolled back after it, so writes
never leak into another case.
:func:`test_every_campaign_route_is_in_the_table` fails when any route (of any app, present or
future: only accounts and the admin are outside the sweep, and a short list of user-scoped
routes says why) has no row: adding a route means adding a row here. A row's URL names what it
acts on in braces (``{character}``, ``{session}`` ...); :class:`World` builds it on first use, so
a new kind of object (a battle, a tavern table) is one more property there.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
from django.core.files.base import ContentFile
from django.core.signals import request_finished
from django.db import close_old_connections, transaction
from django.utils import timezone

from campaign.models import Membership, Role, Roll
from gmtools.models import GameSession, GMNote, Handout, Invitation
from tests.factories import (
    CharacterFactory,
    SpellcardFactory,
    TemplateCardFactory,
    UserFactory,
    attack_draft,
)
from tests.url_walk import walk

pytestmark = pytest.mark.django_db

ROLES = ("gm", "co_gm", "owner", "other", "outsider", "anonymous")


# --------------------------------------------------------------------------- expectations


def expect(
    gm: int,
    co_gm: int | None = None,
    owner: int | None = None,
    other: int | None = None,
    outsider: int = 404,
    anonymous: int = 302,
) -> dict[str, int]:
    """Statuses per role; co_gm defaults to the GM's, other to the owner's."""
    co_gm = gm if co_gm is None else co_gm
    owner = gm if owner is None else owner
    other = owner if other is None else other
    return {
        "gm": gm,
        "co_gm": co_gm,
        "owner": owner,
        "other": other,
        "outsider": outsider,
        "anonymous": anonymous,
    }


def members(ok: int, *, api: bool = False) -> dict[str, int]:
    """Every member may; outsiders 404."""
    return expect(ok, anonymous=401 if api else 302)


def gms(ok: int, *, api: bool = False) -> dict[str, int]:
    """GMs only: players 403, outsiders 404."""
    return expect(ok, owner=403, anonymous=401 if api else 302)


def editors(ok: int, *, api: bool = False) -> dict[str, int]:
    """The owner and the GMs: another player 403, outsiders 404."""
    return expect(ok, other=403, anonymous=401 if api else 302)


def everyone(ok: int, *, api: bool = False) -> dict[str, int]:
    """Any logged-in user (not campaign-scoped, listed so the table is complete)."""
    return expect(ok, outsider=ok, anonymous=401 if api else 302)


def own(ok: int, *, api: bool = False) -> dict[str, int]:
    """A thing of the owner's alone (a saved deck): everyone else, GMs too, 404."""
    return {
        "gm": 404,
        "co_gm": 404,
        "owner": ok,
        "other": 404,
        "outsider": 404,
        "anonymous": 401 if api else 302,
    }


#: A GM card for the decks rows (an original RSO spell, as data and as the page's YAML).
RSO_CARD = {
    "number": "GM-101",
    "name": "Lantern Drift",
    "kind": "spell",
    "cost": 2,
    "shot": "spread",
    "av": 3,
    "iv": 2,
    "hv": 3,
}
RSO_CARD_YAML = "\n".join(f"{k}: {v}" for k, v in {**RSO_CARD, "number": "GM-102"}.items())


@dataclass(frozen=True)
class Row:
    name: str
    method: str
    url: str
    expected: dict[str, int]
    data: Callable[[World], Any] | dict[str, Any] | None = None
    api: bool = False
    format: str = "json"
    why: str = ""

    @property
    def id(self) -> str:
        return f"{self.method.upper()} {self.name}"


def page(name, method, url, expected, data=None, why=""):
    return Row(name, method, url, expected, data, api=False, why=why)


def api(name, method, url, expected, data=None, fmt="json", why=""):
    return Row(name, method, url, expected, data, api=True, format=fmt, why=why)


SESSION_FORM = {"title": "Next time", "starts_at": "2031-01-01T18:00", "agenda": ""}


def _wizard(w: World) -> dict[str, Any]:
    return {
        "campaign": str(w.campaign.pk),
        "shot_type": "fourth_strike",
        "race": "oni",
        "profession": "guardian",
        "guardian_charge": "the shrine",
        "element": "metal",
        "bonus_pwr": "8",
        "bonus_cha": "6",
        "bonus_int": "3",
        "bonus_ins": "3",
        "skill_dexterity": "4",
        "skill_will": "6",
        "abilities": ["hard_to_kill"],
        "kit_guardian_1": "spear",
        "name": "Suika",
    }


def _draft(w: World) -> dict[str, Any]:
    from westernroses.characters import CharacterDraft, with_starting_kit

    return with_starting_kit(
        CharacterDraft(
            name="Wakasagi",
            shot_type="homing_amulets",
            race="fairy",
            profession="carefree_soul",
            element="water",
            bonus_points={"cha": 5, "int": 10, "ins": 5},
            skill_points={"flying": 5, "sense": 5},
            abilities=["keen_senses"],
        )
    ).to_dict()


def _export(w: World) -> dict[str, Any]:
    from campaign.permissions import owned_access
    from characters.services import character_export

    doc = character_export(
        character=w.character, access=owned_access(w.player, w.campaign, w.player.pk)
    )
    doc["character"]["level"] = 1
    return doc


TABLE: list[Row] = [
    # ------------------------------------------------------------------ campaign core pages
    page("campaign:list", "get", "/campaigns/", everyone(200)),
    page("campaign:create", "get", "/campaigns/new/", everyone(200)),
    page("campaign:detail", "get", "/campaigns/{campaign}/", members(200)),
    page("campaign:settings", "get", "/campaigns/{campaign}/settings/", gms(200)),
    page("campaign-backup", "get", "/campaigns/{campaign}/backup/", gms(200)),
    page(
        "campaign:settings", "post", "/campaigns/{campaign}/settings/", gms(302), {"reset": "rules"}
    ),
    page(
        "campaign:member_add",
        "post",
        "/campaigns/{campaign}/members/add/",
        gms(302),
        {"username": "newcomer", "role": "player"},
    ),
    page("campaign:dice", "get", "/campaigns/{campaign}/dice/", members(200)),
    page("campaign:dice", "post", "/campaigns/{campaign}/dice/", members(302), {"notation": "4d"}),
    # ------------------------------------------------------------------ members, invitations
    page("gmtools:members", "get", "/campaigns/{campaign}/members/", members(200)),
    page(
        "gmtools:member_role",
        "post",
        "/campaigns/{campaign}/members/{other_id}/role/",
        gms(302),
        {"role": "gm"},
    ),
    page(
        "gmtools:member_remove",
        "post",
        "/campaigns/{campaign}/members/{other_id}/remove/",
        gms(302),
    ),
    page(
        "gmtools:leave",
        "post",
        "/campaigns/{campaign}/leave/",
        members(302),
        why="every member may leave (the creator too: a co-GM stays)",
    ),
    page("gmtools:invitations", "get", "/campaigns/{campaign}/invitations/", gms(200)),
    page(
        "gmtools:invitations",
        "post",
        "/campaigns/{campaign}/invitations/",
        gms(302),
        {"role": "player", "expires_in_days": "7"},
    ),
    page(
        "gmtools:invitation_revoke",
        "post",
        "/campaigns/{campaign}/invitations/{invitation}/revoke/",
        gms(302),
    ),
    page(
        "gmtools:join",
        "get",
        "/campaigns/join/{token}/",
        expect(302, outsider=200, anonymous=200),
        why="the link is the permission: members are sent to the campaign, anyone else sees it",
    ),
    page("gmtools:join", "post", "/campaigns/join/{token}/", expect(302, outsider=302)),
    # ------------------------------------------------------------------ sessions, notes, handouts
    page("gmtools:sessions", "get", "/campaigns/{campaign}/sessions/", members(200)),
    page("gmtools:sessions", "post", "/campaigns/{campaign}/sessions/", gms(302), SESSION_FORM),
    page(
        "gmtools:session_detail",
        "get",
        "/campaigns/{campaign}/sessions/{session}/",
        members(200),
    ),
    page(
        "gmtools:session_detail",
        "post",
        "/campaigns/{campaign}/sessions/{session}/",
        gms(302),
        {"summary": "Done."},
    ),
    page("gmtools:session_edit", "get", "/campaigns/{campaign}/sessions/{session}/edit/", gms(200)),
    page(
        "gmtools:session_edit",
        "post",
        "/campaigns/{campaign}/sessions/{session}/edit/",
        gms(302),
        SESSION_FORM,
    ),
    page(
        "gmtools:session_delete",
        "post",
        "/campaigns/{campaign}/sessions/{session}/delete/",
        gms(302),
    ),
    page("gmtools:notes", "get", "/campaigns/{campaign}/notes/", gms(200)),
    page("gmtools:notes", "post", "/campaigns/{campaign}/notes/", gms(302), {"title": "Idea"}),
    page("gmtools:note_edit", "get", "/campaigns/{campaign}/notes/{note}/edit/", gms(200)),
    page(
        "gmtools:note_edit",
        "post",
        "/campaigns/{campaign}/notes/{note}/edit/",
        gms(302),
        {"title": "Idea 2"},
    ),
    page("gmtools:note_delete", "post", "/campaigns/{campaign}/notes/{note}/delete/", gms(302)),
    page("gmtools:handouts", "get", "/campaigns/{campaign}/handouts/", members(200)),
    page(
        "gmtools:handouts",
        "post",
        "/campaigns/{campaign}/handouts/",
        gms(302),
        {"title": "Map", "shared_with_all": "on"},
    ),
    page(
        "gmtools:handout_detail",
        "get",
        "/campaigns/{campaign}/handouts/{handout}/",
        expect(200, other=404),
        why="shared with the owner only: another player gets 404 (it does not exist for them)",
    ),
    page(
        "gmtools:handout_file",
        "get",
        "/campaigns/{campaign}/handouts/{handout}/file/",
        expect(200, other=404),
    ),
    page(
        "gmtools:handout_delete",
        "post",
        "/campaigns/{campaign}/handouts/{handout}/delete/",
        gms(302),
    ),
    page("gmtools:timeline", "get", "/campaigns/{campaign}/timeline/", members(200)),
    # ------------------------------------------------------------------ answers, in-world calendar
    page(
        "gmtools:session_rsvp",
        "post",
        "/campaigns/{campaign}/sessions/{session}/rsvp/",
        members(302),
        {"answer": "yes", "note": "Bringing snacks."},
        why="each member answers for herself",
    ),
    page("gmtools:calendar", "get", "/campaigns/{campaign}/calendar/", members(200)),
    page(
        "gmtools:calendar",
        "post",
        "/campaigns/{campaign}/calendar/",
        gms(302),
        {"action": "advance", "days": "3"},
    ),
    # ------------------------------------------------------------------ ratings (tables/ratings)
    page("ratings:index", "get", "/tavern/ratings/", everyone(302)),
    page("ratings:board", "get", "/tavern/ratings/rso/", everyone(200)),
    page(
        "ratings:campaign-board", "get", "/campaigns/{campaign}/tavern/ratings/rso/", members(200)
    ),
    api(
        "api-leaderboard",
        "get",
        "/api/leaderboards/rso/?campaign={campaign}",
        members(200, api=True),
    ),
    api("api-my-ratings", "get", "/api/ratings/mine/", everyone(200, api=True)),
    # ------------------------------------------------------------------ GM dashboard
    page("gmtools:dashboard", "get", "/campaigns/{campaign}/dashboard/", gms(200)),
    page("gmtools:dashboard_live", "get", "/campaigns/{campaign}/dashboard/live/", gms(200)),
    page(
        "gmtools:dashboard_award",
        "post",
        "/campaigns/{campaign}/dashboard/award/",
        gms(302),
        lambda w: {"characters": [w.character.pk], "yen": "5"},
    ),
    page(
        "gmtools:dashboard_heal",
        "post",
        "/campaigns/{campaign}/dashboard/heal/",
        gms(302),
        lambda w: {"character": w.character.pk},
    ),
    page(
        "gmtools:dashboard_status",
        "post",
        "/campaigns/{campaign}/dashboard/status/",
        gms(302),
        lambda w: {"character": w.character.pk, "status": "stun"},
    ),
    page(
        "gmtools:dashboard_level_up",
        "post",
        "/campaigns/{campaign}/dashboard/level-up/",
        gms(302),
        lambda w: {"character": w.character.pk, "levels": "1"},
    ),
    page(
        "gmtools:dashboard_roll",
        "post",
        "/campaigns/{campaign}/dashboard/roll/",
        gms(302),
        {"notation": "3d"},
    ),
    # ------------------------------------------------------------------ characters pages
    page("campaign-characters", "get", "/campaigns/{campaign}/characters/", members(200)),
    page("characters:mine", "get", "/characters/", everyone(200)),
    page("characters:import", "get", "/characters/import/", everyone(200)),
    page("characters:create", "get", "/characters/new/?campaign={campaign}", members(200)),
    page("characters:create", "post", "/characters/new/", members(302), _wizard),
    page("characters:preview", "post", "/characters/new/preview/", members(200), _wizard),
    page("characters:sheet", "get", "/characters/{character}/", members(200)),
    page("characters:edit", "get", "/characters/{character}/edit/", editors(200)),
    page(
        "characters:edit_preview",
        "post",
        "/characters/{character}/edit/preview/",
        editors(200),
        _wizard,
    ),
    page("characters:delete", "get", "/characters/{character}/delete/", editors(200)),
    page("characters:delete", "post", "/characters/{character}/delete/", editors(302)),
    page("characters:level_up", "post", "/characters/{character}/level-up/", gms(302)),
    page("characters:export", "get", "/characters/{character}/export/", members(200)),
    page("characters:portrait", "get", "/characters/{character}/portrait/", members(200)),
    page(
        "characters:portrait_upload",
        "get",
        "/characters/{character}/portrait/upload/",
        editors(200),
    ),
    # ------------------------------------------------------------------ spellcards pages
    page("spellcards:new", "get", "/characters/{character}/spellcards/new/", editors(200)),
    page("spellcards:deck", "get", "/characters/{character}/deck/", editors(200)),
    page(
        "spellcards:deck_copies",
        "post",
        "/characters/{character}/deck/copies/",
        editors(302),
        lambda w: {"spellcard": w.spellcard.pk, "copies": "2"},
    ),
    page("spellcards:edit", "get", "/spellcards/{spellcard}/edit/", editors(200)),
    page("spellcards:delete", "post", "/spellcards/{spellcard}/delete/", editors(302)),
    page("spellcards:templates", "get", "/campaigns/{campaign}/spellcard-templates/", members(200)),
    page(
        "spellcards:template_copy",
        "post",
        "/spellcard-templates/{template}/copy/",
        expect(302, other=400),
        lambda w: {"character": w.character.pk},
        why="the form offers only characters you act for: another player's is a field error",
    ),
    page("spellcards:template_delete", "post", "/spellcard-templates/{template}/delete/", gms(302)),
    # ------------------------------------------------------------------ notifications page
    page("notifications:campaign_webhook", "get", "/notifications/campaigns/{campaign}/", gms(200)),
    page(
        "notifications:campaign_webhook",
        "post",
        "/notifications/campaigns/{campaign}/",
        gms(302),
        {"webhook_url": "", "digest_minutes": "60"},
    ),
    # ------------------------------------------------------------------ API: campaign core
    api("campaign-list", "get", "/api/campaigns/", everyone(200, api=True)),
    api("campaign-list", "post", "/api/campaigns/", everyone(201, api=True), {"name": "Mine"}),
    api("campaign-detail", "get", "/api/campaigns/{campaign}/", members(200, api=True)),
    api(
        "campaign-detail",
        "patch",
        "/api/campaigns/{campaign}/",
        gms(200, api=True),
        {"description": "Fog."},
    ),
    api(
        "campaign-detail",
        "put",
        "/api/campaigns/{campaign}/",
        expect(405, outsider=405, anonymous=401),
        {"name": "x"},
        why="PUT is not offered (PATCH is)",
    ),
    api("campaign-members", "get", "/api/campaigns/{campaign}/members/", members(200, api=True)),
    api("roll-list", "get", "/api/rolls/?campaign={campaign}", members(200, api=True)),
    api(
        "roll-list",
        "post",
        "/api/rolls/",
        members(201, api=True),
        lambda w: {"notation": "4d", "campaign": w.campaign.pk},
    ),
    api(
        "roll-detail",
        "get",
        "/api/rolls/{secret_roll}/",
        expect(200, other=404, anonymous=401),
        why="the owner's secret roll: the roller and the GMs only",
    ),
    api(
        "api-probability",
        "get",
        "/api/probability/?notation=4d&target=12&campaign={campaign}",
        expect(200, anonymous=404),
        why="open to all, but a campaign's house rules only to its members",
    ),
    api("api-campaign-webhook", "get", "/api/campaigns/{campaign}/webhook/", gms(200, api=True)),
    api(
        "api-campaign-webhook",
        "put",
        "/api/campaigns/{campaign}/webhook/",
        gms(200, api=True),
        {"webhook_url": "", "events": [], "digest_minutes": 60},
    ),
    # ------------------------------------------------------------------ API: members, invitations
    api(
        "api-campaign-invitations",
        "get",
        "/api/campaigns/{campaign}/invitations/",
        gms(200, api=True),
    ),
    api(
        "api-campaign-invitations",
        "post",
        "/api/campaigns/{campaign}/invitations/",
        gms(201, api=True),
        {"role": "player"},
    ),
    api(
        "api-campaign-invitation-revoke",
        "post",
        "/api/campaigns/{campaign}/invitations/{invitation}/revoke/",
        gms(200, api=True),
    ),
    api(
        "api-invitation",
        "get",
        "/api/invitations/{token}/",
        everyone(200, api=True),
        why="whoever holds the link may see what it is for",
    ),
    api(
        "api-invitation-accept",
        "post",
        "/api/invitations/{token}/accept/",
        expect(200, outsider=201, anonymous=401),
    ),
    api(
        "api-campaign-member",
        "patch",
        "/api/campaigns/{campaign}/members/{other_id}/",
        gms(200, api=True),
        {"role": "gm"},
    ),
    api(
        "api-campaign-member",
        "delete",
        "/api/campaigns/{campaign}/members/{other_id}/",
        gms(204, api=True),
    ),
    api("api-campaign-leave", "post", "/api/campaigns/{campaign}/leave/", members(204, api=True)),
    # ------------------------------------------------------------------ API: sessions, notes
    api(
        "api-campaign-sessions",
        "get",
        "/api/campaigns/{campaign}/sessions/",
        members(200, api=True),
    ),
    api(
        "api-campaign-sessions",
        "post",
        "/api/campaigns/{campaign}/sessions/",
        gms(201, api=True),
        {"title": "Next", "starts_at": "2031-01-01T18:00:00Z"},
    ),
    api(
        "api-campaign-session",
        "get",
        "/api/campaigns/{campaign}/sessions/{session}/",
        members(200, api=True),
    ),
    api(
        "api-campaign-session",
        "patch",
        "/api/campaigns/{campaign}/sessions/{session}/",
        gms(200, api=True),
        {"summary": "Done."},
    ),
    api(
        "api-campaign-session",
        "delete",
        "/api/campaigns/{campaign}/sessions/{session}/",
        gms(204, api=True),
    ),
    api(
        "api-campaign-session-attendance",
        "put",
        "/api/campaigns/{campaign}/sessions/{session}/attendance/",
        gms(200, api=True),
        lambda w: {"attendance": [{"user": w.player.pk, "status": "present"}]},
    ),
    api("api-campaign-notes", "get", "/api/campaigns/{campaign}/notes/", gms(200, api=True)),
    api(
        "api-campaign-notes",
        "post",
        "/api/campaigns/{campaign}/notes/",
        gms(201, api=True),
        {"title": "Idea"},
    ),
    api("api-campaign-note", "get", "/api/campaigns/{campaign}/notes/{note}/", gms(200, api=True)),
    api(
        "api-campaign-note",
        "patch",
        "/api/campaigns/{campaign}/notes/{note}/",
        gms(200, api=True),
        {"body": "More."},
    ),
    api(
        "api-campaign-note",
        "delete",
        "/api/campaigns/{campaign}/notes/{note}/",
        gms(204, api=True),
    ),
    # ------------------------------------------------------------------ API: handouts
    api(
        "api-campaign-handouts",
        "get",
        "/api/campaigns/{campaign}/handouts/",
        members(200, api=True),
    ),
    api(
        "api-campaign-handouts",
        "post",
        "/api/campaigns/{campaign}/handouts/",
        gms(201, api=True),
        {"title": "Map"},
    ),
    api(
        "api-campaign-handout",
        "get",
        "/api/campaigns/{campaign}/handouts/{handout}/",
        expect(200, other=404, anonymous=401),
        why="shared with the owner only: another player gets 404",
    ),
    api(
        "api-campaign-handout",
        "patch",
        "/api/campaigns/{campaign}/handouts/{handout}/",
        gms(200, api=True),
        {"title": "Letter"},
    ),
    api(
        "api-campaign-handout",
        "delete",
        "/api/campaigns/{campaign}/handouts/{handout}/",
        gms(204, api=True),
    ),
    # ------------------------------------------------------------------ API: answers, calendar
    api(
        "api-campaign-session-rsvp",
        "get",
        "/api/campaigns/{campaign}/sessions/{session}/rsvp/",
        members(200, api=True),
    ),
    api(
        "api-campaign-session-rsvp",
        "put",
        "/api/campaigns/{campaign}/sessions/{session}/rsvp/",
        members(200, api=True),
        {"answer": "maybe", "note": ""},
        why="each member answers for herself",
    ),
    api(
        "api-campaign-calendar",
        "get",
        "/api/campaigns/{campaign}/calendar/",
        members(200, api=True),
    ),
    api(
        "api-campaign-calendar",
        "put",
        "/api/campaigns/{campaign}/calendar/",
        gms(200, api=True),
        {"months": [{"name": "Frost", "days": 30}], "weekdays": ["Sun", "Moon"]},
    ),
    api(
        "api-campaign-calendar-date",
        "post",
        "/api/campaigns/{campaign}/calendar/date/",
        gms(200, api=True),
        {"days": 3},
    ),
    api(
        "api-campaign-world-events",
        "get",
        "/api/campaigns/{campaign}/calendar/events/",
        members(200, api=True),
    ),
    api(
        "api-campaign-world-events",
        "post",
        "/api/campaigns/{campaign}/calendar/events/",
        gms(201, api=True),
        {"year": 1, "month": 1, "day": 3, "title": "Eclipse", "gm_only": True},
    ),
    api(
        "api-campaign-world-event",
        "get",
        "/api/campaigns/{campaign}/calendar/events/{world_event}/",
        members(200, api=True),
    ),
    api(
        "api-campaign-world-event",
        "delete",
        "/api/campaigns/{campaign}/calendar/events/{world_event}/",
        gms(204, api=True),
    ),
    # ------------------------------------------------------------------ API: awards, party
    api("api-campaign-awards", "get", "/api/campaigns/{campaign}/awards/", members(200, api=True)),
    api(
        "api-campaign-awards",
        "post",
        "/api/campaigns/{campaign}/awards/",
        gms(201, api=True),
        lambda w: {"characters": [w.character.pk], "yen": 5},
    ),
    api(
        "api-campaign-level-ups",
        "get",
        "/api/campaigns/{campaign}/level-ups/",
        members(200, api=True),
    ),
    api(
        "api-campaign-level-ups",
        "post",
        "/api/campaigns/{campaign}/level-ups/",
        gms(201, api=True),
        lambda w: {"character": w.character.pk},
    ),
    api(
        "api-campaign-heal",
        "post",
        "/api/campaigns/{campaign}/party/heal/",
        gms(200, api=True),
        lambda w: {"character": w.character.pk},
    ),
    api(
        "api-campaign-status",
        "post",
        "/api/campaigns/{campaign}/party/status/",
        gms(200, api=True),
        lambda w: {"character": w.character.pk, "status": "blind"},
    ),
    api(
        "api-campaign-timeline",
        "get",
        "/api/campaigns/{campaign}/timeline/",
        members(200, api=True),
    ),
    api(
        "api-campaign-dashboard", "get", "/api/campaigns/{campaign}/dashboard/", gms(200, api=True)
    ),
    # ------------------------------------------------------------------ API: characters
    api("character-list", "get", "/api/characters/?campaign={campaign}", members(200, api=True)),
    api(
        "character-list",
        "post",
        "/api/characters/",
        members(201, api=True),
        lambda w: {"campaign": w.campaign.pk, "draft": _draft(w)},
    ),
    api("character-detail", "get", "/api/characters/{character}/", members(200, api=True)),
    api(
        "character-detail",
        "patch",
        "/api/characters/{character}/",
        editors(200, api=True),
        {"public_notes": "Cold."},
    ),
    api("character-detail", "delete", "/api/characters/{character}/", editors(204, api=True)),
    api("character-sheet", "get", "/api/characters/{character}/sheet/", members(200, api=True)),
    api("character-export", "get", "/api/characters/{character}/export/", members(200, api=True)),
    api(
        "character-inventory",
        "post",
        "/api/characters/{character}/inventory/",
        editors(200, api=True),
        {"item": "tankard", "quantity": 1},
    ),
    api(
        "character-level-up",
        "post",
        "/api/characters/{character}/level-up/",
        gms(200, api=True),
        {"levels": 1},
    ),
    api(
        "character-portrait",
        "delete",
        "/api/characters/{character}/portrait/",
        editors(200, api=True),
    ),
    api(
        "character-portrait",
        "post",
        "/api/characters/{character}/portrait/",
        editors(200, api=True),
        lambda w: {"portrait": w.png_upload()},
        fmt="multipart",
    ),
    api(
        "character-import-",
        "post",
        "/api/characters/import/?campaign={campaign}",
        members(201, api=True),
        _export,
    ),
    api(
        "character-preview",
        "post",
        "/api/characters/preview/",
        members(200, api=True),
        lambda w: {"campaign": w.campaign.pk, "draft": _draft(w)},
    ),
    # ------------------------------------------------------------------ API: spellcards, decks
    api(
        "spellcard-list",
        "get",
        "/api/spellcards/?character={character}",
        editors(200, api=True),
        why="decks are private to the owner and the GMs",
    ),
    api(
        "spellcard-list",
        "post",
        "/api/spellcards/",
        editors(201, api=True),
        lambda w: {"character": w.character.pk, "draft": attack_draft("Icicle Fall")},
    ),
    api("spellcard-detail", "get", "/api/spellcards/{spellcard}/", editors(200, api=True)),
    api(
        "spellcard-detail",
        "patch",
        "/api/spellcards/{spellcard}/",
        editors(200, api=True),
        {"description": "Cold."},
    ),
    api(
        "spellcard-detail",
        "put",
        "/api/spellcards/{spellcard}/",
        editors(200, api=True),
        lambda w: {"draft": attack_draft("Perfect Freeze")},
    ),
    api("spellcard-detail", "delete", "/api/spellcards/{spellcard}/", editors(204, api=True)),
    api(
        "api-spellcard-price",
        "post",
        "/api/spellcards/price/",
        editors(200, api=True),
        lambda w: {"character": w.character.pk, "draft": attack_draft("Priced")},
    ),
    api("api-deck", "get", "/api/characters/{character}/deck/", editors(200, api=True)),
    api(
        "api-deck",
        "put",
        "/api/characters/{character}/deck/",
        editors(200, api=True),
        lambda w: {"spellcard": w.spellcard.pk, "copies": 2},
    ),
    api(
        "api-deck",
        "post",
        "/api/characters/{character}/deck/",
        editors(200, api=True),
        lambda w: {"spellcard": w.spellcard.pk, "copies": 2},
    ),
    api(
        "api-deck-validate",
        "post",
        "/api/characters/{character}/deck/validate/",
        editors(200, api=True),
        lambda w: {"entries": [{"spellcard": w.spellcard.pk, "copies": 1}]},
    ),
    api(
        "spellcard-template-list",
        "get",
        "/api/spellcard-templates/?campaign={campaign}",
        members(200, api=True),
    ),
    api(
        "spellcard-template-list",
        "post",
        "/api/spellcard-templates/",
        gms(201, api=True),
        lambda w: {"campaign": w.campaign.pk, "draft": attack_draft("Scarlet Shoot")},
    ),
    api(
        "spellcard-template-detail",
        "get",
        "/api/spellcard-templates/{template}/",
        members(200, api=True),
    ),
    api(
        "spellcard-template-detail",
        "patch",
        "/api/spellcard-templates/{template}/",
        gms(200, api=True),
        {"description": "Red."},
    ),
    api(
        "spellcard-template-detail",
        "put",
        "/api/spellcard-templates/{template}/",
        gms(200, api=True),
        lambda w: {"draft": attack_draft("Red Magic")},
    ),
    api(
        "spellcard-template-detail",
        "delete",
        "/api/spellcard-templates/{template}/",
        gms(204, api=True),
    ),
    api(
        "spellcard-template-copy",
        "post",
        "/api/spellcard-templates/{template}/copy/",
        editors(201, api=True),
        lambda w: {"character": w.character.pk},
    ),
    # ------------------------------------------------------------------ decks: cards and decks
    # (tavern card games). GM cards belong to the campaign: members read, GMs write. Decks are
    # their owner's alone: everyone else, GMs included, gets 404 (docs/decks.md).
    page("decks:games", "get", "/cards/", everyone(200)),
    page("decks:cards", "get", "/cards/rso/", everyone(200)),
    page("decks:card", "get", "/cards/dbs/DBS-101/", everyone(200)),
    page("decks:site_cards", "get", "/cards/site/", everyone(200)),
    page(
        "decks:site_cards",
        "post",
        "/cards/site/",
        expect(403, outsider=403),
        {"game": "rso", "card": "number: WR-001"},
        why="site-wide cards are added by staff only (none of these roles is staff)",
    ),
    page("decks:campaign_cards", "get", "/campaigns/{campaign}/cards/", members(200)),
    page(
        "decks:campaign_cards",
        "post",
        "/campaigns/{campaign}/cards/",
        gms(302),
        lambda w: {"game": "rso", "card": RSO_CARD_YAML},
    ),
    page("decks:custom_card", "get", "/cards/gm/{gm_card}/", members(200)),
    page("decks:custom_card_edit", "get", "/cards/gm/{gm_card}/edit/", gms(200)),
    page(
        "decks:custom_card_edit",
        "post",
        "/cards/gm/{gm_card}/edit/",
        gms(302),
        {"card": RSO_CARD_YAML},
    ),
    page("decks:custom_card_delete", "post", "/cards/gm/{gm_card}/delete/", gms(302)),
    page("decks:list", "get", "/decks/", everyone(200)),
    page("decks:list", "post", "/decks/", everyone(302), {"game": "rso", "name": "Mine"}),
    page("decks:builder", "get", "/decks/{deck}/", own(200)),
    page("decks:builder", "post", "/decks/{deck}/", own(302), {"name": "Renamed"}),
    page(
        "decks:set_count",
        "post",
        "/decks/{deck}/cards/",
        own(302),
        {"number": "RSO-101", "count": "2"},
    ),
    page("decks:import", "post", "/decks/{deck}/import/", own(302), {"text": "3 RSO-101"}),
    page("decks:export", "get", "/decks/{deck}/export/", own(200)),
    page("decks:delete", "post", "/decks/{deck}/delete/", own(302)),
    api("api-game-cards", "get", "/api/card-games/rso/cards/", everyone(200, api=True)),
    api("api-game-card", "get", "/api/card-games/rso/cards/RSO-101/", everyone(200, api=True)),
    api("api-seat-decks", "get", "/api/card-games/dbs/seat-decks/", everyone(200, api=True)),
    api("custom-card-list", "get", "/api/custom-cards/", everyone(200, api=True)),
    api(
        "custom-card-list",
        "post",
        "/api/custom-cards/",
        gms(201, api=True),
        lambda w: {"game": "rso", "campaign": w.campaign.pk, "data": RSO_CARD},
    ),
    api("custom-card-detail", "get", "/api/custom-cards/{gm_card}/", members(200, api=True)),
    api(
        "custom-card-detail",
        "put",
        "/api/custom-cards/{gm_card}/",
        gms(200, api=True),
        {"data": RSO_CARD},
    ),
    api(
        "custom-card-detail",
        "patch",
        "/api/custom-cards/{gm_card}/",
        gms(200, api=True),
        {"data": RSO_CARD},
    ),
    api("custom-card-detail", "delete", "/api/custom-cards/{gm_card}/", gms(204, api=True)),
    api("game-deck-list", "get", "/api/decks/", everyone(200, api=True)),
    api(
        "game-deck-list",
        "post",
        "/api/decks/",
        everyone(201, api=True),
        {"game": "rso", "name": "Mine"},
    ),
    api(
        "game-deck-validate",
        "post",
        "/api/decks/validate/",
        everyone(200, api=True),
        {"game": "dbs", "cards": ["DBS-001"]},
    ),
    api("game-deck-detail", "get", "/api/decks/{deck}/", own(200, api=True)),
    api("game-deck-detail", "put", "/api/decks/{deck}/", own(200, api=True), {"name": "B"}),
    api("game-deck-detail", "patch", "/api/decks/{deck}/", own(200, api=True), {"name": "C"}),
    api("game-deck-detail", "delete", "/api/decks/{deck}/", own(204, api=True)),
    api(
        "game-deck-import-text",
        "post",
        "/api/decks/{deck}/import/",
        own(200, api=True),
        {"text": "3 RSO-101"},
    ),
    api("game-deck-export-text", "get", "/api/decks/{deck}/export/", own(200, api=True)),
    # ------------------------------------------------------------------ wiki (docs/wiki.md)
    # Members read what they may see (the entry is shown to the owner alone: another player
    # gets 404, it does not exist for her); GMs write (players 403, before any lookup).
    page("wiki:list", "get", "/campaigns/{campaign}/wiki/", members(200)),
    page("wiki:list", "post", "/campaigns/{campaign}/wiki/", gms(302), {"name": "Spell"}),
    page("wiki:new", "get", "/campaigns/{campaign}/wiki/new/", gms(200)),
    page(
        "wiki:new",
        "post",
        "/campaigns/{campaign}/wiki/new/",
        gms(302),
        {"title": "Scarlet Manor", "kind": "place", "visibility": "all"},
    ),
    page(
        "wiki:detail",
        "get",
        "/campaigns/{campaign}/wiki/{wiki_entry}/",
        expect(200, other=404),
        why="shown to the owner only: another player gets 404",
    ),
    page("wiki:edit", "get", "/campaigns/{campaign}/wiki/{wiki_entry}/edit/", gms(200)),
    page(
        "wiki:edit",
        "post",
        "/campaigns/{campaign}/wiki/{wiki_entry}/edit/",
        gms(302),
        {"title": "Misty Lake", "kind": "place", "visibility": "all"},
    ),
    page("wiki:delete", "post", "/campaigns/{campaign}/wiki/{wiki_entry}/delete/", gms(302)),
    page(
        "wiki:image",
        "get",
        "/campaigns/{campaign}/wiki/{wiki_entry}/picture/",
        expect(200, other=404),
    ),
    page(
        "wiki:reveal",
        "post",
        "/campaigns/{campaign}/wiki/{wiki_entry}/reveal/",
        gms(302),
        {"to": "all"},
    ),
    page("wiki:history", "get", "/campaigns/{campaign}/wiki/{wiki_entry}/history/", gms(200)),
    page("wiki:stat_block", "get", "/campaigns/{campaign}/wiki/{wiki_entry}/stat-block/", gms(200)),
    page(
        "wiki:stat_block",
        "post",
        "/campaigns/{campaign}/wiki/{wiki_entry}/stat-block/",
        gms(302),
        {"remove": "1"},
    ),
    page(
        "wiki:restore",
        "post",
        "/campaigns/{campaign}/wiki/{wiki_entry}/history/1/restore/",
        gms(302),
    ),
    page(
        "wiki:section_new",
        "get",
        "/campaigns/{campaign}/wiki/{wiki_entry}/sections/new/",
        gms(200),
    ),
    page(
        "wiki:section_new",
        "post",
        "/campaigns/{campaign}/wiki/{wiki_entry}/sections/new/",
        gms(302),
        {"heading": "Island", "visibility": "gm"},
    ),
    page(
        "wiki:section_edit",
        "get",
        "/campaigns/{campaign}/wiki/{wiki_entry}/sections/{wiki_section}/edit/",
        gms(200),
    ),
    page(
        "wiki:section_edit",
        "post",
        "/campaigns/{campaign}/wiki/{wiki_entry}/sections/{wiki_section}/edit/",
        gms(302),
        {"heading": "Far shore", "visibility": "all"},
    ),
    page(
        "wiki:section_delete",
        "post",
        "/campaigns/{campaign}/wiki/{wiki_entry}/sections/{wiki_section}/delete/",
        gms(302),
    ),
    api("api-wiki-kinds", "get", "/api/campaigns/{campaign}/wiki/kinds/", members(200, api=True)),
    api(
        "api-wiki-kinds",
        "post",
        "/api/campaigns/{campaign}/wiki/kinds/",
        gms(201, api=True),
        {"name": "Spell"},
    ),
    api(
        "api-wiki-search",
        "get",
        "/api/campaigns/{campaign}/wiki/search/?q=lake",
        members(200, api=True),
    ),
    api(
        "api-wiki-mentions",
        "get",
        "/api/campaigns/{campaign}/wiki/mentions/?q=Mi",
        members(200, api=True),
    ),
    api(
        "api-wiki-entries",
        "get",
        "/api/campaigns/{campaign}/wiki/entries/",
        members(200, api=True),
    ),
    api(
        "api-wiki-entries",
        "post",
        "/api/campaigns/{campaign}/wiki/entries/",
        gms(201, api=True),
        {"title": "Scarlet Manor", "kind": "place"},
    ),
    api(
        "api-wiki-entry",
        "get",
        "/api/campaigns/{campaign}/wiki/entries/{wiki_entry}/",
        expect(200, other=404, anonymous=401),
        why="shown to the owner only: another player gets 404",
    ),
    api(
        "api-wiki-entry",
        "patch",
        "/api/campaigns/{campaign}/wiki/entries/{wiki_entry}/",
        gms(200, api=True),
        {"title": "Foggy Lake"},
    ),
    api(
        "api-wiki-entry",
        "delete",
        "/api/campaigns/{campaign}/wiki/entries/{wiki_entry}/",
        gms(204, api=True),
    ),
    api(
        "api-wiki-sections",
        "post",
        "/api/campaigns/{campaign}/wiki/entries/{wiki_entry}/sections/",
        gms(201, api=True),
        {"heading": "Island"},
    ),
    api(
        "api-wiki-section",
        "patch",
        "/api/campaigns/{campaign}/wiki/entries/{wiki_entry}/sections/{wiki_section}/",
        gms(200, api=True),
        {"heading": "Far shore"},
    ),
    api(
        "api-wiki-section",
        "delete",
        "/api/campaigns/{campaign}/wiki/entries/{wiki_entry}/sections/{wiki_section}/",
        gms(204, api=True),
    ),
    api(
        "api-wiki-reveal",
        "post",
        "/api/campaigns/{campaign}/wiki/entries/{wiki_entry}/reveal/",
        gms(200, api=True),
        {"to_everyone": True},
    ),
    api(
        "api-wiki-history",
        "get",
        "/api/campaigns/{campaign}/wiki/entries/{wiki_entry}/history/",
        gms(200, api=True),
    ),
    api(
        "api-wiki-stat-block",
        "put",
        "/api/campaigns/{campaign}/wiki/entries/{wiki_entry}/stat-block/",
        expect(400, owner=403, anonymous=401),
        {"pwr": 5, "cha": 7, "int": 5, "ins": 8, "hp": 140, "speed": 4, "range": 3},
        why="the entry is a place: a GM hears only a Character or NPC has one (400)",
    ),
    api(
        "api-wiki-stat-block",
        "delete",
        "/api/campaigns/{campaign}/wiki/entries/{wiki_entry}/stat-block/",
        gms(200, api=True),
    ),
    api(
        "api-wiki-restore",
        "post",
        "/api/campaigns/{campaign}/wiki/entries/{wiki_entry}/history/1/restore/",
        gms(200, api=True),
    ),
    # ------------------------------------------------------------------ threads (play by post)
    # Every member reads and posts; GMs manage threads; a post is edited by its author alone
    # (the GMs too get 403: they lock the thread or quote it, never rewrite a player's words).
    page("threads:list", "get", "/campaigns/{campaign}/threads/", members(200)),
    page(
        "threads:list",
        "post",
        "/campaigns/{campaign}/threads/",
        members(302),
        {"title": "Scarlet Manor", "category": "Act one", "body": "The gate is open."},
    ),
    page("threads:detail", "get", "/campaigns/{campaign}/threads/{thread}/", members(200)),
    page(
        "threads:detail",
        "post",
        "/campaigns/{campaign}/threads/{thread}/",
        members(302),
        {"body": "I follow the frogs."},
    ),
    page("threads:posts", "get", "/campaigns/{campaign}/threads/{thread}/posts/", members(200)),
    page(
        "threads:manage",
        "post",
        "/campaigns/{campaign}/threads/{thread}/manage/",
        gms(302),
        {"title": "The frozen lake", "category": "", "position": "1", "locked": "on"},
    ),
    page(
        "threads:post_edit",
        "get",
        "/campaigns/{campaign}/threads/{thread}/posts/{post}/edit/",
        expect(403, owner=200, other=403),
        why="a post is edited by its author alone",
    ),
    page(
        "threads:post_edit",
        "post",
        "/campaigns/{campaign}/threads/{thread}/posts/{post}/edit/",
        expect(403, owner=302, other=403),
        {"body": "Cirno skates, and falls."},
        why="a post is edited by its author alone",
    ),
    page(
        "threads:post_react",
        "post",
        "/campaigns/{campaign}/threads/{thread}/posts/{post}/react/",
        members(302),
        {"kind": "laugh"},
    ),
    page(
        "threads:post_handout",
        "get",
        "/campaigns/{campaign}/threads/{thread}/posts/{post}/handout/",
        gms(200),
    ),
    page(
        "threads:post_handout",
        "post",
        "/campaigns/{campaign}/threads/{thread}/posts/{post}/handout/",
        gms(302),
        {"title": "What Cirno saw", "excerpt": ""},
    ),
    page(
        "threads:post_wiki_entry",
        "get",
        "/campaigns/{campaign}/threads/{thread}/posts/{post}/wiki-entry/",
        gms(200),
    ),
    page(
        "threads:post_wiki_entry",
        "post",
        "/campaigns/{campaign}/threads/{thread}/posts/{post}/wiki-entry/",
        gms(302),
        {"title": "What Cirno saw", "kind": "lore", "visibility": "gm", "excerpt": ""},
    ),
    api("api-threads", "get", "/api/campaigns/{campaign}/threads/", members(200, api=True)),
    api(
        "api-threads",
        "post",
        "/api/campaigns/{campaign}/threads/",
        members(201, api=True),
        {"title": "Scarlet Manor", "body": "The gate is open."},
    ),
    api(
        "api-thread",
        "get",
        "/api/campaigns/{campaign}/threads/{thread}/",
        members(200, api=True),
    ),
    api(
        "api-thread",
        "patch",
        "/api/campaigns/{campaign}/threads/{thread}/",
        gms(200, api=True),
        {"pinned": True, "locked": True},
    ),
    api(
        "api-thread",
        "delete",
        "/api/campaigns/{campaign}/threads/{thread}/",
        gms(204, api=True),
    ),
    api(
        "api-thread-posts",
        "get",
        "/api/campaigns/{campaign}/threads/{thread}/posts/",
        members(200, api=True),
    ),
    api(
        "api-thread-posts",
        "post",
        "/api/campaigns/{campaign}/threads/{thread}/posts/",
        members(201, api=True),
        {"body": "I follow the frogs."},
    ),
    api(
        "api-thread-post",
        "get",
        "/api/campaigns/{campaign}/threads/{thread}/posts/{post}/",
        members(200, api=True),
    ),
    api(
        "api-thread-post",
        "patch",
        "/api/campaigns/{campaign}/threads/{thread}/posts/{post}/",
        expect(403, owner=200, other=403, anonymous=401),
        {"body": "Cirno skates, and falls."},
        why="a post is edited by its author alone",
    ),
    api(
        "api-thread-post-reactions",
        "post",
        "/api/campaigns/{campaign}/threads/{thread}/posts/{post}/reactions/",
        members(200, api=True),
        {"kind": "heart"},
    ),
    api(
        "api-thread-post-handout",
        "post",
        "/api/campaigns/{campaign}/threads/{thread}/posts/{post}/handout/",
        gms(201, api=True),
        {"title": "What Cirno saw"},
    ),
    api(
        "api-thread-post-wiki-entry",
        "post",
        "/api/campaigns/{campaign}/threads/{thread}/posts/{post}/wiki-entry/",
        gms(201, api=True),
        {"title": "What Cirno saw"},
    ),
]

#: Routes that are not about one campaign, and why (everything else must have rows).
#: Battle routes need a battle with pieces controlled by a player: they are swept per role in
#: their own table, whose completeness check fails when a battle route has no row there.
BATTLE_SWEEP = "swept per role in tests/battles/test_permissions.py (its own completeness check)"
#: Tavern routes need tables in setup, in play and finished with seated players: swept per role
#: (gm, host, guest, watcher, outsider, anonymous) in tests/minigames/test_permissions.py.
TAVERN_SWEEP = "swept per role in tests/minigames/test_permissions.py (its own completeness check)"

NOT_CAMPAIGN_SCOPED = {
    "home": "the front page (lists your own campaigns)",
    "dice": "the dice roller outside any campaign (personal rolls)",
    "notifications:list": "a user's own notifications (tests/notifications)",
    "notifications:read": "a user's own notification (tests/notifications)",
    "notifications:read_all": "a user's own notifications (tests/notifications)",
    "notifications:preferences": "a user's own preferences (tests/notifications)",
    "api-root": "the API's index",
    "api-schema": "the OpenAPI schema",
    "api-docs": "the API's documentation page",
    "api-token": "exchanging a password for a token",
    "api-health": "the liveness check",
    "metrics": "Prometheus's scrape, for the holder of METRICS_TOKEN (tests/ops/test_metrics.py)",
    "api-no-such-route": "an /api/ path no route matches: a JSON 404 (tests/hardening)",
    "health": "the full health page (tests/hardening/test_health.py)",
    "health-ready": "the readiness check (tests/hardening/test_health.py)",
    "javascript-catalog": "the scripts' words in the reader's language, the same for everyone",
    "set_language": "a visitor's or a user's own language (tests/accounts/test_languages.py)",
    "api-account": "a user's own account settings (tests/accounts/test_languages.py)",
    "api-notification-preferences": "a user's own preferences (tests/notifications)",
    "notification-list": "a user's own notifications (tests/notifications)",
    "notification-detail": "a user's own notification (tests/notifications)",
    "notification-read": "a user's own notification (tests/notifications)",
    "notification-read-all": "a user's own notifications (tests/notifications)",
    "notifications:push_device_remove": "a user's own push device (tests/notifications)",
    "api-push-devices": "a user's own push devices (tests/notifications/test_webpush.py)",
    "api-push-device": "a user's own push device (tests/notifications/test_webpush.py)",
    "pwa-manifest": "the installable app's manifest, the same for all (tests/notifications)",
    "pwa-service-worker": "the installable app's worker, the same for all (tests/notifications)",
    "pwa-offline": "the offline page, naming nobody (tests/notifications/test_webpush.py)",
    "gmtools:calendar_feed": "a user's own calendar feed address (tests/gmtools/test_calendar.py)",
    "api-calendar-feed": "a user's own calendar feed address (tests/gmtools/test_calendar.py)",
    "gmtools:calendar_feed_ics": "the feed itself: its secret token is the key, not a session"
    " (tests/gmtools/test_calendar.py)",
    "battles:list": BATTLE_SWEEP,
    "battles:detail": BATTLE_SWEEP,
    "api-campaign-battles": BATTLE_SWEEP,
    "api-battle": BATTLE_SWEEP,
    "api-battle-state": BATTLE_SWEEP,
    "api-battle-legal-actions": BATTLE_SWEEP,
    "api-battle-actions": BATTLE_SWEEP,
    "api-battle-log": BATTLE_SWEEP,
    "api-battle-replay": BATTLE_SWEEP,
    "api-battle-clock": BATTLE_SWEEP,
    "api-battle-undo": BATTLE_SWEEP,
    "tables:replay": "a table's replay page, as the table: swept with each game's rows"
    " (tests/minigames/test_permissions.py, tests/battles/test_permissions.py)",
    "api-battle-squares": BATTLE_SWEEP,
    "api-battle-combatants": BATTLE_SWEEP,
    "api-battle-combatant": BATTLE_SWEEP,
    "battles:map-image": BATTLE_SWEEP,
    "api-battle-map": BATTLE_SWEEP,
    "api-campaign-maps": BATTLE_SWEEP,
    "api-map": BATTLE_SWEEP,
    "api-battle-table": BATTLE_SWEEP,
    "api-battle-chat": BATTLE_SWEEP,
    "api-battle-chat-reactions": BATTLE_SWEEP,
    "api-battle-chat-mutes": BATTLE_SWEEP,
    "api-battle-chat-settings": BATTLE_SWEEP,
    "api-battle-pings": BATTLE_SWEEP,
    "api-battle-portraits": BATTLE_SWEEP,
    "tavern:list": TAVERN_SWEEP,
    "tavern:campaign": TAVERN_SWEEP,
    "tavern:rules": TAVERN_SWEEP,
    "tavern:table": TAVERN_SWEEP,
    "tavern:op": TAVERN_SWEEP,
    "api-tavern-games": TAVERN_SWEEP,
    "api-tavern-tables": TAVERN_SWEEP,
    "api-tavern-table": TAVERN_SWEEP,
    "api-tavern-join": TAVERN_SWEEP,
    "api-tavern-leave": TAVERN_SWEEP,
    "api-tavern-seats": TAVERN_SWEEP,
    "api-tavern-start": TAVERN_SWEEP,
    "api-tavern-resign": TAVERN_SWEEP,
    "api-tavern-rematch": TAVERN_SWEEP,
    "api-tavern-abandon": TAVERN_SWEEP,
    "api-tavern-state": TAVERN_SWEEP,
    "api-tavern-actions": TAVERN_SWEEP,
    "api-tavern-log": TAVERN_SWEEP,
    "api-tavern-chat": TAVERN_SWEEP,
    "api-tavern-chat-reactions": TAVERN_SWEEP,
    "api-tavern-chat-mutes": TAVERN_SWEEP,
    "api-tavern-chat-settings": TAVERN_SWEEP,
    "api-tavern-replay": TAVERN_SWEEP,
    "api-tavern-clock": TAVERN_SWEEP,
    "api-tavern-undo": TAVERN_SWEEP,
    "api-tavern-advice": TAVERN_SWEEP,
    "api-tavern-spectators": TAVERN_SWEEP,
    "api-tavern-invite": TAVERN_SWEEP,
    "tavern:invite": TAVERN_SWEEP,
}

#: Route prefixes outside the sweep: accounts (log in, sign up) and Django's admin (staff
#: permissions, with GMs scoped to their campaigns: tests/gmtools/test_admin.py). Every other
#: route, of any app present or future, needs rows or an entry above.
NOT_SWEPT = ("accounts/", "admin/", "media/", "static/")


# --------------------------------------------------------------------------- the world


@dataclass(frozen=True)
class People:
    """The users and the campaign every case starts from: the campaign's creator (GM), a second
    GM, two players, an outsider and a user who belongs nowhere."""

    gm: Any
    co_gm: Any
    player: Any
    other_player: Any
    outsider: Any
    campaign: Any

    @classmethod
    def create(cls) -> People:
        from tests.factories import CampaignFactory

        gm = UserFactory(username="gm-user")
        co_gm = UserFactory(username="co-gm")
        player = UserFactory(username="player-one")
        other_player = UserFactory(username="player-two")
        outsider = UserFactory(username="outsider")
        UserFactory(username="newcomer")
        campaign = CampaignFactory(created_by=gm, name="Scarlet Mist")
        for user, role in (
            (gm, Role.GM),
            (co_gm, Role.GM),
            (player, Role.PLAYER),
            (other_player, Role.PLAYER),
        ):
            Membership.objects.create(campaign=campaign, user=user, role=role)
        return cls(gm, co_gm, player, other_player, outsider, campaign)


class World:
    """Everything a row may act on, built on first use (rows only pay for what they name)."""

    def __init__(self, media_root: Any, people: People) -> None:
        self.media_root = media_root
        self.gm = people.gm
        self.co_gm = people.co_gm
        self.player = people.player
        self.other_player = people.other_player
        self.outsider = people.outsider
        self.campaign = people.campaign
        self._cache: dict[str, Any] = {}

    def user(self, role: str) -> Any:
        return {
            "gm": self.gm,
            "co_gm": self.co_gm,
            "owner": self.player,
            "other": self.other_player,
            "outsider": self.outsider,
            "anonymous": None,
        }[role]

    def _once(self, key: str, make: Callable[[], Any]) -> Any:
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]

    @staticmethod
    def png_upload() -> Any:
        from django.core.files.uploadedfile import SimpleUploadedFile
        from PIL import Image

        buffer = io.BytesIO()
        Image.new("RGB", (32, 32), (200, 30, 60)).save(buffer, "PNG")
        return SimpleUploadedFile("portrait.png", buffer.getvalue(), content_type="image/png")

    @property
    def character(self) -> Any:
        def make() -> Any:
            character = CharacterFactory(owner=self.player, campaign=self.campaign, name="Cirno")
            buffer = io.BytesIO()
            from PIL import Image

            Image.new("RGB", (32, 32), (10, 60, 200)).save(buffer, "PNG")
            character.portrait.save("portrait.png", ContentFile(buffer.getvalue()))
            return character

        return self._once("character", make)

    @property
    def spellcard(self) -> Any:
        return self._once(
            "spellcard", lambda: SpellcardFactory(character=self.character, name="Icicle")
        )

    @property
    def template(self) -> Any:
        return self._once(
            "template",
            lambda: TemplateCardFactory(campaign=self.campaign, created_by=self.gm, name="Red"),
        )

    @property
    def gm_card(self) -> Any:
        from decks.services import custom_card_create

        return self._once(
            "gm_card",
            lambda: custom_card_create(
                by=self.gm,
                game="rso",
                campaign=self.campaign,
                data={**RSO_CARD, "number": "GM-100"},
            ),
        )

    @property
    def deck(self) -> Any:
        from decks.services import deck_create

        return self._once(
            "deck",
            lambda: deck_create(by=self.player, game="rso", name="Cirno's deck", cards=[]),
        )

    @property
    def session(self) -> Any:
        return self._once(
            "session",
            lambda: GameSession.objects.create(
                campaign=self.campaign,
                title="The lake",
                starts_at=timezone.now() + timedelta(days=2),
                created_by=self.gm,
            ),
        )

    @property
    def note(self) -> Any:
        return self._once(
            "note",
            lambda: GMNote.objects.create(campaign=self.campaign, author=self.gm, title="Twist"),
        )

    @property
    def handout(self) -> Any:
        def make() -> Any:
            handout = Handout(
                campaign=self.campaign, author=self.gm, title="Letter", shared_with_all=False
            )
            handout.file.save("letter.txt", ContentFile(b"Dear Cirno"), save=False)
            handout.file_name = "letter.txt"
            handout.save()
            handout.recipients.set([self.player])
            return handout

        return self._once("handout", make)

    @property
    def invitation(self) -> Any:
        return self._once(
            "invitation",
            lambda: Invitation.objects.create(
                campaign=self.campaign,
                token="matrix-token-" + "x" * 30,
                created_by=self.gm,
                expires_at=timezone.now() + timedelta(days=7),
            ),
        )

    @property
    def secret_roll(self) -> Any:
        from campaign.services import dice_request_from, roll_make

        return self._once(
            "secret_roll",
            lambda: roll_make(
                user=self.player,
                dice=dice_request_from(notation="4d"),
                campaign=self.campaign,
                secret=True,
            ),
        )

    def access(self, user: Any) -> Any:
        from campaign.permissions import campaign_for

        return campaign_for(user, self.campaign.pk)[1]

    @property
    def wiki_entry(self) -> Any:
        """A place with a picture and a section for everyone, shown to the owner alone."""
        from wiki.services import entry_create, section_save

        def make() -> Any:
            by = self.access(self.gm)
            entry = entry_create(
                campaign_id=self.campaign.pk,
                by=by,
                author=self.gm,
                title="Misty Lake",
                kind="place",
                body="Fog over the water.",
                visibility="chosen",
                viewer_ids=[self.player.pk],
                image=self.png_upload(),
            )
            section_save(
                entry=entry, by=by, author=self.gm, heading="Shore", body="Reeds.", visibility="all"
            )
            return entry

        return self._once("wiki_entry", make)

    @property
    def wiki_section(self) -> Any:
        return self._once("wiki_section", lambda: self.wiki_entry.sections.get())

    @property
    def thread(self) -> Any:
        from threads.services import thread_create

        return self._once(
            "thread",
            lambda: thread_create(
                campaign=self.campaign, by=self.access(self.gm), user=self.gm, title="The lake"
            ),
        )

    @property
    def post(self) -> Any:
        """The owner's post in :attr:`thread`."""
        from threads.services import post_create

        return self._once(
            "post",
            lambda: post_create(
                thread=self.thread,
                by=self.access(self.player),
                user=self.player,
                body="Cirno skates across the ice.",
            ),
        )

    @property
    def world_event(self) -> Any:
        from gmtools.world import event_add

        return self._once(
            "world_event",
            lambda: event_add(
                campaign=self.campaign,
                by=self.access(self.gm),
                created_by=self.gm,
                year=1,
                month=1,
                day=2,
                title="Frog festival",
            ),
        )

    def placeholders(self, url: str) -> dict[str, Any]:
        out: dict[str, Any] = {"campaign": self.campaign.pk, "other_id": self.other_player.pk}
        for key in (
            "character",
            "spellcard",
            "template",
            "session",
            "note",
            "handout",
            "invitation",
            "secret_roll",
            "gm_card",
            "deck",
            "wiki_entry",
            "wiki_section",
            "thread",
            "post",
            "world_event",
        ):
            if "{" + key + "}" in url:
                out[key] = getattr(self, key).pk
        if "{token}" in url:
            out["token"] = self.invitation.token
        return out


@pytest.fixture(scope="module")
def people(django_db_setup: None, django_db_blocker: Any) -> Iterator[People]:
    """:class:`People`, made once for the module inside a transaction rolled back at its end;
    each case runs in a savepoint of it (pytest-django's own atomic, nested) and is rolled back
    to it, so every case starts from the same database and none sees another's writes."""
    outer = transaction.atomic()
    with django_db_blocker.unblock():
        outer.__enter__()
        made = People.create()
    try:
        yield made
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


@dataclass
class SignedIn:
    """Each person's session and API token, made once for the module (a real sign-in each:
    Django's own ``login``, as the test client's ``force_login`` does it), so a case does not
    sign in again; a case's writes to its session are undone after it (:func:`signed_in`)."""

    sessions: dict[int, tuple[str, dict[str, Any]]]
    tokens: dict[int, str]

    @classmethod
    def create(cls, people: People) -> SignedIn:
        from django.test import Client
        from rest_framework.authtoken.models import Token

        from accounts.sessions import SessionStore

        sessions: dict[int, tuple[str, dict[str, Any]]] = {}
        tokens: dict[int, str] = {}
        for user in (people.gm, people.co_gm, people.player, people.other_player, people.outsider):
            client = Client()
            client.force_login(user)
            key = client.session.session_key
            sessions[user.pk] = (key, SessionStore(session_key=key).load())
            tokens[user.pk] = Token.objects.create(user=user).key
        return cls(sessions, tokens)

    def restore(self, user: Any) -> None:
        """The session's cached copy as it was made: a case's writes to it (a message to show
        next) went to its database row too, which the case's rollback restores; the copy in
        the cache is not rolled back with it."""
        from accounts.sessions import SessionStore

        key, data = self.sessions[user.pk]
        store = SessionStore(session_key=key)
        store._cache.set(store.cache_key, data, store.get_expiry_age())


@pytest.fixture(scope="module")
def signed_in(people: People, django_db_blocker: Any) -> SignedIn:
    """Made inside :func:`people`'s transaction (rolled back at the module's end with it)."""
    with django_db_blocker.unblock():
        return SignedIn.create(people)


@pytest.fixture
def world(settings, tmp_path, people: People) -> World:
    settings.MEDIA_ROOT = str(tmp_path / "media")
    return World(tmp_path, people)


# --------------------------------------------------------------------------- the sweep


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("row", TABLE, ids=[r.id for r in TABLE])
def test_route_per_role(row: Row, role: str, world: World, signed_in: SignedIn) -> None:
    from django.conf import settings
    from django.test import Client
    from rest_framework.test import APIClient

    url = row.url.format(**world.placeholders(row.url))
    data = row.data(world) if callable(row.data) else row.data
    user = world.user(role)
    client = APIClient() if row.api else Client()
    if user is not None and row.api:
        client.credentials(HTTP_AUTHORIZATION=f"Token {signed_in.tokens[user.pk]}")
    elif user is not None:
        client.cookies[settings.SESSION_COOKIE_NAME] = signed_in.sessions[user.pk][0]
    try:
        if row.api:
            kwargs: dict[str, Any] = {"format": row.format}
            response = getattr(client, row.method)(url, data, **kwargs)
        else:
            response = getattr(client, row.method)(url, data or {})
    finally:
        if user is not None and not row.api:
            signed_in.restore(user)
    if hasattr(response, "streaming_content"):  # file downloads: read and close the file
        b"".join(response.streaming_content)
        # Closing the response sends request_finished, whose close_old_connections would close
        # the database connection the module's transaction lives on; Django's test client
        # disconnects it the same way while it serves a request.
        request_finished.disconnect(close_old_connections)
        try:
            response.close()
        finally:
            request_finished.connect(close_old_connections)
    assert response.status_code == row.expected[role], (
        f"{row.id} as {role}: {response.status_code}, expected {row.expected[role]}"
        f"\n{getattr(response, 'content', b'')[:600]!r}"
    )
    if role == "anonymous" and not row.api and row.expected[role] == 302:
        assert response["Location"].startswith("/accounts/login/"), response["Location"]


# --------------------------------------------------------------------------- completeness


@dataclass
class Route:
    route: str
    name: str | None
    methods: set[str] = field(default_factory=set)


def _methods(callback: Any) -> set[str]:
    """HTTP methods a class-based view answers (DRF viewset actions or APIView handlers);
    empty for function views (their rows are checked by name)."""
    actions = getattr(callback, "actions", None)
    if actions:
        return {m for m in actions if m not in ("head", "options")}
    view_class = getattr(callback, "cls", None) or getattr(callback, "view_class", None)
    if view_class is None:
        return set()
    allowed = set(getattr(view_class, "http_method_names", ()))
    return {
        m
        for m in ("get", "post", "put", "patch", "delete")
        if m in allowed and hasattr(view_class, m)
    }


def _routes() -> Iterator[Route]:
    for served in walk():
        p, namespace = served.pattern, served.namespace
        name = p.name and (f"{namespace}:{p.name}" if namespace else p.name)
        yield Route(served.path, name, _methods(p.callback))


def test_every_campaign_route_is_in_the_table() -> None:
    covered: dict[str, set[str]] = {}
    for row in TABLE:
        covered.setdefault(row.name, set()).add(row.method)
    missing = []
    for route in _routes():
        if route.route.startswith(NOT_SWEPT) or route.name in NOT_CAMPAIGN_SCOPED:
            continue
        if route.name is None:
            missing.append(f"{route.route} (unnamed)")
        elif route.name not in covered:
            missing.append(f"{route.name}: {route.route}")
        else:
            for method in sorted(route.methods - covered[route.name]):
                missing.append(f"{method.upper()} {route.name}: {route.route}")
    assert not missing, "Routes without a row in the permission table:\n" + "\n".join(missing)


def test_rows_name_real_routes() -> None:
    names = {r.name for r in _routes() if r.name}
    assert not [row.name for row in TABLE if row.name not in names]


def test_the_table_has_no_duplicate_rows() -> None:
    ids = [row.id for row in TABLE]
    assert len(ids) == len(set(ids))


def test_nothing_leaks_into_another_case(world: World) -> None:
    """Sanity: the world starts clean for every case (a fresh database each time)."""
    assert not Roll.objects.exists()
