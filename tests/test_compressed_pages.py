"""The site's HTML pages go gzipped to a browser that accepts it (tongits_site/middleware.py:
CompressPages), the same page when unpacked; other answers are left as they are. The CSRF
token, the secret every page holds, differs in every answer (Django masks it afresh), and
every gzipped answer carries random bytes of its own (Heal the Breach), which is why
compressing pages does not open them to BREACH."""

from __future__ import annotations

import gzip
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.play import tables

pytestmark = pytest.mark.django_db

GZIP = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}


def token(html: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)


def unmasked(html: str) -> str:
    """The page without its CSRF tokens, which are masked afresh in every answer."""
    return re.sub(r"[A-Za-z0-9]{64}", "TOKEN", html)


def test_the_home_page_goes_gzipped_and_unpacks_to_the_same_page():
    plain = Client().get("/")
    packed = Client().get("/", **GZIP)
    assert packed.status_code == 200
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    html = gzip.decompress(packed.content).decode()
    assert "<html" in html and "Play now" in html
    assert len(packed.content) * 2 < len(html.encode())
    assert unmasked(html) == unmasked(plain.content.decode())  # the same page


def test_every_answer_has_its_own_token_and_random_bytes():
    client = Client()
    one, two = client.get("/", **GZIP), client.get("/", **GZIP)
    html_one, html_two = (gzip.decompress(r.content).decode() for r in (one, two))
    assert token(html_one) != token(html_two)  # the same secret, masked differently
    # gzip's file name field holds the random bytes (RFC 1952: FLG.FNAME, after 10 bytes).
    assert one.content[3] & 0x08 and two.content[3] & 0x08
    names = [r.content[10 : r.content.index(b"\x00", 10)] for r in (one, two)]
    assert names[0] != names[1]


def test_a_seats_table_page_goes_gzipped(client, alice):
    game = tables.quick_play(alice)
    client.force_login(alice)
    response = client.get(reverse("table", args=[game.pk]), **GZIP)
    assert response["Content-Encoding"] == "gzip"
    assert 'id="my-hand"' in gzip.decompress(response.content).decode()
    assert "no-store" in response["Cache-Control"]


def test_a_browser_that_asks_for_no_gzip_gets_the_page_plain():
    response = Client().get("/", HTTP_ACCEPT_ENCODING="identity")
    assert not response.has_header("Content-Encoding")
    assert b"<html" in response.content


def test_answers_that_are_not_html_are_left_alone():
    response = Client().get(reverse("manifest"), **GZIP)
    assert response.status_code == 200
    assert not response.has_header("Content-Encoding")
