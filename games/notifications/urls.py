"""Routes of notifications: a device's push subscription, and the emails' unsubscribe link
(its token is signed; see ``views.unsubscribe``)."""

from __future__ import annotations

from django.urls import path

from games.notifications import views

app_name = "notifications"

urlpatterns = [
    path("notifications/devices/", views.subscribe, name="subscribe"),
    path("notifications/devices/forget/", views.unsubscribe_device, name="forget_device"),
    path("notifications/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
