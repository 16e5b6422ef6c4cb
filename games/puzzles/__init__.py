"""Puzzles from real games (issue 51): positions of finished games where the coach found a
clear best move, kept as the seat's own view only, to be solved on a page of their own,
with a puzzle rating per person and per puzzle (openskill) so that puzzles meet people at
their level, and a streak mode.

``positions`` (a view as stored data, the theme of a decision) and ``mining`` (the coach's
two judgements of a position) are pure: no Django models, no clock. ``rating`` is the pure
openskill step. ``services`` mines finished games (only those whose people allowed it),
chooses a person's next puzzle and records an answer; ``tasks`` runs the mining in the
background (django-tasks). ``make_puzzles`` and ``make_puzzle_fixture`` are its commands.

May import: the coach (games.analysis), the table's card pieces, bots, the engine, the
stored game and accounts; nothing above it imports it but the wiring (urls, the menu).
"""
