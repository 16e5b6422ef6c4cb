"""The How to play page tells every rule of docs/rules.md, each at its rule id, and the
site links to it from the home page, the table and the footer."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from games.play import tables

pytestmark = pytest.mark.django_db

RULES = Path(__file__).resolve().parents[1] / "docs" / "rules.md"


def rulebook_ids() -> list[str]:
    """The rule ids (R1 …) the rulebook's headings define."""
    return re.findall(r"^## (R\d+) ", RULES.read_text(), flags=re.MULTILINE)


def rulebook_variants() -> list[str]:
    section = RULES.read_text().split("## Variants", 1)[1]
    return re.findall(r"^- \*\*([a-z-]+)\*\*", section, flags=re.MULTILINE)


def test_the_rulebook_defines_r1_to_r11_and_two_variants():
    assert rulebook_ids() == [f"R{n}" for n in range(1, 12)]
    assert rulebook_variants() == ["held-melds-free", "series"]


def test_the_page_has_a_section_for_every_rule_id_of_the_rulebook(client):
    html = client.get(reverse("how_to_play")).content.decode()

    sections = re.findall(r'<section id="([^"]+)" class="rule"', html)

    assert [s for s in sections if re.fullmatch(r"R\d+", s)] == rulebook_ids()
    for rule in rulebook_ids():
        # The section shows its id, as a link to itself that people can copy.
        assert f'<a class="rule-id" href="#{rule}">{rule}</a>' in html


def test_the_page_explains_each_variant_at_its_name(client):
    html = client.get(reverse("how_to_play")).content.decode()

    for name in rulebook_variants():
        assert f'id="{name}"' in html


def test_the_series_is_told_as_the_site_plays_it_with_the_return_rule(client):
    # Issue 23: both said "not offered yet" while the site had series tables.
    rules = RULES.read_text().split("- **series**", 1)[1]
    html = client.get(reverse("how_to_play")).content.decode()
    series = html.split('id="series"', 1)[1].split("</section>", 1)[0]
    for told in (" ".join(rules.split()), " ".join(series.split())):
        assert "yet" not in told
        assert "1, 2 or 5 chips" in told and "two hands in a row" in told
        assert "gets back exactly what" in told and "go" in told and "to the house" in told
        assert "aborted" in told and "leave" in told.lower()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fil"
    fil = client.get(reverse("how_to_play")).content.decode().split('id="series"', 1)[1]
    assert "ibabalik sa bawat player na nasa mesa pa ang eksaktong inilagay" in fil


def test_the_page_draws_example_cards_with_names_for_screen_readers(client):
    html = client.get(reverse("how_to_play")).content.decode()

    assert 'aria-label="A run: ace of diamonds, 2 of diamonds, 3 of diamonds"' in html
    assert 'aria-label="A secret set: a card face down, a card face down' in html
    assert '<span class="card-face">10♦</span>' in html  # R1: a ten reads 10, never T


def test_anyone_may_read_it_without_an_account(client):
    response = client.get("/how-to-play/")

    assert response.status_code == 200
    assert '<h1 id="guide-title">How to play Tongits</h1>' in response.content.decode()


def how_to_play_link(html: str) -> int:
    return html.count(f'href="{reverse("how_to_play")}"')


def test_the_footer_of_every_page_links_to_it(client):
    html = client.get(reverse("login")).content.decode()

    footer = html.split('<footer class="site-footer">', 1)[1]
    assert how_to_play_link(footer) == 1


def test_the_home_page_links_to_it_for_visitors_and_players(client, alice):
    visitor = client.get(reverse("lobby")).content.decode()
    client.force_login(alice)
    player = client.get(reverse("lobby")).content.decode()

    def in_main(html: str) -> str:
        return html.split('<main id="main"', 1)[1].split("</main>", 1)[0]

    # One link in the page's text (and one in the footer, and the visitor's menu).
    assert how_to_play_link(in_main(visitor)) == 1
    assert how_to_play_link(in_main(player)) == 1


def test_the_tables_menu_links_to_it(client, alice):
    # The table is one screen: the site's header and footer are hidden there, so the
    # table's own menu sheet carries the link.
    game = tables.quick_play(alice)
    client.force_login(alice)

    html = client.get(reverse("table", args=[game.pk])).content.decode()

    menu = html.split('id="menu-sheet"', 1)[1].split("</details>", 1)[0]
    assert how_to_play_link(menu) == 1
