"""Campaign backup and restore (issue 16 "Load and backup"; docs/campaigns.md "Backup and restore").

The seed_demo campaign (members, characters, spellcards and decks, sessions, notes, handouts
with files, awards, rolls, a battle, tavern tables with their logs) is exported, deleted with
its users, imported and exported again: the two manifests must be equal once keys are replaced
by positions (``config.backup.normalise``). A damaged archive changes nothing and says why.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from django.test import override_settings

from battles.models import Battle, Combatant
from campaign.models import Campaign, Membership, Role
from characters.models import Character
from config.backup import (
    MANIFEST,
    RENAMED,
    BackupError,
    export_campaign,
    import_campaign,
    normalise,
)
from config.management.commands.seed_demo import DEMO_CAMPAIGN
from gmtools.models import Handout
from minigames.models import TavernAction, TavernTable
from spellcards.models import Spellcard
from tests.factories import UserFactory

#: One worker takes the whole module, so the demo is seeded once (``seeded``).
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("backup")]
#: A 1x1 transparent PNG.
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082"
)
User = get_user_model()


@pytest.fixture(scope="module")
def seeded(
    django_db_setup: None, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[int, Path]]:
    """The demo, seeded once for the module inside a transaction that is rolled back at the
    module's end. Each test runs in a savepoint of it (pytest-django's own atomic, nested), so
    what one test writes or deletes never reaches the next, and seed_demo runs once, not once a
    test (it was most of the module's time: docs/test-suite.md)."""
    media = tmp_path_factory.mktemp("backup") / "media"
    media_root = override_settings(MEDIA_ROOT=str(media))
    media_root.enable()
    outer = transaction.atomic()
    with django_db_blocker.unblock():
        outer.__enter__()
        call_command("seed_demo", stdout=io.StringIO())
        campaign = Campaign.objects.get(name=DEMO_CAMPAIGN)
        # The demo's handouts have no file and its characters no portrait: give one of each.
        handout = Handout.objects.filter(campaign=campaign).order_by("pk").first()
        assert handout is not None
        handout.file.save("map.txt", ContentFile(b"The lake, then the mansion.\n"), save=False)
        handout.file_name = "map.txt"
        handout.save()
        character = Character.objects.filter(campaign=campaign).order_by("pk").first()
        assert character is not None
        character.portrait.save("p.png", ContentFile(PNG), save=True)
    try:
        yield campaign.pk, media
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
        media_root.disable()


@pytest.fixture
def media(seeded: tuple[int, Path]) -> Path:
    """The module's media folder (files written by one test stay; tests compare before and
    after)."""
    return seeded[1]


@pytest.fixture
def demo(seeded: tuple[int, Path]) -> Campaign:
    """The seeded demo campaign, read afresh (a test may delete it; its savepoint brings it
    back for the next)."""
    return Campaign.objects.get(pk=seeded[0])


def manifest_of(data: bytes) -> dict[str, Any]:
    return json.loads(zipfile.ZipFile(io.BytesIO(data)).read(MANIFEST))


def read(file: Any) -> bytes:
    with file.open("rb") as handle:
        return bytes(handle.read())


def counts(manifest: dict[str, Any]) -> dict[str, int]:
    return {part["model"]: len(part["rows"]) for part in manifest["parts"]}


def media_files(media: Path) -> set[str]:
    return {str(p.relative_to(media)) for p in media.rglob("*") if p.is_file()}


def database_counts() -> dict[str, int]:
    from config.backup import PARTS

    return {p.label: p.model._default_manager.count() for p in PARTS} | {
        "users": User.objects.count()
    }


def test_the_demo_archive_holds_everything(demo: Campaign) -> None:
    manifest = manifest_of(export_campaign(demo.pk))
    n = counts(manifest)
    # seed_demo: three members, their characters and spellcards, two handouts (one with a file),
    # a battle with its combatants, tavern tables with seats and move logs.
    assert n["campaign.Campaign"] == 1
    assert n["campaign.Membership"] == 3
    assert {u["username"] for u in manifest["users"]} >= {"gm", "reimu", "marisa"}
    for label in (
        "characters.Character",
        "spellcards.Spellcard",
        "spellcards.DeckEntry",
        "spellcards.TemplateCard",
        "gmtools.GameSession",
        "gmtools.GMNote",
        "gmtools.Handout",
        "campaign.Roll",
        "gmtools.Award",
        "decks.Deck",
        "battles.Battle",
        "battles.Combatant",
        "minigames.TavernTable",
        "minigames.TavernSeat",
        "minigames.TavernAction",
        "table_ratings.Rating",  # the rated RAIGO table's bots
        "table_ratings.RatedResult",
        "table_ratings.RatingChange",
        "threads.Thread",  # play-by-post: in-character posts, their rolls, a reaction
        "threads.Post",
        "threads.PostRoll",
        "threads.Reaction",
    ):
        assert n[label] > 0, label
    assert "gmtools.Invitation" not in n  # tokens are secrets: never exported
    files = [
        row["fields"]["file"]
        for part in manifest["parts"]
        if part["model"] == "gmtools.Handout"
        for row in part["rows"]
        if row["fields"]["file"]
    ]
    assert files, "the demo has a handout with a file"
    archive = zipfile.ZipFile(io.BytesIO(export_campaign(demo.pk)))
    assert all(f["archive"] in archive.namelist() for f in files)
    # Users by name, never by key; no password hashes or e-mail addresses leave the server.
    assert all(set(u) == {"pk", "username", "display_name", "time_zone"} for u in manifest["users"])


def test_round_trip_into_an_empty_database_is_exact(demo: Campaign, media: Path) -> None:
    first = export_campaign(demo.pk)
    handout_bytes = {h.title: read(h.file) for h in Handout.objects.filter(campaign=demo) if h.file}
    portraits = {
        c.name: read(c.portrait) for c in Character.objects.filter(campaign=demo) if c.portrait
    }
    assert handout_bytes and portraits
    usernames = [u["username"] for u in manifest_of(first)["users"]]
    # Empty the database of the campaign and its users (characters and decks of theirs go too).
    demo.delete()
    User.objects.filter(username__in=usernames).delete()
    assert not Campaign.objects.exists()
    assert not User.objects.filter(username__in=usernames).exists()

    restored = import_campaign(first)
    second = export_campaign(restored.pk)

    assert normalise(manifest_of(second)) == normalise(manifest_of(first))
    # Missing users come back inactive, with unusable passwords (docs/campaigns.md).
    for user in User.objects.filter(username__in=usernames):
        assert not user.is_active
        assert not user.has_usable_password()
    assert Membership.objects.get(campaign=restored, user__username="gm").role == Role.GM
    # Handout files come back byte for byte.
    for handout in Handout.objects.filter(campaign=restored):
        if handout.file:
            assert read(handout.file) == handout_bytes.pop(handout.title)
    for character in Character.objects.filter(campaign=restored):
        if character.portrait:
            assert read(character.portrait) == portraits.pop(character.name)
            assert character.portrait.name == f"portraits/character-{character.pk}.png"
    assert not handout_bytes and not portraits


def as_written_before_the_gm_tools_moved(data: bytes) -> bytes:
    """``data`` as a server wrote it while sessions, notes, handouts, awards and level-ups were
    the ``campaign`` app's: their rows, and the handouts' files, under ``campaign.*`` labels."""
    archive = zipfile.ZipFile(io.BytesIO(data))
    manifest = manifest_of(data)

    def old(text: str) -> str:  # only the models that were there then; newer ones stay
        for before, now in RENAMED.items():
            text = text.replace(now, before)
        return text

    members = {}
    for part in manifest["parts"]:
        part["model"] = old(part["model"])
        for row in part["rows"]:
            for value in row["fields"].values():
                if isinstance(value, dict) and "archive" in value:
                    members[value["archive"]] = old(value["archive"])
                    value["archive"] = old(value["archive"])
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as written:
        written.writestr(MANIFEST, json.dumps(manifest))
        for name in archive.namelist():
            if name != MANIFEST:
                written.writestr(members.get(name, name), archive.read(name))
    return out.getvalue()


def test_an_archive_from_before_the_gm_tools_moved_restores_the_same_campaign(
    demo: Campaign,
) -> None:
    """Archives keep format version 1 across the move of the GM tools out of ``campaign``
    (config.backup.RENAMED): an older archive restores to exactly what a new one does."""
    data = export_campaign(demo.pk)
    older = as_written_before_the_gm_tools_moved(data)
    assert "campaign.GameSession" in counts(manifest_of(older))
    assert "gmtools.GameSession" not in counts(manifest_of(older))
    restored = import_campaign(older)
    assert normalise(manifest_of(export_campaign(restored.pk))) == normalise(manifest_of(data))
    handout = Handout.objects.filter(campaign=restored).exclude(file="").get()
    assert read(handout.file) == b"The lake, then the mansion.\n"


def _older_card(card: Any) -> Any:
    """An RSO card as it was written before both card games shared one shape."""
    if not isinstance(card, dict):
        return card
    return {("type" if key == "kind" else key): value for key, value in card.items()}


def as_written_before_the_card_games_shared_one_shape(data: bytes) -> bytes:
    """``data`` as a server wrote it while RSO cards named their kind ``type`` and a GM card's
    copy of it was ``card_type`` (docs/decks.md, "One card shape")."""
    archive = zipfile.ZipFile(io.BytesIO(data))
    manifest = manifest_of(data)
    for part in manifest["parts"]:
        for row in part["rows"]:
            fields = row["fields"]
            if part["model"] == "decks.CustomCard":
                fields["card_type"] = fields.pop("kind")
                if fields["game"] == "rso":
                    fields["data"] = _older_card(fields["data"])
            if part["model"] == "minigames.TavernTable" and fields["game"] == "rso":
                for name in ("state", "initial"):
                    cards = fields[name]["cards"]
                    fields[name]["cards"] = {n: _older_card(c) for n, c in cards.items()}
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as written:
        written.writestr(MANIFEST, json.dumps(manifest))
        for name in archive.namelist():
            if name != MANIFEST:
                written.writestr(name, archive.read(name))
    return out.getvalue()


def test_an_archive_from_before_the_card_games_shared_one_shape_restores_the_same(
    demo: Campaign,
) -> None:
    """A GM card and an RSO table written in the older card shape restore as today's: the
    same campaign a new archive restores, and the table's log still replays to its state."""
    from minigames import services as tavern
    from tables.registry import game_for
    from tables.services import table_replay

    gm = User.objects.get(username="gm")
    table = tavern.tavern_create(
        by=gm,
        game="rso",
        campaign=demo,
        seats=[tavern.SeatSpec(kind="bot", strength="random")] * 2,
    )
    tavern.tavern_start(table_id=table.pk, by=gm)
    for _ in range(3):
        for seat in (0, 1):
            tavern.tavern_bot_play(table.pk, seat)
    data = export_campaign(demo.pk)
    older = as_written_before_the_card_games_shared_one_shape(data)
    rows = {p["model"]: p["rows"] for p in manifest_of(older)["parts"]}
    assert any(r["fields"]["data"].get("type") for r in rows["decks.CustomCard"])
    old_table = next(r for r in rows["minigames.TavernTable"] if r["fields"]["game"] == "rso")
    assert all("type" in c for c in old_table["fields"]["state"]["cards"].values())

    restored = import_campaign(older)
    assert normalise(manifest_of(export_campaign(restored.pk))) == normalise(manifest_of(data))
    copy = TavernTable.objects.get(campaign=restored, game="rso")
    assert copy.version > 0
    assert all(c["kind"] for c in copy.state["cards"].values())
    engine = game_for("rso").engine
    assert engine.to_json(table_replay(game_for("rso"), copy)) == copy.state


def test_importing_twice_makes_two_copies_with_new_keys(demo: Campaign) -> None:
    data = export_campaign(demo.pk)
    users_before = User.objects.count()
    one = import_campaign(data)
    two = import_campaign(data)
    assert len({demo.pk, one.pk, two.pk}) == 3
    assert User.objects.count() == users_before  # existing users are reused by username
    assert User.objects.get(username="reimu").is_active  # and left as they were
    original = normalise(manifest_of(data))
    for copy in (one, two):
        assert normalise(manifest_of(export_campaign(copy.pk))) == original
    # Each copy's rows point to its own rows, never the original's.
    for copy in (one, two):
        chars = set(Character.objects.filter(campaign=copy).values_list("pk", flat=True))
        assert chars and chars.isdisjoint(
            Character.objects.filter(campaign=demo).values_list("pk", flat=True)
        )
        assert (
            set(
                Spellcard.objects.filter(character__campaign=copy).values_list(
                    "character_id", flat=True
                )
            )
            <= chars
        )
        battle = Battle.objects.get(campaign=copy)
        # The engine state names player characters pc<id> and the battle by its key: remapped.
        pcs = {k for k in battle.state["combatants"] if k.startswith("pc")}
        assert pcs and pcs <= {f"pc{pk}" for pk in chars}
        assert battle.state["battle_id"] == str(battle.pk)
        assert set(
            Combatant.objects.filter(battle=battle).values_list("engine_id", flat=True)
        ) == set(battle.state["combatants"])
        for table in TavernTable.objects.filter(campaign=copy):
            original_table = TavernTable.objects.get(
                campaign=demo, created_at=table.created_at, game=table.game
            )
            assert table.version == original_table.version
            assert (
                TavernAction.objects.filter(table=table).count() == original_table.actions.count()
            )


def _damage(data: bytes, change: Any) -> bytes:
    source = zipfile.ZipFile(io.BytesIO(data))
    manifest = json.loads(source.read(MANIFEST))
    change(manifest)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        target.writestr(MANIFEST, json.dumps(manifest))
        for name in source.namelist():
            if name != MANIFEST:
                target.writestr(name, source.read(name))
    return out.getvalue()


def _break_last_seat(manifest: dict[str, Any]) -> None:
    # Everything before the seats would be restored first: the whole import must roll back.
    seats = next(p for p in manifest["parts"] if p["model"] == "minigames.TavernSeat")
    seats["rows"][-1]["fields"]["table"] = 999_999


def _bad_file_checksum(manifest: dict[str, Any]) -> None:
    handouts = next(p for p in manifest["parts"] if p["model"] == "gmtools.Handout")
    row = next(r for r in handouts["rows"] if r["fields"]["file"])
    row["fields"]["file"]["sha256"] = "0" * 64


def _unknown_user(manifest: dict[str, Any]) -> None:
    rolls = next(p for p in manifest["parts"] if p["model"] == "campaign.Roll")
    rolls["rows"][0]["fields"]["user"] = "nobody-of-that-name"


def _bad_level(manifest: dict[str, Any]) -> None:
    chars = next(p for p in manifest["parts"] if p["model"] == "characters.Character")
    chars["rows"][-1]["fields"]["level"] = "seven"


@pytest.mark.parametrize(
    ("damage", "words"),
    [
        (lambda data: b"not a zip at all", "not a zip archive"),
        (lambda data: data[: len(data) // 2], "not a zip archive"),
        (lambda data: _damage(data, lambda m: m.update(version=99)), "format version 99"),
        (lambda data: _damage(data, lambda m: m.update(format="other")), "not a Western Roses"),
        (lambda data: _damage(data, lambda m: m.pop("parts")), "lacks its users or rows"),
        (
            lambda data: _damage(data, _break_last_seat),
            "one of its tavern seats refers to a tavern table that is not in it",
        ),
        (lambda data: _damage(data, _bad_file_checksum), "does not match its checksum"),
        (lambda data: _damage(data, _unknown_user), "not in its user list"),
        (
            lambda data: _damage(data, _bad_level),
            "a character, level: “seven” value must be an integer",
        ),
    ],
    ids=[
        "not-zip",
        "truncated",
        "version",
        "format",
        "no-rows",
        "broken-link",
        "checksum",
        "user",
        "value",
    ],
)
def test_a_damaged_archive_is_refused_in_words_and_changes_nothing(
    demo: Campaign, media: Path, damage: Any, words: str
) -> None:
    bad = damage(export_campaign(demo.pk))
    before, files_before = database_counts(), media_files(media)
    with pytest.raises(BackupError) as caught:
        import_campaign(bad)
    assert words in str(caught.value)
    assert "Traceback" not in str(caught.value) and "Error" not in str(caught.value)
    assert database_counts() == before
    assert media_files(media) == files_before  # files written before the failure are removed


def test_the_commands_write_and_restore_an_archive(demo: Campaign, tmp_path: Path) -> None:
    path = tmp_path / "backup.zip"
    out = io.StringIO()
    call_command("campaign_export", str(demo.pk), "--output", str(path), stdout=out)
    assert path.exists() and "written to" in out.getvalue()
    out = io.StringIO()
    call_command("campaign_import", str(path), stdout=out)
    assert f"Restored campaign '{DEMO_CAMPAIGN}'" in out.getvalue()
    assert Campaign.objects.filter(name=DEMO_CAMPAIGN).count() == 2

    bad = tmp_path / "bad.zip"
    bad.write_bytes(b"garbage")
    with pytest.raises(CommandError, match=r"Nothing was restored\. This is not a campaign backup"):
        call_command("campaign_import", str(bad))
    with pytest.raises(CommandError, match="There is no campaign number 987654"):
        call_command("campaign_export", "987654", "--output", str(tmp_path / "x.zip"))
    assert Campaign.objects.filter(name=DEMO_CAMPAIGN).count() == 2


def _end_every_game(campaign: Campaign) -> None:
    from battles.models import Battle
    from tables.models import TableStatus

    TavernTable.objects.filter(campaign=campaign).update(status=TableStatus.ENDED)
    Battle.objects.filter(campaign=campaign, status=TableStatus.ACTIVE).update(
        status=TableStatus.ENDED
    )


def test_the_gm_downloads_the_same_archive_from_the_settings_page(
    client: Any, demo: Campaign
) -> None:
    gm = User.objects.get(username="gm")
    _end_every_game(demo)
    client.force_login(gm)
    settings_page = client.get(f"/campaigns/{demo.pk}/settings/")
    assert f'href="/campaigns/{demo.pk}/backup/"' in settings_page.content.decode()
    response = client.get(f"/campaigns/{demo.pk}/backup/")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert "attachment" in response["Content-Disposition"]
    assert normalise(manifest_of(response.content)) == normalise(
        manifest_of(export_campaign(demo.pk, decks_of=gm.pk))
    )


def test_the_gms_download_holds_no_other_members_deck(client: Any, demo: Campaign) -> None:
    """A saved deck is its owner's alone (docs/decks.md): the GM's archive keeps only hers;
    the server's campaign_export keeps every deck of the campaign."""
    from decks.models import Deck

    gm = User.objects.get(username="gm")
    _end_every_game(demo)
    others = Deck.objects.filter(campaign=demo).exclude(owner=gm)
    assert others.exists()
    client.force_login(gm)
    manifest = manifest_of(client.get(f"/campaigns/{demo.pk}/backup/").content)
    shown = json.dumps(manifest)
    for deck in others:
        assert deck.name not in shown
    assert any(deck.name in json.dumps(manifest_of(export_campaign(demo.pk))) for deck in others)


def test_players_and_outsiders_cannot_download(client: Any, demo: Campaign) -> None:
    url = f"/campaigns/{demo.pk}/backup/"
    client.force_login(User.objects.get(username="reimu"))
    assert client.get(url).status_code == 403
    client.force_login(UserFactory())
    assert client.get(url).status_code == 404
    client.logout()
    assert client.get(url).status_code == 302


def test_a_game_still_being_played_refuses_the_download(client: Any, demo: Campaign) -> None:
    """The archive holds every game's secret dice seed and every hand, which nobody (the GM
    included) may see while a game runs: the demo's Spirit War game is in play."""
    from tables.models import TableStatus

    gm = User.objects.get(username="gm")
    assert TavernTable.objects.filter(campaign=demo, status=TableStatus.ACTIVE).exists()
    client.force_login(gm)
    response = client.get(f"/campaigns/{demo.pk}/backup/")
    assert response.status_code == 409
    assert "still being played" in response.content.decode()
    _end_every_game(demo)
    assert client.get(f"/campaigns/{demo.pk}/backup/").status_code == 200


def test_an_archive_that_unpacks_too_large_is_refused_unread(demo: Campaign) -> None:
    """A zip bomb: a small file whose member claims more than the bound (config.backup)."""
    from config.backup import MAX_ARCHIVE_BYTES

    source = zipfile.ZipFile(io.BytesIO(export_campaign(demo.pk)))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        target.writestr(MANIFEST, source.read(MANIFEST))
        with target.open("files/padding", "w", force_zip64=True) as pad:
            chunk = bytes(1024 * 1024)
            for _ in range(MAX_ARCHIVE_BYTES // len(chunk) + 1):
                pad.write(chunk)
    assert len(out.getvalue()) < MAX_ARCHIVE_BYTES // 100
    before = database_counts()
    with pytest.raises(BackupError, match="unpacks to more than the allowed size"):
        import_campaign(out.getvalue())
    assert database_counts() == before


def test_a_tavern_seats_saved_deck_names_the_copys_deck(demo: Campaign) -> None:
    """A seat's saved deck (``deck:<id>``, ``saved:deck:<id>`` at older tables) is rewritten to
    the copy's deck, like every other key; one the archive does not hold is left out, never
    left naming some other row of the server that restores it."""
    from decks.models import Deck
    from minigames.models import TavernSeat

    deck = Deck.objects.filter(campaign=demo).order_by("pk").first()
    seat = TavernSeat.objects.filter(table__campaign=demo).order_by("pk").first()
    assert deck is not None and seat is not None
    for stored in (f"deck:{deck.pk}", f"saved:deck:{deck.pk}"):
        TavernSeat.objects.filter(pk=seat.pk).update(deck=stored)
        copy = import_campaign(export_campaign(demo.pk))
        copied = Deck.objects.get(campaign=copy, name=deck.name, owner=deck.owner)
        decks = set(TavernSeat.objects.filter(table__campaign=copy).values_list("deck", flat=True))
        assert f"deck:{copied.pk}" in decks, (stored, decks)
        assert stored not in decks
    TavernSeat.objects.filter(pk=seat.pk).update(deck="deck:987654")  # not in the campaign
    copy = import_campaign(export_campaign(demo.pk))
    decks = set(TavernSeat.objects.filter(table__campaign=copy).values_list("deck", flat=True))
    assert "deck:987654" not in decks


def test_the_talk_at_the_campaigns_tables_round_trips_with_its_tables(demo: Campaign) -> None:
    """The tables' chat (tables.chat) is kept with them: rooms, lines (a whisper with its
    recipient), reactions and mutes come back pointing at the restored battle and tavern table."""
    from tables.chat.models import ChatLine, ChatMute, ChatReaction, ChatRoom

    gm, reimu, marisa = (User.objects.get(username=n) for n in ("gm", "reimu", "marisa"))
    battle = Battle.objects.get(campaign=demo)
    tavern = TavernTable.objects.filter(campaign=demo).order_by("pk").first()
    assert tavern is not None
    at_battle = ChatRoom.objects.create(
        table_label="battles.battle", table_id=battle.pk, campaign=demo, stamp=3
    )
    at_tavern = ChatRoom.objects.create(
        table_label="minigames.taverntable", table_id=tavern.pk, campaign=demo,
        spectators_may_chat=True,
    )  # fmt: skip
    said = ChatLine.objects.create(room=at_battle, author=gm, author_is_gm=True, text="Roll!")
    ChatLine.objects.create(room=at_battle, author=gm, text="psst", recipient=marisa, version=2)
    ChatLine.objects.create(room=at_tavern, author=reimu, text="Good luck")
    ChatReaction.objects.create(line=said, user=reimu, reaction="clap")
    ChatMute.objects.create(room=at_tavern, user=marisa, by=reimu)

    data = export_campaign(demo.pk)
    n = counts(manifest_of(data))
    assert [n[f"table_chat.{m}"] for m in ("ChatRoom", "ChatLine", "ChatReaction", "ChatMute")] == [
        2, 3, 1, 1,
    ]  # fmt: skip
    copy = import_campaign(data)
    assert normalise(manifest_of(export_campaign(copy.pk))) == normalise(manifest_of(data))
    rooms = {r.table_label: r for r in ChatRoom.objects.filter(campaign=copy)}
    assert Battle.objects.get(pk=rooms["battles.battle"].table_id).campaign == copy
    restored = TavernTable.objects.get(pk=rooms["minigames.taverntable"].table_id)
    assert (restored.campaign, restored.created_at) == (copy, tavern.created_at)
    whisper = ChatLine.objects.get(room=rooms["battles.battle"], text="psst")
    assert (whisper.recipient, whisper.version) == (marisa, 2)
    assert rooms["minigames.taverntable"].spectators_may_chat is True
    assert ChatMute.objects.get(room=rooms["minigames.taverntable"]).user == marisa


def test_the_wiki_round_trips_with_its_mentions_secrets_and_versions(demo: Campaign) -> None:
    """The wiki names rows by id in its texts and versions (wiki/render.py stores a mention
    as ``@[[entry:12]]``): the copy's texts, versions, links and faction members name the
    copy's rows, an entry's mention of a later entry included, and its secrets stay with the
    players they were told to."""
    import re

    from config.management.commands.seed_demo import DEMO_WORLD_EVENT
    from gmtools.models import WorldEvent
    from wiki.models import Entry, Link, Reveal, Revision, Section

    lake = Entry.objects.get(campaign=demo, title="Misty Lake")
    household = Entry.objects.get(campaign=demo, title="Scarlet household")
    assert lake.pk < household.pk
    lake.members.set([household])  # a link to a later row of its own kind
    data = export_campaign(demo.pk)
    n = counts(manifest_of(data))
    assert (n["wiki.Entry"], n["wiki.Section"], n["wiki.Reveal"]) == (7, 3, 1)
    assert n["wiki.Kind"] >= 6 and n["wiki.Revision"] >= 7 and n["wiki.Link"] >= 6
    copy = import_campaign(data)
    assert normalise(manifest_of(export_campaign(copy.pk))) == normalise(manifest_of(data))

    entries = {e.title: e for e in Entry.objects.filter(campaign=copy)}
    ids = {e.pk for e in entries.values()}
    mentioned = re.compile(r"@\[\[entry:(\d+)\]\]")
    copied = entries["Misty Lake"]
    assert f"@[[entry:{entries['Scarlet Devil Mansion'].pk}]]" in copied.body
    assert list(copied.members.all()) == [entries["Scarlet household"]]
    assert set(entries["Scarlet household"].members.all()) == {
        entries["Sakuya Izayoi"],
        entries["Patchouli Knowledge"],
    }
    assert entries["Voile, the great library"].parent == entries["Scarlet Devil Mansion"]
    # Sakuya's stat block (wiki/stat_blocks.py) comes along, ready for the copy's battles
    assert (
        entries["Sakuya Izayoi"].stat_block
        == Entry.objects.get(campaign=demo, title="Sakuya Izayoi").stat_block
    )
    assert entries["Sakuya Izayoi"].stat_block["hp"] == 100
    # the calendar's event still names the copy's Misty Lake (a reference, not a number)
    event = WorldEvent.objects.get(campaign=copy, title=DEMO_WORLD_EVENT[0])
    assert event.wiki_entry == entries["Misty Lake"]
    texts = [e.body for e in entries.values()]
    texts += list(Section.objects.filter(entry__campaign=copy).values_list("body", flat=True))
    texts += [json.dumps(r.snapshot) for r in Revision.objects.filter(entry__campaign=copy)]
    assert {int(i) for text in texts for i in mentioned.findall(text)} <= ids
    assert {r.snapshot["parent"] for r in Revision.objects.filter(entry__campaign=copy)} <= ids | {
        None
    }
    links = Link.objects.filter(source__campaign=copy).exclude(target_entry=None)
    assert links and set(links.values_list("target_entry_id", flat=True)) <= ids
    # the secrets stay with whom they were told to
    reimu = ["reimu"]
    assert list(entries["Patchouli Knowledge"].viewers.values_list("username", flat=True)) == reimu
    clue = Section.objects.get(entry__campaign=copy, heading="What Reimu noticed")
    assert list(clue.viewers.values_list("username", flat=True)) == reimu
    told = Reveal.objects.get(entry__campaign=copy)
    assert (told.section, list(told.players.values_list("username", flat=True))) == (clue, reimu)
    assert not Section.objects.get(entry__campaign=copy, heading="The truth").viewers.exists()
