"""The coach's routes: ask for an analysis of a game, and follow it."""

from __future__ import annotations

from django.urls import path

import tongits_site.converters  # noqa: F401 (registers <id:...> and <name:...>)

from . import views

urlpatterns = [
    path("games/<id:game_id>/analysis/", views.coach, name="analysis"),
]
