"""The learned discard model (games.bots.learned): reproducible training, inference that
matches the fit, and the model in the repository."""

from __future__ import annotations

import random

from django.core.management import call_command

from games.bots import learned, model_version, training
from games.bots.knowledge import read
from games.engine import apply, new_game, seat_view
from games.engine.moves import DISCARD
from games.engine.state import Phase


def test_train_bot_writes_the_same_file_for_the_same_seed(tmp_path):
    first, second, other = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "c.json"
    call_command("train_bot", "--seed", "3", "--positions", "40", "--out", str(first))
    call_command("train_bot", "--seed", "3", "--positions", "40", "--out", str(second))
    call_command("train_bot", "--seed", "4", "--positions", "40", "--out", str(other))
    assert first.read_bytes() == second.read_bytes()
    assert learned.load(first).version != learned.load(other).version


def test_the_models_inference_gives_the_fits_own_scores():
    positions = training.self_play_positions(5, 40)
    clf, mean, scale = training.fitted(positions, 5)
    model = learned.DiscardModel(training.fit(positions, 5))
    x = training.features_matrix(positions)
    expected = clf.decision_function((x - mean) / scale)
    got = [model.score(row) for row in x.tolist()]
    assert max(abs(a - b) for a, b in zip(got, expected, strict=True)) < 1e-5
    # And it throws the card sklearn ranks first, position by position.
    at = 0
    for rows, _ in positions:
        scores = expected[at : at + len(rows)]
        best = max(range(len(rows)), key=lambda i: (scores[i], -i))
        picked = max(range(len(rows)), key=lambda i: (model.score(rows[i]), -i))
        assert picked == best
        at += len(rows)


def test_the_repository_model_is_small_versioned_and_throws_a_legal_card():
    assert learned.MODEL_PATH.stat().st_size <= 5 * 1024 * 1024
    model = learned.default_model()
    assert model.version.startswith("discard-lr-")
    assert model.meta["positions"] > 0
    state, seen = new_game(random.Random(9).getrandbits(64)), 0
    while state.outcome is None:
        view = seat_view(state, state.turn)
        if view.phase is Phase.PLAY:
            move = model.discard(read(view))
            assert move.type == DISCARD and move in view.legal
            seen += 1
        state = apply(state, view.legal[-1] if view.phase is not Phase.PLAY else move)
    assert seen > 0


def test_only_bots_that_use_the_model_name_its_version():
    assert model_version("normal") is None and model_version(None) is None
    version = learned.default_model().version
    assert model_version("hard") == model_version("search") == version
    assert model_version("hard-learned") == version and model_version("hard-plain") is None
