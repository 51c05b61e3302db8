"""Upgrading keeps every row: a database filled by ``seed_demo`` at the previous release,
migrated to this layout, still holds every row of every table, and each moved model (battles
and notifications left ``campaign`` for their own apps) reads them through the ORM.

The previous release is the commit before the apps were split (``PREVIOUS_RELEASE``); its tree
comes out of git into a temporary folder, and both versions run as separate ``manage.py``
processes against one scratch PostgreSQL database on the test server.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent
#: The last commit with battles and notifications inside ``campaign`` (issue 11's base).
PREVIOUS_RELEASE = "2c1e03c0c53d0529f617804efa2f4b0c31ef55d5"
#: The models that moved, by their new label, and the table they keep.
MOVED = {
    "battles.Battle": "campaign_battle",
    "battles.Combatant": "campaign_combatant",
    "battles.BattleAction": "campaign_battleaction",
    "notifications.Notification": "campaign_notification",
    "notifications.Delivery": "campaign_delivery",
    "notifications.Digest": "campaign_digest",
    "notifications.NotificationPreference": "campaign_notificationpreference",
    "notifications.CampaignNotificationSettings": "campaign_campaignnotificationsettings",
    "notifications.TurnWait": "campaign_turnwait",
    "notifications.ScheduledNotification": "campaign_schedulednotification",
}

#: Tables of the project's own apps (their rows must be exactly the same).
PROJECT_TABLES = ("accounts_", "campaign_", "characters_", "spellcards_", "minigames_")

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("upgrade")]

#: Play the demo battle a little with the previous release's own services (so the log has rows).
OLD_PLAY = """
import django
django.setup()
from accounts.models import User
from campaign.battles import services
from campaign.battles.models import Battle
gm = User.objects.get(username="gm")
battle = Battle.objects.order_by("pk").first()
done = services.battle_action_apply(
    battle_id=battle.pk, actor=gm, action={"type": "start"}, expected_version=battle.version
)
services.battle_action_apply(
    battle_id=battle.pk, actor=gm, action={"type": "end_turn", "combatant": done.state.current},
    expected_version=done.state.version,
)
"""

ORM_ROWS = """
import json, sys
import django
django.setup()
from django.apps import apps
out = {}
for model in apps.get_models():
    out[model._meta.label] = {
        "table": model._meta.db_table,
        "pks": sorted(str(pk) for pk in model._default_manager.values_list("pk", flat=True)),
    }
from django.contrib.contenttypes.models import ContentType
out["_content_types"] = sorted(f"{c.app_label}.{c.model}" for c in ContentType.objects.all())
json.dump(out, sys.stdout)
"""


def _url_for(name: str) -> str:
    parts = urlsplit(os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test"))
    return urlunsplit(parts._replace(path=f"/{name}"))


@pytest.fixture
def scratch_database():
    """An empty database of its own (dropped afterwards)."""
    name = f"wr_upgrade_{os.getpid()}"
    admin = _url_for("postgres")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield _url_for(name)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _previous_release(into: Path) -> Path:
    archive = subprocess.run(  # noqa: S603 - fixed arguments
        ["git", "-C", str(ROOT), "archive", "--format=tar", PREVIOUS_RELEASE],  # noqa: S607
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def _manage(cwd: Path, database_url: str, *args: str, stdin: str | None = None) -> str:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": database_url,
        "REDIS_URL": settings.CELERY_BROKER_URL,
        "CELERY_EAGER": "1",
        "PYTHONPATH": str(cwd),
    }
    command = [sys.executable, *args] if args[0] == "-c" else [sys.executable, "manage.py", *args]
    done = subprocess.run(  # noqa: S603
        command, cwd=cwd, env=env, capture_output=True, text=True, input=stdin, timeout=300
    )
    assert done.returncode == 0, f"{args}: {done.stdout}\n{done.stderr}"
    return done.stdout


def _table_rows(database_url: str) -> dict[str, int]:
    with psycopg.connect(database_url) as conn:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"
            )
        ]
        # Table names come from the catalogue itself, quoted.
        return {
            t: conn.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0]  # noqa: S608
            for t in tables
        }


def test_a_seeded_previous_release_upgrades_with_every_row(tmp_path, scratch_database):
    old = _previous_release(tmp_path / "previous")
    _manage(old, scratch_database, "migrate", "--noinput")
    _manage(old, scratch_database, "seed_demo")
    _manage(old, scratch_database, "-c", OLD_PLAY)
    before_tables = _table_rows(scratch_database)
    before = json.loads(_manage(old, scratch_database, "-c", ORM_ROWS))
    # The demo really filled the tables that move (else this test could not fail).
    for label, table in MOVED.items():
        old_label = "campaign." + label.split(".")[1]
        assert before[old_label]["table"] == table
    for table in ("campaign_battle", "campaign_battleaction", "campaign_combatant"):
        assert before_tables[table] > 0, table
    assert before_tables["campaign_notification"] > 0

    _manage(ROOT, scratch_database, "migrate", "--noinput")
    after_tables = _table_rows(scratch_database)
    after = json.loads(_manage(ROOT, scratch_database, "-c", ORM_ROWS))

    # Every table of the previous release is still there with every row (Django's own tables
    # may gain rows: migrations, and permissions and content types for the new apps).
    for table, rows in before_tables.items():
        if table.startswith(PROJECT_TABLES):
            assert after_tables.get(table) == rows, table
        else:
            assert after_tables.get(table, -1) >= rows, table
    # Every model of the previous release reads the same rows under its label now.
    for old_label, rows in before.items():
        if old_label.startswith("_"):
            continue
        app, name = old_label.split(".")
        new_label = next((k for k in MOVED if k.endswith(f".{name}")), old_label)
        if app != "campaign" or new_label == old_label:
            new_label = old_label
        assert after[new_label]["table"] == rows["table"], old_label
        assert set(rows["pks"]) <= set(after[new_label]["pks"]), old_label
        if rows["table"].startswith(PROJECT_TABLES):
            assert after[new_label]["pks"] == rows["pks"], old_label
    # Admin history and permissions follow the moved models.
    for label in MOVED:
        app, name = label.split(".")
        assert f"{app}.{name.lower()}" in after["_content_types"]
        assert f"campaign.{name.lower()}" not in after["_content_types"]
    # The battle log gained the seat each action was played for.
    with psycopg.connect(scratch_database) as conn:
        seats = conn.execute("SELECT DISTINCT seat FROM campaign_battleaction").fetchall()
    assert seats and all(s[0] for s in seats)
