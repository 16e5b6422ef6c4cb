"""Who a socket's person is: found after its handshake is answered, on the sockets'
database threads.

Channels' ``AuthMiddleware`` looks the session's user up through
``database_sync_to_async``: on the process's one thread for such calls, one socket at a
time, taking a connection from the pool before each lookup and handing it back after
(``close_old_connections``). When many sockets open at once (the herd after a worker
restarts, a round of games ending together) their logins queued there, behind each other
and behind anything else on that thread. Here the same lookup, Channels' own function,
runs on the database threads of arriving sockets (games/play/live/db.py), several at
once, each thread keeping its connection between calls, and never ahead of a move.

And it is not made before the handshake. A worker offered more than it can serve
(issue 52: 150 tables at one worker, 450 sockets opening) had its arrivals' threads
queued for seconds; a handshake that waited there for its login past the server's
opening-handshake timeout (5 s, Daphne's ``--websocket_connect_timeout``) had its TCP
connection dropped without an answer ("did not receive a valid HTTP response"), and the
consumer left behind was killed while it left its channel (channels_redis's "Unexpected
exception while cleaning-up channel"). Every socket here is accepted first anyway (a
refusal is a 44xx close after it, which the page's script understands), so the
middleware only marks the user as not yet known, and the consumer, once it has accepted,
asks ``identify``: what waits under overload is the first board, never the handshake.
"""

from __future__ import annotations

from channels import auth
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.utils.functional import empty

from games.play.live.db import on_arrival

# Channels' get_user without its wrapper: the session's user, checked as Django checks
# it (the backend named in the session, the password's hash), or AnonymousUser.
_user_of = on_arrival(auth.get_user.func)


class AuthMiddleware(auth.AuthMiddleware):
    async def resolve_scope(self, scope):
        """Nothing before the handshake: the consumer asks ``identify`` after accepting."""


async def identify(scope):
    """The socket's person (a user, or AnonymousUser), looked up once; the scope's
    ``user`` is that person from then on."""
    user = scope.get("user")
    if isinstance(user, auth.UserLazyObject):
        if user._wrapped is empty:
            user._wrapped = await _user_of(scope)
        return user._wrapped
    return user  # a scope made whole already (a test's communicator, say)


def AuthMiddlewareStack(inner):  # noqa: N802 (named as Channels names its own)
    return CookieMiddleware(SessionMiddleware(AuthMiddleware(inner)))
