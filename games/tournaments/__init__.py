"""Arena tournaments for three seats (issue 26): a tournament, its entries, its pairing pool,
its scoring and its pages.

``scoring`` and ``pairing`` are pure (no Django, no clock). ``models`` holds what no game
holds: the tournament, who entered (paused, withdrawn) and which games are its. The
standings are never stored: ``standings`` derives them from the games' results.
``services`` pairs under the tournament's row lock and makes games through
``games.play.tables``; it is driven by the server clock and by a game's end through
``games.play.hooks`` (registered in ``apps``), so play never imports it.

Built on play (it starts the tables), the models and ratings; may import history for
records. Pages and sockets import it, never the other way."""
