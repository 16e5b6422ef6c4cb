"""Series tables (issue 9): the same three seats play hand after hand with a pot.

Every hand is a game of its own (record, replay, seed commitment); a ``Hand`` row links it
to its ``Series``. The pot and the standings are never stored: ``ledger`` derives them
from the hands' results, which are the games' move logs replayed.

Its sums (``models``, ``ledger``, ``record``, ``hooks``) import only the models and the
engine, so play may call ``hooks``; its ``services``, ``records``, ``pages`` and ``views``
sit above play and history's records, beside the pages."""
