"""Routes of history, replays, records and the staff dashboard (being written)."""

from __future__ import annotations

urlpatterns: list = []
