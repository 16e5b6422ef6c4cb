"""The ``{% load daily %}`` tag library: its tags are made in ``games.daily.tags``; Django
finds libraries only in an app's templatetags/, so this module names it."""

from games.daily.tags import register  # noqa: F401
