"""Tournaments (to come): brackets or rounds of series, their entrants, standings and prizes.

Built on play (it starts the tables) and on series/ and ratings/ (it adds up their results);
may import history for standings. Pages and sockets import it, never the other way."""
