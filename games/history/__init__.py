"""Finished games: counted, kept as records, drawn, replayed."""
