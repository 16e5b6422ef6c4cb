"""Ratings (issue 9): an openskill Plackett-Luce rating per person and per bot level,
moved by every finished rated game in the transaction that finishes it.

``core`` and ``models`` import only the stored game, so play may call ``core`` when a game
ends; ``pages`` sits beside the pages and draws with history's charts."""
