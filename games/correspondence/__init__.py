"""Correspondence tables: games that wait days for their people (a turn of an hour, 12
hours, a day or 3 days, ``games.models.CORRESPONDENCE_TURNS``), many at once per person.

Moves are exactly as live (play's one writer, the same engine and log); this package adds
what waiting needs: the "Your turn" page and the badge on every page (``listing``),
vacations that pause a person's clocks (``vacations``), and the hooks that tell a person
their turn came (``games.notifications.events.your_turn``) and hold the clock's move for
someone on vacation (``games.play.hooks.on_move``, ``on_due``, registered in ``apps``).

Imports: play, notifications, models; imported by the wiring and the pages only.
See docs/correspondence.md.
"""
