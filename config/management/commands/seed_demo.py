"""Demo data a newcomer can click through: a GM, two players, a campaign and some rolls.

Idempotent: running it again resets the demo users' passwords and adds nothing twice. Later
features add their own demo data through :data:`DEMO_EXTENSIONS` hooks in their apps.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone as django_timezone

from campaign import services
from campaign.models import Campaign, Membership, Role
from decks.demo import seed_decks
from threads.demo import seed_threads

DEMO_USERS = (
    # username, password, display name, role in the demo campaign
    ("gm", "roses-gm-demo", "Yukari (GM)", Role.GM),
    ("reimu", "roses-reimu-demo", "Reimu", Role.PLAYER),
    ("marisa", "roses-marisa-demo", "Marisa", Role.PLAYER),
)
DEMO_CAMPAIGN = "The Scarlet Mist Incident"


#: Where the printed links point unless ``--base-url`` says otherwise (``make run`` passes the
#: address it serves: ``make run PORT=8101`` prints links to port 8101).
DEFAULT_BASE_URL = "http://127.0.0.1:8000"


class Command(BaseCommand):
    help = "Create or refresh the demo users, campaign and roll log."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--base-url",
            default=DEFAULT_BASE_URL,
            help="The address the app is served at, for the links printed at the end.",
        )

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        base = str(options.get("base_url") or DEFAULT_BASE_URL).rstrip("/")
        user_model = get_user_model()
        users = {}
        for username, password, name, _ in DEMO_USERS:
            user, _ = user_model.objects.get_or_create(username=username)
            user.display_name = name
            user.set_password(password)
            user.save()
            users[username] = user
        campaign = Campaign.objects.filter(name=DEMO_CAMPAIGN, created_by=users["gm"]).first()
        if campaign is None:
            campaign = services.campaign_create(
                name=DEMO_CAMPAIGN,
                description=(
                    "A crimson fog covers Gensokyo. Reimu and Marisa set out for the "
                    "mansion by the lake. (Demo campaign: look around, roll some dice.)"
                ),
                gm=users["gm"],
            )
            # Every roll draws a fresh seed from the OS (roll_make's default): a seed shared
            # between rolls would let a player recompute the GM's secret roll from the public
            # ones, whose seeds are shown for verification.
            demo_rolls = (
                ("reimu", "Spot the hidden path", "4d", 12, False),
                ("marisa", "Lift the boulder", "6d-4", 25, False),
                ("gm", "Sneaking fairy (INS)", "3d+1", 10, True),
            )
            for username, label, notation, target, secret in demo_rolls:
                services.roll_make(
                    user=users[username],
                    dice=services.dice_request_from(notation=notation, target=target),
                    campaign=campaign,
                    label=label,
                    secret=secret,
                )
        for username, _, _, role in DEMO_USERS:
            Membership.objects.update_or_create(
                campaign=campaign, user=users[username], defaults={"role": role}
            )
        seed_characters(campaign, users, self.stdout)  # characters app: see the end of this file
        seed_spellcards(campaign, users, self.stdout)  # spellcards app: see the end of this file
        seed_campaign_play(campaign, users, self.stdout, base)  # sessions, handouts...: below
        seed_wiki(campaign, users)  # the campaign wiki: below
        seed_wiki_npc(campaign, users)  # Sakuya's stat block, ready for the battle: below
        link_world_event(campaign)  # the calendar's event names the wiki's lake: below
        seed_battles(campaign, users, self.stdout, base)  # grid battles: see the end of this file
        seed_decks(
            campaign, users, self.stdout, base
        )  # tavern card games' cards and decks: decks/demo.py
        seed_tavern(campaign, users, self.stdout, base)  # tavern tables: see the end of this file
        seed_threads(campaign, users, self.stdout)  # play-by-post: threads/demo.py
        self.stdout.write(self.style.SUCCESS(f"Demo data ready. Log in at {base}/"))
        for username, password, name, role in DEMO_USERS:
            self.stdout.write(
                f"  {Role(role).label:<12} {username:<8} password: {password}  ({name})"
            )


# --------------------------------------------------------------------------- spellcards
# Demo spellcards (spellcards app): two cards in each demo player's character's deck and one GM
# template card. Idempotent: cards are found by name; everything goes through the services, so
# the demo cards are legal and priced by the engine. Characters come from the characters demo
# data; a character that is missing or incomplete is skipped with a note.

DEMO_SPELLCARDS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    # name, description, draft fields (on top of a single-target instantaneous attack card)
    (
        "Spirit Sign “Fantasy Seal”",
        "Homing orbs of light seal the target's power.",
        {"type": "attack", "attack_power": {"dice": 3, "modifier": 2}, "aoe": 1},
    ),
    (
        "Barrier Sign “Warding Circle”",
        "A ring of talismans around the caster for three rounds (the GM adjudicates the buff).",
        {"type": "defensive", "targets": "self", "duration": "single_space_3"},
    ),
)
DEMO_TEMPLATE: tuple[str, str, dict[str, Any]] = (
    "Scarlet Sign “Red Mist”",
    "The mist itself lashes out: a card any member may copy.",
    {"type": "attack", "attack_power": {"dice": 4, "modifier": 0}, "targets": "two"},
)


def _demo_draft(name: str, fields: dict[str, Any]) -> Any:
    from westernroses.spellcards import SpellcardDraft

    data = {"name": name, "type": "attack", "targets": "single", "skills": []}
    data.update(fields)
    return SpellcardDraft.from_dict(data)


def seed_spellcards(campaign: Campaign, users: dict[str, Any], stdout: Any) -> None:
    """Demo cards for the demo players' characters and a GM template card (idempotent)."""
    from characters.models import Character
    from spellcards import selectors as spellcard_selectors
    from spellcards import services as spellcard_services
    from spellcards.models import Spellcard, TemplateCard

    name, description, fields = DEMO_TEMPLATE
    if not TemplateCard.objects.filter(campaign=campaign, name=name).exists():
        spellcard_services.template_card_create(
            by=users["gm"],
            campaign=campaign,
            draft=_demo_draft(name, fields),
            description=description,
        )
    characters = Character.objects.filter(
        campaign=campaign, owner__in=[users["reimu"], users["marisa"]]
    )
    for character in characters:
        for name, description, fields in DEMO_SPELLCARDS:
            if Spellcard.objects.filter(character=character, name=name).exists():
                continue
            try:
                spellcard_services.spellcard_create(
                    by=character.owner,
                    character=character,
                    draft=_demo_draft(name, fields),
                    description=description,
                    add_to_deck=2,
                )
            except (
                spellcard_services.SpellcardRejected,
                spellcard_selectors.CharacterIncomplete,
            ) as exc:
                stdout.write(f"  (demo spellcard {name} skipped for {character.name}: {exc})")


