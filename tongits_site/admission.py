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

Overload degrades in an order (issue 52). The requests that wait are let in by class, not
as they came: a table's page (and a move posted from it without scripts) first, then a
Join (posted: a tournament's, a table's, Play again), then every other page, then the
pages' polls; in arrival order within a class. A crowd's table pages wait for nothing but
the table pages ahead of them, and a busy worker's backlog is made of polls and other
pages. A poll already in line is shed (answered busy) as soon as more than
``TONGITS_POLL_SHED_QUEUE`` requests stand ahead of it, as one arriving then would be. The
sockets' work (moves, first boards) never waits here: it runs on the event loop and the
sockets' own threads (games/play/live/db.py), and the database pool holds a connection
for each of those threads beside the bound's (settings.py). The class is found (one
resolve of the path) only for a request that has to wait.

A page that is neither a table's nor a Join (a GET) and has waited
``TONGITS_PAGE_WAIT_SECONDS`` is answered busy too, with ``Refresh`` as well: the browser
loads it again after ``TONGITS_POLL_BUSY_SECONDS``, and meanwhile shows why, where a proxy
in front would have answered a page that waited past its timeout with an error (nginx's
``proxy_read_timeout``, 60 s by default: a 504). A table's page and a Join wait on.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections import deque
from concurrent.futures import ThreadPoolExecutor

import django
from asgiref.sync import ThreadSensitiveContext
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler
from django.db import connections
from django.http import HttpResponse
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.translation import gettext


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

# The classes of waiting requests, the first let in first.
TABLE, JOIN, PAGE, POLL = range(4)
CLASSES = ("table page", "join", "page", "poll")
# By the name of the address (games/urls.py, games/tournaments/urls.py): a table's page
# (a game's, an arena's waiting table) and a move posted from it without scripts, any
# method; the joins, posted.
TABLE_PAGES = frozenset({"table", "tournament_table", "act"})
JOINS = frozenset({"tournament_join", "join_table", "play_again"})


def rank(request) -> int:
    """The class of a request (``TABLE`` first ... ``POLL`` last)."""
    if request.META.get(POLL_META):
        return POLL
    try:
        name = resolve(request.path_info).url_name
    except Resolver404:
        return PAGE
    if name in TABLE_PAGES:
        return TABLE
    if name in JOINS and request.method == "POST":
        return JOIN
    return PAGE


class Line:
    """The bound's places, and the requests waiting for one: a line for each class. A
    place given back goes straight to the first request of the first class that waits."""

    def __init__(self, limit: int) -> None:
        self.free = limit
        self.lines: tuple[deque[asyncio.Future], ...] = tuple(deque() for _ in CLASSES)
        self.waiting = 0

    def locked(self) -> bool:
        return self.free <= 0

    async def enter(self, rank: int, shed_polls_at: int = 0, give_up_after: float = 0) -> bool:
        """Wait for a place; False: shed while it waited (a poll with too many ahead, or
        one that waited ``give_up_after`` seconds): answer it busy."""
        if self.free > 0:  # a free place means that nobody waits (see leave)
            self.free -= 1
            return True
        loop = asyncio.get_running_loop()
        ticket = loop.create_future()
        self.lines[rank].append(ticket)
        self.waiting += 1
        if shed_polls_at and rank != POLL:
            self._shed(shed_polls_at)
        timer = None
        if give_up_after:
            timer = loop.call_later(give_up_after, self._give_up, rank, ticket)
        try:
            return await ticket  # a client that leaves while waiting here is dropped
        except asyncio.CancelledError:
            if ticket.done() and not ticket.cancelled() and ticket.result():
                self.leave()  # given a place as its client left: the next one takes it
            elif ticket in self.lines[rank]:
                self.lines[rank].remove(ticket)
                self.waiting -= 1
            raise
        finally:
            if timer is not None:
                timer.cancel()

    def _give_up(self, rank: int, ticket: asyncio.Future) -> None:
        if not ticket.done() and ticket in self.lines[rank]:
            self.lines[rank].remove(ticket)
            self.waiting -= 1
            ticket.set_result(False)

    def leave(self) -> None:
        """Give a place back: to the first waiting request of the first class, if any."""
        for line in self.lines:
            while line:
                ticket = line.popleft()
                self.waiting -= 1
                if not ticket.done():
                    ticket.set_result(True)
                    return
        self.free += 1

    def _shed(self, shed_polls_at: int) -> None:
        """The polls at the end of the line that now stand behind more than
        ``shed_polls_at`` others are answered busy."""
        polls = self.lines[POLL]
        while polls and self.waiting - 1 > shed_polls_at:
            ticket = polls.pop()
            self.waiting -= 1
            if not ticket.done():
                ticket.set_result(False)


class AdmittingASGIHandler(ASGIHandler):
    def __init__(
        self, limit: int, shed_polls_at: int = 0, busy_seconds: int = 10, page_wait: float = 0
    ) -> None:
        super().__init__()
        self.limit = limit
        # An other page (GET) that has waited this long is answered busy (0: it waits on).
        self.page_wait = page_wait
        # A poll that would wait behind this many requests is answered "busy" at once.
        self.shed_polls_at = shed_polls_at
        self.busy_seconds = busy_seconds
        # Made on the event loop that serves: a server has one, tests start several in turn.
        self._loop: asyncio.AbstractEventLoop | None = None
        self._places: Line | None = None

    @property
    def waiting(self) -> int:
        """Requests waiting for a place."""
        return self._places.waiting if self._places is not None else 0

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
                done.add_done_callback(lambda _: loop.call_soon_threadsafe(places.leave))
            thread.shutdown(wait=False)

    async def run_get_response(self, request):
        if self.limit <= 0:
            return await super().run_get_response(request)
        loop = asyncio.get_running_loop()
        if loop is not self._loop or self._places is None:
            self._loop, self._places = loop, Line(self.limit)
        places = self._places
        this = _this_request.get(None) or _Request()
        if places.locked():
            if self._sheds(request):
                return self._busy(request)
            # A client that leaves while waiting here is dropped.
            kind = rank(request)
            patience = self.page_wait if kind == PAGE and request.method == "GET" else 0
            if not await places.enter(kind, self.shed_polls_at, patience):
                return self._busy(request)
        else:
            await places.enter(PAGE)
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
            places.leave()
            raise
        this.admitted = False
        places.leave()  # the response is sent outside the bound
        return response

    def _sheds(self, request) -> bool:
        """A poll (a page's refresh of its own, which says so in ``POLL_HEADER``) is the
        first thing a busy worker does without: it is answered busy rather than queued."""
        return bool(
            self.shed_polls_at
            and self.waiting >= self.shed_polls_at
            and request.META.get(POLL_META)
        )

    def _busy(self, request) -> HttpResponse:
        """Busy, come back in ``busy_seconds`` (the page waits that long and a little more,
        static/js/tournament.js, and says why), in words too, in the person's language
        (as the locale middleware would choose it), for whoever reads the answer itself."""
        with translation.override(translation.get_language_from_request(request)):
            words = gettext("The site is busy. Please try again in %(seconds)s seconds.") % {
                "seconds": self.busy_seconds
            }
        response = HttpResponse(words, status=503, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = str(self.busy_seconds)
        if not request.META.get(POLL_META) and not request.headers.get("HX-Request"):
            response["Refresh"] = str(self.busy_seconds)  # a browser loads the page again
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
        page_wait=settings.TONGITS_PAGE_WAIT_SECONDS,
    )
