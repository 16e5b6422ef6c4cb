"""bench.live's people who go through the site's pages as a browser does (issue 52): the
HTTP of a browser (its cookies, the CSRF token a page gives, htmx's headers), and

- ``--play-again`` (plain tables): after a game each person presses the result's Play
  again, which the page sends over the table's open socket; the first press makes the
  next table, the others are seated at it; the socket goes on to it and its first frame
  names it (games/sockets/table.py). With ``--again-pages``, as before 7 December: htmx
  posts it to the worker (``/games/<id>/again/``, the page's CSRF token in
  ``X-CSRFToken``), and each follows the answer's HX-Redirect to the new table's page and
  opens its socket. Before that the bench made the next table itself, outside the workers.
- ``--arena --join-pages`` (the arena): nobody is entered beforehand; each person loads
  the tournament's page, posts Join from it with its CSRF token, loads the page it is sent
  to (the arena's waiting table), opens that page's socket and waits on it for the first
  game, as the page does (bench/live_arena.py).

Every person comes from an address of their own, as a proxy in front says
(``X-Forwarded-For``, ``TONGITS_TRUSTED_PROXIES=1``): a rated arena never seats together
two accounts seen at one address.
"""

from __future__ import annotations

import asyncio
import json
import re

from websockets.exceptions import ConnectionClosed

from bench.live_clients import Client, Table

CSRF_HEADER = re.compile(r'hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'')
CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
TABLE_URL = re.compile(r"/games/(\d+)/")
NEXT_GAME = re.compile(r'<div id="next-game" hidden data-game="(\d+)"')
AGAIN_WAIT = 30.0  # seconds for the next table to come over the socket


def address_of(number: int) -> str:
    return f"10.{number // 65536 % 256}.{number // 256 % 256}.{number % 256}"


class Browser:
    """One person's cookies (the session's, then whatever the site sets: the CSRF cookie,
    the device's) and address."""

    def __init__(self, cookie: str, number: int) -> None:
        name, _, value = cookie.partition("=")
        self.cookies = {name: value}
        self.address = address_of(number)
        self.csrf = ""  # the token of the last page loaded

    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    async def request(
        self, port: int, method: str, path: str, *, headers: dict[str, str] | None = None,
        form: str = "", timeout: float = 60,
    ) -> tuple[int, dict[str, str], str]:  # fmt: skip
        """One HTTP/1.1 request: (status (0: no answer), headers in lower case, body)."""
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", port), timeout
            )
        except (OSError, TimeoutError):
            return 0, {}, ""
        lines = [
            f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}",
            f"Cookie: {self.cookie_header()}", "Accept: text/html",
            f"X-Forwarded-For: {self.address}", "Connection: close",
        ]  # fmt: skip
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        body = form.encode()
        if method == "POST":
            lines += [
                f"Origin: http://127.0.0.1:{port}",
                "Content-Type: application/x-www-form-urlencoded",
                f"Content-Length: {len(body)}",
            ]
        try:
            writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
            await writer.drain()
            raw = await asyncio.wait_for(reader.read(), timeout)
        except (OSError, TimeoutError):
            return 0, {}, ""
        finally:
            writer.close()
        head, _, content = raw.partition(b"\r\n\r\n")
        rows = head.decode("latin-1").split("\r\n")
        parts = rows[0].split()
        status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
        found: dict[str, str] = {}
        for row in rows[1:]:
            name, _, value = row.partition(":")
            name, value = name.strip().lower(), value.strip()
            if name == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key] = rest.split(";", 1)[0]
            found[name] = value
        text = content.decode(errors="replace")
        token = CSRF_HEADER.search(text) or CSRF_FIELD.search(text)
        if token is not None:
            self.csrf = token.group(1)
        return status, found, text


