"""The site's own settings for the live benchmark's workers, with two differences that
keep a bench run to itself:

- static files are collected into a scratch folder (``TONGITS_BENCH_STATIC_ROOT``):
  with ``DJANGO_DEBUG=0`` the pages need the manifest of a ``collectstatic`` run, and the
  bench must not write into the repository;
- the Redis channel layer's keys get a prefix of the run's own
  (``TONGITS_BENCH_CHANNEL_PREFIX``): every bench database numbers its games from 1, so
  two runs sharing a Redis database would otherwise hear each other's "game-1" events.
"""

from __future__ import annotations

import os

from tongits_site.settings import *  # noqa: F403
from tongits_site.settings import CHANNEL_LAYERS

STATIC_ROOT = os.environ["TONGITS_BENCH_STATIC_ROOT"]

if "CONFIG" in CHANNEL_LAYERS["default"]:
    CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = os.environ["TONGITS_BENCH_CHANNEL_PREFIX"]
