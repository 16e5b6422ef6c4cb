"""The site's pages: home, the lobby, a table, how to play. Each view is one service
call plus a response.

May import everything below them (history, table, play, words, the series' and ratings'
pages); only ``games.urls`` and the lobby's socket import them."""
