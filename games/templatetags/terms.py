"""The ``{% load terms %}`` tag library: its tags are made in ``games.words.terms``; Django
finds libraries only in an app's templatetags/, so this module names it."""

from games.words.terms import register  # noqa: F401
