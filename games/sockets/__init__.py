"""The table's and the lobby's WebSockets: frames in, each watcher's own HTML out.

``table`` turns a frame into an action for play and sends each seat its parts as the
table renders them, and hands chat frames and events to the table's talk
(``games.social.chat.live``); ``lobby`` sends the list of open tables as the lobby page
draws it.

May import: views (the lobby's list), social (table talk), table, play and what is below
them. Only
``games.routing`` imports it."""
