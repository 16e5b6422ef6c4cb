"""A refusal is one line in the log: a 403 page or a refused admin lookup logs its status,
method, path and reason at WARNING, without the traceback Django would write (a probe's
logs held 677 of them), and never the query string, which may hold a secret's guess."""

from __future__ import annotations

import logging

import pytest
from django.urls import reverse

from games.play import tables
from games.series import services as series

pytestmark = pytest.mark.django_db


@pytest.fixture
def logged(caplog) -> pytest.LogCaptureFixture:
    """WARNING and above, of every logger. Django's own do not reach the root
    (settings.py), so the capture also hangs on "django", after the site's console handler,
    whose filter (tongits_site.log_filters.RefusalsInOneLine) has made its line by then.
    Its records are read at the end: pytest starts a new list for the test itself."""
    django_logger = logging.getLogger("django")
    django_logger.addHandler(caplog.handler)
    caplog.set_level(logging.WARNING)
    yield caplog
    django_logger.removeHandler(caplog.handler)


def test_a_403_page_logs_one_warning_line_without_a_traceback(client, alice, bob, caplog, logged):
    made = series.create_series(alice, ante=1, others=("greedy", "greedy"), public=False)
    client.force_login(bob)

    response = client.get(f"/series/{made.pk}/", {"token": "s3cret-guess"})

    assert response.status_code == 403
    [line] = logged.records
    assert line.levelno == logging.WARNING and line.exc_info is None
    assert (
        line.getMessage()
        == f"403 GET /series/{made.pk}/: PermissionDenied: This series is private."
    )
    assert "Traceback" not in caplog.text and "s3cret-guess" not in caplog.text


@pytest.mark.parametrize(
    "lookup, reason",
    [
        # Refused by the site (games/admin_lookups.py): a secret of a game.
        ("seed__startswith=90210", "refused an admin lookup on a secret: seed__startswith"),
        # Refused by Django's admin: a field its list does not filter on.
        (
            "created_by__password__startswith=pbkdf2",
            "DisallowedModelAdminLookup: Filtering by created_by__password__startswith",
        ),
    ],
)
def test_a_refused_admin_lookup_logs_one_warning_line_without_a_traceback(
    admin_client, alice, caplog, logged, lookup, reason
):
    tables.quick_play(alice)
    url = reverse("admin:games_game_changelist")

    response = admin_client.get(f"{url}?{lookup}")

    assert response.status_code == 400
    [line] = logged.records
    assert line.levelno == logging.WARNING and line.exc_info is None
    assert line.getMessage().startswith(f"400 GET {url}: ")
    assert reason in line.getMessage()
    value = lookup.split("=")[1]
    assert "Traceback" not in caplog.text and value not in caplog.text


def test_a_500_keeps_its_traceback_at_error(client, caplog, logged, monkeypatch):
    from games.views import home

    def broken() -> dict:
        raise RuntimeError("the site got this wrong")

    monkeypatch.setattr(home, "live_counts", broken)
    client.raise_request_exception = False

    assert client.get("/", {"token": "s3cret"}).status_code == 500

    [line] = logged.records
    assert line.levelno == logging.ERROR and line.exc_info is not None
