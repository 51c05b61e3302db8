"""``manage.py campaign_import file.zip``: restore a campaign archive as a new campaign.

Everything or nothing: a damaged archive changes nothing and the command says what is wrong.
Users the server lacks are created inactive with unusable passwords (``config/backup.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from config.backup import MAX_ARCHIVE_BYTES, BackupError, import_campaign


class Command(BaseCommand):
    help = "Restore a campaign archive written by campaign_export, as a new campaign."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("archive", help="The .zip written by campaign_export.")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["archive"])
        try:
            if path.stat().st_size > MAX_ARCHIVE_BYTES:
                raise CommandError(f"{path} is too large to be a campaign backup.")
            data = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"Cannot read {path}: {exc.strerror or 'unreadable'}.") from None
        try:
            campaign = import_campaign(data)
        except BackupError as exc:
            raise CommandError(f"Nothing was restored. {exc}") from None
        self.stdout.write(f"Restored campaign {campaign.name!r} as number {campaign.pk}.")
