"""The table's and the lobby's WebSockets."""
