"""Live play: what a worker knows of each game in play, for the table's sockets.

A worker keeps one ``Snapshot`` of each game its sockets watch, loaded once per version
(``Game.rev``) and shared by all of them; each socket then renders its own seat's view.

May import: the models, engine, bots and words (the story); never the table's HTML.
The design and its figures are in docs/live.md.
"""
