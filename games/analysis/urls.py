"""The coach's routes: ask for an analysis of a game, and follow it."""

from __future__ import annotations

from django.urls import path

from . import views

urlpatterns = [
    path("games/<int:game_id>/analysis/", views.coach, name="analysis"),
]
