"""The daily deal (issue 51): every day at 00:00 Manila time one deal, its seed committed in
advance, that each person plays once in seat 0 against two Normal bots; afterwards their
chips against everyone's, against par (Hard in the same seat), and a duplicate score over
their last 30 days, the measure of skill with the luck of the cards taken out.

``days`` and ``scores`` are pure (dates of Manila, the score's arithmetic). ``par`` plays
Hard through the engine alone; ``tasks`` runs it in the background (django-tasks).
``models`` holds the days and who played which; a person's game is a real Game of play
(``Game.daily``), made through ``games.play.tables`` and played on the table's page.
``services`` decides who may see what of a day (``access`` asks it for replays).

Built on play (the table), the models, the bots and the engine; imports neither history
nor the pages. Pages, the wiring and the template tags import it, never the other way."""
