"""WSGI entry point, for tools that want one; the site itself runs on ASGI (Daphne)."""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tongits_site.settings")

application = get_wsgi_application()
