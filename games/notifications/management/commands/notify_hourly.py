"""``manage.py notify_hourly``: run it every hour (cron). Tells each person whose local
morning has come of the games waiting for them (the daily digest, once a day), and queues
again the notices whose task a dead worker took with it."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from games.notifications import digest


class Command(BaseCommand):
    help = "Send the daily digests that are due and requeue notices a dead worker left."

    def handle(self, *args, **options) -> None:
        told = digest.send_digests()
        lost = digest.requeue_lost()
        self.stdout.write(f"{told} digest(s) queued; {lost} lost notice(s) queued again.")
