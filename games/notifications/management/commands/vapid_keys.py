"""``manage.py vapid_keys``: a new VAPID key pair for a site's Web Push, printed as the
environment lines to set (docs/notifications.md). Make one pair per site and keep it: the
browsers' subscriptions are tied to the public key, so a new pair means every device must
allow notifications again."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from games.notifications.push import new_vapid_keys


class Command(BaseCommand):
    help = "Print a new VAPID key pair for Web Push, as environment variables."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--subject",
            default="mailto:admin@example.com",
            help="who the push services may contact about this site (mailto: or https:)",
        )

    def handle(self, *args, subject: str, **options) -> None:
        public, private = new_vapid_keys()
        self.stdout.write(f"TONGITS_VAPID_PUBLIC_KEY={public}")
        self.stdout.write(f"TONGITS_VAPID_PRIVATE_KEY={private}")
        self.stdout.write(f"TONGITS_VAPID_SUBJECT={subject}")
