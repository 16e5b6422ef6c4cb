"""The tournament record (tongits-tournament/1): downloaded from a tournament's page, with
only finished games; ``manage.py replay`` replays its games and recomputes the standings,
and says so when a changed record's standings no longer agree."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from games.tournaments import services
from games.tournaments.pairing import BOT_WAIT
from games.tournaments.record import replay_tournament
from tests.test_tournaments import _arena, _end_game


@pytest.fixture
def played(alice, bob, carol):
    """A tournament with two finished games (three people; then one with two bots) and one
    still being played."""
    from django.utils import timezone

    t = _arena(bot_kind="easy")
    for person in (alice, bob, carol):
        services.join(t.pk, person)
    [first] = services.pair(t.pk)
    _end_game(first.pk, away_at_end=False)
    services.pause(t.pk, bob)
    services.pause(t.pk, carol)
    [second] = services.pair(t.pk, timezone.now() + BOT_WAIT)
    _end_game(second.pk, away_at_end=False)
    services.join(t.pk, bob)
    services.join(t.pk, carol)
    [third] = services.pair(t.pk)
    return t, [first, second], third


def _download(client, t) -> dict:
    response = client.get(reverse("tournament_record", args=[t.pk]))
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    return json.loads(response.content)


def test_the_record_holds_the_finished_games_and_no_secret_of_the_one_in_play(client, played):
    t, finished, playing = played
    data = _download(client, t)
    assert data["format"] == "tongits-tournament/1"
    assert [g["id"] for g in data["games"]] == [g.pk for g in finished]
    playing.refresh_from_db()
    assert playing.seed not in json.dumps(data)
    assert data["games"][1]["bots"].count("easy") == 2
    assert [row["games"] for row in data["standings"]] != []


def test_replay_recomputes_the_same_standings(client, played, tmp_path):
    t, _finished, _playing = played
    data = _download(client, t)
    result, status = replay_tournament(data)
    assert status == 0 and result["standings_agree"], result
    assert result["standings"] == data["standings"]
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data))
    out = StringIO()
    call_command("replay", str(path), stdout=out)
    printed = json.loads(out.getvalue())
    assert printed["ok"] and printed["format"] == "tongits-tournament/1"
    assert len(printed["games"]) == 2 and all(g["finished"] for g in printed["games"])


def test_two_entrants_sharing_a_name_stay_two_people_in_the_record(client, alice, bob, carol):
    """Names shown are not unique; the record named people by them, so a replay took two
    people called "Ace" for one and said the record's own standings were wrong."""
    from accounts.models import Profile

    for person in (bob, carol):
        Profile.objects.update_or_create(user=person, defaults={"display_name": "Ace"})
    t = _arena(bot_kind="easy")
    for person in (alice, bob, carol):
        services.join(t.pk, person)
    [first] = services.pair(t.pk)
    _end_game(first.pk, away_at_end=False)

    data = _download(client, t)
    result, status = replay_tournament(data)

    assert sorted(data["entrants"]) == ["Ace (bob)", "Ace (carol)", "alice"]
    assert sorted(data["games"][0]["players"]) == ["Ace (bob)", "Ace (carol)", "alice"]
    assert status == 0 and result["standings_agree"], result
    same = {**data, "entrants": ["alice", "Ace", "Ace"]}
    assert replay_tournament(same) == (
        {"ok": False, "move": None, "error": "entrants must have different names"},
        2,
    )


def test_the_record_of_a_tournament_one_of_whose_people_was_deleted_replays(
    client, alice, bob, carol
):
    """A deleted account's entry goes with it; its seats were written as a person who was
    no entrant, and the site's own record was refused ("played but is no entrant")."""
    t = _arena(bot_kind="easy")
    for person in (alice, bob, carol):
        services.join(t.pk, person)
    [first] = services.pair(t.pk)
    _end_game(first.pk, away_at_end=False)
    seat = first.seats.get(user=bob).index
    bob.delete()

    data = _download(client, t)
    result, status = replay_tournament(data)

    assert data["games"][0]["bots"][seat] == "gone" and len(data["entrants"]) == 2
    assert status == 0 and result["standings_agree"], result


def test_a_name_that_reads_like_anothers_renames_only_those_it_meets(alice, bob, carol):
    from django.contrib.auth import get_user_model

    from accounts.models import Profile
    from games.tournaments.records import _entrant_names

    dave = get_user_model().objects.create_user("dave")
    shown = {alice: "Alice Cruz", bob: "Ace", carol: "Ace", dave: "Ace (bob)"}
    for person, name in shown.items():
        Profile.objects.update_or_create(user=person, defaults={"display_name": name})
    t = _arena(bot_kind="easy")
    for person in shown:
        services.join(t.pk, person)

    names = _entrant_names(list(t.entries.select_related("user")))

    assert names == {
        alice.pk: "Alice Cruz",
        bob.pk: "bob",
        carol.pk: "Ace (carol)",
        dave.pk: "dave",
    }


def test_a_changed_record_is_refused_or_disagrees(client, played):
    t, _finished, _playing = played
    data = _download(client, t)
    worse = json.loads(json.dumps(data))
    worse["standings"][0]["points"] += 5
    result, status = replay_tournament(worse)
    assert status == 1 and not result["standings_agree"]
    away = json.loads(json.dumps(data))
    away["games"][0]["away"] = [0, 1, 2]  # nobody scores from it now
    assert replay_tournament(away)[1] == 1
    other_rules = {**data, "scoring": {**data["scoring"], "win": 5}}
    result, status = replay_tournament(other_rules)
    assert status == 2 and "scoring" in result["error"]
    cut = json.loads(json.dumps(data))
    cut["games"][0]["moves"] = cut["games"][0]["moves"][:-1]  # a game that did not end
    result, status = replay_tournament(cut)
    assert status == 1 and result["games"][0]["finished"] is False


def test_a_private_tournaments_record_needs_its_invite_link(client, alice, bob):
    from django.utils import timezone

    mine = services.create(alice, name="Friends", starts_at=timezone.now())
    client.force_login(bob)
    url = reverse("tournament_record", args=[mine.pk])
    assert client.get(url).status_code == 403
    assert client.get(f"{url}?invite={mine.invite_token}").status_code == 200
