"""The ``{% load tournament_results %}`` tag library: its tags are made in
``games.tournaments.tags``; Django finds libraries only in an app's templatetags/, so this
module names it."""

from games.tournaments.tags import register  # noqa: F401
