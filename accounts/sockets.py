"""A session's sockets end with it: on log out, on a password change made elsewhere, when
the account is disabled, and when its browser logs in as someone else, every open socket
of that session (or user) is closed with 4401 within moments, so it can neither act nor
receive a hand any longer; so is every socket of an account that is deleted (a guest
removed by ``manage.py remove_guests``, or by staff).

Each socket of a logged-in person joins two groups: one for its session (by a hash of the
key: a group name is no place for a secret) and one for its user. Log out tells the
session's group to close. A password change or a disabled account tells the user's group
to check: each socket closes unless its user is still active with the password hash the
socket was opened with. The session that changed the password is kept: its sockets take
the new hash and the group of the session's new key (Django cycles the key).
"""

from __future__ import annotations

import hashlib
import logging

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction

log = logging.getLogger(__name__)

SESSION_ENDED = 4401
# Set on a user by the password change view, which sends its own notice after Django has
# moved the session to a new key; post_save then leaves it alone.
NOTICE_SENT_BY_VIEW = "_sockets_notice_by_view"


SESSION_KEY_AT_START = "_session_key_at_start"


class SessionKeyAtStart:
    """Middleware, after SessionMiddleware: notes the session key the request came with
    (the cookie's; nothing is loaded), which a log-in replaces before its signal."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        setattr(request, SESSION_KEY_AT_START, request.session.session_key)
        return self.get_response(request)


def session_group(session_key: str) -> str:
    return "session-" + hashlib.sha256(session_key.encode()).hexdigest()[:40]


def user_group(user_pk: object) -> str:
    return f"user-{user_pk}"


class SessionBoundSockets:
    """Mixin for an AsyncWebsocketConsumer: call ``bind_session()`` once the socket is
    accepted. The groups joined are left in ``self.groups``, which Channels leaves on
    disconnect."""

    async def bind_session(self) -> None:
        user = self.scope.get("user")
        session_key = getattr(self.scope.get("session"), "session_key", None)
        if user is None or not user.is_authenticated or not session_key:
            return
        # The hash AuthMiddleware has just checked against the session's.
        self.auth_hash = user.get_session_auth_hash()
        self.session_group = session_group(session_key)
        for group in (self.session_group, user_group(user.pk)):
            await self.channel_layer.group_add(group, self.channel_name)
            self.groups.append(group)

    async def auth_ended(self, event: dict) -> None:
        await self.close(code=SESSION_ENDED)

    async def auth_check(self, event: dict) -> None:
        current = await database_sync_to_async(current_auth_hash)(self.scope["user"].pk)
        if event.get("keep") == self.session_group and current is not None:
            await self._follow_session(event["renamed"], current)
        elif current != self.auth_hash:
            await self.close(code=SESSION_ENDED)

    async def _follow_session(self, group: str, auth_hash: str) -> None:
        # The session that changed the password lives on under a new key.
        await self.channel_layer.group_discard(self.session_group, self.channel_name)
        await self.channel_layer.group_add(group, self.channel_name)
        self.groups = [g for g in self.groups if g != self.session_group] + [group]
        self.session_group, self.auth_hash = group, auth_hash


def current_auth_hash(user_pk: object) -> str | None:
    """The user's session auth hash now, or None if the account is gone or disabled."""
    user = get_user_model().objects.filter(pk=user_pk, is_active=True).first()
    return None if user is None else user.get_session_auth_hash()


def _send(group: str, event: dict) -> None:
    try:
        async_to_sync(get_channel_layer().group_send)(group, event)
    except Exception:
        # The account change stands; a socket left open still fails its next check.
        log.exception("Could not tell the sockets of %s that their session ended.", group)


def session_logged_out(session_key: str | None) -> None:
    if session_key:
        _send(session_group(session_key), {"type": "auth.ended"})


def account_changed(user: AbstractBaseUser) -> None:
    """After a password change, a disabled or a deleted account: each socket checks its
    user (a deleted one's pk is gone from the instance by the commit, so it is read now)."""
    group = user_group(user.pk)
    transaction.on_commit(lambda: _send(group, {"type": "auth.check"}))


def password_changed_here(user: AbstractBaseUser, old_key: str | None, new_key: str) -> None:
    """A password change through a session that stays logged in (under ``new_key``)."""
    event = {"type": "auth.check", "renamed": session_group(new_key)}
    if old_key:
        event["keep"] = session_group(old_key)
    transaction.on_commit(lambda: _send(user_group(user.pk), event))
