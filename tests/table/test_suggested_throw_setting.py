"""The suggested throw (the ringed card a tap on the discard pile throws, issue 48) is each
person's setting: at casual tables unless they turn it off; at rated and arena tables only
if they ask for it there too (Settings, Profile.suggest_throw). The daily deal never rings
one (tests/test_daily.py). Read from the table's page as the server makes it: the hand's
data-suggest attribute."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts.models import Profile
from games.models import Game
from games.play.live import snapshots
from games.tournaments.models import Tournament, TournamentGame
from tests.table.busy import set_up

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-pass-phrase-42"
DREW = 11  # the busy game's third seat has drawn: a discard to make (R5)


def the_hand(client, kind: str, choice: str | None) -> str:
    """The third seat's page at a game of ``kind`` (casual, rated, arena) with a discard
    to make, its person having chosen ``choice`` (None: never chose)."""
    names = [f"{who}{uuid.uuid4().hex[:6]}" for who in ("ann", "ben", "cat")]
    game = set_up(names, PASSWORD, DREW)
    if kind == "rated":
        Game.objects.filter(pk=game).update(rated=True)
    if kind == "arena":
        tournament = Tournament.objects.create(name="Arena", starts_at=timezone.now(), minutes=60)
        TournamentGame.objects.create(tournament=tournament, game_id=game)
    person = get_user_model().objects.get(username=names[2])
    if choice is not None:
        Profile.objects.update_or_create(user=person, defaults={"suggest_throw": choice})
    snapshots.forget()  # the game as a new page loads it, with the table's kind now
    client.force_login(person)
    page = client.get(f"/games/{game}/").content.decode()
    assert 'id="act-discard"' in page  # a discard to make: where a throw is suggested
    return page


@pytest.mark.parametrize(
    ("kind", "choice", "rings"),
    [
        ("casual", None, True),  # on by default at a casual table
        ("casual", "never", False),
        ("casual", "always", True),
        ("rated", None, False),  # off at a rated table unless asked for
        ("rated", "casual", False),
        ("rated", "always", True),
        ("arena", None, False),
        ("arena", "always", True),
    ],
)
def test_the_ringed_card_follows_the_persons_setting_and_the_tables_kind(
    client, kind, choice, rings
):
    page = the_hand(client, kind, choice)
    assert ("data-suggest=" in page) is rings


def test_the_setting_is_chosen_on_the_settings_page(client, alice):
    client.force_login(alice)
    page = client.get("/accounts/settings/").content.decode()
    assert "Suggest a card to throw" in page and 'value="always"' in page
    answer = client.post("/accounts/settings/", {"display_name": "Al", "suggest_throw": "always"})
    assert answer.status_code == 302
    assert Profile.for_user(alice).suggest_throw == "always"
    # A choice not offered changes nothing; the name sent alone keeps the choice.
    client.post("/accounts/settings/", {"display_name": "Al", "suggest_throw": "sometimes"})
    assert Profile.for_user(alice).suggest_throw == "always"
    assert client.post("/accounts/settings/", {"display_name": "Alice"}).status_code == 302
    assert Profile.for_user(alice).suggest_throw == "always"
