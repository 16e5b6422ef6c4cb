"""Fair play: catching two accounts that play as one against the third.

``features.py`` (pure) reads a finished game's deal and log into evidence per pair of
seats; ``detector.py`` (pure, scipy) is the sequential test per pair; ``scoring.py`` keeps
each pair's evidence in the database, updated by a background task after every rated game
(``tasks.py``); ``views.py`` is the staff page. See docs/fair-play.md for what is measured.

Reads finished games only (never a game in play: hidden cards stay hidden until the end);
may import history, the coach and everything below; only the wiring imports it. Nothing
here is shown to players.
"""
