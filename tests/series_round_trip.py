"""A series' record, round-tripped at any moment (issue 23): ``round_trip(series, user,
client)`` downloads the record as the site serves it (the download view, through the test
client), replays it with ``manage.py replay``'s own code, uploads it through the upload page,
downloads and replays the stored copy, and checks that everything the record says agrees
with what the site stored (the games' rows and move logs, the series' row) and shows (the
series panel: pot, streak, standings, shares, the house's part), for the series and its copy.

The record is the series after its last hand that is over: a hand in play is left out with
its antes and nothing of it (its deal, its seed) is in the file; before the first hand is
over there is no record (403). Used by tests/test_series_records.py and, at a random moment
and at the end of every random series, by tests/test_series_paths.py.
"""

from __future__ import annotations

import io
import json
import re
import tempfile
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from games.history.charts import signed
from games.models import OPEN_SEAT, Game
from games.models import Move as MoveRow
from games.series import pages, services
from games.series.models import Hand, Series

OVER = (Game.Status.FINISHED, Game.Status.ABORTED)
# Keys of a hand's record that say which stored game it is, not how it was played.
SITE_KEYS = ("id", "started", "seed", "commitment")
DELETED = "Deleted account"  # what the series' pages call a deleted account's seat


@dataclass(frozen=True)
class Trip:
    """What one round trip saw: the record as downloaded (None before the first hand is
    over), ``manage.py replay``'s output for it, and the uploaded copy."""

    record: dict[str, Any] | None
    printed: dict[str, Any] | None
    copy: Series | None
    moment: str  # "before the deal", "during a hand", "between hands" or "ended"


def round_trip(
    series: Series, user: AbstractBaseUser, client: Client | None = None, seen: dict | None = None
) -> Trip:
    """Download, check, replay, upload and re-download ``series``' record as ``user``
    (who must be allowed to watch it); AssertionError at the first disagreement.

    ``seen``: a dict kept across the round trips of one series, in which a record already
    uploaded and whose copy was checked is kept: the same record again (nothing was over
    since) is checked against the site as always, and its upload must be refused with a
    link to that copy, which is not checked a second time."""
    client = client or Client()
    if client.session.get("_auth_user_id") != str(user.pk):
        client.force_login(user)
    series = Series.objects.get(pk=series.pk)
    st = services.state(series)
    over = list(
        Game.objects.filter(series_hand__series=series, status__in=OVER)
        .exclude(dealer=None)
        .prefetch_related("seats__user")
        .order_by("series_hand__number")
    )
    in_play = None if st.latest.is_over or st.latest.dealer is None else st.latest
    moment = (
        "ended" if series.ended else "during a hand" if in_play is not None
        else "between hands" if st.latest.is_over else "before the deal"
    )  # fmt: skip

    response = client.get(reverse("series_record", args=[series.pk]))
    text = response.content.decode()
    if in_play is not None:  # nothing of the hand in play leaves the site
        assert in_play.seed not in text, "the hand in play's seed is in the download"
    if not over:
        assert response.status_code == 403, (response.status_code, text[:300])
        assert "once its first hand is over" in text
        return Trip(None, None, None, moment)
    assert response.status_code == 200, (response.status_code, text[:300])
    assert "\n" not in text, "a series record is downloaded compactly"
    data = json.loads(text)
    assert data["id"] == series.pk and data["ante"] == series.ante
    assert data["ended"] == series.ended
    assert data["people_at_end"] == sorted(series.people_at_end)

    _hands_are_the_stored_games(data["hands"], over, in_play)
    printed = replay_command(text)
    assert printed.get("ok") is True, printed
    _lines_are_the_stored_results(printed["hands"], over)
    expected = _model(series.ante, printed["hands"], series.ended, series.people_at_end)
    ledger = printed["ledger"]
    assert data["pot"] == ledger["events"] == expected.events, "pot events"
    assert (ledger["pot"], ledger["house"]) == (expected.pot, expected.house)
    assert [s["pots_won"] for s in ledger["standings"]] == expected.pots_won
    assert [s["pot_chips"] for s in ledger["standings"]] == expected.pot_chips

    shown = _the_site_shows_it(client, user, st, printed, expected, in_play, data)
    # Who left: what the record tells (a person's seat a bot holds by the last hand; at the
    # end, a person of the last hand not among the people at the end) is what the site
    # stored; only a leave since the last hand that is over, while the series goes on, is
    # not in the record yet.
    left = left_by_the_record(data)
    assert set(left) <= set(series.left), (left, series.left)
    if series.ended:
        assert left == sorted(series.left), (left, series.left)

    copy = _upload(client, user, text)
    if seen is not None and text in seen:
        assert seen[text] == copy.pk, "the same record was stored twice"
        return Trip(data, printed, copy, moment)
    if seen is not None and copy.pk in seen.values():
        # The same series as a copy stored at an earlier moment, but for the names of
        # accounts deleted since: an upload is known by its games, not by names.
        earlier = json.loads(next(t for t, pk in seen.items() if pk == copy.pk))
        assert _unnamed(earlier) == _unnamed(data), "a different series taken for a copy"
        return Trip(data, printed, copy, moment)
    _copy_is_the_record(
        client, user, copy, data, printed, over, expected, in_play is not None, shown
    )
    if seen is not None:
        seen[text] = copy.pk
    return Trip(data, printed, copy, moment)


