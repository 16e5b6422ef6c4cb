"""ASGI entry point: Django for HTTP, Channels for the game table's WebSockets, and the
server clock that plays bots and enforces turn deadlines (started with the process)."""

from __future__ import annotations

import gc
import os

from tongits_site import memtrace

# Opt-in (TONGITS_TRACEMALLOC=1): where this worker's memory goes, dumped on SIGUSR1.
memtrace.start_from_env()

from django.conf import settings  # noqa: E402

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tongits_site.settings")
from tongits_site.admission import get_asgi_application  # noqa: E402

# Set up Django (apps, models) before anything below imports consumers that touch models.
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from games.play.clock import ClockStarter  # noqa: E402
from games.play.live.auth import AuthMiddlewareStack  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402
from tongits_site.ws_origin import SameOriginValidator  # noqa: E402

application = ClockStarter(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            # The whole origin, scheme and port included, as CSRF checks a form's.
            "websocket": SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
        }
    )
)

# Daphne sends no lifespan events: the server clock starts when the server starts serving.
from games.play.clock import start_with_process  # noqa: E402

start_with_process()

# Everything loaded so far (Django, the apps, the routing) lives as long as the process:
# kept out of the collector's sight, a full collection no longer walks it. Measured with
# a worker of the live benchmark at 100 tables: its longest collection went from ~150 ms
# to ~50 ms and the time in full collections fell by two thirds.
gc.freeze()

# The youngest generation is collected after TONGITS_GC_THRESHOLD new objects, not
# Python's 700. A move makes thousands of small objects (boards, keys, turns); most die
# within the move, but at 700 collections came three or four times a second and caught
# each move's survivors young, so they were walked again by the middle generation's
# collections (~20 ms of CPU every 3 s) and pushed into full ones (~100 ms every 20 s or
# so): 16 ms of collecting a second in a worker at 100 tables, and most of the slowest
# moves. At 10,000 (measured the same way, gc.callbacks in the live benchmark's
# workers): 7 ms a second, young collections of ~25 ms every few seconds, the others
# rarely (README, live-play benchmark).
gc.set_threshold(settings.TONGITS_GC_THRESHOLD, *gc.get_threshold()[1:])
