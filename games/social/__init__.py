"""Friends and chat: who a player knows, invites between friends, and a table's talk
(``chat/``, its own app "chat": presets, mutes, reports, the word filter).

May import play (to seat friends at a table), words, the models and the engine; the pages
and sockets that show it import it, never the other way."""
