from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from games.notifications import push
from tests.notifications.support import Browser, PushEndpoint


@pytest.fixture
def vapid(settings) -> str:
    """The site's VAPID keys (a fresh pair), push services limited to our own endpoint on
    127.0.0.1, and the site's address for emails' links. The public key."""
    public, private = push.new_vapid_keys()
    settings.TONGITS_VAPID_PUBLIC_KEY = public
    settings.TONGITS_VAPID_PRIVATE_KEY = private
    settings.TONGITS_VAPID_SUBJECT = "mailto:admin@tongits.example.com"
    settings.TONGITS_PUSH_SERVICES = ["127.0.0.1"]
    settings.TONGITS_SITE_URL = "https://tongits.example.com"
    return public


@pytest.fixture
def endpoint() -> Iterator[PushEndpoint]:
    server = PushEndpoint()
    yield server
    server.stop()


@pytest.fixture
def subscribe(vapid, endpoint) -> Callable[..., Browser]:
    """``subscribe(user, "/alice-phone")``: a browser of ``user``'s subscribed to push at
    our endpoint's path, as the Settings page's button would store it."""

    def make(user, path: str) -> Browser:
        browser = Browser()
        push.keep(user.pk, browser.subscription(endpoint.url(path)), "test phone")
        return browser

    return make
