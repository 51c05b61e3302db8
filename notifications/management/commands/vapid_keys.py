"""``manage.py vapid_keys``: make a VAPID key pair for Web Push (docs/deploy.md).

Prints the settings to put in the environment: the private key (keep it secret, like
``SECRET_KEY``) and, for reference, the public key browsers subscribe with (the site derives it
from the private key). Changing the key later unsubscribes every device: browsers only accept
pushes signed with the key they subscribed with.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from notifications import webpush


class Command(BaseCommand):
    help = "Make a VAPID key pair for Web Push and print the environment settings."

    def handle(self, *args: Any, **options: Any) -> None:
        private = webpush.generate_private_key()
        public = webpush.public_key_of(private)
        self.stdout.write(
            "# Web Push keys (docs/deploy.md). Keep VAPID_PRIVATE_KEY secret.\n"
            f"VAPID_PRIVATE_KEY={private}\n"
            "VAPID_SUBJECT=mailto:you@example.org\n"
            f"# The public key browsers subscribe with (derived from the private key): {public}\n"
        )