# --------------------------------------------------------------------------- characters
# Demo characters (characters app): one for each demo player and an NPC for the GM, built
# through the services so the engine checks them like any character. Idempotent: found by
# owner, campaign and name.

DEMO_CHARACTERS: tuple[tuple[Any, ...], ...] = (
    # owner, NPC?, kit choices, draft fields, public notes, private notes
    (
        "reimu",
        False,
        {},
        {
            "name": "Reimu Hakurei",
            "shot_type": "homing_amulets",
            "race": "lunarian",
            "profession": "shrine_maiden",
            "element": "spirit",
            "goddess_element": "light",
            "bonus_points": {"cha": 4, "int": 6, "ins": 10},
            "skill_points": {"intuition": 4, "flying": 6},
            "abilities": ["skill_focus"],
            "ability_choices": {"skill_focus": "intuition"},
        },
        "Keeper of the Hakurei Shrine. Donations welcome.",
        "Keeps the donation box key in her sleeve.",
    ),
    (
        "marisa",
        False,
        {1: "broom"},
        {
            "name": "Marisa Kirisame",
            "shot_type": "magic_missile",
            "race": "magician",
            "profession": "carefree_soul",
            "element": "light",
            "bonus_points": {"pwr": 6, "int": 10, "ins": 4},
            "skill_points": {"legends": 5, "flying": 5},
            "abilities": ["manipulation_of_light"],
        },
        "An ordinary magician. Flies a broom; borrows books.",
        "Has 'borrowed' three grimoires from the mansion's library.",
    ),
    (
        "gm",
        True,
        {1: "mace"},
        {
            "name": "Hong Meiling",
            "shot_type": "fourth_strike",
            "race": "youkai",
            "natural_weapon": "kicks",
            "profession": "guardian",
            "guardian_charge": "the gate of the Scarlet Devil Mansion",
            "element": "wood",
            "bonus_points": {"pwr": 8, "cha": 8, "ins": 4},
            "skill_points": {"dexterity": 5, "will": 5},
            "abilities": ["hard_to_kill"],
        },
        "Gatekeeper of the mansion by the lake.",
        "Falls asleep at her post after midnight.",
    ),
)


