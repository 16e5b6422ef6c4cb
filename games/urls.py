from __future__ import annotations

from django.urls import include, path

import tongits_site.converters  # noqa: F401 (registers <id:...> and <name:...>)
from games.views import guide, home, lobby, table

urlpatterns = [
    path("", lobby.lobby, name="lobby"),
    path("how-to-play/", guide.how_to_play, name="how_to_play"),
    path("play/now/", home.play_now, name="play_now"),
    path("live/counts/", home.counts, name="live_counts"),
    path("play/quick/", lobby.quick_play, name="quick_play"),
    path("tables/new/", lobby.new_table, name="new_table"),
    path("tables/<id:game_id>/join/", lobby.join, name="join_table"),
    path("invite/<name:token>/", lobby.invite, name="invite"),
    path("games/<id:game_id>/", table.table, name="table"),
    path("games/<id:game_id>/act/", table.act, name="act"),
    path("games/<id:game_id>/about/", table.about, name="table_about"),
    path("games/<id:game_id>/again/", table.play_again, name="play_again"),
    path("games/<id:game_id>/leave/", table.leave, name="leave_table"),
    path("", include("games.history.urls")),
    path("", include("games.series.urls")),
    path("", include("games.fairplay.urls")),
    path("", include("games.social.urls")),
    path("", include("games.tournaments.urls")),
    path("", include("games.notifications.urls")),
    path("", include("games.daily.urls")),
    path("", include("games.puzzles.urls")),
    path("", include("games.correspondence.urls")),
]
