"""Every page is mobile-ready and loads its scripts from our own static files."""

from __future__ import annotations

import re

import pytest
from channels.testing import HttpCommunicator
from django.contrib.staticfiles import finders
from django.urls import reverse

pytestmark = pytest.mark.django_db

PUBLIC_PAGES = ["lobby", "login", "signup", "password_reset", "password_reset_done"]
PRIVATE_PAGES = ["settings", "password_change", "password_change_done"]
REMOTE_SCRIPT = re.compile(r"<script[^>]*\ssrc=[\"']?(https?:)?//", re.IGNORECASE)


def assert_mobile_ready_without_cdn(html: str) -> None:
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert REMOTE_SCRIPT.search(html) is None
    # htmx from our static files: in the page, or (the home page, issue 24) run by nav.js
    # after the page's load event.
    for script in ("/static/django_htmx/htmx-2.min.js", "/static/django_htmx/ext/hx-ws-2.min.js"):
        assert (
            f'<script src="{script}"' in html
            or f'<meta name="tongits:later" content="{script}" data-as="script">' in html
        ), script
    assert '"allowEval": false' in html


@pytest.mark.parametrize("name", PUBLIC_PAGES)
def test_it_renders_each_public_page_for_a_phone_without_a_cdn(client, name):
    response = client.get(reverse(name))

    assert response.status_code == 200
    assert_mobile_ready_without_cdn(response.content.decode())


@pytest.mark.parametrize("name", PRIVATE_PAGES)
def test_it_renders_each_private_page_for_a_phone_without_a_cdn(client, alice, name):
    client.force_login(alice)

    response = client.get(reverse(name))

    assert response.status_code == 200
    assert_mobile_ready_without_cdn(response.content.decode())


def test_it_puts_the_csrf_token_in_the_htmx_headers_of_the_body(client):
    html = client.get(reverse("lobby")).content.decode()

    match = re.search(r"""<body hx-headers='\{"X-CSRFToken": "([^"]+)"\}'>""", html)

    assert match is not None
    assert len(match.group(1)) == 64


def test_it_shows_log_out_as_a_post_form_to_a_logged_in_player(client, alice):
    client.force_login(alice)

    html = client.get(reverse("lobby")).content.decode()

    assert f'<form method="post" action="{reverse("logout")}"' in html
    assert reverse("login") not in html


def test_it_serves_only_the_lobby_partial_to_an_htmx_request(client, alice):
    client.force_login(alice)
    response = client.get(reverse("lobby"), headers={"HX-Request": "true"})

    html = response.content.decode()
    assert '<h1 id="lobby-title">Lobby</h1>' in html
    assert "<html" not in html


def test_it_ships_htmx_and_the_stylesheet_as_static_files():
    shipped = ["django_htmx/htmx-2.min.js", "django_htmx/ext/hx-ws-2.min.js", "css/site.css"]
    for path in [*shipped, "css/pages.css", "js/nav.js"]:
        assert finders.find(path), path


@pytest.mark.django_db(
    transaction=True
)  # the view's thread writes: no test transaction holds SQLite's lock
async def test_it_serves_http_through_the_asgi_application():
    from tongits_site.asgi import application

    communicator = HttpCommunicator(application, "GET", "/", headers=[(b"host", b"testserver")])
    response = await communicator.get_response(timeout=5)

    assert response["status"] == 200
    assert b"Play now" in response["body"]