def seed_characters(campaign: Campaign, users: dict[str, Any], stdout: Any) -> None:
    """Demo characters for reimu and marisa and an NPC for the GM (idempotent)."""
    from campaign.permissions import owned_access
    from characters import services as character_services
    from characters.models import Character
    from westernroses.characters import CharacterDraft

    for username, is_npc, kit, fields, public, private in DEMO_CHARACTERS:
        owner = users[username]
        if Character.objects.filter(owner=owner, campaign=campaign, name=fields["name"]).exists():
            continue
        kitted = character_services.character_draft_with_kit(
            draft=CharacterDraft.from_dict(fields), choices=kit
        )
        try:
            character_services.character_create(
                owner=owner,
                campaign=campaign,
                draft=kitted.draft,
                by=owned_access(owner, campaign, owner.pk),
                is_npc=is_npc,
                public_notes=public,
                private_notes=private,
            )
        except character_services.CharacterRulesError as exc:  # pragma: no cover - data bug
            stdout.write(f"  (demo character {fields['name']} skipped: {exc.errors()['rules']})")


# --------------------------------------------------------------------------- campaign play
# Demo campaign play (the GM tools): a scheduled session with its reminders, a handout for
# everyone and one for Reimu only, a GM note, a loot award to the demo characters and an open
# invitation link. Idempotent: each is found by its title (the link by its note, while it
# works); everything goes through the services, so notifications and reminders are real.

DEMO_SESSION = ("The gate of the Scarlet Devil Mansion", "Get past Meiling. Find the library.")
DEMO_HANDOUTS = (
    ("A map of Misty Lake", "The mansion stands on the far shore; the fog is thickest there.", ()),
    ("A letter for Reimu", "Someone has been borrowing the shrine's donation box.", ("reimu",)),
)
DEMO_NOTE = ("Remilia's plan", "The mist blocks the sun so she can go out by day. Sakuya stalls.")
DEMO_AWARD_REASON = "Fairies' hidden stash on the lakeshore"
DEMO_INVITATION_NOTE = "Demo link for a third player"
#: The in-world date (the Gregorian default calendar) and an event on it, and the players'
#: answers to the demo session.
DEMO_WORLD_DATE = (2003, 7, 20)
DEMO_WORLD_EVENT = ("The scarlet mist rises", "A red fog spreads from the lake's far shore.")
DEMO_RSVPS = (("reimu", "yes", "I'll bring tea."), ("marisa", "maybe", "If the library is open."))


