"""Routes of the staff Fair play page."""

from __future__ import annotations

from django.urls import path

import tongits_site.converters  # noqa: F401 (registers <id:...> and <name:...>)

from . import views

urlpatterns = [
    path("staff/fair-play/", views.pairs, name="fairplay_pairs"),
    path("staff/fair-play/<id:pair_id>/", views.pair, name="fairplay_pair"),
    path("staff/fair-play/act/", views.act, name="fairplay_act"),
    path("games/<id:game_id>/report/", views.report_game, name="report_game"),
    path("players/<name:username>/report/", views.report_player, name="report_player"),
]
