"""Table talk (app label ``chat``): preset phrases and emotes at every table, free text only
where every person seated is a friend of the others, the watchers' own talk, mutes,
reports, a word filter and staff silences.

Chat never carries a card: a preset is a key that each reader's socket puts into words, a
free text is a person's own words (filtered), and neither is ever made from a seat's view
of the game. The table's socket (``games.sockets.table``) hands chat frames to
``live.py``; the table page, the replay and the staff dashboard show chat through this
app's template tags. May import play (its database threads), the models and the engine;
only the sockets, the pages and the wiring import it."""