def seed_campaign_play(
    campaign: Campaign, users: dict[str, Any], stdout: Any, base: str = DEFAULT_BASE_URL
) -> None:
    """A session, two handouts, a GM note, an award and an invitation link (idempotent)."""
    from datetime import timedelta

    from django.utils import timezone

    from campaign.permissions import access_for
    from characters.models import Character
    from gmtools import awards, handouts, invitations, notes, sessions
    from gmtools.models import Award, GameSession, GMNote, Handout

    gm = users["gm"]
    access = access_for(gm, campaign)
    title, agenda = DEMO_SESSION
    if not GameSession.objects.filter(campaign=campaign, title=title).exists():
        starts = (timezone.now() + timedelta(days=3)).replace(
            hour=19, minute=0, second=0, microsecond=0
        )
        sessions.session_schedule(
            campaign=campaign,
            by=access,
            created_by=gm,
            title=title,
            starts_at=starts,
            agenda=agenda,
        )
    for handout_title, body, only in DEMO_HANDOUTS:
        if not Handout.objects.filter(campaign=campaign, title=handout_title).exists():
            handouts.handout_create(
                campaign=campaign,
                by=access,
                author=gm,
                title=handout_title,
                body=body,
                shared_with_all=not only,
                recipient_ids=[users[name].pk for name in only],
            )
    note_title, note_body = DEMO_NOTE
    if not GMNote.objects.filter(campaign=campaign, title=note_title).exists():
        notes.note_create(campaign=campaign, by=access, author=gm, title=note_title, body=note_body)
    if not Award.objects.filter(campaign=campaign, reason=DEMO_AWARD_REASON).exists():
        party = list(Character.objects.filter(campaign=campaign, is_npc=False).order_by("pk"))
        if party:
            try:
                awards.award_grant(
                    campaign=campaign,
                    by=access,
                    awarded_by=gm,
                    characters=party,
                    yen=50,
                    items={"tankard": 1},
                    reason=DEMO_AWARD_REASON,
                )
            except ValidationError as exc:  # pragma: no cover - a demo character breaks a rule
                stdout.write(f"  (demo award skipped: {exc.messages})")
    if not any(
        i.note == DEMO_INVITATION_NOTE for i in invitations.invitations_pending(campaign.pk)
    ):
        invitations.invitation_create(
            campaign=campaign, by=access, created_by=gm, note=DEMO_INVITATION_NOTE
        )
    seed_world(campaign, users)
    link = next(
        i for i in invitations.invitations_pending(campaign.pk) if i.note == DEMO_INVITATION_NOTE
    )
    stdout.write(f"  Invitation link: {base}{invitations.invitation_path(link)}")


def seed_world(campaign: Campaign, users: dict[str, Any]) -> None:
    """The in-world date and an event on it, and the players' answers to the demo session
    (idempotent: the date is set once, the event found by its title)."""
    from campaign.permissions import access_for
    from gmtools import rsvp, world
    from gmtools.models import GameSession, WorldCalendar, WorldEvent

    access = access_for(users["gm"], campaign)
    year, month, day = DEMO_WORLD_DATE
    if not WorldCalendar.objects.filter(campaign=campaign).exists():
        world.date_set(campaign=campaign, by=access, year=year, month=month, day=day)
    session = GameSession.objects.filter(campaign=campaign, title=DEMO_SESSION[0]).first()
    title, body = DEMO_WORLD_EVENT
    if not WorldEvent.objects.filter(campaign=campaign, title=title).exists():
        world.event_add(
            campaign=campaign,
            by=access,
            created_by=users["gm"],
            year=year,
            month=month,
            day=day,
            title=title,
            body=body,
            session=session,
        )
    if session is not None and session.starts_at > django_timezone.now():
        for name, answer, note in DEMO_RSVPS:
            rsvp.rsvp_answer(
                session=session,
                by=access_for(users[name], campaign),
                user=users[name],
                answer=answer,
                note=note,
            )


# --------------------------------------------------------------------------- battles
# A demo grid battle (campaign/battles): "Fairies at Misty Lake", set up but not started, with
# the demo players' characters against two fairy NPCs on a 10×7 arena with a few blocking and
# difficult squares, on a map of the lakeshore (drawn at seed time: battles/demo_map.py). The
# GM starts it from its screen. Idempotent: found by name; built through the services, so the
# board is exactly what the GM's setup panel would make, and the map goes through the same
# library service as a GM's upload.

DEMO_BATTLE = "Fairies at Misty Lake"
DEMO_BATTLE_PARTY = (("Reimu Hakurei", [1, 2]), ("Marisa Kirisame", [1, 4]))
DEMO_BATTLE_FAIRIES = (("Sunny Milk", [7, 2]), ("Luna Child", [7, 4]))
DEMO_BATTLE_TERRAIN = (([4, 1], "blocked"), ([4, 5], "blocked"), ([4, 3], "difficult"))
DEMO_BATTLE_SIZE = (10, 7)
DEMO_MAP = "Misty Lake shore"
DEMO_MAP_SQUARE_PX = 64


# --------------------------------------------------------------------------- wiki
# A few linked wiki entries (wiki app): places inside places, a faction with its members, one
# character Reimu alone knows of and a GM-only plan with a section revealed to Reimu (on the
# timeline). Idempotent: skipped once the mansion's entry exists.

