"""Routes of the staff Fair play page."""

from __future__ import annotations

from django.urls import path

from . import views

urlpatterns = [
    path("staff/fair-play/", views.pairs, name="fairplay_pairs"),
    path("staff/fair-play/<int:pair_id>/", views.pair, name="fairplay_pair"),
    path("staff/fair-play/act/", views.act, name="fairplay_act"),
    path("games/<int:game_id>/report/", views.report_game, name="report_game"),
    path("players/<str:username>/report/", views.report_player, name="report_player"),
]
