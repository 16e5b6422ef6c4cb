"""The log-in lockout counts wrong passwords per username and client address together.
Behind our reverse proxy (TONGITS_TRUSTED_PROXIES) the client's address comes from the
X-Forwarded-For the proxy appended; without that setting the header is ignored, so no
client can choose the address its failures are counted under."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.conftest import PASSWORDS
from tests.test_settings import fresh_settings

pytestmark = pytest.mark.django_db
PROXY = "10.0.0.2"


def log_in(name: str, password: str, forwarded_for: str | None) -> int:
    """A log in through the proxy, from a fresh browser; the response's status."""
    extra = {"REMOTE_ADDR": PROXY}
    if forwarded_for is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded_for
    form = {"username": name, "password": password}
    return Client().post(reverse("login"), form, **extra).status_code


def five_wrong_passwords(name: str, forwarded_for: str | None) -> None:
    # The fifth is already answered with the lockout page.
    assert [log_in(name, "wrong", forwarded_for) for _ in range(5)] == [200] * 4 + [429]


def test_behind_the_proxy_five_wrong_passwords_lock_that_name_from_that_client_only(
    settings, alice, bob
):
    settings.TONGITS_TRUSTED_PROXIES = 1

    five_wrong_passwords("alice", "203.0.113.7")

    assert log_in("alice", PASSWORDS["alice"], "203.0.113.7") == 429
    assert log_in("bob", PASSWORDS["bob"], "203.0.113.7") == 302
    assert log_in("alice", PASSWORDS["alice"], "198.51.100.4") == 302


def test_behind_the_proxy_only_the_address_the_proxy_appended_counts(settings, alice):
    settings.TONGITS_TRUSTED_PROXIES = 1

    # The attacker writes a different first address each time; the proxy appends theirs.
    for n in range(5):
        log_in("alice", "wrong", f"192.0.2.{n}, 203.0.113.7")

    assert log_in("alice", PASSWORDS["alice"], "203.0.113.7") == 429
    assert log_in("alice", PASSWORDS["alice"], "198.51.100.4") == 302


def test_with_two_proxies_the_client_is_the_second_address_from_the_right(settings, alice):
    settings.TONGITS_TRUSTED_PROXIES = 2

    five_wrong_passwords("alice", "203.0.113.7, 10.0.0.1")

    assert log_in("alice", PASSWORDS["alice"], "203.0.113.7, 10.0.0.1") == 429
    assert log_in("alice", PASSWORDS["alice"], "198.51.100.4, 10.0.0.1") == 302


def test_without_the_proxy_setting_the_header_is_ignored_and_cannot_dodge_the_lockout(
    settings, alice, bob
):
    settings.TONGITS_TRUSTED_PROXIES = 0

    five_wrong_passwords("alice", "203.0.113.7")

    assert log_in("alice", PASSWORDS["alice"], "198.51.100.4") == 429  # same peer address
    assert log_in("bob", PASSWORDS["bob"], "203.0.113.7") == 302


def test_the_number_of_trusted_proxies_is_read_from_the_environment():
    assert fresh_settings("TONGITS_TRUSTED_PROXIES").stdout.strip() == "0"
    assert (
        fresh_settings("TONGITS_TRUSTED_PROXIES", TONGITS_TRUSTED_PROXIES="1").stdout.strip() == "1"
    )
