"""Filipino and English (issue 11), the rest of it: an upload's errors (the engine's
reasons for a record it cannot read or a move it refuses included), an open seat's and a
bot's name on a waiting table (named per watcher, while a record keeps English), and the
admin's labels for our models."""

from __future__ import annotations

import ast
import html
import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from accounts.models import Profile
from games.models import Game
from games.play import tables
from games.words import rule_messages
from tests.history_support import SEED, finish, scripted_record
from tests.languages_support import written_text

pytestmark = pytest.mark.django_db

REPO = Path(__file__).resolve().parents[1]
COOKIE = settings.LANGUAGE_COOKIE_NAME


@pytest.fixture(autouse=True)
def english_outside_requests():
    cache.clear()
    with translation.override("en"):
        yield


def speaking(client, language: str):
    client.cookies[COOKIE] = language
    return client


def upload(client, content: bytes) -> str:
    response = client.post(
        reverse("upload_record"),
        {"record": SimpleUploadedFile("game.json", content, "application/json")},
    )
    assert response.status_code == 400
    return html.unescape(response.content.decode())


# --- Uploads --------------------------------------------------------------------------------


def test_an_uploads_refused_move_and_unreadable_record_read_in_filipino(client, alice):
    client.force_login(alice)
    speaking(client, "fil")
    moves = scripted_record()["moves"][:4] + [{"seat": 2, "type": "discard", "card": "AS"}]

    refused = upload(client, json.dumps(scripted_record(moves)).encode())
    unreadable = upload(client, b"not json")
    bad_card = upload(client, json.dumps({**scripted_record(), "stock": ["XX"]}).encode())

    assert "Hindi puwede ang galaw 5. Magtapon lang pagkatapos bumunot (R3)." in refused
    assert "Hindi mabasa ang record: hindi JSON ang record." in unreadable
    assert "Hindi mabasa ang record: stock: hindi card ang 'XX'." in bad_card
    for page in (refused, unreadable, bad_card):
        assert "cannot" not in page and "illegal" not in page
    assert not Game.objects.exists()


def test_a_series_records_errors_read_in_each_language(client, alice):
    client.force_login(alice)
    series = {"format": "tongits-series/1", "ante": 3, "hands": [scripted_record()]}
    moves = scripted_record()["moves"][:4] + [{"seat": 2, "type": "discard", "card": "AS"}]
    bad_hand = {**series, "ante": 1, "hands": [scripted_record(moves)]}

    english = upload(speaking(client, "en"), json.dumps(series).encode())
    filipino = upload(speaking(client, "fil"), json.dumps(series).encode())
    hand = upload(client, json.dumps(bad_hand).encode())

    assert "The series record cannot be read. Ante must be 1, 2 or 5." in english
    assert "Hindi mabasa ang record ng series. Dapat 1, 2 o 5 ang ante." in filipino
    assert (
        "Hindi mabasa ang record ng series. Kamay 1: Hindi puwede ang galaw 5. "
        "Magtapon lang pagkatapos bumunot (R3)." in hand
    )


def _raised(path: Path, error: str) -> list[str]:
    """Each message ``error(...)`` is raised with in a module, and each f-string assigned
    to ``error``, its values filled in with samples as the code writes them."""
    samples = {
        "FORMAT": "tongits-record/1", "name": "dance", "seat": "1", "size": "12",
        "where": "stock", "e": "'XX' is not a card", "DEALER_RULE": "winner-deals-next",
        "number": "2", "record.dealer": "1", "winner": "0", "MAX_HANDS": "100", "index": "3",
    }  # fmt: skip
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == error and node.args:
            text = node.args[0]
        elif isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "error":
            text = node.value
        else:
            continue
        written = written_text(text, samples)
        if written is not None:
            found.append(written)
    return found


def test_every_reason_a_record_cannot_be_read_has_a_filipino_sentence():
    engine = _raised(REPO / "games" / "engine" / "record.py", "RecordError")
    series = _raised(REPO / "games" / "series" / "record.py", "SeriesRecordError")
    assert len(engine) >= 13 and len(series) >= 6

    for message in engine + series:
        assert rule_messages.known_unreadable(message), message
        with translation.override("en"):
            assert rule_messages.unreadable(message) == message
        with translation.override("fil"):
            assert rule_messages.unreadable(message) != message, message


# --- Seat names -----------------------------------------------------------------------------


def test_a_waiting_tables_open_seat_and_bot_are_named_in_each_watchers_language(client, alice, bob):
    game = tables.create_table(alice, public=True, others=("open", "random"))
    table = reverse("table", args=[game.pk])
    client.force_login(alice)
    filipino = speaking(client, "fil").get(table).content.decode()
    # A second watcher in English is served from the same snapshot of the table.
    client.force_login(bob)
    english = speaking(client, "en").get(table).content.decode()

    assert "Bakanteng upuan" in filipino and "Random na bot 3" in filipino
    assert "Open seat" not in filipino and "Random bot" not in filipino
    assert "Open seat" in english and "Random bot 3" in english
    assert "Bakanteng upuan" not in english and "Random na bot" not in english


def test_a_record_downloaded_in_filipino_names_its_bots_in_english(client, alice, make_game):
    game = finish(make_game([alice, "random", "greedy"], seed=SEED))
    client.force_login(alice)

    record = speaking(client, "fil").get(reverse("record_json", args=[game.pk])).json()
    replay = client.get(reverse("replay", args=[game.pk])).content.decode()

    assert record["players"][1:] == ["Random bot 2", "Greedy bot 3"]
    assert "Random na bot 2" in replay


# --- The admin ------------------------------------------------------------------------------


@pytest.fixture
def staff(client):
    user = get_user_model().objects.create_user("staffer", password="x-Staff-2026", is_staff=True)
    user.is_superuser = True
    user.save()
    client.force_login(user)
    return speaking(client, "fil")


def labels(page: str) -> set[str]:
    """The admin's field labels on a change page (read-only fields are shown as text)."""
    found = re.findall(r"<label[^>]*>([^<:]+):?</label>", page)
    found += re.findall(r'<th class="column-[^"]*">([^<]+)</th>', page)
    found += re.findall(r"<th[^>]*>\s*([^<\s][^<]*?)\s*</th>", page)
    return {html.unescape(label).strip() for label in found}


def test_a_finished_games_admin_page_reads_in_filipino(staff, alice, make_game):
    game = finish(make_game([alice, "greedy", "random"], seed=SEED))

    page = staff.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()

    shown = labels(page)
    for label in (
        "Ginawa ni", "Kalagayan", "Pampubliko", "Mga variant", "Segundo bawat tira",
        "Seed", "Commitment", "Bigayan", "Upuan ng nanalo", "Paano natapos", "Puntos",
        "Sunog", "Itinigil ni", "Bakit itinigil", "Susunod na laro", "Replay",
    ):  # fmt: skip
        assert label in shown, label
    for english in ("Winner seat", "Turn seconds", "Abort reason", "Next game", "Burned"):
        assert english not in shown
    assert f"Laro {game.pk} (Tapos na)" in html.unescape(page)
    assert "upuan 0 ng laro" in page  # the seats' rows


def test_a_profiles_admin_page_reads_in_filipino(staff, alice):
    profile = Profile.objects.create(user=alice, language="fil")

    page = staff.get(reverse("admin:accounts_profile_change", args=[profile.pk]))

    shown = labels(page.content.decode())
    assert {"Wika", "Address ng guest"} <= shown
    assert "Profile ni alice" in page.content.decode()
