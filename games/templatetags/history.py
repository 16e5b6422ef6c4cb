"""The ``{% load history %}`` tag library: its tags are made in ``games.history.tags``; Django
finds libraries only in an app's templatetags/, so this module names it."""

from games.history.tags import register  # noqa: F401
