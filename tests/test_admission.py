"""A worker lets a bounded number of requests into Django at once (tongits_site/admission.py):
a crowd loading its pages in the same second waits its turn on the event loop instead of
crowding the moves' event loop and the database pool with a thread each."""

from __future__ import annotations

import asyncio

from asgiref.testing import ApplicationCommunicator

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