# --- The download against the stored games ----------------------------------------------------


def _hands_are_the_stored_games(hands: list[dict], over: list[Game], in_play: Game | None):
    assert len(hands) == len(over), (len(hands), len(over))
    assert in_play is None or in_play.pk not in [h.get("id") for h in hands]
    logs: dict[int, list] = {}
    rows = MoveRow.objects.filter(game__in=over).order_by("game_id", "seq")
    for game_id, payload in rows.values_list("game_id", "payload"):
        logs.setdefault(game_id, []).append(payload)
    for number, (hand, game) in enumerate(zip(hands, over, strict=True), start=1):
        where = f"hand {number} (game {game.pk})"
        assert hand["id"] == game.pk, where
        assert hand["dealer"] == game.dealer == game.deal["dealer"], where
        assert (hand["hands"], hand["stock"]) == (game.deal["hands"], game.deal["stock"]), where
        assert hand["moves"] == logs.get(game.pk, []), where
        assert hand.get("aborted", False) == (game.status == Game.Status.ABORTED), where
        seats = sorted(game.seats.all(), key=lambda s: s.index)
        assert hand["bots"] == [s.bot_kind or None for s in seats], where
        assert hand["players"] == [s.name for s in seats], where
        assert (hand.get("seed"), hand.get("commitment")) == (game.seed, game.commitment), where
        if game.seed:
            assert hand["commitment"] == Game.commit_to(game.seed), where


def _lines_are_the_stored_results(lines: list[dict], over: list[Game]) -> None:
    for number, (line, game) in enumerate(zip(lines, over, strict=True), start=1):
        assert line["hand"] == number and line["ok"], line
        finished = game.status == Game.Status.FINISHED
        assert line["finished"] == finished and line.get("aborted", False) == (not finished)
        if finished:
            stored = (game.winner_seat, game.end, game.points, game.chips, game.burned)
            replayed = (line["winner"], line["end"], line["points"], line["chips"], line["burned"])
            assert stored == replayed, (number, stored, replayed)


# --- The pot, counted apart from games.series.ledger ------------------------------------------


@dataclass
class Model:
    events: list[dict]
    pot: int
    house: int
    streak_seat: int | None
    streak: int
    last_taken: dict | None  # the pot event of the last hand of the record, if it took one
    put_in: list[int]
    pots_won: list[int]
    pot_chips: list[int]
    wins: list[int]
    hand_chips: list[int]


def _model(ante: int, lines: list[dict], ended: bool, people: list[int]) -> Model:
    """The pot from the replayed hands alone, by the rules (rules.md, Series): each hand
    every seat antes; a finished hand extends or starts its winner's streak and a second
    win in a row takes the pot (the streak then starts again); an aborted hand breaks every
    streak and keeps its antes; at the end each seat still held by a person gets back what
    it put into the pot nobody won, and the house keeps the rest."""
    m = Model([], 0, 0, None, 0, None, [0] * 3, [0] * 3, [0] * 3, [0] * 3, [0] * 3)
    for line in lines:
        n = line["hand"]
        for seat in range(3):
            m.events.append({"hand": n, "kind": "ante", "seat": seat, "amount": -ante})
            m.put_in[seat] += ante
            m.pot_chips[seat] -= ante
        m.pot += 3 * ante
        m.last_taken = None
        if not line["finished"]:
            m.streak_seat, m.streak = None, 0
            continue
        w = line["winner"]
        m.wins[w] += 1
        for seat in range(3):
            m.hand_chips[seat] += line["chips"][seat]
        m.streak = m.streak + 1 if m.streak_seat == w else 1
        m.streak_seat = w
        if m.streak == 2:
            m.last_taken = {"hand": n, "kind": "pot", "seat": w, "amount": m.pot}
            m.events.append(m.last_taken)
            m.pots_won[w] += 1
            m.pot_chips[w] += m.pot
            m.pot, m.streak, m.put_in = 0, 0, [0] * 3
    if ended and m.pot:
        for seat in range(3):
            if seat in people:
                m.events.append({"hand": None, "kind": "return", "seat": seat,
                                 "amount": m.put_in[seat]})  # fmt: skip
                m.pot_chips[seat] += m.put_in[seat]
            else:
                m.house += m.put_in[seat]
        if m.house:
            m.events.append({"hand": None, "kind": "house", "seat": None, "amount": m.house})
        m.pot = 0
    assert sum(m.pot_chips) + m.pot + m.house == 0
    return m


