"""The record loaders (issue 23) over mutated real records: whatever is uploaded or given
to ``manage.py replay`` is a record or one clear message, never another exception."""

from __future__ import annotations

import io
import json
import tempfile

import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.history.records import BadRecord
from games.history.uploads import import_record
from games.management.commands.replay import _replay_file
from games.models import Game
from tests.history_support import scripted_record
from tests.test_series_records import engine_series

JUNK = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6)
    | st.sampled_from(["3C", "TD", "discard", "tongits-record/1", "held-melds-free", "greedy"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)

GAME = {**scripted_record(), "variants": ["held-melds-free"], "seed": "1", "id": 7}
SERIES = engine_series(2, ante=2, seed=5)


def mutated(draw, value: object) -> object:
    """``value`` with one change somewhere inside: a value replaced by junk, a key or an
    item dropped, or one added (three in four times it goes one level deeper first)."""
    if isinstance(value, (dict, list)) and value and draw(st.integers(0, 3)):
        if isinstance(value, dict):
            key = draw(st.sampled_from(sorted(value)))
            return {**value, key: mutated(draw, value[key])}
        i = draw(st.integers(0, len(value) - 1))
        return [*value[:i], mutated(draw, value[i]), *value[i + 1 :]]
    action = draw(st.sampled_from(["replace", "drop", "add"]))
    if action == "replace" or not isinstance(value, (dict, list)):
        return draw(JUNK)
    if isinstance(value, dict):
        if action == "drop" and value:
            key = draw(st.sampled_from(sorted(value)))
            return {k: v for k, v in value.items() if k != key}
        return {**value, draw(st.text(max_size=8)): draw(JUNK)}
    if action == "drop" and value:
        i = draw(st.integers(0, len(value) - 1))
        return [*value[:i], *value[i + 1 :]]
    return [*value, draw(JUNK)]


@st.composite
def records(draw) -> bytes:
    """A real game or series record, changed in one to three places."""
    data = draw(st.sampled_from([GAME, SERIES]))
    for _ in range(draw(st.integers(1, 3))):
        data = mutated(draw, data)
    return json.dumps(data).encode()


def _path(content: bytes) -> str:
    with tempfile.NamedTemporaryFile("wb", suffix=".json", delete=False) as f:
        f.write(content)
    return f.name


@pytest.mark.django_db
def test_a_variant_that_is_not_a_name_is_refused_by_upload_and_replay(client, alice):
    for data in ({**scripted_record(), "variants": [[]]}, {**SERIES, "hands": [
        {**SERIES["hands"][0], "variants": [[]]}, SERIES["hands"][1]
    ]}):  # fmt: skip
        content = json.dumps(data).encode()
        with pytest.raises(BadRecord, match="(?i)variants must be a list of names"):
            import_record(content, alice)
        out = io.StringIO()
        with pytest.raises(SystemExit) as exit_:
            call_command("replay", _path(content), stdout=out)
        assert exit_.value.code == 2
        assert "variants must be a list of names" in json.loads(out.getvalue())["error"]
    assert not Game.objects.exists()


@settings(max_examples=400, deadline=None)
@given(records())
def test_replay_of_any_mutated_record_prints_a_result_or_one_clear_error(content):
    result, status = _replay_file(_path(content))

    assert status in (0, 1, 2)
    json.dumps(result)  # printable
    if status:
        assert result["ok"] is False and isinstance(result["error"], str) and result["error"]
    else:
        assert result["ok"] is True


@pytest.mark.django_db
@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(content=records())
def test_an_upload_of_any_mutated_record_is_stored_or_refused_with_a_message(content, alice):
    try:
        game = import_record(content, alice)
    except BadRecord as e:
        assert str(e)
    else:
        assert game.imported
