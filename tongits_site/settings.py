"""Settings for Tongits Online.

Everything that differs between a laptop and production comes from the environment; the
defaults are for development, so `make run` needs no services and no configuration.
"""

from __future__ import annotations

import json
import os
import re
import warnings
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() not in {"0", "false", "no", "off"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG", True)

DEV_SECRET_KEY = "django-insecure-dev-only-tongits-online"
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", DEV_SECRET_KEY)
if not DEBUG and SECRET_KEY == DEV_SECRET_KEY:
    # A public key would let anyone forge sessions and password-reset links.
    raise ImproperlyConfigured("Set DJANGO_SECRET_KEY when DJANGO_DEBUG=0.")

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,testserver,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", "")

# HTTPS. Off by default, since `make run` serves plain HTTP; the README's production
# example turns each on (`manage.py check --deploy` is then clean).
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", False)
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_SECURE_HSTS_SECONDS", "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", False)
SESSION_COOKIE_SECURE = env_bool("DJANGO_SESSION_COOKIE_SECURE", False)
CSRF_COOKIE_SECURE = env_bool("DJANGO_CSRF_COOKIE_SECURE", False)
# Reverse proxies of ours in front of the site (each appends to X-Forwarded-For): 0 means
# none, and the X-Forwarded-* headers are ignored, since a client could write anything.
TONGITS_TRUSTED_PROXIES = int(os.environ.get("TONGITS_TRUSTED_PROXIES", "0"))
# Our proxy terminates TLS and says so (overwriting whatever the client sent), so the
# SSL redirect, secure cookies and the socket origin check see https behind it.
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_X_FORWARDED_PROTO", "https") if TONGITS_TRUSTED_PROXIES > 0 else None
)

INSTALLED_APPS = [
    # First, so its runserver (ASGI, WebSockets included) replaces the WSGI one.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    # The simple config leaves TEMPLATES alone; the loaders below are set explicitly.
    "template_partials.apps.SimpleAppConfig",
    "axes",
    "games",
    # Before django_tasks_db: its db_worker command (which also requeues analyses whose
    # worker died) stands in for the library's own.
    "games.analysis",
    "games.ratings",
    "games.series",
    "games.fairplay",
    "games.social",
    "games.social.chat",
    "games.tournaments",
    "games.notifications",
    "games.daily",
    "games.puzzles",
    "games.correspondence",
    "accounts",
    "django_tasks",
    "django_tasks_db",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # HTML pages gzipped (below WhiteNoise, so static files never reach it; above all that
    # writes a page). Why BREACH does not apply: tongits_site/middleware.py.
    "tongits_site.middleware.CompressPages",
    # A tournament page's poll that finds nothing new for its watcher: a 204 from two raw
    # queries, before the sessions and the user are loaded (the rest goes on to the view).
    "games.tournaments.quick_poll.QuickPoll",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The session key a request came with: a log-in moves or ends its sockets (accounts/).
    "accounts.sockets.SessionKeyAtStart",
    # The language: the cookie the switch sets, else the browser's Accept-Language (after
    # the sessions, before CommonMiddleware, as Django asks). Before the text check, so even
    # its refusal speaks the visitor's language. URLs carry no language prefix.
    "tongits_site.middleware.TagalogIsFilipino",
    "django.middleware.locale.LocaleMiddleware",
    # Before anything reads a form: a NUL in a query or a form is a 400, never a 500.
    "tongits_site.middleware.RefuseUnstorableText",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A log-in puts the profile's language back: this sets its cookie on the response.
    "accounts.languages.ProfileLanguageCookie",
    "django.contrib.messages.middleware.MessageMiddleware",
    # An admin list's filters that fail as it is made: a 400 that says so, not a 500.
    "tongits_site.middleware.RefuseOddAdminFilters",
    # The device cookie, and who posts forms from which address and device, as keyed
    # hashes (fair play: accounts that share one are told apart at rated tables).
    "games.fairplay.devices.DeviceMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes requires, so it sees the response of the login view.
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    # First, so a locked-out client is refused before its password is even checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "tongits_site.urls"
WSGI_APPLICATION = "tongits_site.wsgi.application"
ASGI_APPLICATION = "tongits_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                # The news and the "Your turn" badge (games.social.context and
                # games.correspondence.context) with the chat's mutes, in one query.
                "tongits_site.person_facts.person",
                "tongits_site.csrf_once.csrf_once",  # one token a page, not one a form
            ],
            # The partials loader lets a view render "page.html#partial-name"; it wraps the
            # cached loader, which Django resets on template changes under runserver.
            "loaders": [
                (
                    "template_partials.loader.Loader",
                    [
                        (
                            "django.template.loaders.cached.Loader",
                            [
                                "django.template.loaders.filesystem.Loader",
                                "django.template.loaders.app_directories.Loader",
                            ],
                        )
                    ],
                )
            ],
            # {% partialdef %}, {% partial %} and {% fixed %} (tongits_site/fixed.py) without a
            # {% load %} in every template.
            "builtins": ["template_partials.templatetags.partials", "tongits_site.fixed"],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=0,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The dev server's threads, its clock and racing tests all write: take the write lock
    # when a transaction starts (no deadlock upgrading a read lock) and wait for it.
    DATABASES["default"]["OPTIONS"] = {"transaction_mode": "IMMEDIATE", "timeout": 20}
    # Tests on SQLite use a file as the site does, not Django's shared in-memory database,
    # whose table locks fail at once ("database table is locked") where the socket's
    # threads and the test's read and write together; a file's lock is waited for.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "test-db.sqlite3")}
