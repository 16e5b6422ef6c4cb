"""Live play: the one writer of games in play, and what keeps a table going.

``moves`` is the one writer of moves (``submit_move``; ``server_moves`` makes the bots'
and away seats' through it); ``tables`` makes tables and seats people, ``dealing`` deals
them, ``after_game`` makes Play again and rematch tables, ``aborts`` ends a game without a
result; each holds the game row's lock the same way. ``telling`` tells sockets after the
commit, ``errors`` holds what a refused request raises. ``actions`` reads a seat's form or
frame into a move; ``clock`` moves for a seat whose time ran out and for bots;
``ratelimit`` caps how often; ``live/`` is each worker's copy of the games in play
(snapshots, the channel layer, bots thinking in processes); see docs/live.md.

May import: words, bots, engine, the models, and the sums of series and ratings (their
hooks and ``ratings.core``). Never the table's HTML, the sockets, pages or history: those
import play."""
