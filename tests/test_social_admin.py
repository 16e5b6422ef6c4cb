"""Friends in the admin (issue 27): friendships, blocks, challenges, presence and the
table talk are listed and searched by username, and no list of theirs answers a question
about a game's seed, deal or moves (tests/test_admin_secrets.py says why)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from games.play import moves
from games.social import presence
from games.social import services as social
from games.social.chat import services as chat
from games.social.chat.models import ChatSilence
from games.social.models import Challenge
from tests.table.support import SEED, first_legal

pytestmark = pytest.mark.django_db

LISTS = [
    "social_friendship", "social_block", "social_challenge", "social_presence",
    "chat_chatmessage", "chat_chatreport", "chat_chatsilence",
]  # fmt: skip


@pytest.fixture
def game(alice, bob, carol, make_game) -> Game:
    """A game in play with a move made, a challenge that led to it, and talk."""
    game = make_game([alice, bob, carol], seed=SEED)
    seat, move = first_legal(game)
    moves.submit_move(game.pk, [alice, bob, carol][seat], move.to_dict())
    social.request_friend(alice, bob.pk)
    social.accept_friend(bob, alice.pk)
    made = social.challenge(alice, bob.pk, ante=None, bot_kind="easy")
    Challenge.objects.filter(pk=made.pk).update(status=Challenge.Status.ACCEPTED, game=game)
    social.block(carol, alice.pk)
    presence.connected(bob.pk)
    said = chat.say(game.pk, alice, preset="p:nice")
    chat.report(game.pk, bob, said["id"], False)
    ChatSilence.objects.create(user=carol, until=timezone.now() + timedelta(hours=1), reason="x")
    game.refresh_from_db()
    return game


def test_every_list_opens_and_searches_by_username(admin_client, game):
    for name in LISTS:
        url = reverse(f"admin:{name}_changelist")
        assert admin_client.get(url).status_code == 200, name
        if name != "chat_chatreport":  # reports are read by the game, not searched
            nobody = admin_client.get(url, {"q": "nobody-by-that-name"}).content.decode()
            assert "0 results" in nobody, name
    for name, who in [
        ("social_friendship", "bob"), ("social_friendship", "alice"),
        ("social_block", "carol"), ("social_block", "alice"),
        ("social_challenge", "bob"), ("social_presence", "bob"),
        ("chat_chatmessage", "alice"), ("chat_chatsilence", "carol"),
    ]:  # fmt: skip
        url = reverse(f"admin:{name}_changelist")
        found = admin_client.get(url, {"q": who}).content.decode()
        assert re.search(r'class="paginator">\s*1 ', found), (name, who)


def test_no_friends_list_can_be_filtered_by_a_games_seed_deal_or_moves(admin_client, game):
    seed, stock_card = game.seed, game.deal["stock"][0]
    wrong = "8" if seed[0] != "8" else "9"
    probes = {
        "social_challenge": [
            (f"game__seed__startswith={seed[0]}", f"game__seed__startswith={wrong}"),
            (f"game__deal__stock__0={stock_card}", "game__deal__stock__0=XX"),
            ("game__moves__seq=1", "game__moves__seq=2"),
        ],
        "social_friendship": [
            (f"from_user__seats__game__seed={seed}", "from_user__seats__game__seed=1")
        ],
        "social_block": [(f"blocked__seats__game__seed={seed}", "blocked__seats__game__seed=1")],
        "social_presence": [
            ("user__seats__game__moves__seat=0", "user__seats__game__moves__seat=9")
        ],
        "chat_chatmessage": [(f"game__seed={seed}", "game__seed=1")],
        "chat_chatreport": [(f"message__game__seed={seed}", "message__game__seed=1")],
    }
    for name, pairs in probes.items():
        url = reverse(f"admin:{name}_changelist")
        for true_lookup, false_lookup in pairs:
            said_true = admin_client.get(f"{url}?{true_lookup}")
            said_false = admin_client.get(f"{url}?{false_lookup}")
            assert said_true.status_code == 400, f"{name}?{true_lookup}"
            assert said_true.content == said_false.content, f"{name}?{true_lookup}"


def test_a_challenges_page_links_its_game_and_shows_no_secret(admin_client, game):
    made = Challenge.objects.get(game=game)
    pages = [
        admin_client.get(reverse("admin:social_challenge_change", args=[made.pk])),
        admin_client.get(reverse("admin:social_challenge_changelist"), {"o": "7"}),
        admin_client.get(
            reverse("admin:autocomplete"),
            {
                "app_label": "social",
                "model_name": "friendship",
                "field_name": "from_user",
                "term": game.seed,
            },
        ),  # fmt: skip
    ]
    for response in pages:
        assert response.status_code == 200
        assert game.seed not in response.content.decode()
    assert str(game.pk) in pages[0].content.decode()
