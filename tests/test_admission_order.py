"""A worker offered more than it can serve lets its waiting requests in by class
(tongits_site/admission.py, issue 52): a table's page, then a Join, then any other page,
then the pages' polls, which are shed first and told to come back; and the sockets' moves
and first boards do not wait behind the pages at all."""

from __future__ import annotations

import asyncio
import threading
from datetime import timedelta

import pytest
from asgiref.testing import ApplicationCommunicator
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.db import connections
from django.http import HttpResponse
from django.test import Client
from django.urls import include, path
from django.utils import timezone

from games.tournaments import services
from tests.table.support import SEED, fields, first_legal, frame, seq_of, session_headers, socket
from tongits_site import admission
from tongits_site.admission import AdmittingASGIHandler, Line

# A view that holds its place in the bound until the test lets it go: the worker is busy.
held = threading.Event()
let_go = threading.Event()


def _hold(request):
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT 1")
    held.set()
    let_go.wait(10)
    return HttpResponse("held")


urlpatterns = [path("hold/", _hold), path("", include("tongits_site.urls"))]

SECRET = "a" * 16 + "b" * 16  # a CSRF cookie's secret, which a form may send as it is


def _scope(method: str, where: str, cookie: str = "", extra=()) -> dict:
    where, _, query = where.partition("?")
    headers = [(b"host", b"testserver"), (b"accept-language", b"fil")]
    if cookie:
        headers.append((b"cookie", f"{cookie}; csrftoken={SECRET}".encode()))
    if method == "POST":
        headers += [(b"origin", b"http://testserver"),
                    (b"content-type", b"application/x-www-form-urlencoded")]  # fmt: skip
    return {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
        "scheme": "http", "path": where, "raw_path": where.encode(),
        "query_string": query.encode(), "root_path": "", "headers": [*headers, *extra],
        "server": ("testserver", 80), "client": ("127.0.0.1", 5000),
    }  # fmt: skip


POLL = [(b"x-tongits-poll", b"1"), (b"hx-request", b"true")]


class Watched(AdmittingASGIHandler):
    """The site's handler, noting the order in which requests get into Django."""

    def __init__(self, limit: int, shed_polls_at: int = 16, page_wait: float = 0) -> None:
        super().__init__(limit, shed_polls_at=shed_polls_at, busy_seconds=10, page_wait=page_wait)
        self.order: list[str] = []

    async def get_response_async(self, request):
        self.order.append(request.path)
        return await super().get_response_async(request)


async def _send(handler, scope: dict, body: bytes = b"") -> ApplicationCommunicator:
    c = ApplicationCommunicator(handler, scope)
    await c.send_input({"type": "http.request", "body": body})
    for _ in range(5):  # read, and as far as it may come
        await asyncio.sleep(0.01)
    return c


async def _answer(c: ApplicationCommunicator) -> tuple[int, dict, bytes]:
    start = await c.receive_output(timeout=10)
    body = b""
    while True:
        part = await c.receive_output(timeout=10)
        body += part.get("body", b"")
        if not part.get("more_body"):
            break
    return start["status"], dict(start["headers"]), body


async def _until(flag: threading.Event) -> None:
    for _ in range(500):
        if flag.is_set():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the holding view never started")


def _cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


@pytest.fixture
def three_people(alice, bob, carol, make_game):
    return make_game([alice, bob, carol], seed=SEED)


@pytest.fixture
def arena(db):
    staff = get_user_model().objects.create_user("staff", password="pw", is_staff=True)
    start = timezone.now() + timedelta(minutes=30)
    return services.create(staff, name="Busy arena", starts_at=start, public=True)


@pytest.mark.django_db(transaction=True)
async def test_waiting_requests_are_let_in_table_page_join_page_poll(
    settings, three_people, alice, bob, carol, arena
):
    """The bound full, requests of every class come in the reverse of their order: the
    table's page goes in first, then the Join, then the other page, then the poll, and
    each gets its real answer."""
    settings.ROOT_URLCONF = __name__
    held.clear()
    let_go.clear()
    alice_c, bob_c, carol_c = [
        await database_sync_to_async(_cookie)(u) for u in (alice, bob, carol)
    ]  # fmt: skip
    handler = Watched(1)
    holder = await _send(handler, _scope("GET", "/hold/"))
    await _until(held)

    t = arena.pk
    poll = await _send(handler, _scope("GET", f"/tournaments/{t}/live/", carol_c, POLL))
    page = await _send(handler, _scope("GET", f"/tournaments/{t}/", carol_c))
    join = await _send(
        handler, _scope("POST", f"/tournaments/{t}/join/", bob_c),
        f"csrfmiddlewaretoken={SECRET}&invite=".encode(),
    )  # fmt: skip
    table = await _send(handler, _scope("GET", f"/games/{three_people.pk}/", alice_c))
    assert handler.order == ["/hold/"] and handler.waiting == 4

    let_go.set()
    answers = [await _answer(c) for c in (holder, table, join, page, poll)]
    assert handler.order == [
        "/hold/", f"/games/{three_people.pk}/", f"/tournaments/{t}/join/",
        f"/tournaments/{t}/", f"/tournaments/{t}/live/",
    ]  # fmt: skip
    assert [status for status, _h, _b in answers] == [200, 200, 302, 200, 200]
    assert b'id="table"' in answers[1][2] or b"data-seq" in answers[1][2]
    await database_sync_to_async(arena.entries.get)(user=bob)  # the Join was made


