from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from accounts.models import Profile, display_name_for
from tests.conftest import PASSWORDS

pytestmark = pytest.mark.django_db


def logged_in_username(client) -> str | None:
    user = client.get(reverse("lobby")).wsgi_request.user
    return user.get_username() if user.is_authenticated else None


def test_it_signs_up_a_new_player_and_logs_them_in(client):
    response = client.post(
        reverse("signup"),
        {"username": "dave", "password1": "pw-dave-123!", "password2": "pw-dave-123!"},
    )

    assert response.status_code == 302
    assert response.url == reverse("lobby")
    assert get_user_model().objects.get(username="dave").email == ""
    assert logged_in_username(client) == "dave"


def test_it_keeps_the_optional_email_given_at_signup(client):
    client.post(
        reverse("signup"),
        {
            "username": "dave",
            "email": "dave@example.com",
            "password1": "pw-dave-123!",
            "password2": "pw-dave-123!",
        },
    )

    assert get_user_model().objects.get(username="dave").email == "dave@example.com"


def test_it_rejects_a_signup_whose_passwords_differ(client):
    response = client.post(
        reverse("signup"),
        {"username": "dave", "password1": "pw-dave-123!", "password2": "pw-dave-124!"},
    )

    assert response.status_code == 200
    assert "didn’t match" in response.content.decode()
    assert not get_user_model().objects.filter(username="dave").exists()


def test_it_logs_in_with_the_right_password(client, alice):
    response = client.post(reverse("login"), {"username": "alice", "password": PASSWORDS["alice"]})

    assert response.status_code == 302
    assert response.url == "/"
    assert logged_in_username(client) == "alice"


@pytest.mark.parametrize(
    ("next_", "lands"),
    [("/games/history/", "/games/history/"), ("abc", "/"), ("https://evil.example/", "/")],
)
def test_logging_in_or_out_follows_next_only_to_a_path_of_this_site(client, alice, next_, lands):
    """A bare word was taken as an address beside the login page's: a 404 once logged in."""
    form = {"username": "alice", "password": PASSWORDS["alice"], "next": next_}
    logged_in = client.post(f"{reverse('login')}?next={next_}", form)
    page = client.get(reverse("login") + f"?next={next_}").content.decode()
    logged_out = client.post(reverse("logout"), {"next": next_})

    assert (logged_in.status_code, logged_in.url) == (302, lands)
    assert (logged_out.status_code, logged_out.url) == (302, lands)
    assert 'value="abc"' not in page


def test_it_refuses_a_wrong_password_with_the_form_again(client, alice):
    response = client.post(reverse("login"), {"username": "alice", "password": "nope"})

    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()
    assert logged_in_username(client) is None


def test_it_logs_out_with_a_post_but_not_with_a_get(client, alice):
    client.force_login(alice)

    assert client.get(reverse("logout")).status_code == 405
    assert logged_in_username(client) == "alice"

    response = client.post(reverse("logout"))

    assert response.status_code == 302
    assert logged_in_username(client) is None


def test_it_saves_a_display_name_from_the_settings_page(client, alice):
    client.force_login(alice)

    response = client.post(reverse("settings"), {"display_name": "Queen of Hearts"})

    assert response.status_code == 302
    assert Profile.objects.get(user=alice).display_name == "Queen of Hearts"
    assert "Queen of Hearts" in client.get(reverse("lobby")).content.decode()


def test_it_creates_the_profile_on_the_first_visit_to_the_settings(client, bob):
    client.force_login(bob)

    response = client.get(reverse("settings"))

    assert response.status_code == 200
    assert Profile.objects.filter(user=bob).exists()
    assert '<label for="id_display_name">' in response.content.decode()


def test_it_shows_the_username_until_a_display_name_is_set(alice, bob):
    Profile.objects.create(user=bob, display_name="Bobby")

    assert display_name_for(alice) == "alice"
    assert display_name_for(bob) == "Bobby"


@pytest.mark.parametrize("name", ["profile", "settings", "claim"])
def test_it_sends_anonymous_visitors_of_their_own_pages_to_log_in(client, name):
    response = client.get(reverse(name))

    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next={reverse(name)}"


def test_my_profile_is_my_player_page(client, alice):
    client.force_login(alice)

    response = client.get(reverse("profile"))

    assert response.status_code == 302
    assert response.url == reverse("player", args=["alice"])
    page = client.get(reverse("lobby")).content.decode()
    assert f'<a href="{reverse("player", args=["alice"])}">My profile</a>' in page
    assert f'<a href="{reverse("settings")}">Settings</a>' in page


def test_it_changes_the_password(client, carol):
    client.force_login(carol)

    response = client.post(
        reverse("password_change"),
        {
            "old_password": PASSWORDS["carol"],
            "new_password1": "new-pw-carol-456!",
            "new_password2": "new-pw-carol-456!",
        },
    )

    assert response.status_code == 302
    assert response.url == reverse("password_change_done")
    carol.refresh_from_db()
    assert carol.check_password("new-pw-carol-456!")
    assert logged_in_username(client) == "carol"


def test_it_emails_a_reset_link_that_sets_a_new_password(client, alice, mailoutbox):
    response = client.post(reverse("password_reset"), {"email": "alice@example.com"})

    assert response.status_code == 302
    assert len(mailoutbox) == 1
    email = mailoutbox[0]
    assert email.to == ["alice@example.com"]
    assert email.subject == "Reset your Tongits Online password"
    link = re.search(r"https?://testserver(/accounts/reset/\S+/)", email.body).group(1)

    # The first visit swaps the token in the URL for one kept in the session.
    form_url = client.get(link).url
    response = client.post(
        form_url, {"new_password1": "reset-pw-789!", "new_password2": "reset-pw-789!"}
    )

    assert response.status_code == 302
    assert response.url == reverse("password_reset_complete")
    alice.refresh_from_db()
    assert alice.check_password("reset-pw-789!")


def test_it_sends_no_email_for_an_unknown_address(client, alice, mailoutbox):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.com"})

    assert response.status_code == 302
    assert mailoutbox == []


def test_it_locks_out_after_five_wrong_passwords_even_with_the_right_one(client, alice):
    for _ in range(5):
        client.post(reverse("login"), {"username": "alice", "password": "wrong"})

    response = client.post(reverse("login"), {"username": "alice", "password": PASSWORDS["alice"]})

    assert response.status_code == 429
    assert "Too many failed log-in attempts" in response.content.decode()
    assert logged_in_username(client) is None


def test_it_does_not_lock_out_another_player_from_the_same_address(client, alice, bob):
    for _ in range(5):
        client.post(reverse("login"), {"username": "alice", "password": "wrong"})

    response = client.post(reverse("login"), {"username": "bob", "password": PASSWORDS["bob"]})

    assert response.status_code == 302
    assert logged_in_username(client) == "bob"