class AgainTable(Table):
    """A table whose people press Play again after each game (``--play-again``)."""

    async def again(self, client: AgainClient) -> tuple[int | None, object, str]:
        """When every socket has seen the end: this person's press of Play again, and the
        game it takes them to, with the socket that went on to it and that socket's first
        frame of it (None: the bench stops, or the press failed)."""
        finished = self.game_id
        event = self.changed
        self.arrived += 1
        if self.arrived < len(self.clients):
            await event.wait()
        else:
            self.arrived = 0
            self.expected.clear()
            self.bench.stats.games_finished += 1
            self.changed = asyncio.Event()
            event.set()
        bench = self.bench
        opts = bench.opts  # type: ignore[attr-defined]
        ws, client.kept = client.kept, None
        if bench.stopping or (opts.games and bench.stats.games_finished >= opts.games):
            if ws is not None:
                await ws.close()
            return None, None, ""
        if ws is not None:  # over the table's socket, as the page does when it is open
            game_id, frame = await self.again_on(ws)
            if game_id is None:
                bench.stats.tables_not_made += 1
                bench.stats.note("Play again over the socket: no next game came")
                return None, None, ""
            self.note(game_id)
            return game_id, ws, frame
        worker = bench.workers.next_alive()
        headers = {"HX-Request": "true", "HX-Current-URL": f"http://127.0.0.1/games/{finished}/",
                   "X-CSRFToken": client.browser.csrf}  # fmt: skip
        async with bench.page_slots:
            status, answer, _ = await client.browser.request(
                worker.port, "POST", f"/games/{finished}/again/", headers=headers
            )
        bench.stats.http[status] += 1
        went = TABLE_URL.search(answer.get("hx-redirect", ""))
        if status != 200 or went is None:
            bench.stats.tables_not_made += 1
            bench.stats.note(f"Play again answered {status}")
            return None, None, ""
        return self.note(int(went.group(1))), None, ""

    def note(self, game_id: int) -> int:
        if game_id not in self.bench.game_ids:  # type: ignore[attr-defined]
            self.bench.game_ids.append(game_id)  # type: ignore[attr-defined]
        self.game_id = game_id
        return game_id

    async def again_on(self, ws) -> tuple[int | None, str]:
        """Play again sent over the open socket (static/js/table.js sends this frame), and
        the frame that names the next game (games/sockets/table.py)."""
        try:
            await ws.send(json.dumps({"action": "again", "HEADERS": {"HX-Request": "true"}}))
            while True:
                text = await asyncio.wait_for(ws.recv(), AGAIN_WAIT)
                text = text if isinstance(text, str) else text.decode()
                if found := NEXT_GAME.search(text):
                    return int(found.group(1)), text
        except (ConnectionClosed, TimeoutError):
            await ws.close()
            return None, ""


class AgainClient(Client):
    """A seat that presses Play again after each game: over its table's open socket (as
    the page does), or with ``--again-pages`` posted, then the new table's page loaded (for
    its CSRF token too) and a socket opened, as before the socket took it."""

    def __init__(self, bench, table: Table, index: int, cookie: str) -> None:
        super().__init__(bench, table, index, cookie)
        self.browser = Browser(cookie, table.index * 3 + index)
        self.keeps_open = not bench.opts.again_pages

    async def play(self) -> None:
        game_id, ws, frame = self.table.game_id, None, ""
        first = True
        while game_id is not None and not self.bench.closing:
            await self.play_game(game_id, first or ws is None, ws=ws, frame=frame)
            first = False
            if self.bench.closing or not self.done:
                return
            game_id, ws, frame = await self.table.again(self)  # type: ignore[attr-defined]

    async def load_page(self, game_id: int) -> None:
        worker = self.bench.workers.next_alive()
        async with self.bench.page_slots:
            status, _headers, _body = await self.browser.request(
                worker.port, "GET", f"/games/{game_id}/"
            )
        self.bench.stats.http[status] += 1

    def socket_cookie(self) -> str:
        return self.browser.cookie_header()


AgainTable.client_class = AgainClient


PAGE_TRIES = 3  # a tournament's page answered busy is loaded again, at most this often


async def join_through_the_page(person: Client, page: str) -> tuple[int, str]:
    """The tournament's page, Join posted from it with its CSRF token, and the page it
    sends the person to (the arena's waiting table, games/tournaments/waiting.py): (its
    status, its body). ``person``: an arena's (bench/live_arena.py), with a ``browser``."""
    bench = person.bench
    browser: Browser = person.browser  # type: ignore[attr-defined]
    for _ in range(PAGE_TRIES):
        port = bench.workers.next_alive().port
        async with bench.page_slots:
            status, headers, _body = await browser.request(port, "GET", page)
        bench.polls[f"page {status}"] = bench.polls.get(f"page {status}", 0) + 1  # type: ignore[attr-defined]
        # A page answered busy says when to load it again (``Refresh``), and a browser
        # does (tongits_site/admission.py): a crowd's first pages can wait that long.
        again = headers.get("refresh", "") if status == 503 else ""
        if not again.isdigit():
            break
        await asyncio.sleep(int(again))
    if status != 200 or not browser.csrf:
        return status, ""
    form = f"csrfmiddlewaretoken={browser.csrf}&invite="
    port = bench.workers.next_alive().port
    async with bench.page_slots:
        status, headers, _body = await browser.request(port, "POST", f"{page}join/", form=form)
    bench.polls[f"join {status}"] = bench.polls.get(f"join {status}", 0) + 1  # type: ignore[attr-defined]
    if status != 302:
        return status, ""
    port = bench.workers.next_alive().port
    to = headers.get("location", page)
    async with bench.page_slots:
        return (await browser.request(port, "GET", to))[::2]
