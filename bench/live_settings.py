"""The site's own settings for the live benchmark's workers, with one difference: static
files are collected into a scratch folder (``TONGITS_BENCH_STATIC_ROOT``), because with
``DJANGO_DEBUG=0`` the pages need the manifest of a ``collectstatic`` run and the bench
must not write into the repository."""

from __future__ import annotations

import os

from tongits_site.settings import *  # noqa: F403

STATIC_ROOT = os.environ["TONGITS_BENCH_STATIC_ROOT"]
