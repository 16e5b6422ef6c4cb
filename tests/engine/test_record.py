"""The tongits-record/1 format (docs/record.md): moves as dicts, loading, replaying, summaries."""

from __future__ import annotations

import json

import pytest

from games.engine import InvalidMoveError, Move, Record, RecordError, load_record, replay
from games.engine.record import replay_text, summary

from .conftest import deal, move_dict, opened_record, parse, play

ALL_KINDS = [
    "0 draw",
    "1 take KD KS",
    "2 meld 7C 8C 9C",
    "0 secret 5C 5D 5H 5S",
    "1 layoff 3 TC JC",
    "2 discard KH",
    "0 call",
    "1 fold",
    "2 fight",
]


@pytest.mark.parametrize("text", ALL_KINDS)
def test_a_move_round_trips_through_its_dict(text: str) -> None:
    move = parse(text)
    assert Move.from_dict(move.to_dict()) == move
    assert Move.from_dict(json.loads(json.dumps(move.to_dict()))) == move


def test_the_order_of_cards_in_a_move_does_not_matter() -> None:
    assert parse("2 meld 9C 7C 8C") == parse("2 meld 7C 8C 9C")


def test_keys_a_move_does_not_name_are_ignored() -> None:
    data = {"seat": 0, "type": "draw", "cards": ["AS"], "at": "2024-01-01", "meld": 3}
    assert Move.from_dict(data) == parse("0 draw")
    data = {"seat": 2, "type": "discard", "card": "KH", "cards": ["AS", "2S"]}
    assert Move.from_dict(data) == parse("2 discard KH")


@pytest.mark.parametrize(
    "data",
    [
        "draw",
        ["draw"],
        None,
        {"seat": 0},
        {"seat": 0, "type": "pass"},
        {"seat": 0, "type": "Draw"},
        {"seat": 3, "type": "draw"},
        {"seat": -1, "type": "draw"},
        {"seat": "0", "type": "draw"},
        {"seat": True, "type": "draw"},
        {"seat": 0.0, "type": "draw"},
        {"type": "draw"},
        {"seat": 0, "type": "discard"},
        {"seat": 0, "type": "discard", "card": "10H"},
        {"seat": 0, "type": "discard", "card": "kh"},
        {"seat": 0, "type": "discard", "card": ["KH"]},
        {"seat": 0, "type": "meld"},
        {"seat": 0, "type": "meld", "cards": "7C 8C 9C"},
        {"seat": 0, "type": "meld", "cards": ["7C", "8C", "9c"]},
        {"seat": 0, "type": "meld", "cards": ["7C", "8C", "8C"]},
        {"seat": 0, "type": "layoff", "cards": ["7C"]},
        {"seat": 0, "type": "layoff", "meld": -1, "cards": ["7C"]},
        {"seat": 0, "type": "layoff", "meld": "0", "cards": ["7C"]},
        {"seat": 0, "type": "take", "cards": None},
    ],
)
def test_a_malformed_move_is_refused_as_invalid(data: object) -> None:
    with pytest.raises(InvalidMoveError):
        Move.from_dict(data)


