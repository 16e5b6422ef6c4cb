"""Friends and chat (to come): who a player knows, invites between friends, a table's talk.

May import play (to seat friends at a table), words, the models and the engine; the pages
and sockets that show it import it, never the other way."""
