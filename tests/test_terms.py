"""Words of the game (opened, blocked, burned …) explain themselves where pages show them:
a button described by a tooltip that links to the rule on the How to play page."""

from __future__ import annotations

import re

import pytest
from django.template import Context, Template
from django.urls import reverse

from games.play import tables
from games.words.terms import TERMS
from tests.history_support import seed_games

WORDS = ["opened", "blocked", "burned", "fight", "secret set", "held melds free"]
BOTS = ["random bot", "greedy bot"]
TIP = re.compile(
    r'<span class="term"><button type="button" class="term-word[^"]*" '
    r'aria-describedby="(tip-[0-9a-f]+)" aria-expanded="false">([^<]+)</button>'
    r'<span class="term-tip" role="tooltip" id="(tip-[0-9a-f]+)">([^<]+) '
    r'<a href="/how-to-play/#([\w-]+)">'
)


def render(source: str, **context: str) -> str:
    return Template("{% load terms %}" + source).render(Context(context))


def test_every_word_the_issue_names_has_an_explanation():
    assert set(WORDS + BOTS) <= set(TERMS)


def test_a_term_is_a_button_described_by_its_tooltip_which_links_to_its_rule():
    html = render('{% term "blocked" "warn" %}')

    tip = TIP.match(html)
    assert tip is not None, html
    described_by, word, tip_id, text, anchor = tip.groups()
    assert described_by == tip_id and word == "blocked" and anchor == "R5"
    assert "cannot call Draw" in text
    assert 'class="term-word badge warn"' in html


def test_the_same_word_twice_on_a_page_gets_two_tooltip_ids():
    ids = TIP.findall(render('{% term "opened" %}{% term "opened" %}'))

    assert len({i[0] for i in ids}) == 2


def test_an_unknown_word_is_shown_as_plain_escaped_text():
    assert render("{% term word %}", word="<b>nope</b>") == "&lt;b&gt;nope&lt;/b&gt;"


def test_other_spellings_on_the_pages_explain_the_same_word():
    assert TIP.match(render('{% term "Fights" %}')).group(5) == "R7"
    assert TIP.match(render('{% term "Held melds free" %}')).group(5) == "held-melds-free"


@pytest.mark.django_db
def test_each_explanation_links_to_a_section_of_the_how_to_play_page(client):
    html = client.get(reverse("how_to_play")).content.decode()

    for term in TERMS.values():
        assert f'id="{term.anchor}"' in html
    shown = {tip[1] for tip in TIP.findall(html)}
    assert {"opened", "blocked", "burned", "fight", "secret set", "held melds free"} <= shown
    # The levels the site offers, by their names (issue 24): not the old kinds' names.
    assert {"easy bot", "normal bot", "hard bot"} <= shown
    assert not {"greedy bot", "random bot"} & shown


@pytest.mark.django_db
def test_the_lobby_explains_the_bots_and_the_variant_of_a_table(client, alice, bob):
    tables.create_table(bob, others=("greedy", "open"), variants=["held-melds-free"])
    tables.create_table(bob, others=("random", "open"))
    client.force_login(alice)

    shown = [tip[1] for tip in TIP.findall(client.get(reverse("lobby")).content.decode())]

    assert {"Held melds free", "Greedy bot", "Random bot"} <= set(shown)


@pytest.mark.django_db
def test_a_players_games_explain_burned(client, alice):
    seed_games("alice", 40)
    client.force_login(alice)

    html = client.get(reverse("my_games"), {"result": "burned"}).content.decode()

    assert "burned" in [tip[1] for tip in TIP.findall(html)]
