"""Django's ASGI handler, with a bound on the requests of this process inside Django at once.

Django gives every HTTP request a thread of its own. When a crowd loads its pages in the
same seconds (an arena's start: 999 table pages within a few seconds), hundreds of such
threads competed for the interpreter's lock with the event loop, which carries every
socket's moves, and for the few connections of the database pool the pages share with the
sockets' threads: moves made at the tables already playing waited hundreds of
milliseconds, and some pages waited past the pool's timeout (a 500). Here at most
``TONGITS_HTTP_CONCURRENCY`` requests are inside Django at a time; the others wait their
turn on the event loop, in order, at no cost, with their bodies already read. The response
is sent outside the bound, so a slow phone does not hold a place.
"""

from __future__ import annotations

import asyncio

import django
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler


class AdmittingASGIHandler(ASGIHandler):
    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit
        # Made on the event loop that serves: a server has one, tests start several in turn.
        self._loop: asyncio.AbstractEventLoop | None = None
        self._places: asyncio.Semaphore | None = None

    async def run_get_response(self, request):
        if self.limit <= 0:
            return await super().run_get_response(request)
        loop = asyncio.get_running_loop()
        if loop is not self._loop or self._places is None:
            self._loop, self._places = loop, asyncio.Semaphore(self.limit)
        async with self._places:
            return await super().run_get_response(request)


def get_asgi_application() -> AdmittingASGIHandler:
    """As ``django.core.asgi.get_asgi_application``, with the bound from the settings."""
    django.setup(set_prefix=False)
    return AdmittingASGIHandler(settings.TONGITS_HTTP_CONCURRENCY)