# Threads per worker for the sockets' database work (moves, loads): round trips of many
# tables overlap instead of queueing on one thread.
TONGITS_DB_THREADS = int(os.environ.get("TONGITS_DB_THREADS", "8"))
# And for people arriving and leaving (a socket's login, presence, the talk so far), so
# that a crowd opening its sockets never queues ahead of the moves (games/play/live/db.py).
TONGITS_ARRIVAL_THREADS = int(os.environ.get("TONGITS_ARRIVAL_THREADS", "2"))
# Requests a worker lets into Django at once (tongits_site/admission.py); the rest wait
# on the event loop, let in by class (table pages, joins, other pages, polls). 0: no bound.
TONGITS_HTTP_CONCURRENCY = int(os.environ.get("TONGITS_HTTP_CONCURRENCY", "4"))
# A page's poll that would wait behind this many requests is answered "busy" at once (one
# in line, once more than this many stand ahead of it), and the page asks again
# TONGITS_POLL_BUSY_SECONDS later (0: polls always wait their turn).
TONGITS_POLL_SHED_QUEUE = int(os.environ.get("TONGITS_POLL_SHED_QUEUE", "16"))
TONGITS_POLL_BUSY_SECONDS = int(os.environ.get("TONGITS_POLL_BUSY_SECONDS", "10"))
# A page (a GET, neither a table's nor a Join) that has waited this long for the bound is
# answered "busy", and loaded again TONGITS_POLL_BUSY_SECONDS later (0: it waits on).
TONGITS_PAGE_WAIT_SECONDS = float(os.environ.get("TONGITS_PAGE_WAIT_SECONDS", "20"))
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Several Daphne workers each hold a small psycopg pool; Django requires
    # CONN_MAX_AGE=0 when pooling, since the pool, not Django, keeps connections open.
    # Each worker's sockets use TONGITS_DB_THREADS threads for moves and
    # TONGITS_ARRIVAL_THREADS for arrivals, its clock one more and the work after a move
    # one more, each holding a connection of the pool for as long as it lives
    # (games/play/live/db.py); the pages (at most TONGITS_HTTP_CONCURRENCY at once, see
    # tongits_site/admission.py) take one each while they work.
    _held = TONGITS_DB_THREADS + TONGITS_ARRIVAL_THREADS + 2 + max(1, TONGITS_HTTP_CONCURRENCY)
    DATABASES["default"]["OPTIONS"] = {
        "pool": {
            "min_size": 2,
            "max_size": int(os.environ.get("TONGITS_DB_POOL_MAX", str(_held))),
            "timeout": 20,
        }
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0

REDIS_URL = os.environ.get("REDIS_URL", "")


def _default_channel_prefix(database: dict, secret_key: str) -> str:
    # Redis pub/sub channels are server-wide: the database number in REDIS_URL does not
    # separate them. Two sites on one Redis server (production and a staging copy, or a
    # test run beside a live site) must not hear each other's events, so the default
    # prefix is named after this site's own database, and keyed by its secret: two sites
    # on two machines can both call theirs 127.0.0.1:5432/tongits.
    import hmac

    where = "|".join(str(database.get(key) or "") for key in ("HOST", "PORT", "NAME"))
    named = hmac.digest(secret_key.encode(), b"channel prefix|" + where.encode(), "sha256")
    return "tongits-" + named.hex()[:12] + "-"


# The prefix of every Redis channel and group name of this site's channel layer.
TONGITS_CHANNEL_PREFIX = os.environ.get(
    "TONGITS_CHANNEL_PREFIX", _default_channel_prefix(DATABASES["default"], SECRET_KEY)
)
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # Redis pub/sub: a group event reaches each worker once, pushed, and the worker
            # hands it to its own sockets of the game. channels_redis's list-based layer
            # takes a Redis round trip per socket per event, one at a time per worker,
            # which queued the table's updates for hundreds of milliseconds under load.
            # An event is not stored: one missed while a worker's Redis connection was
            # down is made good by the sockets' own check (games/play/live/watch.py). A worker
            # tells its own sockets of its own moves without Redis, and its subscription
            # skips them when they come back (games/play/live/layer.py).
            "BACKEND": "games.play.live.layer.EchoFreeLayer",
            "CONFIG": {
                # redis-py 8 defaults to a 5 s socket timeout, which would drop the
                # subscription connection that idly waits between moves.
                "hosts": [{"address": REDIS_URL, "socket_timeout": None}],
                "prefix": TONGITS_CHANNEL_PREFIX,
                # Every message is sealed with a key made from it: a message not sealed by
                # this site (another site on the server) is dropped (games/play/live/layer.py).
                "secret_key": SECRET_KEY,
            },
        }
    }
