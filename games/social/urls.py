"""Routes of the Friends page and its forms (each takes a person's, a challenge's or a
finished game's id as ``pk``)."""

from __future__ import annotations

from django.urls import path

import tongits_site.converters  # noqa: F401 (registers <id:...> and <name:...>)
from games.social import views

urlpatterns = [
    path("friends/", views.friends, name="friends"),
    path("news/", views.news, name="news"),
    path("friends/add/", views.add_friend, name="add_friend"),
    path("friends/presence/", views.presence_setting, name="presence_setting"),
    path("friends/<id:pk>/request/", views.request_friend, name="request_friend"),
    path("friends/<id:pk>/accept/", views.accept_friend, name="accept_friend"),
    path("friends/<id:pk>/decline/", views.decline_friend, name="decline_friend"),
    path("friends/<id:pk>/remove/", views.remove_friend, name="remove_friend"),
    path("friends/<id:pk>/block/", views.block, name="block"),
    path("friends/<id:pk>/unblock/", views.unblock, name="unblock"),
    path("friends/<id:pk>/challenge/", views.challenge, name="challenge"),
    path("challenges/<id:pk>/accept/", views.accept_challenge, name="accept_challenge"),
    path("challenges/<id:pk>/decline/", views.decline_challenge, name="decline_challenge"),
    path("challenges/<id:pk>/cancel/", views.cancel_challenge, name="cancel_challenge"),
    path("games/<id:pk>/rematch/", views.rematch, name="rematch"),
]
