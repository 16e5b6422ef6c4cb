from __future__ import annotations

from django.urls import include, path

from accounts import views

# Not namespaced: Django's auth views reverse plain names such as "password_reset_done".
urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("profile/", views.profile, name="profile"),
    path("settings/", views.account_settings, name="settings"),
    path("claim/", views.claim, name="claim"),
    path("password_change/", views.PasswordChange.as_view(), name="password_change"),
    path("login/", views.LogIn.as_view(), name="login"),
    path("logout/", views.LogOut.as_view(), name="logout"),
    # login, logout, password_change(_done), password_reset(_done|_confirm|_complete)
    path("", include("django.contrib.auth.urls")),
]
