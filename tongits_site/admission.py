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

A request whose client leaves while it waits for its turn never enters Django. One whose
client leaves once inside cannot be stopped: its view's thread runs on, holding a database
connection, to its end. It keeps its place until then, and its connection is closed (given
back to the pool) in that thread after it. Before, Daphne's kill of a request its client
had left ``application_close_timeout`` seconds before ("took too long to shut down and was
killed") freed the place at once and cancelled the closing of the connection, so under a
crowd whose pages took longer than people waited, abandoned requests piled up threads
beyond the bound and kept connections out of the pool (issue 52's ``PoolTimeout``).

Overload sheds polls first: a request that says it is a page's poll (``POLL_HEADER``)
and would wait behind ``TONGITS_POLL_SHED_QUEUE`` others is answered at once, 503 with
``Retry-After: TONGITS_POLL_BUSY_SECONDS``, without entering Django; the page waits
that long before it asks again, and says the site is busy.
"""

from __future__ import annotations

import asyncio
import contextvars
from concurrent.futures import ThreadPoolExecutor

import django
from asgiref.sync import ThreadSensitiveContext
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler
from django.db import connections
from django.http import HttpResponse


class _Request:
    """What the bound knows of one request: whether it holds a place, and whether its
    client left while it did."""

    __slots__ = ("admitted", "left")

    def __init__(self) -> None:
        self.admitted = self.left = False


# The header a page's poll sends (htmx's hx-headers), as Django's META names it.
POLL_HEADER = "X-Tongits-Poll"
POLL_META = "HTTP_X_TONGITS_POLL"

_this_request: contextvars.ContextVar[_Request] = contextvars.ContextVar("admission")


class AdmittingASGIHandler(ASGIHandler):
    def __init__(self, limit: int, shed_polls_at: int = 0, busy_seconds: int = 10) -> None:
        super().__init__()
        self.limit = limit
        # A poll that would wait behind this many requests is answered "busy" at once.
        self.shed_polls_at = shed_polls_at
        self.busy_seconds = busy_seconds
        self.waiting = 0  # requests waiting for a place
        # Made on the event loop that serves: a server has one, tests start several in turn.
        self._loop: asyncio.AbstractEventLoop | None = None
        self._places: asyncio.Semaphore | None = None

    async def __call__(self, scope, receive, send):
        if self.limit <= 0 or scope["type"] != "http":
            return await super().__call__(scope, receive, send)
        # The request's thread is its own here (as in Django, one a request), so that the
        # bound can tell when it has really finished.
        thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="request")
        this = _Request()
        token = _this_request.set(this)
        try:
            async with ThreadSensitiveContext(executor=thread):
                await self.handle(scope, receive, send)
        finally:
            _this_request.reset(token)
            if this.admitted:
                # The client left: the view's thread may still be running. After it, in
                # the same thread, its database connections go back to the pool, and then
                # the place is given back.
                places, loop = self._places, asyncio.get_running_loop()
                done = thread.submit(connections.close_all)
                done.add_done_callback(lambda _: loop.call_soon_threadsafe(places.release))
            thread.shutdown(wait=False)

    async def run_get_response(self, request):
        if self.limit <= 0:
            return await super().run_get_response(request)
        loop = asyncio.get_running_loop()
        if loop is not self._loop or self._places is None:
            self._loop, self._places = loop, asyncio.Semaphore(self.limit)
        this = _this_request.get(None) or _Request()
        if self._places.locked() and self._sheds(request):
            return self._busy()
        self.waiting += 1
        try:
            await self._places.acquire()  # a client that leaves while waiting here is dropped
        finally:
            self.waiting -= 1
        this.admitted = True
        try:
            response = await super().run_get_response(request)
        except asyncio.CancelledError:
            # Django cancels a request whose client left, and Daphne kills one still
            # running application_close_timeout seconds later. Neither stops the view's
            # thread: the place is kept until it ends (__call__).
            raise
        except BaseException:
            this.admitted = False
            self._places.release()
            raise
        this.admitted = False
        self._places.release()  # the response is sent outside the bound
        return response

    def _sheds(self, request) -> bool:
        """A poll (a page's refresh of its own, which says so in ``POLL_HEADER``) is the
        first thing a busy worker does without: it is answered busy rather than queued."""
        return bool(
            self.shed_polls_at
            and self.waiting >= self.shed_polls_at
            and request.META.get(POLL_META)
        )

    def _busy(self) -> HttpResponse:
        """Busy, come back in ``busy_seconds`` (the page waits that long and a little more,
        static/js/tournament.js, and says why)."""
        response = HttpResponse(b"busy", status=503, content_type="text/plain")
        response["Retry-After"] = str(self.busy_seconds)
        response["Cache-Control"] = "no-store"
        response._handler_class = self.__class__
        return response


def get_asgi_application() -> AdmittingASGIHandler:
    """As ``django.core.asgi.get_asgi_application``, with the bound from the settings."""
    django.setup(set_prefix=False)
    return AdmittingASGIHandler(
        settings.TONGITS_HTTP_CONCURRENCY,
        shed_polls_at=settings.TONGITS_POLL_SHED_QUEUE,
        busy_seconds=settings.TONGITS_POLL_BUSY_SECONDS,
    )
