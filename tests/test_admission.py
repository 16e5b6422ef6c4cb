"""A worker lets a bounded number of requests into Django at once (tongits_site/admission.py):
a crowd loading its pages in the same second waits its turn on the event loop instead of
crowding the moves' event loop and the database pool with a thread each."""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.testing import ApplicationCommunicator
from django.db import connections
from django.http import HttpResponse
from django.urls import path

from tongits_site.admission import AdmittingASGIHandler


def _get(path: str) -> dict:
    return {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "root_path": "", "headers": [(b"host", b"testserver")], "server": ("testserver", 80),
        "client": ("127.0.0.1", 5000),
    }  # fmt: skip


class Counting(AdmittingASGIHandler):
    """Counts the requests inside Django, and holds each until the test lets it go."""

    def __init__(self, limit: int) -> None:
        super().__init__(limit)
        self.inside = self.most = self.served = 0
        self.go = asyncio.Event()

    async def get_response_async(self, request):
        self.inside += 1
        self.most = max(self.most, self.inside)
        try:
            await self.go.wait()
            return await super().get_response_async(request)
        finally:
            self.inside -= 1
            self.served += 1


async def _requests(handler: Counting, n: int) -> list[ApplicationCommunicator]:
    sent = []
    for _ in range(n):
        c = ApplicationCommunicator(handler, _get("/manifest.webmanifest"))
        await c.send_input({"type": "http.request", "body": b""})
        sent.append(c)
    return sent


async def _statuses(sent: list[ApplicationCommunicator]) -> list[int]:
    out = []
    for c in sent:
        start = await c.receive_output(timeout=5)
        out.append(start["status"])
        while (await c.receive_output(timeout=5)).get("more_body"):
            pass
    return out


async def test_requests_beyond_the_bound_wait_their_turn_and_are_all_served():
    handler = Counting(2)
    sent = await _requests(handler, 6)
    for _ in range(50):  # every request has been read and has come as far as it may
        await asyncio.sleep(0.01)
    assert handler.inside == 2

    handler.go.set()

    assert await _statuses(sent) == [200] * 6
    assert handler.most == 2 and handler.served == 6


async def test_no_bound_lets_every_request_in():
    handler = Counting(0)
    sent = await _requests(handler, 5)
    for _ in range(50):
        await asyncio.sleep(0.01)
    assert handler.inside == 5

    handler.go.set()

    assert await _statuses(sent) == [200] * 5


# A view that holds its thread until the test lets it go: a page that takes long, whose
# client gives up waiting and closes the connection.
entered = threading.Event()
release = threading.Event()


held = []


def _slow_view(request):
    held.append(connections["default"])
    with held[-1].cursor() as cursor:
        cursor.execute("SELECT 1")
    entered.set()
    release.wait(5)
    return HttpResponse("slow")


def _quick_view(request):
    return HttpResponse("quick")


urlpatterns = [path("slow/", _slow_view), path("quick/", _quick_view)]


class Entering(AdmittingASGIHandler):
    """Counts the requests that reach the view's middleware chain."""

    def __init__(self, limit: int) -> None:
        super().__init__(limit)
        self.paths: list[str] = []

    async def get_response_async(self, request):
        self.paths.append(request.path)
        return await super().get_response_async(request)


async def _wait_for(flag: threading.Event) -> None:
    for _ in range(300):
        if flag.is_set():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the view never started")


@pytest.mark.django_db
async def test_a_request_whose_client_left_keeps_its_place_until_its_thread_ends(settings):
    """Django cancels a request whose client disconnects, but its view's thread cannot be
    stopped: it runs on, holding a database connection. The place it held in the bound
    is given back only when that thread ends, so abandoned requests cannot pile threads
    and connections beyond TONGITS_HTTP_CONCURRENCY; its connection goes back to the pool
    as the thread ends."""
    settings.ROOT_URLCONF = __name__
    entered.clear()
    release.clear()
    handler = Entering(1)
    left = ApplicationCommunicator(handler, _get("/slow/"))
    await left.send_input({"type": "http.request", "body": b""})
    await _wait_for(entered)
    await left.send_input({"type": "http.disconnect"})  # the client gives up
    for _ in range(20):
        await asyncio.sleep(0.01)
    # Daphne cancels an application still running application_close_timeout seconds
    # (10) after its client left ("took too long to shut down and was killed").
    left.future.cancel()
    for _ in range(20):
        await asyncio.sleep(0.01)

    waiting = ApplicationCommunicator(handler, _get("/quick/"))
    await waiting.send_input({"type": "http.request", "body": b""})
    for _ in range(30):  # the slow view's thread still runs: the next request waits
        await asyncio.sleep(0.01)
    assert handler.paths == ["/slow/"]
    assert await waiting.receive_nothing(timeout=0.1)
    assert held[-1].connection is not None

    release.set()  # the slow view's thread ends: its place goes to the next request
    start = await waiting.receive_output(timeout=5)
    assert start["status"] == 200
    body = await waiting.receive_output(timeout=5)
    assert body["body"] == b"quick"
    assert handler.paths == ["/slow/", "/quick/"]
    assert held[-1].connection is None  # closed in the slow view's thread, after it
    # Nothing is sent to the client that left.
    assert left.output_queue.empty()
    await waiting.wait(timeout=5)


@pytest.mark.django_db
async def test_a_request_whose_client_left_while_it_waited_never_runs(settings):
    """A request still waiting for its turn when its client leaves is dropped there: no
    thread, no connection, no work for nobody."""
    settings.ROOT_URLCONF = __name__
    entered.clear()
    release.clear()
    handler = Entering(1)
    busy = ApplicationCommunicator(handler, _get("/slow/"))
    await busy.send_input({"type": "http.request", "body": b""})
    await _wait_for(entered)
    gone = ApplicationCommunicator(handler, _get("/quick/"))
    await gone.send_input({"type": "http.request", "body": b""})
    for _ in range(10):
        await asyncio.sleep(0.01)
    await gone.send_input({"type": "http.disconnect"})
    await gone.wait(timeout=5)

    release.set()
    assert await _statuses([busy]) == [200]
    await busy.wait(timeout=5)
    assert handler.paths == ["/slow/"]


def _poll(path: str) -> dict:
    scope = _get(path)
    scope["headers"] = [*scope["headers"], (b"x-tongits-poll", b"1")]
    return scope


async def test_a_busy_worker_answers_a_poll_busy_at_once_and_keeps_the_others_in_line():
    """Overload sheds the pages' polls first: a poll that would wait behind as many
    requests as TONGITS_POLL_SHED_QUEUE says is answered 503 with Retry-After without
    entering Django; a page or a form waits its turn as before."""
    handler = Counting(1)
    handler.shed_polls_at, handler.busy_seconds = 1, 7
    first = await _requests(handler, 1)  # holds the one place
    poll_early = ApplicationCommunicator(handler, _poll("/manifest.webmanifest"))
    await poll_early.send_input({"type": "http.request", "body": b""})
    for _ in range(20):
        await asyncio.sleep(0.01)
    assert handler.inside == 1 and handler.waiting == 1  # nobody waited yet: it waits
    waiting = await _requests(handler, 1)
    poll = ApplicationCommunicator(handler, _poll("/manifest.webmanifest"))
    await poll.send_input({"type": "http.request", "body": b""})
    start = await poll.receive_output(timeout=5)
    assert start["status"] == 503
    assert (b"Retry-After", b"7") in start["headers"]
    assert handler.served == 0  # answered without entering Django

    handler.go.set()
    assert await _statuses([*first, poll_early, *waiting]) == [200, 200, 200]
