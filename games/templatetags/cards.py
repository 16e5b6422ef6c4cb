"""The ``{% load cards %}`` tag library: its tags are made in ``games.table.cards``; Django
finds libraries only in an app's templatetags/, so this module names it."""

from games.table.cards import register  # noqa: F401