def good_record() -> dict:
    return deal(hands=["7C 7D 7S KH", "", ""], stock="QS", moves=["0 meld 7C 7D 7S"])


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (lambda r: r.update(format="tongits-record/2"), "format"),
        (lambda r: r.pop("format"), "no format"),
        (lambda r: r.update(dealer=3), "dealer 3"),
        (lambda r: r.update(dealer="0"), "dealer as text"),
        (lambda r: r.pop("dealer"), "no dealer"),
        (lambda r: r.update(dealer=1), "the dealer holds 12 cards"),
        (lambda r: r["hands"][1].append(r["stock"].pop()), "13 cards for a non-dealer"),
        (lambda r: r["stock"].__setitem__(0, r["hands"][1][0]), "a card twice"),
        (lambda r: r["stock"].pop(), "a card missing"),
        (lambda r: r["stock"].__setitem__(0, "10S"), "card text"),
        (lambda r: r.update(hands=r["hands"][:2]), "two hands"),
        (lambda r: r.pop("moves"), "no moves"),
        (lambda r: r.update(moves={"0": "draw"}), "moves not a list"),
        (lambda r: r.update(variants=["jokers"]), "unknown variant"),
        (lambda r: r.update(variants="held-melds-free"), "variants not a list"),
        (lambda r: r.update(variants=[[]]), "a variant that is a list"),
        (lambda r: r.update(variants=[{"held-melds-free": 1}]), "a variant that is an object"),
    ],
)
def test_an_unreadable_record_is_refused(change, why: str) -> None:
    record = good_record()
    change(record)
    with pytest.raises(RecordError):
        load_record(record)
    result, status = replay_text(json.dumps(record))
    assert (result["ok"], result["move"], status) == (False, None, 2), why


def test_text_that_is_not_a_json_object_is_unreadable() -> None:
    for text in ("", "{", "[]", '"record"', "null", "[" * 100_000):  # the last: nested deep
        result, status = replay_text(text)
        assert (result["ok"], result["move"], status) == (False, None, 2)


def test_keys_the_record_does_not_name_are_ignored() -> None:
    record = {**good_record(), "players": ["alice", "bob", "carol"], "id": 4, "started": 1}
    assert replay_text(json.dumps(record)) == replay_text(json.dumps(good_record()))


def test_an_empty_move_list_is_a_game_that_has_not_started() -> None:
    record = deal(hands=["", "", ""], dealer=2)
    assert replay_text(json.dumps(record)) == ({"ok": True, "finished": False, "turn": 2}, 0)


def test_replay_stops_at_the_first_illegal_move_and_says_which() -> None:
    record = good_record()
    record["moves"] += [move_dict("0 discard KH"), move_dict("2 draw"), move_dict("1 draw")]
    result = replay(load_record(record))
    assert (result.ok, result.error_move, len(result.applied)) == (False, 2, 2)
    assert result.state == play(
        deal(hands=["7C 7D 7S KH", "", ""], stock="QS", moves=["0 meld 7C 7D 7S", "0 discard KH"])
    )
    assert summary(result) == {"ok": False, "move": 2, "error": result.error}
    out, status = replay_text(json.dumps(record))
    assert (out["ok"], out["move"], status) == (False, 2, 1)


def test_a_malformed_move_is_illegal_like_any_other() -> None:
    record = good_record()
    record["moves"] += [{"seat": 0, "type": "discard", "card": "10H"}]
    out, status = replay_text(json.dumps(record))
    assert (out["ok"], out["move"], status) == (False, 1, 1)


def test_a_pending_call_reports_the_seat_that_must_answer() -> None:
    out, status = replay_text(json.dumps(opened_record(moves=["0 call", "1 fold"])))
    assert (out, status) == ({"ok": True, "finished": False, "turn": 2}, 0)


def test_a_finished_game_reports_winner_end_points_burned_and_chips() -> None:
    out, status = replay_text(json.dumps(opened_record(opens="01", moves=["0 call", "1 fold"])))
    assert status == 0
    assert out == {
        "ok": True,
        "finished": True,
        "winner": 0,
        "end": "draw",
        "points": [69, 69, 75],
        "burned": [False, False, True],
        "chips": [5, -2, -3],
    }
    assert list(out)[:2] == ["ok", "finished"]


def test_a_record_dumps_to_the_same_dict_it_was_loaded_from() -> None:
    raw = opened_record(moves=["0 call", "1 fight", "2 fold"], variants=["held-melds-free"])
    record = load_record(json.dumps(raw))
    assert record.to_dict() == raw
    again = Record(
        record.dealer, record.hands, record.stock, replay(record).applied, record.variants
    )
    assert again.to_dict() == raw
