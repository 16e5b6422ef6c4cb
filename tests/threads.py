"""Run service calls at the same moment in threads, as several workers would."""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connection


def race(*calls: Callable[[], object], timeout: float = 60) -> list[object]:
    """Run the calls in threads released together; return each one's result or error
    (the loser's error is usually what a test is about)."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[object] = [None] * len(calls)

    def run(i: int, call: Callable[[], object]) -> None:
        try:
            barrier.wait()
            outcomes[i] = call()
        except Exception as e:
            outcomes[i] = e
        finally:
            connection.close()  # each thread has its own connection

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=timeout)
    return outcomes
