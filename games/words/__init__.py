"""What the game says, in the reader's language: the story of a game move by move
(``narration``), card names, why a move is refused (``rule_messages``), the game's terms
with their explanations (``terms``), and the check that outside text can be stored (``text``).

Below play, which tells the story and refuses moves in these words. May import: engine
and Django's translation and HTML helpers; nothing else of games."""
