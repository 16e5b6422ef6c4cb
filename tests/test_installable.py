"""The site installs on a phone's home screen (issue 24): a web app manifest with PNG icons
of 192 and 512 px, and a service worker at /sw.js whose only keepsakes are the offline
page and its static files, never anything that can hold cards."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.urls import reverse

from games.play import tables
from games.series import services as series
from tongits_site import icons

pytestmark = pytest.mark.django_db

STATIC = Path(settings.BASE_DIR) / "static"
# What holds cards or a game's state: the worker must keep none of it.
HOLDS_CARDS = ("/games/", "/game/", "/table/", "/series/", "/ws/", "/api/")


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def worker_rules(source: str) -> tuple[list[str], list[str], str]:
    """The worker's NEVER list, its PRECACHE list and its OFFLINE page, as it is served."""
    never = json.loads(re.search(r"var NEVER = (\[.*?\]);", source, flags=re.S).group(1))
    keep = json.loads(re.search(r"var PRECACHE = (\[.*?\]);", source, flags=re.S).group(1))
    offline = json.loads(re.search(r"var OFFLINE = (\".*?\");", source).group(1))
    return never, keep, offline


def test_the_manifest_names_the_app_and_lists_its_icons_at_192_and_512(client):
    response = client.get("/manifest.webmanifest")
    data = json.loads(response.content)

    assert response["Content-Type"] == "application/manifest+json"
    assert data["name"] == "Tongits Online" and data["start_url"] == "/"
    assert data["display"] == "standalone" and data["scope"] == "/"
    sizes = {}
    for icon in data["icons"]:
        path = finders.find(icon["src"].removeprefix("/static/"))
        assert path, icon
        if icon["type"] == "image/png":
            sizes[icon["sizes"]] = png_size(Path(path).read_bytes())
    assert sizes == {"192x192": (192, 192), "512x512": (512, 512)}
    assert any(i.get("purpose") == "maskable" for i in data["icons"])


def test_every_page_links_the_manifest_and_asks_for_the_worker_in_its_language(client):
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="fil").content.decode()

    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert 'data-service-worker="/sw.js?lang=fil"' in html
    assert "navigator.serviceWorker.register" in (STATIC / "js" / "nav.js").read_text()


def test_the_committed_icons_are_what_the_script_draws():
    assert (STATIC / "img" / "icon.svg").read_text() == icons.svg()
    assert (STATIC / "img" / "icon-192.png").read_bytes() == icons.png(192)


def test_the_worker_is_served_from_the_root_never_cached_with_its_list_filled_in(client):
    response = client.get("/sw.js?lang=fil")
    source = response.content.decode()
    never, keep, offline = worker_rules(source)

    assert response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"]
    assert "__" not in source.split("var NEVER")[0]  # every placeholder filled
    assert offline == "/offline/?lang=fil" and keep[0] == offline
    assert all(k == offline or k.startswith("/" + settings.STATIC_URL.strip("/")) for k in keep)
    assert set(HOLDS_CARDS) <= set(never)
    assert not [k for k in keep if any(k.startswith(p) for p in never)]


def test_the_worker_keeps_nothing_it_did_not_list_and_answers_pages_from_the_network():
    source = (STATIC / "sw.js").read_text()
    fetch = source.split('addEventListener("fetch"', 1)[1]

    # Only install puts anything in the cache (the listed files); fetch never does.
    assert source.count("cache.addAll(PRECACHE)") == 1
    assert ".put(" not in source and "cache.add(" not in source
    # A page is fetched from the network; only when that fails is the offline page shown.
    assert "fetch(request).catch" in fetch and "cache.match(OFFLINE)" in fetch
    # Requests on the never list, and anything not listed, pass through untouched.
    assert fetch.index("never(url.pathname)) return") < fetch.rindex("respondWith")
    assert "PRECACHE.indexOf(url.pathname + url.search) === -1) return" in fetch


def test_every_address_that_holds_cards_is_on_the_workers_never_list(client, alice):
    made = series.create_series(alice, ante=1, others=("open", "easy"))  # waits for a person
    game = tables.quick_play(alice)
    never, _, _ = worker_rules(client.get("/sw.js").content.decode())
    addresses = [
        reverse("table", args=[game.pk]),
        reverse("act", args=[game.pk]),
        reverse("replay", args=[game.pk]),
        reverse("record_json", args=[game.pk]),
        reverse("series", args=[made.pk]),
        reverse("series_panel", args=[made.pk]),
        reverse("series_record", args=[made.pk]),
        f"/ws/game/{game.pk}/",
        "/ws/lobby/",
    ]

    assert [a for a in addresses if not any(a.startswith(p) for p in never)] == []


def test_the_offline_page_is_translated_and_holds_nobodys_name_or_token(client, alice):
    client.force_login(alice)

    english = client.get("/offline/?lang=en").content.decode()
    filipino = client.get("/offline/?lang=fil").content.decode()

    assert "You are offline" in english and '<html lang="en">' in english
    assert "Wala kang internet ngayon" in filipino and '<html lang="fil">' in filipino
    for html in (english, filipino):
        assert "alice" not in html and "csrf" not in html.lower()
