"""Routes of the staff Fair play page."""

from __future__ import annotations

from django.urls import path

from . import views

urlpatterns = [
    path("staff/fair-play/", views.pairs, name="fairplay_pairs"),
    path("staff/fair-play/<int:pair_id>/", views.pair, name="fairplay_pair"),
]
