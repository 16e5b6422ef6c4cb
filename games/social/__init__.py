"""Friends (issue 27): who a player knows, who of them is here, challenges between friends
and blocks (its own app, label ``social``); a table's talk in ``chat/`` (its own app
"chat": presets, mutes, reports, the word filter).

May import play (to seat friends at a table), the series' services, table (who may watch),
words, the models and the engine; the pages and sockets that show it import it, never the
other way. Nothing here holds or carries a card: a friend's presence says only where they
are (a table's number and whether it may be watched)."""
