"""``manage.py check --deploy``: a site whose emails would link to the development address,
or to plain http."""

from __future__ import annotations

from django.conf import settings
from django.core import checks


@checks.register(checks.Tags.security, deploy=True)
def site_url(app_configs, **kwargs) -> list[checks.CheckMessage]:
    if settings.TONGITS_SITE_URL.startswith("https://"):
        return []
    return [
        checks.Warning(
            f"TONGITS_SITE_URL is {settings.TONGITS_SITE_URL!r}: emails' links (a page, "
            "the unsubscribe link) would not reach the site over https.",
            hint="Set TONGITS_SITE_URL to the site's https:// address (docs/notifications.md).",
            id="notifications.W001",
        )
    ]
