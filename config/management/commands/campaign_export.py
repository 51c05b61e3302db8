"""``manage.py campaign_export <campaign id> [--output file.zip]``: one campaign as one archive.

See ``config/backup.py`` for what the archive holds and ``docs/campaigns.md`` ("Backup and
restore") for how to use it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from config.backup import BackupError, export_campaign


class Command(BaseCommand):
    help = "Write one campaign, with everything in it, to a single zip archive."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("campaign_id", type=int, help="The campaign's number.")
        parser.add_argument(
            "--output", "-o", help="The archive to write (default: campaign-<id>.zip)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        campaign_id = int(options["campaign_id"])
        output = Path(options.get("output") or f"campaign-{campaign_id}.zip")
        try:
            data = export_campaign(campaign_id)
        except BackupError as exc:
            raise CommandError(str(exc)) from None
        output.write_bytes(data)
        self.stdout.write(f"Campaign {campaign_id} written to {output} ({len(data)} bytes).")
