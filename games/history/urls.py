"""Routes of history, replays, records and the staff dashboard."""

from __future__ import annotations

from django.urls import path

import tongits_site.converters  # noqa: F401 (registers <id:...> and <name:...>)
from games.history import dashboard, replays
from games.history import views as history

urlpatterns = [
    path("games/mine/", history.my_games, name="my_games"),
    path("games/mine/records.zip", history.my_records, name="my_records"),
    path("games/upload/", replays.upload_record, name="upload_record"),
    path("games/<id:game_id>/replay/", replays.replay_game, name="replay"),
    path("games/<id:game_id>/record.json", replays.record_json, name="record_json"),
    path("players/<name:username>/", history.player, name="player"),
    path("leaderboard/", history.leaderboard, name="leaderboard"),
    path("staff/dashboard/", dashboard.dashboard, name="staff_dashboard"),
    path("staff/games/<id:game_id>/abort/", dashboard.abort, name="abort_game"),
]
