from __future__ import annotations

from django.urls import path

import tongits_site.converters  # noqa: F401 (registers <id:...> and <name:...>)
from games.tournaments import views, waiting

urlpatterns = [
    path("tournaments/", views.tournaments, name="tournaments"),
    path("tournaments/new/", views.new_tournament, name="new_tournament"),
    path("tournaments/<id:tournament_id>/", views.tournament, name="tournament"),
    path("tournaments/<id:tournament_id>/live/", views.live, name="tournament_live"),
    path("tournaments/<id:tournament_id>/at-table/", views.at_table, name="tournament_at_table"),
    path("tournaments/<id:tournament_id>/join/", views.join, name="tournament_join"),
    path("tournaments/<id:tournament_id>/table/", waiting.waiting_table, name="tournament_table"),
    path("tournaments/<id:tournament_id>/pause/", views.pause, name="tournament_pause"),
    path("tournaments/<id:tournament_id>/withdraw/", views.withdraw, name="tournament_withdraw"),
    path("tournaments/<id:tournament_id>/record.json", views.record, name="tournament_record"),
]
