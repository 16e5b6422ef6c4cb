"""The site a background-worker bench runs against, shared by ``bench.correspondence`` and
``bench.notifications``: a PostgreSQL database of the run's own (dropped at the end), Django
configured for it with pushes allowed to a stand-in push service on 127.0.0.1 and mail kept
in Django's locmem outbox, the migrations, a VAPID key pair of the run's own, and the
quantiles both print.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.live_server import BenchDatabase, close_django, configure_django, server_url_from


def add_postgres(parser: argparse.ArgumentParser) -> None:
    """``--postgres``: the server the run's database is made on (from ``DATABASE_URL``)."""
    parser.add_argument("--postgres", default=server_url_from(os.environ.get("DATABASE_URL")))


def environment(db_url: str, **more: str) -> dict[str, str]:
    """The settings of a worker bench: the stand-in push service's host allowed, mail in
    the locmem outbox, warnings only; ``more`` adds or overrides."""
    return {
        "DJANGO_SETTINGS_MODULE": "tongits_site.settings",
        "DATABASE_URL": db_url,
        "TONGITS_PUSH_SERVICES": "127.0.0.1",
        "DJANGO_EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
        "DJANGO_LOG_LEVEL": "WARNING",
        **more,
    }


def site_keys() -> None:
    """A VAPID key pair of the run's own, as ``manage.py vapid_keys`` makes one."""
    from django.conf import settings

    from games.notifications.push import new_vapid_keys

    settings.TONGITS_VAPID_PUBLIC_KEY, settings.TONGITS_VAPID_PRIVATE_KEY = new_vapid_keys()


def on_own_database(postgres: str, work: Callable[[], Any], **more: str) -> Any:
    """``work()``'s result, run on a database made for it (migrated, with the run's VAPID
    keys), which is dropped after, whatever happens."""
    with tempfile.TemporaryDirectory() as scratch:
        db = BenchDatabase(postgres, Path(scratch))
        try:
            configure_django(environment(db.create(), **more))
            from django.core.management import call_command

            call_command("migrate", verbosity=0)
            site_keys()
            return work()
        finally:
            close_django()
            db.drop()


def quantile_ms(seconds_or_ms: list[float], q: int, *, scale: float = 1.0) -> float:
    """The ``q``-th percentile of the values times ``scale``, to the thousandth."""
    return round(statistics.quantiles(seconds_or_ms, n=100)[q - 1] * scale, 3)