# --- What the site shows --------------------------------------------------------------------


def _the_site_shows_it(client, user, st, printed: dict, m: Model, in_play, data: dict) -> dict:
    """The series panel (what the table and the screen between hands show) says what the
    record replays to; with a hand in play, three antes more in the pot, one from each seat."""
    shown = _panel(client, st, user)
    extra = st.series.ante if in_play is not None else 0
    assert shown["pot"] == m.pot + 3 * extra, (shown["pot"], m.pot, extra)
    assert shown["ended"] == data["ended"]
    assert shown["hands"] == len(st.hands)
    standings = printed["ledger"]["standings"]
    for row, s in zip(shown["rows"], standings, strict=True):
        seat = row.seat
        assert (row.wins, row.pots_won) == (s["wins"], s["pots_won"]) == (
            m.wins[seat], m.pots_won[seat],
        ), seat  # fmt: skip
        assert s["hand_chips"] == m.hand_chips[seat]
        assert row.hand_chips == signed(s["hand_chips"]), seat
        assert row.pot_chips == signed(s["pot_chips"] - extra), seat
        assert row.net == signed(s["net"] - extra), seat
        assert row.left == (seat in st.series.left)
    names = [row.name for row in shown["rows"]]
    if in_play is None:
        # A record names a deleted account's seat as its game record does, an open seat;
        # the series' pages call it what it is (``pages.seat_name``).
        players = data["hands"][-1]["players"]
        assert names == [DELETED if p == OPEN_SEAT else p for p in players]
    # The streak: a pot the last hand took, else who has won how many in a row; a hand in
    # play has taken nothing yet.
    if in_play is None and m.last_taken is not None:
        said = f"{names[m.last_taken['seat']]} won 2 in a row and took the pot of "
        assert shown["streak"] == said + f"{m.last_taken['amount']}.", shown["streak"]
    elif m.streak_seat is not None and m.streak:
        assert shown["streak"] == f"{names[m.streak_seat]} has won {m.streak} in a row."
    else:
        assert shown["streak"] == "", shown["streak"]
    # The end: each share returned, and what the house keeps of whose seats.
    returns = [(names[e["seat"]], e["amount"]) for e in m.events if e["kind"] == "return"]
    assert shown["returns"] == returns
    assert shown["house"] == m.house
    assert sum(amount for _, amount, _ in shown["kept"]) == m.house
    return shown


def _panel(client, st: services.State, user) -> dict[str, Any]:
    """What the series panel beside its newest hand shows (``games.series.pages.context``,
    which the view renders), checked against the panel's HTML as served."""
    url = reverse("series_panel", args=[st.series.pk])
    response = client.get(url, {"game": st.latest.pk})
    assert response.status_code == 200, response.status_code
    html = response.content.decode()
    shown = pages.context(st, user, shown_hand=st.hands[-1].number)["series"]
    assert f'<span id="series-pot">{shown["pot"]}</span>' in html, shown["pot"]
    if shown["streak"]:
        assert f'<span class="series-streak">{escape(shown["streak"])}</span>' in html
    else:
        assert "series-streak" not in html
    for row in shown["rows"]:
        labels = ("Hands won", "Net chips", "Pots won")
        figures = (row.wins, row.net, row.pots_won)
        cells = "".join(
            f'<td class="num" data-label="{label}">{v}</td>'
            for label, v in zip(labels, figures, strict=True)
        )
        assert f"{escape(row.name)}" in html and cells in html, (row, html)
    return shown


# --- The upload and its copy ------------------------------------------------------------------


