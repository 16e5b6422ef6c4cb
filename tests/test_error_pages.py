"""The 403, 404 and 500 pages are the site's own: in its layout, saying why, with a way back."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from games.play import tables


@pytest.fixture
def production(settings):
    # Django shows its own technical pages while DEBUG is on.
    settings.DEBUG = False


def test_a_missing_page_is_the_sites_404_with_a_way_back(client, production, db):
    response = client.get("/no-such-page/")

    html = response.content.decode()
    assert response.status_code == 404
    assert "There is nothing here" in html and 'href="/"' in html
    assert "img/favicon.svg" in html


def test_a_private_table_says_why_it_is_closed(client, production, alice, bob):
    game = tables.create_table(bob, public=False, others=("open", "greedy"))
    client.force_login(alice)

    response = client.get(reverse("table", args=[game.pk]))

    html = response.content.decode()
    assert response.status_code == 403
    assert "This table is private." in html and "Back to the lobby" in html


def test_the_500_page_needs_nothing_but_the_static_files():
    html = render_to_string("500.html")

    assert "Something went wrong on our side" in html and "css/site.css" in html
