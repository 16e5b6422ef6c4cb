from __future__ import annotations

from django.urls import path

import tongits_site.converters  # noqa: F401 (registers <id:...> and <name:...>)
from games.series import views

urlpatterns = [
    path("series/<id:series_id>/", views.series_page, name="series"),
    path("series/<id:series_id>/waiting/", views.waiting, name="series_waiting"),
    path("series/<id:series_id>/panel/", views.panel, name="series_panel"),
    path("series/<id:series_id>/next/", views.next_hand, name="series_next"),
    path("series/<id:series_id>/leave/", views.leave, name="series_leave"),
    path("series/<id:series_id>/end/", views.end, name="series_end"),
    path("series/<id:series_id>/record.json", views.record, name="series_record"),
]
