"""Ratings (issue 9): an openskill Plackett-Luce rating per person and per bot level,
moved by every finished rated game in the transaction that finishes it."""
