"""Records in and out: download a finished game, all of mine as a zip, upload one back."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation

from games import bots
from games.analysis import analysis
from games.engine import load_record, replay
from games.history.records import record_dict
from games.models import Game, Move
from games.series.ledger import HandResult, ledger
from games.series.models import Series
from games.series.record import pot_events
from tests.history_support import (
    SCRIPTED_MOVES,
    SEED,
    finish,
    play_some,
    scripted_record,
    seed_games,
)

pytestmark = pytest.mark.django_db


def upload(client, content: bytes, name: str = "game.json"):
    return client.post(
        reverse("upload_record"), {"record": SimpleUploadedFile(name, content, "application/json")}
    )


@pytest.fixture
def finished(make_game, alice, bob) -> Game:
    return finish(make_game([alice, "greedy", bob], seed=SEED))


def test_a_finished_game_downloads_as_a_tongits_record_attachment(client, alice, finished):
    client.force_login(alice)

    response = client.get(reverse("record_json", args=[finished.pk]))

    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="tongits-{finished.pk}.json"'
    data = json.loads(response.content)
    assert data == record_dict(finished)
    assert data["format"] == "tongits-record/1"
    assert data["players"] == ["alice", "Greedy bot 2", "bob"]
    assert len(data["moves"]) == finished.seq


def test_a_game_in_play_has_no_record_to_download(client, make_game, alice, bob):
    game = play_some(make_game([alice, "greedy", bob], seed=SEED), 4)
    client.force_login(alice)

    response = client.get(reverse("record_json", args=[game.pk]))

    assert response.status_code == 403
    assert game.seed not in response.content.decode()


def test_a_private_game_record_is_refused_to_those_who_did_not_play(
    client, make_game, alice, bob, carol
):
    game = finish(make_game([alice, "greedy", bob], seed=SEED, public=False))
    client.force_login(carol)

    assert client.get(reverse("record_json", args=[game.pk])).status_code == 403


def test_a_downloaded_record_uploads_back_to_a_replay_with_the_same_result(
    client, alice, finished, tmp_path
):
    client.force_login(alice)
    data = client.get(reverse("record_json", args=[finished.pk])).content

    response = upload(client, data)

    copy = Game.objects.get(imported=True)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('replay', args=[copy.pk])}?move={copy.seq}"
    fields = ("winner_seat", "end", "points", "chips", "burned", "seq", "deal", "status")
    assert [getattr(copy, f) for f in fields] == [getattr(finished, f) for f in fields]
    assert copy.created_by == alice and not copy.public
    original = client.get(response["Location"].replace(str(copy.pk), str(finished.pk)))
    replayed = client.get(response["Location"])
    winner = ["alice", "Greedy bot 2", "bob"][finished.winner_seat]
    for page in (original, replayed):
        assert f"What each loser pays {winner}" in page.content.decode()
    net = original.content.decode().split("Net chips:")[1].split("</p>")[0]
    assert net in replayed.content.decode()


def test_an_uploaded_players_name_loses_any_nul_rather_than_failing(client, alice):
    client.force_login(alice)
    record = {**scripted_record(), "players": ["Al\x00ice", "Bea", "Carl"]}

    response = upload(client, json.dumps(record).encode())  # PostgreSQL refuses a NUL

    assert response.status_code == 302
    names = Game.objects.get(imported=True).seats.values_list("display_name", flat=True)
    assert list(names) == ["Alice", "Bea", "Carl"]


def test_manage_py_replay_prints_the_stored_result_of_a_downloaded_record(
    client, alice, finished, tmp_path
):
    client.force_login(alice)
    path = tmp_path / "game.json"
    path.write_bytes(client.get(reverse("record_json", args=[finished.pk])).content)
    out = io.StringIO()

    call_command("replay", str(path), stdout=out)

    assert json.loads(out.getvalue()) == {
        "ok": True, "finished": True, "winner": finished.winner_seat, "end": finished.end,
        "points": finished.points, "burned": finished.burned, "chips": finished.chips,
    }  # fmt: skip


def test_a_bad_upload_shows_the_engines_message_with_the_move_number_and_stores_nothing(
    client, alice
):
    moves = scripted_record()["moves"][:4] + [{"seat": 2, "type": "discard", "card": "AS"}]
    client.force_login(alice)
    before = (Game.objects.count(), Move.objects.count())

    response = upload(client, json.dumps(scripted_record(moves)).encode())

    html = response.content.decode()
    assert response.status_code == 400
    assert "Move 5 cannot be played. Discard only after the draw (R3)." in html
    assert 'role="alert"' in html
    assert (Game.objects.count(), Move.objects.count()) == before


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"not json", "The record cannot be read: the record is not JSON."),
        (b'{"format": "tongits-record/2"}', "format must be"),
        (b"\xff\xfe", "The record cannot be read"),
        (b"[" * 100_000 + b"]" * 100_000, "The record cannot be read: it is nested too deeply."),
    ],
)
def test_an_unreadable_upload_says_why_and_stores_nothing(client, alice, content, message):
    client.force_login(alice)

    response = upload(client, content)

    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Game.objects.exists()


def test_an_upload_without_a_file_is_refused(client, alice):
    client.force_login(alice)

    response = client.post(reverse("upload_record"), {})

    assert response.status_code == 400
    assert not Game.objects.exists()


def test_uploading_needs_a_login(client):
    response = upload(client, json.dumps(scripted_record()).encode())

    assert response.status_code == 302
    assert not Game.objects.exists()


def test_the_upload_form_is_a_multipart_post_with_a_file_input(client, alice):
    client.force_login(alice)

    html = client.get(reverse("upload_record")).content.decode()

    assert '<form method="post" enctype="multipart/form-data"' in html
    assert 'type="file" name="record"' in html
    assert "csrfmiddlewaretoken" in html


def test_all_my_records_download_as_one_zip_with_a_file_per_finished_game(
    client, make_game, alice, bob, carol
):
    seed_games("alice", 4)
    theirs = finish(make_game([bob, "greedy", carol], seed=SEED))
    live = play_some(make_game([alice, "greedy", bob], seed=SEED), 3)  # one in play at a time
    client.force_login(alice)

    response = client.get(reverse("my_records"))

    assert response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"].startswith("attachment; filename=")
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    mine = Game.objects.filter(seats__user=alice, status=Game.Status.FINISHED).order_by("pk")
    assert archive.namelist() == [f"tongits-{g.pk}.json" for g in mine]
    for game in mine:
        assert json.loads(archive.read(f"tongits-{game.pk}.json")) == record_dict(game)
    assert f"tongits-{live.pk}.json" not in archive.namelist()
    assert f"tongits-{theirs.pk}.json" not in archive.namelist()


# --- The same record uploaded again (issue 23) ---------------------------------------------


def test_uploading_the_same_record_again_links_to_the_stored_replay_and_stores_nothing(
    client, alice
):
    client.force_login(alice)
    first = upload(client, json.dumps(scripted_record()).encode())
    stored = Game.objects.get(imported=True)
    # The same game written another way: each hand's and each meld's cards in another
    # order, another player's name, keys the engine ignores.
    same = scripted_record()
    same["hands"] = [list(reversed(hand)) for hand in same["hands"]]
    same["moves"] = [
        {**m, "cards": list(reversed(m["cards"]))} if "cards" in m else m for m in same["moves"]
    ]
    same["players"], same["id"] = ["Al", "Bea", "Carl"], 12

    again = upload(client, json.dumps(scripted_record()).encode())
    other = upload(client, json.dumps(same).encode())

    assert first.status_code == 302 and Game.objects.filter(imported=True).count() == 1
    link = f'href="{reverse("replay", args=[stored.pk])}?move={stored.seq}"'
    for response in (again, other):
        page = response.content.decode()
        assert response.status_code == 409
        assert "You have uploaded this record already: it is stored once." in page
        assert link in page


def test_another_record_or_another_persons_upload_of_it_is_stored(client, alice, bob):
    client.force_login(alice)
    upload(client, json.dumps(scripted_record()).encode())

    shorter = upload(client, json.dumps(scripted_record(SCRIPTED_MOVES[:-1])).encode())
    client.force_login(bob)
    bobs = upload(client, json.dumps(scripted_record()).encode())

    assert shorter.status_code == bobs.status_code == 302
    assert Game.objects.filter(imported=True, created_by=alice).count() == 2
    assert Game.objects.filter(imported=True, created_by=bob).count() == 1


def one_hand_series(ante: int) -> dict:
    """A series record of one finished hand of three people, ended with nobody seated, its
    pot as the ledger derives it (the series reader checks it)."""
    hand = {**scripted_record(), "bots": [None, None, None]}
    record = load_record(hand)
    outcome = replay(record).state.outcome
    result = HandResult(1, True, True, outcome.winner, tuple(outcome.chips), record.dealer)
    book = ledger(ante, [result], True, [])
    return {"format": "tongits-series/1", "ante": ante, "ended": True, "hands": [hand],
            "pot": pot_events(book)}  # fmt: skip


def test_uploading_the_same_series_record_again_links_to_its_first_hands_replay(client, alice):
    client.force_login(alice)
    series = one_hand_series(ante=1)
    first = upload(client, json.dumps(series).encode())
    stored = Game.objects.get(imported=True)

    again = upload(client, json.dumps(series).encode())
    other_ante = upload(client, json.dumps(one_hand_series(ante=2)).encode())

    assert first.status_code == 302 and other_ante.status_code == 302
    assert again.status_code == 409
    page = again.content.decode()
    assert "You have uploaded this series record already: it is stored once." in page
    assert f'href="{reverse("replay", args=[stored.pk])}?move={stored.seq}"' in page
    assert Series.objects.filter(imported=True).count() == 2


def test_the_refused_copy_and_the_coachs_queue_read_in_filipino(client, make_game, alice, bob):
    # A request in Filipino leaves the language active: the next test reads English.
    with translation.override("en"):
        client.force_login(alice)
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fil"
        upload(client, json.dumps(scripted_record()).encode())
        copy = Game.objects.get(imported=True)
        first = finish(make_game([alice, "normal", bob], seed=7))
        analysis.request_analysis(first, alice)

        again = upload(client, json.dumps(scripted_record()).encode()).content.decode()
        asked = client.post(reverse("analysis", args=[copy.pk]), headers={"HX-Request": "true"})

        assert "Na-upload mo na ang record na ito: isang beses lang ito itinatago." in again
        assert f"Buksan ang replay nito (laro {copy.pk})" in again
        coach = asked.content.decode()
        assert f"Sinusuri pa ng coach ang laro {first.pk} para sa iyo. Isang laro" in coach
        assert f"para sa iyo: 0 sa {analysis.current(first).total} galaw na ang nasuri." in coach
        assert "Tingnan kung gaano na ito kalayo" in coach
        assert "Puwede mong hilingin ang larong ito kapag tapos na iyon." in coach


def test_a_record_names_the_learned_model_of_a_bot_that_plays_with_it(
    make_game, alice, bob, finished
):
    # No bot at this table uses a model (greedy): the record has no bot_models.
    assert "bot_models" not in record_dict(finished)
    # Hard plays with the learned discard model.
    game = finish(make_game([alice, "hard", bob], seed=SEED))
    data = record_dict(game)
    assert data["bot_models"] == [None, bots.learned.default_model().version, None]
    # Replaying ignores it, and the record still replays to the stored result.
    assert replay(load_record(data)).state.outcome.chips == tuple(game.chips)
    # It is the model the bot was dealt in with, kept with the game: a later release's
    # model does not rename it.
    Game.objects.filter(pk=game.pk).update(bot_models=[None, "discard-lr-000000000000", None])
    game.refresh_from_db()
    assert record_dict(game)["bot_models"] == [None, "discard-lr-000000000000", None]
