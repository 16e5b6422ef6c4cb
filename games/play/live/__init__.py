"""Live play: what a worker knows of each game in play, and the table's sockets.

A worker keeps one ``Snapshot`` of each game its sockets watch, loaded once per version
(``Game.rev``) and shared by all of them; each socket then renders its own seat's view.
"""
