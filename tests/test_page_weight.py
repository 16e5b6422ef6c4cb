"""The table page's first load stays light (issue 24): everything a fresh browser fetches
for a dealt table, as the production server sends it, is at most 100 KB.

What is counted: the page's HTML as the site sends it to a browser that accepts gzip
(tongits_site/middleware.py: CompressPages, which says why BREACH does not apply), then
every stylesheet, script, icon and manifest the page names, SortableJS (data-sortable:
table.js fetches it after the first board), every url() inside those stylesheets (fonts,
pictures), the service worker and what it keeps. Static files count as WhiteNoise serves them after
``collectstatic``: its gzip (level 9) when that saves 5 %, else the file itself, and
Brotli's size instead when the Brotli package is installed (it is not today).
"""

from __future__ import annotations

import gzip
import io
import json
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse
from whitenoise.compress import Compressor

from games.play import tables
from tongits_site.minify import is_ours, minified

pytestmark = pytest.mark.django_db

BUDGET = 100 * 1024
STATIC_URL = "/static/"


class _Refs(HTMLParser):
    """The addresses a browser fetches for a page: stylesheets, scripts, icons, images."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self.later: list[str] = []  # prefetched, or run after the load event (nav.js)
        self.worker = ""

    def handle_starttag(self, tag, attrs) -> None:
        a = dict(attrs)
        if tag == "html" and a.get("data-service-worker"):
            self.worker = a["data-service-worker"]
        if tag == "link" and a.get("rel") in ("stylesheet", "icon", "manifest", "preload"):
            self.found.append(a["href"])
        if tag in ("script", "img") and a.get("src"):
            self.found.append(a["src"])
        if a.get("data-sortable"):
            self.found.append(a["data-sortable"])
        if tag == "meta" and a.get("name") == "tongits:later":
            self.later.append(a["content"])
        if tag == "link" and a.get("rel") == "prefetch":
            self.later.append(a["href"])


@dataclass(frozen=True)
class Item:
    url: str
    raw: int
    sent: int  # bytes on the wire


def sent_size(name: str, data: bytes) -> int:
    """What WhiteNoise sends for a static file with these bytes."""
    compressor = Compressor(quiet=True)
    if not compressor.should_compress(name):
        return len(data)
    best = len(data)
    try:
        import brotli  # noqa: F401  (WhiteNoise makes .br files only when it is installed)

        best = min(best, len(Compressor.compress_brotli(data)))
    except ImportError:
        pass
    out = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=out, compresslevel=9, mtime=0) as f:
        f.write(data)
    zipped = len(out.getvalue())
    if zipped <= 0.95 * len(data):
        best = min(best, zipped)
    return best


def static_bytes(url: str) -> bytes:
    """A static file as ``collectstatic`` leaves it: our own CSS and JS minified."""
    name = url.removeprefix(STATIC_URL).split("?")[0]
    path = finders.find(name)
    assert path, f"{url} is no static file"
    data = Path(path).read_bytes()
    return minified(name, data.decode()).encode() if is_ours(name) else data


def first_load(client: Client, page: str, *, later: bool = True, worker: bool = True) -> list[Item]:
    """Every request a fresh browser makes for ``page``, each with its size as sent;
    without ``later``, not the files the page fetches only after its load event, and
    without ``worker``, not the service worker (registered after the load event too)."""
    html = client.get(page, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert html.status_code == 200
    assert html["Content-Encoding"] == "gzip"
    markup = gzip.decompress(html.content)
    items = [Item(page, len(markup), len(html.content))]
    refs = _Refs()
    refs.feed(markup.decode())
    queue = list(refs.found) + (refs.later if later else [])
    seen = {page}
    if refs.worker and worker:
        queue.append(refs.worker)
    while queue:
        url = queue.pop(0)
        if url in seen:
            continue
        seen.add(url)
        if url.startswith(STATIC_URL):
            data = static_bytes(url)
            items.append(Item(url, len(data), sent_size(url, data)))
            if url.endswith(".css"):
                for ref in re.findall(r"url\(\s*['\"]?([^'\")]+)", data.decode()):
                    if not ref.startswith("data:"):
                        queue.append(
                            STATIC_URL + str(Path(url).parent / ref).split("static/", 1)[1]
                        )
            continue
        response = client.get(url)
        assert response.status_code == 200, url
        body = b"".join(response.streaming_content) if response.streaming else response.content
        items.append(Item(url, len(body), len(body)))
        if url.startswith("/manifest"):
            # Chrome fetches the icon it would install with: the 192 px one.
            icons = json.loads(body)["icons"]
            queue += [i["src"] for i in icons if i.get("sizes") == "192x192"]
        if url.startswith("/sw.js"):
            listed = re.search(r"var PRECACHE = (\[.*?\]);", body.decode(), flags=re.S)
            queue += json.loads(listed.group(1))
    return items


def report(items: list[Item]) -> str:
    lines = [f"{i.sent:>8,} {i.raw:>8,}  {i.url}" for i in sorted(items, key=lambda i: -i.sent)]
    total = sum(i.sent for i in items)
    return "\n".join(
        [
            "    sent      raw  request",
            *lines,
            f"{total:>8,} bytes sent in {len(items)} requests ({total / 1024:.1f} KB)",
        ]
    )


def test_a_dealt_tables_first_load_is_at_most_100_kb(client, alice, capsys):
    game = tables.quick_play(alice)
    client.force_login(alice)

    items = first_load(client, reverse("table", args=[game.pk]))
    total = sum(i.sent for i in items)
    with capsys.disabled():
        print(f"\nThe table's first load, as production sends it:\n{report(items)}")

    assert {i.url.rsplit(".", 1)[-1] for i in items} >= {"css", "js"}
    assert any("Sortable" in i.url for i in items)
    assert total <= BUDGET, report(items)


HOME_BEFORE_LOAD = 25 * 1024


def test_the_home_page_is_light_until_play_now_can_be_tapped(client, capsys):
    """A cold visit (issue 24) waits for the home page's HTML before Play now can be
    tapped (its stylesheets are inside it): it, and everything else the page fetches
    before its load event, come to at most 25 KB. The table's styles are not among them
    (static/css/table.css), nor htmx, which the page runs only after its load event, for
    its live counts."""
    before = first_load(client, "/", later=False, worker=False)
    whole = first_load(client, "/")
    with capsys.disabled():
        print(f"\nThe home page until its load event:\n{report(before)}")
        print(f"\nWith what it fetches after its load event:\n{report(whole)}")

    urls = [i.url for i in before]
    assert not [u for u in urls if "table" in u or "htmx" in u or u.endswith(".css")], urls
    assert sum(i.sent for i in before) <= HOME_BEFORE_LOAD, report(before)
    assert sum(i.sent for i in whole) <= BUDGET, report(whole)


def test_the_pages_that_lead_to_a_table_fetch_its_files_beforehand(client, alice):
    """The home page (Play now) and the lobby (Quick play) prefetch files of the table at
    their end, by the very addresses the table's page asks for, so on a slow line the
    table waits for less. A prefetch still on its way when the table's page arrives is
    dropped by the browser, and six at once held up Play now's own request, so each page
    names only what arrives in the time of Play now's round trips: the home page (which
    runs htmx only after its load event) htmx and its socket extension, the lobby (which
    has htmx and the site's files) the table's own stylesheet and scripts; both, the small
    script that opens the table's socket early."""
    game = tables.quick_play(alice)
    client.force_login(alice)
    table = client.get(reverse("table", args=[game.pk])).content.decode()
    needs = re.findall(r'<(?:script src|link rel="stylesheet" href)="([^"]+)"', table)
    own = [u for u in needs if re.search(r"/(table|chat)\.[^/]*(css|js)$", u)]
    assert len(own) == 2, needs  # table.css, table.js
    # The talk's script comes after the page's load (the hand does not wait for it).
    own += [
        u
        for u in re.findall(r'<meta name="tongits:later" content="([^"]+)"', table)
        if "/chat." in u
    ]
    assert len(own) == 3, table
    early = [u for u in needs if re.search(r"/socket\.[^/]*js$", u)]
    assert len(early) == 1, needs

    def prefetched(html: str) -> list[str]:
        return re.findall(r'<link rel="prefetch" href="([^"]+)"', html)

    lobby = client.get(reverse("lobby")).content.decode()
    assert sorted(prefetched(lobby)) == sorted(own + early)
    client.logout()
    home = client.get("/").content.decode()
    htmx = [u for u in needs if "django_htmx" in u and "django-htmx.js" not in u]
    assert len(htmx) == 2, needs
    assert sorted(prefetched(home)) == sorted(htmx + early)
    assert home.index('rel="prefetch"') > home.index("</main>")  # once the page is in
    assert not re.search(r"<script[^>]+htmx", home)  # run only after the load event
    assert re.findall(r'<meta name="tongits:later" content="([^"]+)"', home) == htmx
    assert prefetched(table) == []  # the table itself has them already


def test_the_table_opens_its_socket_before_its_stylesheets_and_scripts(client, alice):
    """On a slow line the socket's handshake travels while the page's files load: the
    table's head names its socket and the small script that opens it, before any
    stylesheet, and that script is not held up by them (async)."""
    game = tables.quick_play(alice)
    client.force_login(alice)
    table = client.get(reverse("table", args=[game.pk])).content.decode()
    head = table[: table.index("</head>")]
    socket = re.search(r'<meta name="tongits:socket" content="([^"]+)">', head)
    assert socket and socket.group(1) == f"/ws/game/{game.pk}/"
    assert f'ws-connect="{socket.group(1)}"' in table  # the address htmx asks for
    script = re.search(r'<script src="[^"]*/socket\.[^"]*js" async></script>', head)
    assert script and script.start() < head.index('rel="stylesheet"')
