from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from accounts.languages import set_language
from tongits_site import pwa

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    # The language switch (a POST form in the menu and the footer); the URLs themselves
    # are the same in every language.
    path("i18n/setlang/", set_language, name="set_language"),
    # Installing the site as an app: the manifest, the service worker (its scope is the
    # path it is served from, so the root) and the page it shows offline.
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("offline/", pwa.offline, name="offline"),
    path("", include("games.urls")),
    path("", include("games.analysis.urls")),
]