else:
    # One process only: fine for `make run` and tests, wrong for several workers.
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = 0.25  # hours: a 15-minute lockout
# Per username and address together, so one attacker cannot lock a player out everywhere.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# The client's address as tongits_site/client_ip.py reads it, through the trusted proxies.
AXES_CLIENT_IP_CALLABLE = "tongits_site.client_ip.client_ip"
AXES_LOCKOUT_TEMPLATE = "registration/lockout.html"

EMAIL_BACKEND = os.environ.get(
    "DJANGO_EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend"
)
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "tongits@localhost")
# SMTP, for the SMTP backend (django.core.mail.backends.smtp.EmailBackend); a provider's
# API instead through django-anymail (installed by the site, not a requirement: see
# docs/notifications.md), whose settings are JSON in DJANGO_ANYMAIL.
EMAIL_HOST = os.environ.get("DJANGO_EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("DJANGO_EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("DJANGO_EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("DJANGO_EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("DJANGO_EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("DJANGO_EMAIL_USE_SSL", False)
# A mail server that hangs must not hold the background worker for long.
EMAIL_TIMEOUT = int(os.environ.get("DJANGO_EMAIL_TIMEOUT", "20"))
ANYMAIL: dict = json.loads(os.environ.get("DJANGO_ANYMAIL", "{}"))

# English, and Filipino as players in the Philippines speak it at the table (Taglish).
# A first visit follows the browser's Accept-Language; the switch in the menu and the
# footer (Django's set_language, a cookie) overrides it, and a signed-in player's choice
# is kept in their profile (accounts.languages). The URLs are the same in both.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fil", "Filipino")]
# Our catalogue, compiled and committed (README: Languages): Django ships no Filipino, so
# it also holds Django's own strings that our pages show (tongits_site/django_strings.py).
LOCALE_PATHS = [BASE_DIR / "locale"]
# Django has no formats for Filipino: ours (dates with Filipino month names).
FORMAT_MODULE_PATH = ["tongits_site.formats"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # The manifest needs `collectstatic`, which development and tests never run.
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "tongits_site.minify.MinifiedStaticStorage"
    },
}

if DEBUG:
    # Development serves static files from the finders and never runs collectstatic, so
    # WhiteNoise's complaint about the missing STATIC_ROOT is noise.
    warnings.filterwarnings("ignore", message=f"No directory at: {re.escape(str(STATIC_ROOT))}")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"}},
    "filters": {
        "redis_hiccup": {"()": "tongits_site.log_filters.RedisHiccup"},
        "refusals_in_one_line": {"()": "tongits_site.log_filters.RefusalsInOneLine"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "plain",
            # On the handler, not a logger: Django logs a SuspiciousOperation under a
            # logger named after its class (django.security.DisallowedHost, ...), and a
            # logger's filters do not see what its children log.
            "filters": ["refusals_in_one_line"],
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
    # Replaces Django's default "django" handlers, which would print each line a second time.
    "loggers": {
        "django": {"handlers": ["console"], "level": "INFO", "propagate": False},
        # axes announces itself at INFO on every start, which clutters command output.
        "axes": {"level": "WARNING"},
        # SQL parameters hold the deal and the seed of games still in play: never log them,
        # whatever DJANGO_LOG_LEVEL says.
        "django.db.backends": {"level": "INFO"},
        # A dropped Redis connection, which it heals by itself: one line, not a traceback.
        "channels_redis.pubsub": {"filters": ["redis_hiccup"]},
    },
}

# Background work (the coach's analyses) is queued in the database itself and run by
# ``manage.py db_worker``: no other service to run.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
# Fields of games.analysis.coach.Budget to change, as JSON (tests make the coach quick).
TONGITS_COACH_BUDGET: dict = json.loads(os.environ.get("TONGITS_COACH_BUDGET", "{}"))

# --- Tongits ---
# Seconds a person has for a turn before the server plays a safe move for them.
TONGITS_TURN_SECONDS = int(os.environ.get("TONGITS_TURN_SECONDS", "45"))
# A person's turn clock starts when their socket sends them their first board of a game,
# not at the deal (a crowd's pages take seconds to load); the server waits at most this
# many seconds from the deal for that board, then their clock runs as usual (0: from the
# deal, as before). games/play/clock.py.
TONGITS_FIRST_BOARD_GRACE = int(os.environ.get("TONGITS_FIRST_BOARD_GRACE", "30"))
# Correspondence tables (a turn of an hour or more): how many one person may sit at, and
# the days of vacation a year that pause their clocks (docs/correspondence.md).
TONGITS_CORRESPONDENCE_MAX = int(os.environ.get("TONGITS_CORRESPONDENCE_MAX", "50"))
TONGITS_VACATION_DAYS = int(os.environ.get("TONGITS_VACATION_DAYS", "14"))
# How many days a friend's challenge to a correspondence table, and a correspondence
# Rematch, wait for their answer (a live one: ten minutes, and TONGITS_REMATCH_SECONDS).
TONGITS_CORRESPONDENCE_ANSWER_DAYS = int(os.environ.get("TONGITS_CORRESPONDENCE_ANSWER_DAYS", "7"))
# A series' pause between hands: the result screen's countdown before the next deal.
TONGITS_SERIES_PAUSE_SECONDS = int(os.environ.get("TONGITS_SERIES_PAUSE_SECONDS", "20"))
# Sockets count their person as here for friends (games/social/presence.py).
TONGITS_SOCKET_PRESENCE = os.environ.get("TONGITS_SOCKET_PRESENCE", "1") != "0"
# How long a rematch waits for the other people before bots take their seats.
TONGITS_REMATCH_SECONDS = int(os.environ.get("TONGITS_REMATCH_SECONDS", "30"))
# A tournament's standings are computed at most this often in a worker (once per change,
# but changes within this many seconds are shown together; games/tournaments/standings.py).
TONGITS_STANDINGS_SECONDS = float(os.environ.get("TONGITS_STANDINGS_SECONDS", "1"))
# A bot waits this long (a range, in seconds) before it moves, so play feels human.
TONGITS_BOT_PAUSE = (
    float(os.environ.get("TONGITS_BOT_PAUSE_MIN", "0.7")),
    float(os.environ.get("TONGITS_BOT_PAUSE_MAX", "1.4")),
)
# Each ASGI worker runs the clock that plays bots and enforces turn deadlines; tests turn
# it off and drive the clock themselves.
TONGITS_CLOCK_IN_WORKERS = env_bool("TONGITS_CLOCK_IN_WORKERS", True)
# Processes per worker in which Hard bots think (games.play.live.thinking): never the worker's
# own threads, which serve the sockets.
TONGITS_THINKERS = int(os.environ.get("TONGITS_THINKERS", "2"))
# New objects between two collections of the youngest generation in an ASGI worker
# (Python's default is 700; see tongits_site/asgi.py).
TONGITS_GC_THRESHOLD = int(os.environ.get("TONGITS_GC_THRESHOLD", "10000"))

# Rate limits. A table socket may send this many frames a second, in bursts of up to
# _BURST; frames beyond are dropped (with one message), and a socket that keeps on past
# _DROPPED_MAX dropped frames in a row is closed with code 4429.
TONGITS_SOCKET_FRAMES_PER_SECOND = float(os.environ.get("TONGITS_SOCKET_FRAMES_PER_SECOND", "5"))
TONGITS_SOCKET_FRAME_BURST = int(os.environ.get("TONGITS_SOCKET_FRAME_BURST", "20"))
TONGITS_SOCKET_FRAMES_DROPPED_MAX = int(os.environ.get("TONGITS_SOCKET_FRAMES_DROPPED_MAX", "100"))
# One account makes at most this many tables a minute, and sits at most at this many
# unfinished tables when it makes another (Quick play and Play again included).
TONGITS_TABLES_PER_MINUTE = int(os.environ.get("TONGITS_TABLES_PER_MINUTE", "10"))
TONGITS_OPEN_TABLES_MAX = int(os.environ.get("TONGITS_OPEN_TABLES_MAX", "10"))
# Table talk (games/social/chat): messages one table socket may send in 10 seconds, and the
# longest free text, in characters.
TONGITS_CHAT_PER_10_SECONDS = int(os.environ.get("TONGITS_CHAT_PER_10_SECONDS", "4"))
TONGITS_CHAT_MAX_LENGTH = int(os.environ.get("TONGITS_CHAT_MAX_LENGTH", "200"))
# Play now makes a guest account for a visitor: at most this many an hour from one
# address (a school or a phone network can put many people behind one), and unclaimed
# guests are removed this many days after they were made (manage.py remove_guests).
TONGITS_GUESTS_PER_ADDRESS_PER_HOUR = int(
    os.environ.get("TONGITS_GUESTS_PER_ADDRESS_PER_HOUR", "20")
)
TONGITS_GUEST_DAYS = int(os.environ.get("TONGITS_GUEST_DAYS", "30"))
# Fair play: reports one account may send (new or repeated) in an hour.
TONGITS_REPORTS_PER_HOUR = int(os.environ.get("TONGITS_REPORTS_PER_HOUR", "5"))
# Friend requests one account may make in an hour (games/social/services.py).
TONGITS_FRIEND_REQUESTS_PER_HOUR = int(os.environ.get("TONGITS_FRIEND_REQUESTS_PER_HOUR", "20"))
# Challenges one account may send its friends in an hour (games/social/services.py).
TONGITS_CHALLENGES_PER_HOUR = int(os.environ.get("TONGITS_CHALLENGES_PER_HOUR", "30"))
# Tournaments one account may make in 24 hours, and may have not yet over at once (staff's
# are not counted; games/tournaments/services.py).
TONGITS_TOURNAMENTS_PER_DAY = int(os.environ.get("TONGITS_TOURNAMENTS_PER_DAY", "10"))
TONGITS_OPEN_TOURNAMENTS_MAX = int(os.environ.get("TONGITS_OPEN_TOURNAMENTS_MAX", "3"))

# Notifications (games/notifications, docs/notifications.md). Web Push is on when both VAPID
# keys are set (``manage.py vapid_keys`` makes a pair); the subject tells the push services
# whom to contact about the site.
TONGITS_VAPID_PUBLIC_KEY = os.environ.get("TONGITS_VAPID_PUBLIC_KEY", "")
TONGITS_VAPID_PRIVATE_KEY = os.environ.get("TONGITS_VAPID_PRIVATE_KEY", "")
TONGITS_VAPID_SUBJECT = os.environ.get("TONGITS_VAPID_SUBJECT", f"mailto:{DEFAULT_FROM_EMAIL}")
# The hosts (and their subdomains) of the push services the worker posts to: a browser's
# subscription elsewhere is refused, so nobody can aim the worker at another server.
TONGITS_PUSH_SERVICES = env_list(
    "TONGITS_PUSH_SERVICES",
    "fcm.googleapis.com,push.services.mozilla.com,notify.windows.com,push.apple.com",
)
# The site's address as people reach it, for the links in emails (a worker has no request).
TONGITS_SITE_URL = os.environ.get("TONGITS_SITE_URL", "http://127.0.0.1:8000")
# The hour of a person's own day from which their daily digest is sent (manage.py notify_hourly).
TONGITS_DIGEST_HOUR = int(os.environ.get("TONGITS_DIGEST_HOUR", "8"))
