"""What one watcher of a table is shown, from ``seat_view`` alone: context and HTML.

``rendering`` makes the context and the parts a socket sends; ``board_html`` lists the
busiest parts, made as f-strings in ``board_felt`` (felt, status, panels), ``board_hand``
and ``board_result`` on what ``board_markup`` shares; ``story`` what the table tells of the
game so far; ``pieces`` a card's face and markup and a seat's panel; ``cards`` the card
template tags (``{% load cards %}``). A seat's hidden cards never reach here: only its view
does.

May import: play (a game's snapshot), words, engine, the models. Imported by sockets,
pages, history and the coach, never by play."""
