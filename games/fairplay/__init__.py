"""Fair play: catching two accounts that play as one against the third, and what the site
does about it.

``features.py`` (pure) reads a finished game's deal and log into evidence per pair of
seats; ``detector.py`` (pure, scipy) is the sequential test per pair; ``scoring.py`` keeps
each pair's evidence in the database, updated by a background task after every rated game
(``tasks.py``). ``devices.py`` keeps keyed hashes of the addresses and device cookies
accounts post from and answers play's hook on who shares one (a rated table's notice, an
arena's veto); ``reports.py`` is the players' Report; ``actions.py`` the staff's warn, void
and close, each logged; ``views.py`` the Report pages and the staff page. See
docs/fair-play.md.

Reads finished games only (never a game in play: hidden cards stay hidden until the end);
may import history, the coach, ratings and everything below; only the pages and the
wiring import it.
"""
