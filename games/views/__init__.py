"""Views: each is one service call plus a response (lobby.py, table.py)."""
