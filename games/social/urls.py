"""Routes of the Friends page and its forms (each takes a person's, a challenge's or a
finished game's id as ``pk``)."""

from __future__ import annotations

from django.urls import path

from games.social import views

urlpatterns = [
    path("friends/", views.friends, name="friends"),
    path("friends/add/", views.add_friend, name="add_friend"),
    path("friends/presence/", views.presence_setting, name="presence_setting"),
    path("friends/<int:pk>/request/", views.request_friend, name="request_friend"),
    path("friends/<int:pk>/accept/", views.accept_friend, name="accept_friend"),
    path("friends/<int:pk>/decline/", views.decline_friend, name="decline_friend"),
    path("friends/<int:pk>/remove/", views.remove_friend, name="remove_friend"),
    path("friends/<int:pk>/block/", views.block, name="block"),
    path("friends/<int:pk>/unblock/", views.unblock, name="unblock"),
    path("friends/<int:pk>/challenge/", views.challenge, name="challenge"),
    path("challenges/<int:pk>/accept/", views.accept_challenge, name="accept_challenge"),
    path("challenges/<int:pk>/decline/", views.decline_challenge, name="decline_challenge"),
    path("challenges/<int:pk>/cancel/", views.cancel_challenge, name="cancel_challenge"),
    path("games/<int:pk>/rematch/", views.rematch, name="rematch"),
]