DEMO_WIKI: tuple[tuple[str, str, str, str, list[str], list[str]], ...] = (
    # title, kind, body, visibility ("all", "gm" or "reimu": chosen), tags, faction members
    (
        "Misty Lake",
        "place",
        "A lake wrapped in fog even on clear days. Fairies play here; "
        "@[[Scarlet Devil Mansion]] stands on its shore.",
        "all",
        ["lake", "fairies"],
        [],
    ),
    (
        "Scarlet Devil Mansion",
        "place",
        "A red mansion with very few windows. @[[Hong Meiling]] guards the gate, and "
        "@[[Sakuya Izayoi]] runs the house.",
        "all",
        ["mansion"],
        [],
    ),
    (
        "Voile, the great library",
        "place",
        "Shelves beyond counting. @[[Patchouli Knowledge]] rarely leaves it.",
        "all",
        ["mansion", "books"],
        [],
    ),
    (
        "Sakuya Izayoi",
        "character",
        "The mansion's chief maid. Polite, punctual, and armed with silver knives.",
        "all",
        ["mansion"],
        [],
    ),
    (
        "Patchouli Knowledge",
        "character",
        "A magician of the seven elements who lives in @[[Voile, the great library]].",
        "reimu",
        ["mansion", "magic"],
        [],
    ),
    (
        "Scarlet household",
        "faction",
        "Those who serve the mistress of @[[Scarlet Devil Mansion]].",
        "all",
        ["mansion"],
        ["Sakuya Izayoi", "Patchouli Knowledge"],
    ),
    (
        "The mist's true purpose",
        "lore",
        "Why did a red mist rise over @[[Misty Lake]]? Everyone has a guess.",
        "gm",
        ["mist", "secret"],
        [],
    ),
)


def seed_wiki(campaign: Campaign, users: dict[str, Any]) -> None:
    from campaign.permissions import access_for
    from wiki import services as wiki
    from wiki.models import Entry

    if Entry.objects.filter(campaign=campaign, title="Scarlet Devil Mansion").exists():
        return
    gm = users["gm"]
    access = access_for(gm, campaign)
    made: dict[str, Any] = {}
    for title, kind, body, seen_by, tags, members in DEMO_WIKI:
        made[title] = wiki.entry_create(
            campaign_id=campaign.pk,
            by=access,
            author=gm,
            title=title,
            kind=kind,
            body=body,
            tags=tags,
            visibility="chosen" if seen_by == "reimu" else seen_by,
            viewer_ids=[users["reimu"].pk] if seen_by == "reimu" else [],
            parent_id=made["Scarlet Devil Mansion"].pk if title.startswith("Voile") else None,
            member_ids=[made[name].pk for name in members],
        )
    plan = made["The mist's true purpose"]
    wiki.section_save(
        entry=made["Sakuya Izayoi"],
        by=access,
        author=gm,
        heading="Her pocket watch",
        body="She stops time for a few seconds at a time; the watch is the key.",
        visibility="gm",
    )
    wiki.section_save(
        entry=plan,
        by=access,
        author=gm,
        heading="The truth",
        body="The mistress wants to walk in daylight: the mist blots out the sun.",
        visibility="gm",
    )
    clue = wiki.section_save(
        entry=plan,
        by=access,
        author=gm,
        heading="What Reimu noticed",
        body="The mist thins at noon near @[[Scarlet Devil Mansion]].",
        visibility="gm",
    )
    wiki.reveal(
        entry=plan, by=access, author=gm, section=clue, to_all=False, player_ids=[users["reimu"].pk]
    )


#: Sakuya's numbers for battles (wiki/stat_blocks.py): a maid with throwing knives, ready for
#: the GM to add to the demo battle from its screen's "Add an NPC from the wiki".
DEMO_STAT_BLOCK: dict[str, Any] = {
    "pwr": 7,
    "cha": 9,
    "int": 6,
    "ins": 8,
    "hp": 100,
    "speed": 6,
    "range": 6,
    "element": "metal",
    "weapons": ["throwing_knives"],
    "spell_power": 100,
}


