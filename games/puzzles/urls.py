from __future__ import annotations

from django.urls import path

from games.puzzles import views

urlpatterns = [
    path("puzzles/", views.start, name="puzzles"),
    path("puzzles/<int:puzzle_id>/", views.puzzle, name="puzzle"),
    path("puzzles/<int:puzzle_id>.json", views.puzzle_json, name="puzzle_json"),
]
