"""Account events that end sessions' sockets (accounts/sockets.py)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from accounts import sockets


@receiver(user_logged_out)
def close_sockets_on_log_out(sender, request, user, **kwargs) -> None:
    # Sent before Django flushes the session, so the key is still the session's.
    sockets.session_logged_out(request.session.session_key if request else None)


@receiver(user_logged_in)
def close_sockets_of_a_flushed_session_on_log_in(sender, request, user, **kwargs) -> None:
    # A log-in through a browser logged in as someone else (or under an old password)
    # flushes that session with no log-out signal: its sockets end with it, as on log
    # out. SessionKeyAtStart noted the key the request came with; the same person logging
    # in again keeps their key, and a visitor's session has no sockets bound to it.
    old = getattr(request, sockets.SESSION_KEY_AT_START, None) if request else None
    if old and old != request.session.session_key:
        sockets.session_logged_out(old)


@receiver(post_save, sender=get_user_model())
def check_sockets_on_account_change(sender, instance, created, **kwargs) -> None:
    if created or getattr(instance, sockets.NOTICE_SENT_BY_VIEW, False):
        return
    # set_password() keeps the new raw password in _password until save() is done.
    password_changed = getattr(instance, "_password", None) is not None
    if password_changed or not instance.is_active:
        sockets.account_changed(instance)


@receiver(post_delete, sender=get_user_model())
def close_sockets_of_a_deleted_account(sender, instance, **kwargs) -> None:
    # A guest removed by remove_guests, or an account staff deleted: nobody may act or
    # read a hand through a socket opened as it.
    sockets.account_changed(instance)