def link_world_event(campaign: Campaign) -> None:
    """The demo's in-world event is about Misty Lake's wiki entry (the calendar is seeded
    before the wiki, so the link is made here; idempotent: only an event with no entry)."""
    from gmtools.models import WorldEvent
    from wiki.models import Entry

    lake = Entry.objects.filter(campaign=campaign, title="Misty Lake").first()
    if lake is not None:
        WorldEvent.objects.filter(
            campaign=campaign, title=DEMO_WORLD_EVENT[0], wiki_entry__isnull=True
        ).update(wiki_entry=lake)


def seed_wiki_npc(campaign: Campaign, users: dict[str, Any]) -> None:
    """Give the demo's Sakuya Izayoi entry a stat block (once; a demo seeded before stat
    blocks existed gets it too)."""
    from campaign.permissions import access_for
    from wiki.models import Entry
    from wiki.stat_blocks import stat_block_set

    entry = Entry.objects.filter(campaign=campaign, title="Sakuya Izayoi").first()
    if entry is None or entry.stat_block is not None:
        return
    gm = users["gm"]
    stat_block_set(entry=entry, by=access_for(gm, campaign), author=gm, data=DEMO_STAT_BLOCK)


def seed_battle_map(campaign: Campaign, gm: Any, battle: Any) -> None:
    """Lay the demo map under the demo battle while it is being set up: the campaign's map
    named :data:`DEMO_MAP`, drawn and added to its library (``battles.maps``, as an upload) the
    first time, its grid aligned square for square."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from battles import maps
    from battles.demo_map import draw_demo_map
    from battles.models import BattleMap, BattleStatus

    if battle.map_id is not None or battle.status != BattleStatus.SETUP:
        return
    found = BattleMap.objects.filter(campaign=campaign, name=DEMO_MAP).first()
    if found is None:
        cols, rows = DEMO_BATTLE_SIZE
        picture = draw_demo_map(
            cols=cols,
            rows=rows,
            square_px=DEMO_MAP_SQUARE_PX,
            blocked=[(x, y) for (x, y), kind in DEMO_BATTLE_TERRAIN if kind == "blocked"],
            difficult=[(x, y) for (x, y), kind in DEMO_BATTLE_TERRAIN if kind == "difficult"],
        )
        found = maps.battle_map_create(
            campaign_id=campaign.pk,
            by=gm,
            name=DEMO_MAP,
            image=SimpleUploadedFile("misty-lake.png", picture, content_type="image/png"),
            alignment={
                "cols": cols,
                "rows": rows,
                "offset_x": 0,
                "offset_y": 0,
                "square_px": DEMO_MAP_SQUARE_PX,
            },
        )
    maps.battle_map_set(battle_id=battle.pk, by=gm, map_id=found.pk)


def seed_battles(
    campaign: Campaign, users: dict[str, Any], stdout: Any, base: str = DEFAULT_BASE_URL
) -> None:
    """A small battle in setup with the demo characters and two NPCs (idempotent)."""
    from battles import services as battle_services
    from battles.models import Battle
    from campaign.permissions import access_for
    from characters.models import Character

    gm = users["gm"]
    battle = Battle.objects.filter(campaign=campaign, name=DEMO_BATTLE).first()
    if battle is not None:
        seed_battle_map(campaign, gm, battle)  # a demo seeded before the map was drawn
        stdout.write(f"  Demo battle: {base}/battles/{battle.pk}/")
        return
    battle = battle_services.battle_create(
        campaign=campaign,
        by=access_for(gm, campaign),
        created_by=gm,
        name=DEMO_BATTLE,
        width=DEMO_BATTLE_SIZE[0],
        height=DEMO_BATTLE_SIZE[1],
    )
    try:
        seed_battle_map(campaign, gm, battle)
        for square, terrain in DEMO_BATTLE_TERRAIN:
            battle_services.battle_square_set(
                battle_id=battle.pk, by=gm, square=square, terrain=terrain
            )
        for name, position in DEMO_BATTLE_PARTY:
            character = Character.objects.filter(campaign=campaign, name=name).first()
            if character is not None:
                battle_services.battle_character_place(
                    battle_id=battle.pk, by=gm, character_id=character.pk, position=position
                )
        for name, position in DEMO_BATTLE_FAIRIES:
            battle_services.battle_npc_place(
                battle_id=battle.pk,
                by=gm,
                npc=battle_services.NpcSpec(
                    name=name,
                    stats={"pwr": 6, "cha": 10, "int": 8, "ins": 6},
                    hp=40,
                    speed=5,
                    range=3,
                    element="light" if name == "Sunny Milk" else "darkness",
                ),
                side="enemies",
                position=position,
            )
    except ValidationError as exc:  # pragma: no cover - a demo character breaks a rule
        stdout.write(f"  (demo battle incomplete: {exc.messages})")
    stdout.write(f"  Demo battle: {base}/battles/{battle.pk}/")


# --------------------------------------------------------------------------- the tavern
# Demo tavern tables (minigames): in the demo campaign's tavern, a RAIGO table waiting for a
# player (Reimu hosts, 20 yen stakes), a Spirit War game in play (Marisa against a heuristic
# bot), Reimu's practice Spirit War game against a heuristic bot with the advisor on, and a
# finished RAIGO game between the heuristic bot and the random bot; plus an open Dream Battle
# table.
# Idempotent: nothing is added once the campaign's tavern has tables.


def seed_tavern(campaign: Campaign, users: dict[str, Any], stdout: Any, base: str) -> None:
    from characters.models import Character
    from minigames import services as tavern
    from minigames.models import TavernTable
    from tables.clocks.controls import MAX_MOVE_SECONDS, TimeControl

    if TavernTable.objects.filter(campaign=campaign).exists():
        stdout.write(f"  Tavern: {base}/campaigns/{campaign.pk}/tavern/")
        return
    reimu = Character.objects.filter(owner=users["reimu"], campaign=campaign).first()
    waiting = tavern.tavern_create(
        by=users["reimu"],
        game="raigo",
        campaign=campaign,
        stake=20 if reimu is not None and reimu.yen >= 20 else 0,
        seats=[
            tavern.SeatSpec(kind="host", character=reimu.pk if reimu else None),
            tavern.SeatSpec(kind="open"),
        ],
    )
    playing = tavern.tavern_create(
        by=users["marisa"],
        game="spirit_war",
        campaign=campaign,
        seats=[tavern.SeatSpec(kind="host"), tavern.SeatSpec(kind="bot", strength="heuristic")],
        # a game between sessions: three days a move, then the heuristic bot plays for her
        clock=TimeControl("move", MAX_MOVE_SECONDS, "heuristic"),
    )
    tavern.tavern_start(table_id=playing.pk, by=users["marisa"])
    practice = tavern.tavern_create(
        by=users["reimu"],
        game="spirit_war",
        campaign=campaign,
        practice=True,
        advisor=True,
        seats=[
            tavern.SeatSpec(kind="host", character=reimu.pk if reimu else None),
            tavern.SeatSpec(kind="bot", strength="heuristic"),
        ],
    )
    tavern.tavern_start(table_id=practice.pk, by=users["reimu"])
    finished = tavern.tavern_create(
        by=users["gm"],
        game="raigo",
        campaign=campaign,
        seats=[
            tavern.SeatSpec(kind="bot", strength="heuristic"),
            tavern.SeatSpec(kind="bot", strength="random"),
        ],
        rated=True,  # its end moves the bots' ratings: the campaign's RAIGO leaderboard
    )
    tavern.tavern_start(table_id=finished.pk, by=users["gm"])
    for _ in range(2000):  # play it out here (the bots' tasks would, on commit)
        table = TavernTable.objects.get(pk=finished.pk)
        if table.status != "active":
            break
        for seat in (0, 1):
            tavern.tavern_bot_play(finished.pk, seat)
    tavern.tavern_create(
        by=users["gm"],
        game="dbs",
        campaign=None,
        seats=[tavern.SeatSpec(kind="open"), tavern.SeatSpec(kind="bot", strength="random")],
    )
    stdout.write(
        f"  Tavern: {base}/campaigns/{campaign.pk}/tavern/ (a table waiting for "
        f"a player: /tavern/tables/{waiting.pk}/)"
    )
