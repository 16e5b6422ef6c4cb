"""The coach: post-game analysis of every move each person made, from what they knew then.

``coach`` judges one move from a seat's view (pure, no Django); ``analysis`` runs it over
a finished game in a background task (django-tasks with its database backend) and stores
the verdicts; ``views`` show them on the replay page.

May import: the table's story, bots, words, engine, the models and ``games.access``;
imported by history (the replay page's coach) and the wiring.
"""
