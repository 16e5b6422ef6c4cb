"""What the game says: the story of a game, card names, rule messages."""
