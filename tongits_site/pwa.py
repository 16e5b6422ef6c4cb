"""What makes the site installable on a phone's home screen: the web app manifest, the
service worker at /sw.js (scope /), and the page it shows when the phone is offline. The
worker also shows the notifications the site pushes (games/notifications).

The worker (static/sw.js) keeps only the offline page and the static files that page
uses; it never stores a table, a game, a series or a socket's frame, which can hold
cards. The server fills in the list of what it keeps, with the static files' hashed
names, and the language of the offline page.
"""

from __future__ import annotations

import hashlib
import json

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

THEME = "#1f6f4a"  # the felt's green, as the icons
# The static files the offline page shows itself with: the worker keeps them.
OFFLINE_STATIC = ("css/site.css", "css/pages.css", "img/icon.svg", "js/offline.js")


def _language(request: HttpRequest) -> str:
    """The language asked for by ``?lang=`` if the site speaks it, else the request's."""
    asked = request.GET.get("lang", "")
    if asked in dict(settings.LANGUAGES):
        return asked
    return translation.get_language() or settings.LANGUAGE_CODE


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: name, icons, colours and where the app starts."""
    data = {
        "name": "Tongits Online",
        "short_name": "Tongits",
        "description": gettext("Tongits, the three-player Filipino rummy game, in the browser."),
        "lang": translation.get_language(),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": THEME,
        "theme_color": THEME,
        "icons": [
            {"src": static("img/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
            {"src": static("img/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("img/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("img/icon-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


def precached(language: str) -> list[str]:
    """What the worker keeps: the offline page in ``language`` and its static files."""
    offline = f"{reverse('offline')}?lang={language}"
    return [offline, *(static(name) for name in OFFLINE_STATIC)]


@require_GET
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """static/sw.js with its list filled in. Served from the root, so its scope is the
    whole site; never cached by the browser, so a new list reaches it at once."""
    language = _language(request)
    source = finders.find("sw.js")
    with open(source, encoding="utf-8") as f:
        text = f.read()
    keep = precached(language)
    version = hashlib.sha256((text + json.dumps(keep)).encode()).hexdigest()[:12]
    text = text.replace('"__PRECACHE__"', json.dumps(keep)).replace("__VERSION__", version)
    text = text.replace('"__OFFLINE__"', json.dumps(keep[0]))
    text = text.replace('"__ICON__"', json.dumps(static("img/icon-192.png")))
    return HttpResponse(text, content_type="text/javascript; charset=utf-8")


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """The page the worker shows for a visit it could not make: a page of its own, with
    nobody's name or token in it, since the worker keeps it."""
    with translation.override(_language(request)):
        return render(request, "offline.html")