def replay_command(text: str) -> dict[str, Any]:
    """What ``manage.py replay FILE`` prints for a record, checked to exit 0."""
    with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
        f.write(text)
        f.flush()
        out = io.StringIO()
        try:
            call_command("replay", f.name, stdout=out)
        except SystemExit as e:
            raise AssertionError(f"replay exits {e.code}: {out.getvalue()}") from None
    return json.loads(out.getvalue())


def _upload(client, user, text: str) -> Series:
    """The record through the upload page: stored, or (uploaded by ``user`` already, at an
    earlier moment of the same series) refused with a link to the copy stored then."""
    record = SimpleUploadedFile("series.json", text.encode(), "application/json")
    response = client.post(reverse("upload_record"), {"record": record})
    if response.status_code == 409:
        game = response.context["stored"]
        assert game.created_by_id == user.pk
    else:
        assert response.status_code == 302, response.content.decode()[-600:]
        found = re.search(r"/games/(\d+)/replay/", response["Location"])
        assert found, response["Location"]
        game = Game.objects.get(pk=int(found.group(1)))
    hand = Hand.objects.select_related("series").get(game=game)
    assert hand.number == 1
    return hand.series


def _copy_is_the_record(
    client, user, copy: Series, data: dict, printed: dict, over: list[Game], m: Model,
    in_play: bool, shown_before: dict,
):  # fmt: skip
    """The stored copy holds the record's hands as played, with the seats' bots and names,
    and downloads and replays as the same record; its panel shows the same pot."""
    assert copy.imported and copy.ante == data["ante"] and copy.ended == data["ended"]
    assert copy.people_at_end == data["people_at_end"]
    games = list(
        Game.objects.filter(series_hand__series=copy)
        .prefetch_related("seats")
        .order_by("series_hand__number")
    )
    assert len(games) == len(over)
    for game, original in zip(games, over, strict=True):
        assert game.imported and game.status == original.status
        assert (game.deal, game.dealer, game.seq) == (original.deal, original.dealer, original.seq)
        result = (game.winner_seat, game.chips, game.points, game.burned, game.end)
        assert result == (
            original.winner_seat, original.chips, original.points, original.burned, original.end,
        )  # fmt: skip
        seats = sorted(game.seats.all(), key=lambda s: s.index)
        was = sorted(original.seats.all(), key=lambda s: s.index)
        assert [s.bot_kind for s in seats] == [s.bot_kind for s in was]
        assert [s.name for s in seats] == [s.name for s in was]
    response = client.get(reverse("series_record", args=[copy.pk]))
    assert response.status_code == 200
    again = json.loads(response.content)
    for key in ("format", "ante", "dealer_rule", "ended", "people_at_end", "pot"):
        assert again[key] == data[key], key
    assert _as_played(again["hands"]) == _as_played(data["hands"])
    assert replay_command(response.content.decode()) == printed
    # Its panel shows what the record replays to, as the series' own panel does.
    shown = _the_site_shows_it(client, user, services.state(copy), printed, m, None, data)
    assert shown["hands"] == len(data["hands"]) and shown["ended"] == data["ended"]
    if not in_play:  # the same last hand: the same result screen
        assert (shown["result"], shown["streak"]) == (
            shown_before["result"],
            shown_before["streak"],
        )
    left = left_by_the_record(data)
    assert copy.left == left and [r.seat for r in shown["rows"] if r.left] == left
    assert (shown["returns"], shown["kept"]) == (shown_before["returns"], shown_before["kept"])


def _unnamed(data: dict) -> dict:
    """A series record without its players' names but for the bots' (which say who sat
    where), and without what only the site writes."""
    hands = [
        {**h, "players": [p if h["bots"][i] else None for i, p in enumerate(h["players"])]}
        for h in _as_played(data["hands"])
    ]
    return {**data, "id": None, "hands": hands}


def left_by_the_record(data: dict) -> list[int]:
    """The seats whose person left the series, as far as its record tells."""
    bots = [hand["bots"] for hand in data["hands"]]
    people = {seat for kinds in bots for seat, kind in enumerate(kinds) if kind is None}
    last = {seat for seat, kind in enumerate(bots[-1]) if kind is None}
    gone = people - last
    if data["ended"]:
        gone |= last - set(data["people_at_end"])
    return sorted(gone)


def _as_played(hands: list[dict]) -> list[dict]:
    return [{k: v for k, v in h.items() if k not in SITE_KEYS} for h in hands]
