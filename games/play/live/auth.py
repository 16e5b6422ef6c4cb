"""Who a socket's person is, found on the sockets' database threads.

Channels' ``AuthMiddleware`` looks the session's user up through
``database_sync_to_async``: on the process's one thread for such calls, one socket at a
time, taking a connection from the pool before each lookup and handing it back after
(``close_old_connections``). When many sockets open at once (the herd after a worker
restarts, a round of games ending together) their logins queued there, behind each other
and behind anything else on that thread. Here the same lookup, Channels' own function,
runs on the database threads of arriving sockets (games/play/live/db.py), several at
once, each thread keeping its connection between calls, and never ahead of a move.
"""

from __future__ import annotations

from channels import auth
from channels.sessions import CookieMiddleware, SessionMiddleware

from games.play.live.db import on_arrival

# Channels' get_user without its wrapper: the session's user, checked as Django checks
# it (the backend named in the session, the password's hash), or AnonymousUser.
_user_of = on_arrival(auth.get_user.func)


class AuthMiddleware(auth.AuthMiddleware):
    async def resolve_scope(self, scope):
        scope["user"]._wrapped = await _user_of(scope)


def AuthMiddlewareStack(inner):  # noqa: N802 (named as Channels names its own)
    return CookieMiddleware(SessionMiddleware(AuthMiddleware(inner)))
