from __future__ import annotations

from django.urls import path, re_path

from games.daily import views

urlpatterns = [
    path("daily/", views.today, name="daily"),
    path("daily/play/", views.play, name="daily_play"),
    path("daily/board/", views.board, name="daily_board"),
    re_path(r"^daily/board/(?P<month>\d{4}-\d{2})/$", views.board, name="daily_board_month"),
    re_path(r"^daily/(?P<day>\d{4}-\d{2}-\d{2})/$", views.day, name="daily_day"),
]