@pytest.mark.django_db(transaction=True)
async def test_a_waiting_poll_is_shed_once_too_many_stand_ahead_and_the_answer_says_so(settings):
    """A poll in line is answered busy (503, Retry-After, words in the person's language)
    as soon as more than TONGITS_POLL_SHED_QUEUE requests stand ahead of it; the earlier
    poll, with fewer ahead, waits and is served after the pages."""
    settings.ROOT_URLCONF = __name__
    held.clear()
    let_go.clear()
    handler = Watched(1, shed_polls_at=2)
    holder = await _send(handler, _scope("GET", "/hold/"))
    await _until(held)
    first_poll = await _send(handler, _scope("GET", "/manifest.webmanifest", extra=POLL))
    late_poll = await _send(handler, _scope("GET", "/sw.js", extra=POLL))
    pages = [await _send(handler, _scope("GET", "/offline/")) for _ in range(2)]

    status, headers, body = await _answer(late_poll)  # three ahead of it now
    assert status == 503
    assert headers[b"Retry-After"] == b"10"
    assert "10" in body.decode() and body.decode() != "busy"
    arriving = await _send(handler, _scope("GET", "/sw.js", extra=POLL))
    again = await _answer(arriving)  # three wait: shed at once, as before
    assert again[0] == 503 and again[2] == body
    assert await first_poll.receive_nothing(timeout=0.1)

    let_go.set()
    for c in (holder, *pages, first_poll):
        assert (await _answer(c))[0] == 200
    assert handler.order == ["/hold/", "/offline/", "/offline/", "/manifest.webmanifest"]


@pytest.mark.django_db(transaction=True)
async def test_a_page_that_waited_too_long_is_told_the_site_is_busy_and_loads_again(settings):
    """An other page that has waited TONGITS_PAGE_WAIT_SECONDS is answered busy, with
    Refresh (the browser loads it again) rather than left to a proxy's timeout; a table's
    page that waited as long waits on."""
    settings.ROOT_URLCONF = __name__
    held.clear()
    let_go.clear()
    handler = Watched(1, page_wait=0.3)
    holder = await _send(handler, _scope("GET", "/hold/"))
    await _until(held)
    table = await _send(handler, _scope("GET", "/games/999999/"))
    page = await _send(handler, _scope("GET", "/offline/"))

    status, headers, body = await _answer(page)
    assert status == 503
    assert headers[b"Retry-After"] == b"10" and headers[b"Refresh"] == b"10"
    assert "10" in body.decode()
    assert await table.receive_nothing(timeout=0.5)  # waited longer, and waits on

    let_go.set()
    assert (await _answer(holder))[0] == 200
    assert (await _answer(table))[0] == 404  # its own answer: there is no such game
    assert handler.order == ["/hold/", "/games/999999/"]


def test_the_busy_words_are_in_filipino():
    from django.utils import translation

    with translation.override("fil"):
        words = translation.gettext("The site is busy. Please try again in %(seconds)s seconds.")
    assert words != "The site is busy. Please try again in %(seconds)s seconds."
    assert "%(seconds)s" in words


@pytest.mark.django_db(transaction=True)
async def test_moves_and_first_boards_do_not_wait_for_a_full_bound(
    settings, three_people, alice, bob, carol
):
    """Every place of the bound taken by a page that holds its thread and a database
    connection, and more pages waiting: a table's sockets still open, get their first
    boards and have a move answered (they run on the event loop and the sockets' own
    threads, never in the pages' line)."""
    settings.ROOT_URLCONF = __name__
    held.clear()
    let_go.clear()
    handler = Watched(1)
    holder = await _send(handler, _scope("GET", "/hold/"))
    await _until(held)
    waiting = [await _send(handler, _scope("GET", "/offline/")) for _ in range(3)]
    assert handler.waiting == 3
    try:
        headers = [await database_sync_to_async(session_headers)(u) for u in (alice, bob, carol)]
        sockets = [socket(three_people.pk, h) for h in headers]
        for s in sockets:
            assert (await s.connect(timeout=5))[0]
            assert seq_of(await s.receive_from(timeout=5)) == 0  # the first board
        seat, move = await database_sync_to_async(first_legal)(three_people)
        await sockets[seat].send_to(text_data=frame(fields(move, seq="0")))
        for s in sockets:
            assert 'data-seq="1"' in await s.receive_from(timeout=5)
        assert handler.order == ["/hold/"] and handler.waiting == 3  # the pages still wait
        for s in sockets:
            await s.disconnect()
    finally:
        let_go.set()
    for c in (holder, *waiting):
        assert (await _answer(c))[0] == 200


async def test_a_place_given_to_a_request_whose_client_just_left_goes_on_to_the_next():
    """The place a leaving request was handed, before it could take it, is not lost."""
    line = Line(1)
    assert await line.enter(admission.PAGE)
    gone = asyncio.create_task(line.enter(admission.TABLE))
    next_one = asyncio.create_task(line.enter(admission.POLL))
    await asyncio.sleep(0)
    assert line.waiting == 2
    line.leave()  # the table page's turn...
    gone.cancel()  # ...but its client leaves before it takes it
    assert await asyncio.wait_for(next_one, 1) is True
    with pytest.raises(asyncio.CancelledError):
        await gone
    assert line.waiting == 0 and line.free == 0
    line.leave()
    assert line.free == 1
