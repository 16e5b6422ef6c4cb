"""Live play: the one writer of games in play, and what keeps a table going.

``services`` creates, joins, starts and applies moves (holding the game row's lock);
``actions`` reads a seat's form or frame into a move; ``clock`` moves for a seat whose time
ran out and for bots, and ``first_board`` holds a person's turn clock until their socket
has sent them the table; ``ratelimit`` caps how often; ``live/`` is each worker's copy of the
games in play (snapshots, the channel layer, bots thinking in processes); see docs/live.md.

May import: words, bots, engine, the models, and the sums of series and ratings (their
hooks and ``ratings.core``). Never the table's HTML, the sockets, pages or history: those
import play."""
