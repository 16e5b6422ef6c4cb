from __future__ import annotations

from django.urls import path

from games.series import views

urlpatterns = [
    path("series/<int:series_id>/", views.series_page, name="series"),
    path("series/<int:series_id>/waiting/", views.waiting, name="series_waiting"),
    path("series/<int:series_id>/panel/", views.panel, name="series_panel"),
    path("series/<int:series_id>/next/", views.next_hand, name="series_next"),
    path("series/<int:series_id>/leave/", views.leave, name="series_leave"),
    path("series/<int:series_id>/end/", views.end, name="series_end"),
    path("series/<int:series_id>/record.json", views.record, name="series_record"),
]
