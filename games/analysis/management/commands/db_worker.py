"""``manage.py db_worker``: django-tasks-db's worker, which also requeues analyses whose
worker died.

The library's worker marks a task running when it takes it and never looks at it again,
so a worker stopped mid-task (a deploy, a crash) would leave that analysis running forever.
This one, before it starts and then every ``WATCH_SECONDS`` on a thread of its own, queues
again every analysis that stopped beating (``analysis.recover_stale``); the next worker
judges only the moves left. Everything else is the library's command, options included.
"""

from __future__ import annotations

import logging
import threading

from django.db import close_old_connections
from django_tasks_db.management.commands.db_worker import Command as LibraryCommand

from games.analysis.analysis import recover_stale

log = logging.getLogger(__name__)

WATCH_SECONDS = 30.0


class Command(LibraryCommand):
    help = "Run the background worker (analyses), requeueing work whose worker died."

    def handle(self, *args, **options) -> None:
        _recover()
        if not options.get("batch"):
            stop = threading.Event()
            threading.Thread(target=_watch, args=(stop,), name="requeue", daemon=True).start()
        super().handle(*args, **options)


def _recover() -> None:
    try:
        recovered = recover_stale()
    except Exception:
        log.exception("Could not look for analyses whose worker died.")
        return
    if recovered:
        log.warning("Queued %s analysis(es) again: their worker had stopped.", recovered)


def _watch(stop: threading.Event) -> None:
    while not stop.wait(WATCH_SECONDS):
        _recover()
        close_old_connections()  # this thread's own connection, back to the pool
