"""The address a visitor is counted under, by the log-in lockout and Play now's limit on
guest accounts (tongits_site/client_ip.py): whatever our proxy's X-Forwarded-For entry
says, the answer is never a 500; an IPv6 visitor counts as their /64 and an IPv4 one
written as IPv6 as the IPv4 address. Meant for PostgreSQL, whose ``inet`` columns refuse
a value that is not an address (DATABASE_URL)."""

from __future__ import annotations

import logging

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts.models import Profile
from tests.conftest import PASSWORDS

pytestmark = pytest.mark.django_db
User = get_user_model()
PROXY = "10.0.0.2"


def play_now(remote: str = PROXY, forwarded_for: str | None = None) -> int:
    """Play now from a fresh browser; the response's status."""
    extra = {"REMOTE_ADDR": remote}
    if forwarded_for is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded_for
    return Client().post(reverse("play_now"), **extra).status_code


def log_in(name: str, password: str, remote: str = PROXY, forwarded_for: str | None = None):
    extra = {"REMOTE_ADDR": remote}
    if forwarded_for is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded_for
    form = {"username": name, "password": password}
    return Client().post(reverse("login"), form, **extra).status_code


def guest_addresses() -> list[str | None]:
    return list(Profile.objects.filter(is_guest=True).values_list("guest_address", flat=True))


def warnings_of_client_ip(caplog) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "tongits_site.client_ip" and r.levelno == logging.WARNING
    ]


# --- What our proxy's entry says ----------------------------------------------------------


@pytest.mark.parametrize("entry", ["proxy.example", "unknown", "203.0.113.7:80:80", "9" * 3000])
def test_play_now_behind_the_proxy_with_an_entry_that_is_no_address_counts_the_proxy(
    settings, caplog, entry
):
    settings.TONGITS_TRUSTED_PROXIES = 1
    caplog.set_level(logging.WARNING, logger="tongits_site.client_ip")

    status = play_now(forwarded_for=f"198.51.100.1, {entry}")

    assert status == 302
    assert guest_addresses() == [PROXY]
    [warning] = warnings_of_client_ip(caplog)
    assert entry[:20] in warning and len(warning) < 300  # the value cut short


@pytest.mark.parametrize(
    "entry, counted",
    [
        ("203.0.113.7:51234", "203.0.113.7"),
        ("[2001:db8:1:2::7]:443", "2001:db8:1:2::"),
        ("[2001:db8:1:2::7]", "2001:db8:1:2::"),
        ("[::ffff:203.0.113.7]:443", "203.0.113.7"),
    ],
)
def test_a_port_after_the_proxys_entry_is_dropped(settings, caplog, entry, counted):
    settings.TONGITS_TRUSTED_PROXIES = 1
    caplog.set_level(logging.WARNING, logger="tongits_site.client_ip")

    assert play_now(forwarded_for=entry) == 302

    assert guest_addresses() == [counted]
    assert warnings_of_client_ip(caplog) == []


def test_logging_in_behind_the_proxy_with_an_entry_that_is_no_address_is_no_500(
    settings, caplog, alice
):
    settings.TONGITS_TRUSTED_PROXIES = 1
    caplog.set_level(logging.WARNING, logger="tongits_site.client_ip")

    assert log_in("alice", "wrong", forwarded_for="x" * 3000) == 200
    assert log_in("alice", PASSWORDS["alice"], forwarded_for="proxy.example:80") == 302
    # One line per request, however often the lockout asks for the address.
    assert len(warnings_of_client_ip(caplog)) == 2


# --- IPv6 networks and IPv4 written as IPv6 -----------------------------------------------


def test_play_now_counts_the_guests_of_an_ipv6_64_together(settings):
    settings.TONGITS_GUESTS_PER_ADDRESS_PER_HOUR = 3

    for n in range(1, 6):
        play_now(remote=f"2001:db8:1:2::{n:x}")
    assert User.objects.count() == 3  # the 4th and 5th addresses of that /64 were refused

    play_now(remote="2001:db8:1:3::1")  # the next /64 is someone else
    assert User.objects.count() == 4


def test_play_now_counts_an_ipv4_address_written_as_ipv6_as_that_address(settings):
    settings.TONGITS_GUESTS_PER_ADDRESS_PER_HOUR = 2

    for remote in ["203.0.113.7", "::ffff:203.0.113.7", "::ffff:cb00:7107"]:
        play_now(remote=remote)

    assert guest_addresses() == ["203.0.113.7", "203.0.113.7"]


def test_behind_the_proxy_the_guests_of_an_ipv6_64_count_together(settings):
    settings.TONGITS_TRUSTED_PROXIES = 1
    settings.TONGITS_GUESTS_PER_ADDRESS_PER_HOUR = 2

    for n in range(1, 5):
        play_now(forwarded_for=f"2001:db8:1:2:{n}::1")

    assert guest_addresses() == ["2001:db8:1:2::", "2001:db8:1:2::"]


def test_five_wrong_passwords_from_one_ipv6_64_lock_that_name_there(alice, bob):
    tries = [log_in("alice", "wrong", remote=f"2001:db8:1:2::{n}") for n in range(1, 6)]

    assert tries == [200] * 4 + [429]
    assert log_in("alice", PASSWORDS["alice"], remote="2001:db8:1:2:ffff::9") == 429
    assert log_in("alice", PASSWORDS["alice"], remote="2001:db8:1:3::1") == 302
    assert log_in("bob", PASSWORDS["bob"], remote="2001:db8:1:2::1") == 302


def test_wrong_passwords_from_an_ipv4_address_and_its_ipv6_form_count_together(settings, alice):
    settings.TONGITS_TRUSTED_PROXIES = 1
    forms = ["203.0.113.7", "::ffff:203.0.113.7", "[::ffff:203.0.113.7]:443"]

    tries = [log_in("alice", "wrong", forwarded_for=forms[n % 3]) for n in range(5)]

    assert tries == [200] * 4 + [429]
    assert log_in("alice", PASSWORDS["alice"], forwarded_for="203.0.113.7") == 429
    assert log_in("alice", PASSWORDS["alice"], forwarded_for="198.51.100.4") == 302
