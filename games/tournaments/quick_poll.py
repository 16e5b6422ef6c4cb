"""The tournament page's poll answered "nothing new" (204) before the site's middleware
loads a session, a user and their entry through the ORM (issue 52).

A crowd waiting for an arena's start polls every 10 s each; nearly every poll finds what
its watcher was shown unchanged, and the whole request (sessions, the user, CSRF, the
language, messages, the device cookie, three ORM queries) cost 3–5 ms of a worker's CPU
to say so. Here, in front of all that, one such poll costs two raw queries: the session
row, then its person's password hash with their entry and its game. From them the
version the page holds (``views._version``) is computed as the view computes it, with
this worker's board; only if it is unchanged is the answer a 204 here.

Everything else goes on to the view, unchanged: another version, a game to be sent to,
a person waiting to be paired (a series may hold them, which only the view reads), a
private tournament not opened in this browser, a session that does not verify as
``django.contrib.auth.get_user`` would verify it (gone, expired, another backend, a hash
from an old password or secret, an inactive account). So this path never answers what
the view would not: it says "unchanged", and how many rows are left out, which the view
says with its own 204 too.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from importlib import import_module
from types import SimpleNamespace
from urllib.parse import quote

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation
from django.utils.cache import patch_vary_headers
from django.utils.crypto import constant_time_compare, salted_hmac

from games.tournaments import watching

PATH = re.compile(r"^/tournaments/(\d{1,9})/live/$")
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
DB_SESSIONS = "django.contrib.sessions.backends.db"
# As AbstractBaseUser.get_session_auth_hash salts it.
HASH_SALT = "django.contrib.auth.models.AbstractBaseUser.get_session_auth_hash"
FINISHED = ("finished", "aborted")  # Game.Status values whose game is over

SESSION_SQL = "SELECT session_data FROM django_session WHERE session_key = %s AND expire_date > %s"
PERSON_SQL = (
    "SELECT u.password, u.is_active, e.id, e.state, e.game_id, g.status "
    "FROM auth_user u "
    "LEFT JOIN tournaments_entry e ON e.user_id = u.id AND e.tournament_id = %s "
    "LEFT JOIN games_game g ON g.id = e.game_id "
    "WHERE u.id = %s"
)


class QuickPoll:
    """Middleware, after the compression and before the sessions (settings.MIDDLEWARE)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.sessions = (
            import_module(DB_SESSIONS).SessionStore
            if settings.SESSION_ENGINE == DB_SESSIONS
            else None
        )

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "GET" and request.GET.get("v"):
            match = PATH.match(request.path_info)
            if match is not None and self.sessions is not None:
                answer = self.unchanged(request, int(match.group(1)))
                if answer is not None:
                    return answer
        return self.get_response(request)

    def unchanged(self, request: HttpRequest, tournament_id: int) -> HttpResponse | None:
        from games.tournaments import views
        from games.tournaments.standings import board

        t = views._row_for_poll(tournament_id)
        if t is None:
            return None
        found = self.watcher(request, tournament_id)
        if found is None:
            return None
        session, entry, current = found
        if not (t.public or watching.invited(session, t.pk)):
            return None
        if current is not None:  # a game under way: the view sends its person to it
            return None
        state = t.state(timezone.now())
        if views._waits(state, entry, current):
            return None
        b = board(t)
        if not constant_time_compare(
            request.GET["v"], views._version(t, state, b, entry, current, None)
        ):
            return None
        response = HttpResponse(status=204)
        language = self.language(request)
        with translation.override(language):
            response[views.MORE_HEADER] = quote(views._more(b, entry))
        response["Content-Language"] = language
        patch_vary_headers(response, ("Cookie", "Accept-Language"))
        return response

    def watcher(self, request: HttpRequest, tournament_id: int):
        """(session data, entry, game under way) of the poll's browser, or None when only
        the view's own reading can say."""
        key = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
        if not key:
            return {}, None, None  # nobody signed in, no invite opened: a public page's
        with connection.cursor() as cursor:
            cursor.execute(SESSION_SQL, [key, timezone.now()])
            row = cursor.fetchone()
            if row is None:
                return None  # gone or expired: the view makes the browser a new one
            session = self.sessions().decode(row[0])
            if not session:
                return None
            if SESSION_KEY not in session:
                return session, None, None
            if session.get(BACKEND_SESSION_KEY) != MODEL_BACKEND:
                return None
            try:
                user_id = int(session[SESSION_KEY])
            except (TypeError, ValueError):
                return None
            cursor.execute(PERSON_SQL, [tournament_id, user_id])
            person = cursor.fetchone()
        if person is None:
            return None
        password, active, entry_id, entry_state, game_id, status = person
        hashed = salted_hmac(HASH_SALT, password, algorithm="sha256").hexdigest()
        if not active or not constant_time_compare(session.get(HASH_SESSION_KEY, ""), hashed):
            return None
        entry = SimpleNamespace(pk=entry_id, state=entry_state) if entry_id else None
        current = SimpleNamespace(pk=game_id) if game_id and status not in FINISHED else None
        return session, entry, current

    @staticmethod
    def language(request: HttpRequest) -> str:
        """The language LocaleMiddleware would choose (a Tagalog browser's too)."""
        from tongits_site.middleware import _TAGALOG

        header = request.META.get("HTTP_ACCEPT_LANGUAGE")
        if header:
            request.META["HTTP_ACCEPT_LANGUAGE"] = _TAGALOG.sub("fil", header)
        return translation.get_language_from_request(request)
