"""Finished games: counted (``stats``), kept and checked as records (``records``,
``uploads``), drawn (``charts``), and shown: a player's games, the leaderboard
(``views``), a replay step by step (``replays``), the staff dashboard (``dashboard``).

May import: the coach (its panel on the replay page), table (card faces), play, words,
engine, the models, and the series' and ratings' pages and records. Imported by pages and
the wiring only. Who may see a game's whole record is decided in ``games.access``."""
