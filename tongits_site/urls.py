from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from accounts.languages import set_language

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    # The language switch (a POST form in the menu and the footer); the URLs themselves
    # are the same in every language.
    path("i18n/setlang/", set_language, name="set_language"),
    path("", include("games.urls")),
    path("", include("games.analysis.urls")),
]
